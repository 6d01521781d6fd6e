//! The service's JWTs, all ES256 with one signing key: access tokens (naming the
//! user, app and service session) and identity tokens of e-mail users (naming the
//! identity, app and identity session). Each purpose has its own audience, so one
//! kind can never pass for another.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use p256::SecretKey;
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey, EncodePublicKey, LineEnding};
use serde::{Deserialize, Serialize};

use crate::db::{Db, DbResult, new_id};
use crate::now;

/// Audience of service access tokens.
pub const ACCESS_AUDIENCE: &str = "satchel:access";
/// Audience of identity tokens the service issues as an identity provider.
pub const IDENTITY_AUDIENCE: &str = "satchel:identity";

/// What an identity token says.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct IdentityClaims {
    pub iss: String,
    pub aud: String,
    /// The identity (an e-mail identity's id).
    pub sub: String,
    pub app: String,
    /// The identity session the token was issued for.
    pub sid: String,
    pub email: String,
    pub email_verified: bool,
    pub provider: String,
    pub iat: i64,
    pub exp: i64,
}

/// What an access token says.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct AccessClaims {
    pub iss: String,
    pub aud: String,
    /// The user.
    pub sub: String,
    /// The app the user belongs to.
    pub app: String,
    /// The session the token was issued for.
    pub sid: String,
    pub iat: i64,
    pub exp: i64,
}

/// The service's signing key, shared by all instances through the database.
pub struct SigningKeys {
    kid: String,
    issuer: String,
    public: p256::PublicKey,
    encoding: EncodingKey,
    decoding: DecodingKey,
    access: Validation,
    identity: Validation,
}

impl std::fmt::Debug for SigningKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKeys")
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

/// The service's three kinds of token, as errors name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A service access token (JWT, `satchel:access`).
    Access,
    /// An identity token of an e-mail user (JWT, `satchel:identity`).
    Identity,
    /// An opaque refresh token of either kind of session.
    Refresh,
}

impl TokenKind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Access => "access token",
            Self::Identity => "identity token",
            Self::Refresh => "refresh token",
        }
    }

    /// What a client does when this kind of token has expired; refresh tokens
    /// have no renewal (an expired one is simply not valid).
    pub fn renewal(self) -> Option<&'static str> {
        match self {
            Self::Access => Some("renew it"),
            Self::Identity => Some("refresh it"),
            Self::Refresh => None,
        }
    }
}

#[derive(Debug, Clone, Copy, thiserror::Error)]
pub enum TokenError {
    #[error("the token has expired")]
    Expired,
    #[error("the token is not a valid service token")]
    Invalid,
}

impl SigningKeys {
    /// Loads the newest signing key, creating one on first start. Two instances
    /// starting at once both insert; both then read the same newest row.
    pub async fn load_or_create(db: &Db, issuer: &str) -> anyhow::Result<Self> {
        let existing = newest_key(db).await?;
        let (kid, pem) = match existing {
            Some(found) => found,
            None => {
                let secret = SecretKey::random(&mut rand::rngs::OsRng);
                let pem = secret.to_pkcs8_pem(LineEnding::LF)?.to_string();
                sqlx::query(
                    "INSERT INTO signing_keys (kid, private_pem, created_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (kid) DO NOTHING",
                )
                .bind(new_id())
                .bind(&pem)
                .bind(now())
                .execute(db.pool())
                .await?;
                newest_key(db)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("signing key vanished after insert"))?
            }
        };
        Self::from_pem(kid, &pem, issuer)
    }

    fn from_pem(kid: String, pem: &str, issuer: &str) -> anyhow::Result<Self> {
        let secret = SecretKey::from_pkcs8_pem(pem)?;
        let public = secret.public_key();
        let public_pem = public.to_public_key_pem(LineEnding::LF)?;
        let validation = |audience: &str| {
            let mut v = Validation::new(Algorithm::ES256);
            v.set_audience(&[audience]);
            v.set_issuer(&[issuer]);
            v.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
            v.leeway = 5;
            v
        };
        Ok(Self {
            kid,
            issuer: issuer.to_owned(),
            public,
            encoding: EncodingKey::from_ec_pem(pem.as_bytes())?,
            decoding: DecodingKey::from_ec_pem(public_pem.as_bytes())?,
            access: validation(ACCESS_AUDIENCE),
            identity: validation(IDENTITY_AUDIENCE),
        })
    }

    fn mint<C: Serialize>(&self, claims: &C) -> anyhow::Result<String> {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.kid.clone());
        Ok(jsonwebtoken::encode(&header, claims, &self.encoding)?)
    }

    fn verify<C: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        validation: &Validation,
    ) -> Result<C, TokenError> {
        jsonwebtoken::decode::<C>(token, &self.decoding, validation)
            .map(|data| data.claims)
            .map_err(|e| match e.kind() {
                jsonwebtoken::errors::ErrorKind::ExpiredSignature => TokenError::Expired,
                _ => TokenError::Invalid,
            })
    }

    /// Mints an access token for a session.
    pub fn mint_access(
        &self,
        user_id: &str,
        app_id: &str,
        session_id: &str,
        ttl_secs: i64,
    ) -> anyhow::Result<String> {
        let iat = now();
        self.mint(&AccessClaims {
            iss: self.issuer.clone(),
            aud: ACCESS_AUDIENCE.to_owned(),
            sub: user_id.to_owned(),
            app: app_id.to_owned(),
            sid: session_id.to_owned(),
            iat,
            exp: iat + ttl_secs,
        })
    }

    /// Checks an access token's signature, issuer, audience and expiry.
    pub fn verify_access(&self, token: &str) -> Result<AccessClaims, TokenError> {
        self.verify(token, &self.access)
    }

    /// Mints an identity token for an e-mail identity's session.
    pub fn mint_identity(
        &self,
        identity_id: &str,
        app_id: &str,
        session_id: &str,
        email: &str,
        email_verified: bool,
        ttl_secs: i64,
    ) -> anyhow::Result<String> {
        let iat = now();
        self.mint(&IdentityClaims {
            iss: self.issuer.clone(),
            aud: IDENTITY_AUDIENCE.to_owned(),
            sub: identity_id.to_owned(),
            app: app_id.to_owned(),
            sid: session_id.to_owned(),
            email: email.to_owned(),
            email_verified,
            provider: "email".to_owned(),
            iat,
            exp: iat + ttl_secs,
        })
    }

    /// Checks an identity token's signature, issuer, audience and expiry.
    pub fn verify_identity(&self, token: &str) -> Result<IdentityClaims, TokenError> {
        self.verify(token, &self.identity)
    }

    /// The public key as a JSON Web Key Set, for anyone checking identity tokens.
    pub fn jwks(&self) -> serde_json::Value {
        use base64::Engine as _;
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        let point = self.public.to_encoded_point(false);
        let b64 = |bytes: Option<&p256::FieldBytes>| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(bytes.map(|b| &b[..]).unwrap_or_default())
        };
        serde_json::json!({
            "keys": [{
                "kty": "EC",
                "crv": "P-256",
                "alg": "ES256",
                "use": "sig",
                "kid": self.kid,
                "x": b64(point.x()),
                "y": b64(point.y()),
            }]
        })
    }
}

