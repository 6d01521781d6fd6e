//! Talking to identity providers: the code exchange at a token endpoint, a
//! userinfo call, and checking a JWT against an issuer's keys (JWKS).
//!
//! The endpoints are the operator's configuration, not a caller's choice, but
//! what they answer is hostile like anything from outside: bodies are capped,
//! every call has a timeout, redirects are not followed, and a JWKS is fetched
//! again for an unknown `kid` at most once per [`JWKS_REFETCH_AFTER`] (a flood of
//! tokens with made-up kids cannot make the service flood the provider).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use satchel_api::{RestErrorCode, ServiceErrorCode};
use serde_json::Value;

use crate::error::ApiError;

mod person;

pub use person::{Person, person_from_claims, person_from_userinfo};

/// The most a provider's answer may be.
const MAX_BODY: usize = 256 * 1024;
/// How long one call to a provider may take.
const TIMEOUT: Duration = Duration::from_secs(10);
/// How long a fetched key set is used.
const JWKS_TTL: Duration = Duration::from_secs(10 * 60);
/// The soonest a key set is fetched again because a token named an unknown key.
pub const JWKS_REFETCH_AFTER: Duration = Duration::from_secs(30);
/// The most key sets kept (one per configured issuer; bounded all the same).
const JWKS_CACHE_ENTRIES: u64 = 256;
/// Clock skew allowed on `exp`, `nbf` and `iat`.
const LEEWAY_SECS: u64 = 60;

/// The HTTP client and key-set cache for providers, shared by the service.
#[derive(Clone)]
pub struct Providers {
    http: reqwest::Client,
    jwks: moka::sync::Cache<String, Arc<KeySet>>,
}

struct KeySet {
    keys: Vec<Jwk>,
    fetched: Instant,
}

impl std::fmt::Debug for Providers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Providers").finish_non_exhaustive()
    }
}

impl Default for Providers {
    fn default() -> Self {
        Self::new()
    }
}

/// What an identity provider's answer came to, when it was not a person.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// The provider did not answer usefully (down, too large, not JSON...).
    #[error("the identity provider did not answer ({0}); try again later")]
    Unavailable(&'static str),
    /// The provider refused this app's client id or secret: the operator's to fix.
    #[error(
        "the provider refused this app's client id or secret; the app's OAuth settings need fixing"
    )]
    Misconfigured,
    /// The code or token is not good (expired, forged, someone else's...).
    #[error("{0}")]
    Refused(String),
}

fn unavailable(what: &'static str) -> ProviderError {
    ProviderError::Unavailable(what)
}

fn refused(message: impl Into<String>) -> ProviderError {
    ProviderError::Refused(message.into())
}

/// A refusal is the caller's token (401 `InvalidToken`); the rest is upstream (502).
impl From<ProviderError> for ApiError {
    fn from(e: ProviderError) -> Self {
        let message = e.to_string();
        match e {
            ProviderError::Refused(_) => Self::new(
                StatusCode::UNAUTHORIZED,
                ServiceErrorCode::InvalidToken,
                message,
            ),
            ProviderError::Unavailable(_) | ProviderError::Misconfigured => Self::new(
                StatusCode::BAD_GATEWAY,
                RestErrorCode::UpstreamUnavailable,
                message,
            ),
        }
    }
}

