//! The service's JWTs, all ES256 with one signing key: access tokens (naming the
//! user, app and service session) and identity tokens of e-mail users (naming the
//! identity, app and identity session). Each purpose has its own audience, so one
//! kind can never pass for another.
//!
//! An access token also carries `mac`, an HMAC-SHA256 of its claims under a key
//! derived from the signing key's private half. Anyone may check the ES256
//! signature against the JWKS; the service, which holds the private key, checks
//! the MAC instead: 2-4 µs where a P-256 verification costs 58-73 µs on one of
//! this machine's cores (the scale bench prints both), a third of a cold read. Whoever could forge the
//! MAC holds the private key and could sign anyway, so nothing is weaker. A token
//! without `mac` (minted before it existed) is checked by its signature.

use base64::Engine as _;
use hmac::Mac as _;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use p256::SecretKey;
use p256::pkcs8::{DecodePrivateKey, EncodePublicKey, LineEnding};
use serde::{Deserialize, Serialize};

mod keys;
#[cfg(test)]
mod tests;

pub use keys::{PUBLISH_BEFORE_SIGNING, RELOAD_EVERY, reload_forever};

use crate::clock::now;
use crate::error::ApiError;

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

/// An access token's payload: the claims and the service's own check of them.
#[derive(Serialize, Deserialize)]
struct AccessPayload {
    #[serde(flatten)]
    claims: AccessClaims,
    /// base64url HMAC-SHA256 ([`KeyPair::access_mac`]); absent in tokens minted
    /// before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mac: Option<String>,
}

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// What an access token's MAC covers: every claim and the key's id, each
/// length-prefixed so no two claim sets give the same bytes.
fn access_mac(key: &[u8; 32], kid: &str, claims: &AccessClaims) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes any key length");
    for text in [
        kid,
        &claims.iss,
        &claims.aud,
        &claims.sub,
        &claims.app,
        &claims.sid,
    ] {
        mac.update(&(text.len() as u64).to_be_bytes());
        mac.update(text.as_bytes());
    }
    mac.update(&claims.iat.to_be_bytes());
    mac.update(&claims.exp.to_be_bytes());
    mac
}

/// The service's signing keys, shared by all instances through the database,
/// sealed there under a key from `pin_secret`. The newest active key signs;
/// every key that may still have live tokens verifies (chosen by the token's
/// `kid`), and all of them are in the JWKS.
pub struct SigningKeys {
    issuer: String,
    access: Validation,
    identity: Validation,
    keys: parking_lot::RwLock<KeySet>,
}

/// One ES256 key pair, and the MAC key of the access tokens it signs.
struct KeyPair {
    kid: String,
    public: p256::PublicKey,
    encoding: EncodingKey,
    decoding: DecodingKey,
    /// HKDF-SHA256 of the private scalar: every instance that opens the key
    /// derives the same one, and it goes when the key goes.
    access_mac: [u8; 32],
}

impl KeyPair {
    fn from_pem(kid: String, pem: &str) -> anyhow::Result<Self> {
        let secret = SecretKey::from_pkcs8_pem(pem)?;
        let public = secret.public_key();
        let public_pem = public.to_public_key_pem(LineEnding::LF)?;
        let mut access_mac = [0u8; 32];
        hkdf::Hkdf::<sha2::Sha256>::new(None, &secret.to_bytes())
            .expand(b"satchel access-token mac v1", &mut access_mac)
            .map_err(|_| anyhow::anyhow!("HKDF output length"))?;
        Ok(Self {
            kid,
            public,
            encoding: EncodingKey::from_ec_pem(pem.as_bytes())?,
            decoding: DecodingKey::from_ec_pem(public_pem.as_bytes())?,
            access_mac,
        })
    }
}

/// The key that signs and the keys that verify.
struct KeySet {
    signing: std::sync::Arc<KeyPair>,
    verifying: Vec<std::sync::Arc<KeyPair>>,
}

impl std::fmt::Debug for SigningKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let keys = self.keys.read();
        f.debug_struct("SigningKeys")
            .field("signing", &keys.signing.kid)
            .field(
                "verifying",
                &keys.verifying.iter().map(|k| &k.kid).collect::<Vec<_>>(),
            )
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

impl TokenKind {
    /// 401 for a token that failed its signature, audience or expiry check.
    pub fn refused(self, error: TokenError) -> ApiError {
        match (error, self.renewal()) {
            (TokenError::Expired, Some(renewal)) => {
                ApiError::invalid_token(format!("the {} has expired; {renewal}", self.name()))
            }
            _ => ApiError::invalid_token(format!("the {} is not valid", self.name())),
        }
    }