async fn newest_key(db: &Db) -> DbResult<Option<(String, String)>> {
    Ok(sqlx::query_as(
        "SELECT kid, private_pem FROM signing_keys ORDER BY created_at DESC, kid DESC LIMIT 1",
    )
    .fetch_optional(db.pool())
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(issuer: &str) -> SigningKeys {
        let secret = SecretKey::random(&mut rand::rngs::OsRng);
        let pem = secret
            .to_pkcs8_pem(LineEnding::LF)
            .expect("pem")
            .to_string();
        SigningKeys::from_pem("k1".into(), &pem, issuer).expect("keys")
    }

    #[test]
    fn a_minted_token_verifies_and_names_user_app_and_session() {
        let keys = keys("http://svc/");
        let token = keys.mint_access("u1", "a1", "s1", 60).expect("mint");
        let claims = keys.verify_access(&token).expect("valid");
        assert_eq!(
            (
                claims.sub.as_str(),
                claims.app.as_str(),
                claims.sid.as_str()
            ),
            ("u1", "a1", "s1")
        );
    }

    #[test]
    fn an_identity_token_never_passes_for_an_access_token_or_back() {
        let keys = keys("http://svc/");
        let identity = keys
            .mint_identity("i1", "a1", "s1", "a@b.co", true, 60)
            .expect("mint");
        assert_eq!(
            keys.verify_identity(&identity).expect("valid").email,
            "a@b.co"
        );
        assert!(keys.verify_access(&identity).is_err());
        let access = keys.mint_access("u1", "a1", "s1", 60).expect("mint");
        assert!(keys.verify_identity(&access).is_err());
    }

    #[test]
    fn the_jwks_publishes_the_public_point() {
        let jwks = keys("http://svc/").jwks();
        let key = &jwks["keys"][0];
        assert_eq!(key["kid"], "k1");
        assert_eq!(key["x"].as_str().map(str::len), Some(43));
        assert_eq!(key["y"].as_str().map(str::len), Some(43));
    }

    #[test]
    fn expired_foreign_and_tampered_tokens_are_refused() {
        let keys = keys("http://svc/");
        let expired = keys.mint_access("u1", "a1", "s1", -60).expect("mint");
        assert!(matches!(
            keys.verify_access(&expired),
            Err(TokenError::Expired)
        ));
        let foreign = self::keys("http://svc/")
            .mint_access("u1", "a1", "s1", 60)
            .expect("mint");
        assert!(matches!(
            keys.verify_access(&foreign),
            Err(TokenError::Invalid)
        ));
        let other_issuer = self::keys("http://elsewhere/");
        let token = keys.mint_access("u1", "a1", "s1", 60).expect("mint");
        assert!(other_issuer.verify_access(&token).is_err());
        let mut tampered = token.into_bytes();
        let middle = tampered.len() / 2;
        tampered[middle] = if tampered[middle] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(tampered).expect("ascii");
        assert!(keys.verify_access(&tampered).is_err());
    }
}