impl Providers {
    pub fn new() -> Self {
        #[allow(clippy::expect_used)] // only fails without a TLS backend, which is compiled in
        let http = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .connect_timeout(TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .build()
            .expect("an HTTP client");
        Self {
            http,
            jwks: moka::sync::Cache::builder()
                .max_capacity(JWKS_CACHE_ENTRIES)
                .time_to_live(JWKS_TTL)
                .build(),
        }
    }

    /// Reads a JSON answer of at most [`MAX_BODY`] bytes.
    async fn json(
        response: reqwest::Response,
        what: &'static str,
    ) -> Result<(StatusCode, Value), ProviderError> {
        let status =
            StatusCode::from_u16(response.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
        if response
            .content_length()
            .is_some_and(|n| n > MAX_BODY as u64)
        {
            return Err(unavailable(what));
        }
        let mut response = response;
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|_| unavailable(what))? {
            if body.len() + chunk.len() > MAX_BODY {
                return Err(unavailable(what));
            }
            body.extend_from_slice(&chunk);
        }
        let value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        Ok((status, value))
    }

    /// Exchanges an authorization code (with its PKCE verifier) at a token
    /// endpoint, authenticating as the app's client (HTTP Basic). Returns the
    /// token response.
    pub async fn exchange_code(
        &self,
        token_url: &str,
        client_id: &str,
        client_secret: &str,
        code: &str,
        code_verifier: &str,
        redirect_uri: &str,
    ) -> Result<Value, ProviderError> {
        let encode = |s: &str| {
            percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
        };
        let response = self
            .http
            .post(token_url)
            // RFC 6749 §2.3.1: the client id and secret form-encoded, then Basic.
            .basic_auth(encode(client_id), Some(encode(client_secret)))
            .header("accept", "application/json")
            .form(&[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("redirect_uri", redirect_uri),
                ("code_verifier", code_verifier),
            ])
            .send()
            .await
            .map_err(|_| unavailable("token endpoint"))?;
        let (status, body) = Self::json(response, "token endpoint").await?;
        if status.is_success() {
            return Ok(body);
        }
        let error = body.get("error").and_then(Value::as_str).unwrap_or("");
        match error {
            "invalid_grant" => Err(refused(
                "the provider refused the code: it was used already, has expired, or was not \
                 issued to this login (invalid_grant)",
            )),
            "invalid_client" | "unauthorized_client" => Err(ProviderError::Misconfigured),
            _ if status.is_client_error() => Err(refused(format!(
                "the provider refused the code ({})",
                short(error)
            ))),
            _ => Err(unavailable("token endpoint")),
        }
    }

    /// Asks a userinfo endpoint who an access token belongs to.
    pub async fn userinfo(
        &self,
        userinfo_url: &str,
        access_token: &str,
    ) -> Result<Person, ProviderError> {
        let response = self
            .http
            .get(userinfo_url)
            .bearer_auth(access_token)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|_| unavailable("userinfo endpoint"))?;
        let (status, body) = Self::json(response, "userinfo endpoint").await?;
        if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
            return Err(refused(
                "the provider does not accept this access token (expired or revoked)",
            ));
        }
        if !status.is_success() {
            return Err(unavailable("userinfo endpoint"));
        }
        person_from_userinfo(&body)
            .ok_or_else(|| refused("the provider's answer names no person for this token"))
    }

    /// Checks a JWT: signed by a key of `jwks_url` (by `kid`; RSA, EC or Ed25519,
    /// never a shared secret), issued by `issuer`, for `audience`, not expired.
    /// Returns its claims.
    pub async fn verify_jwt(
        &self,
        token: &str,
        jwks_url: &str,
        issuer: &str,
        audience: &str,
    ) -> Result<Value, ProviderError> {
        let header =
            jsonwebtoken::decode_header(token).map_err(|_| refused("the token is not a JWT"))?;
        let kid = header
            .kid
            .clone()
            .ok_or_else(|| refused("the token names no signing key (kid)"))?;
        let jwk = self.key(jwks_url, &kid).await?.ok_or_else(|| {
            refused("the token is signed with a key its issuer does not publish (unknown kid)")
        })?;
        let algorithm = algorithm_for(&jwk, header.alg)
            .ok_or_else(|| refused("the token's algorithm does not fit its key"))?;
        let key =
            DecodingKey::from_jwk(&jwk).map_err(|_| refused("the issuer's key is unusable"))?;
        let mut validation = Validation::new(algorithm);
        validation.leeway = LEEWAY_SECS;
        validation.set_issuer(&[issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.validate_nbf = true;
        let data = jsonwebtoken::decode::<Value>(token, &key, &validation).map_err(|e| {
            use jsonwebtoken::errors::ErrorKind;
            refused(match e.kind() {
                ErrorKind::ExpiredSignature => "the token has expired",
                ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)",
                ErrorKind::InvalidIssuer => "the token was issued by another issuer",
                ErrorKind::InvalidAudience => "the token was issued for another audience",
                ErrorKind::InvalidSignature => "the token's signature does not verify",
                ErrorKind::MissingRequiredClaim(_) => "the token lacks exp, iss, aud or sub",
                _ => "the token is not valid",
            })
        })?;
        Ok(data.claims)
    }

    /// The key `kid` of a key set, fetching the set when it is not cached, or
    /// again when it lacks `kid` and was fetched long enough ago.
    async fn key(&self, jwks_url: &str, kid: &str) -> Result<Option<Jwk>, ProviderError> {
        let find = |set: &KeySet| {
            set.keys
                .iter()
                .find(|k| k.common.key_id.as_deref() == Some(kid))
                .cloned()
        };
        if let Some(set) = self.jwks.get(jwks_url) {
            if let Some(key) = find(&set) {
                return Ok(Some(key));
            }
            if set.fetched.elapsed() < JWKS_REFETCH_AFTER {
                return Ok(None);
            }
        }
        let set = Arc::new(self.fetch_jwks(jwks_url).await?);
        self.jwks.insert(jwks_url.to_owned(), set.clone());
        Ok(find(&set))
    }

    async fn fetch_jwks(&self, jwks_url: &str) -> Result<KeySet, ProviderError> {
        let response = self
            .http
            .get(jwks_url)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|_| unavailable("key set"))?;
        let (status, body) = Self::json(response, "key set").await?;
        if !status.is_success() {
            return Err(unavailable("key set"));
        }
        // Key by key: one key of a kind this does not read does not hide the rest.
        let keys = body
            .get("keys")
            .and_then(Value::as_array)
            .map(|keys| {
                keys.iter()
                    .take(64)
                    .filter_map(|k| serde_json::from_value::<Jwk>(k.clone()).ok())
                    .collect()
            })
            .unwrap_or_default();
        Ok(KeySet {
            keys,
            fetched: Instant::now(),
        })
    }
}