    /// 401 for a token that is valid, but for another app than the caller's.
    pub fn foreign(self) -> ApiError {
        ApiError::invalid_token(format!("the {} was issued for another app", self.name()))
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
    #[cfg(test)]
    fn from_pem(kid: String, pem: &str, issuer: &str) -> anyhow::Result<Self> {
        let pair = std::sync::Arc::new(KeyPair::from_pem(kid, pem)?);
        Ok(Self::with_keys(
            issuer,
            KeySet {
                signing: pair.clone(),
                verifying: vec![pair],
            },
        ))
    }

    fn with_keys(issuer: &str, keys: KeySet) -> Self {
        let validation = |audience: &str| {
            let mut v = Validation::new(Algorithm::ES256);
            v.set_audience(&[audience]);
            v.set_issuer(&[issuer]);
            v.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
            v.leeway = 5;
            v
        };
        Self {
            issuer: issuer.to_owned(),
            access: validation(ACCESS_AUDIENCE),
            identity: validation(IDENTITY_AUDIENCE),
            keys: parking_lot::RwLock::new(keys),
        }
    }

    fn mint<C: Serialize>(&self, claims: &C) -> anyhow::Result<String> {
        let signing = self.keys.read().signing.clone();
        sign(&signing, claims)
    }

    /// The key a token names; a token naming none, or a key this service does
    /// not have (any more), is invalid.
    fn key_of(&self, token: &str) -> Result<std::sync::Arc<KeyPair>, TokenError> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| TokenError::Invalid)?;
        if header.alg != Algorithm::ES256 {
            return Err(TokenError::Invalid);
        }
        let kid = header.kid.ok_or(TokenError::Invalid)?;
        self.keys
            .read()
            .verifying
            .iter()
            .find(|k| k.kid == kid)
            .cloned()
            .ok_or(TokenError::Invalid)
    }

    fn verify<C: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        validation: &Validation,
    ) -> Result<C, TokenError> {
        let key = self.key_of(token)?;
        verify_signature(&key, token, validation)
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
        let signing = self.keys.read().signing.clone();
        let mac = access_mac(&signing.access_mac, &signing.kid, &claims);
        let mac =
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
        sign(
            &signing,
            &AccessPayload {
                claims,
                mac: Some(mac),
            },
        )
    }

    /// Checks an access token's MAC (or, in a token without one, its
    /// signature), issuer, audience and expiry.
    pub fn verify_access(&self, token: &str) -> Result<AccessClaims, TokenError> {
        let key = self.key_of(token)?;
        let mut parts = token.split('.');
        let (Some(_), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(TokenError::Invalid);
        };
        // The MAC stands for the signature here, so only its form is checked: an
        // ES256 signature is 64 bytes. A holder who alters it gains nothing (an
        // ECDSA signature was never unique: (r, n - s) verifies as well).
        if base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(signature)
            .map_or(true, |bytes| bytes.len() != 64)
        {
            return Err(TokenError::Invalid);
        }
        let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .map_err(|_| TokenError::Invalid)?;
        let AccessPayload { claims, mac } =
            serde_json::from_slice(&payload).map_err(|_| TokenError::Invalid)?;
        let Some(mac) = mac else {
            return verify_signature(&key, token, &self.access);
        };
        let mac = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(mac)
            .map_err(|_| TokenError::Invalid)?;
        // `verify_slice` compares in constant time.
        access_mac(&key.access_mac, &key.kid, &claims)
            .verify_slice(&mac)
            .map_err(|_| TokenError::Invalid)?;
        // What `Validation` checks beside the signature, with its leeway.
        if claims.iss != self.issuer || claims.aud != ACCESS_AUDIENCE {
            return Err(TokenError::Invalid);
        }
        if claims.exp < now() - self.access.leeway as i64 {
            return Err(TokenError::Expired);
        }
        Ok(claims)
    }

    /// Checks an access token as anyone with the JWKS does: by its ES256
    /// signature (the MAC is ignored). The service itself uses
    /// [`Self::verify_access`]; this is the benchmark's yardstick for it.
    pub fn verify_access_signature(&self, token: &str) -> Result<AccessClaims, TokenError> {
        self.verify(token, &self.access)
    }

    /// Mints an identity token for an identity session; `provider` is the login's
    /// (`email`, an OAuth provider, or `external_token`).
    #[allow(clippy::too_many_arguments)]
    pub fn mint_identity(
        &self,
        identity_id: &str,
        app_id: &str,
        session_id: &str,
        email: &str,
        email_verified: bool,
        provider: &str,
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
            provider: provider.to_owned(),
            iat,
            exp: iat + ttl_secs,
        })
    }

    /// Checks an identity token's signature, issuer, audience and expiry.
    pub fn verify_identity(&self, token: &str) -> Result<IdentityClaims, TokenError> {
        self.verify(token, &self.identity)
    }

    /// The public keys as a JSON Web Key Set, for anyone checking identity
    /// tokens: every key that verifies, so a rotated key is known before it signs.
    pub fn jwks(&self) -> serde_json::Value {
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        let b64 = |bytes: Option<&p256::FieldBytes>| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(bytes.map(|b| &b[..]).unwrap_or_default())
        };
        let keys: Vec<serde_json::Value> = self
            .keys
            .read()
            .verifying
            .iter()
            .map(|key| {
                let point = key.public.to_encoded_point(false);
                serde_json::json!({
                    "kty": "EC",
                    "crv": "P-256",
                    "alg": "ES256",
                    "use": "sig",
                    "kid": key.kid,
                    "x": b64(point.x()),
                    "y": b64(point.y()),
                })
            })
            .collect();
        serde_json::json!({ "keys": keys })
    }
}

fn sign<C: Serialize>(key: &KeyPair, claims: &C) -> anyhow::Result<String> {
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some(key.kid.clone());
    Ok(jsonwebtoken::encode(&header, claims, &key.encoding)?)
}

fn verify_signature<C: serde::de::DeserializeOwned>(
    key: &KeyPair,
    token: &str,
    validation: &Validation,
) -> Result<C, TokenError> {
    jsonwebtoken::decode::<C>(token, &key.decoding, validation)
        .map(|data| data.claims)
        .map_err(|e| match e.kind() {
            jsonwebtoken::errors::ErrorKind::ExpiredSignature => TokenError::Expired,
            _ => TokenError::Invalid,
        })
}
