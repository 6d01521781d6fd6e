//! Service access tokens: short-lived ES256 JWTs naming the user, the app and the
//! session. Each token purpose has its own audience, so one kind can never pass
//! for another.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use p256::SecretKey;
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey, EncodePublicKey, LineEnding};
use serde::{Deserialize, Serialize};

use crate::db::{Db, DbResult, new_id, now};

/// Audience of service access tokens.
pub const ACCESS_AUDIENCE: &str = "satchel:access";

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
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl std::fmt::Debug for SigningKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKeys")
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, thiserror::Error)]
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
        let public_pem = secret.public_key().to_public_key_pem(LineEnding::LF)?;
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_audience(&[ACCESS_AUDIENCE]);
        validation.set_issuer(&[issuer]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        Ok(Self {
            kid,
            issuer: issuer.to_owned(),
            encoding: EncodingKey::from_ec_pem(pem.as_bytes())?,
            decoding: DecodingKey::from_ec_pem(public_pem.as_bytes())?,
            validation,
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
        let claims = AccessClaims {
            iss: self.issuer.clone(),
            aud: ACCESS_AUDIENCE.to_owned(),
            sub: user_id.to_owned(),
            app: app_id.to_owned(),
            sid: session_id.to_owned(),
            iat,
            exp: iat + ttl_secs,
        };
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.kid.clone());
        Ok(jsonwebtoken::encode(&header, &claims, &self.encoding)?)
    }

    /// Checks signature, issuer, audience and expiry.
    pub fn verify_access(&self, token: &str) -> Result<AccessClaims, TokenError> {
        jsonwebtoken::decode::<AccessClaims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|e| match e.kind() {
                jsonwebtoken::errors::ErrorKind::ExpiredSignature => TokenError::Expired,
                _ => TokenError::Invalid,
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