/// The algorithm a token may use with a key: the token's own, when it belongs
/// to the key's family (and the key's `alg`, when the key names one). Shared
/// secrets (`oct`) are refused: a public key set must never verify HMACs.
fn algorithm_for(jwk: &Jwk, token_alg: Algorithm) -> Option<Algorithm> {
    use Algorithm::*;
    let family_fits = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => {
            matches!(token_alg, RS256 | RS384 | RS512 | PS256 | PS384 | PS512)
        }
        AlgorithmParameters::EllipticCurve(_) => matches!(token_alg, ES256 | ES384),
        AlgorithmParameters::OctetKeyPair(_) => token_alg == EdDSA,
        AlgorithmParameters::OctetKey(_) => false,
    };
    let named_fits = jwk
        .common
        .key_algorithm
        .is_none_or(|named| format!("{named:?}") == format!("{token_alg:?}"));
    (family_fits && named_fits).then_some(token_alg)
}

/// A provider's error code, cut short and stripped to plain characters.
fn short(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .take(64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_shared_secret_key_never_verifies_and_families_must_match() {
        let oct: Jwk = serde_json::from_value(json!({"kty": "oct", "k": "c2VjcmV0", "kid": "k"}))
            .expect("jwk");
        assert_eq!(algorithm_for(&oct, Algorithm::HS256), None);
        let ec: Jwk = serde_json::from_value(json!({
            "kty": "EC", "crv": "P-256", "kid": "k", "alg": "ES256",
            "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
            "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
        }))
        .expect("jwk");
        assert_eq!(algorithm_for(&ec, Algorithm::ES256), Some(Algorithm::ES256));
        assert_eq!(algorithm_for(&ec, Algorithm::RS256), None);
        assert_eq!(algorithm_for(&ec, Algorithm::HS256), None);
    }
}
