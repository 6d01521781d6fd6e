//! An example application backend for `loginWithIdToken`: it issues id tokens
//! (ES256 JWTs, their key published as a JWKS) for its users, and the `sign`
//! beside each token made with the app's authentication key, which the app
//! registers with the service (`satchel-service admin set-external-token`).
//!
//! A real backend authenticates its own user (its password, its session)
//! before it answers `POST /login`. This stand-in trusts whoever calls it: it is
//! for the local stack and tests on loopback, never for anything exposed.

use std::sync::Arc;

use anyhow::Context as _;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use p256::pkcs8::{EncodePrivateKey as _, LineEnding};
use serde::Deserialize;
use serde_json::{Value, json};
use url::Url;

/// How long a token of `POST /login` is valid.
pub const TOKEN_LIFETIME_SECS: u64 = 600;

struct Keys {
    app_id: String,
    issuer: String,
    kid: String,
    encoding: EncodingKey,
    /// A key that is not in the JWKS (for tokens that must be refused).
    other: EncodingKey,
    jwks: Value,
    /// The app's secp256k1 authentication key, 32 bytes of hex.
    auth_key: String,
}

/// The running example backend; its server stops when this is dropped.
pub struct ExampleBackend {
    keys: Arc<Keys>,
    base: Url,
    server: tokio::task::JoinHandle<()>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LoginRequest {
    user_id: String,
    #[serde(default)]
    email: Option<String>,
}

fn new_p256_key() -> anyhow::Result<(EncodingKey, p256::PublicKey)> {
    let secret = p256::SecretKey::random(&mut rand::rngs::OsRng);
    let pem = secret
        .to_pkcs8_pem(LineEnding::LF)
        .context("encode the P-256 key")?;
    let encoding = EncodingKey::from_ec_pem(pem.as_bytes()).context("read the P-256 key")?;
    Ok((encoding, secret.public_key()))
}

fn new_auth_key() -> String {
    loop {
        let mut bytes = [0u8; 32];
        rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut bytes);
        let key = hex::encode(bytes);
        // All but a vanishing share of 32-byte strings are valid secp256k1 keys.
        if satchel_api::login_sign::public_key_for(&key).is_ok() {
            return key;
        }
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

impl Keys {
    fn sign_jwt(&self, key: &EncodingKey, kid: &str, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(&header, claims, key).expect("an ES256 JWT of JSON claims")
    }

    fn sign(&self, message: &str) -> String {
        satchel_api::login_sign::sign_for_login(&self.auth_key, message)
            .expect("the authentication key is valid")
    }

    fn login(&self, user_id: &str, email: Option<&str>) -> Value {
        let now = now_secs();
        let mut claims = json!({
            "iss": self.issuer,
            "aud": self.app_id,
            "sub": user_id,
            "iat": now,
            "exp": now + TOKEN_LIFETIME_SECS,
        });
        if let Some(email) = email {
            claims["email"] = json!(email);
            claims["email_verified"] = json!(true);
        }
        let token = self.sign_jwt(&self.encoding, &self.kid, &claims);
        let sign = self.sign(&token);
        json!({ "token": token, "sign": sign })
    }
}

async fn serve_jwks(State(keys): State<Arc<Keys>>) -> Json<Value> {
    Json(keys.jwks.clone())
}

async fn serve_login(
    State(keys): State<Arc<Keys>>,
    Json(request): Json<LoginRequest>,
) -> Result<Json<Value>, (StatusCode, String)> {
    if request.user_id.trim().is_empty() {
        return Err((StatusCode::BAD_REQUEST, "userId is empty".into()));
    }
    let email = request.email.as_deref().filter(|e| !e.trim().is_empty());
    Ok(Json(keys.login(&request.user_id, email)))
}

impl ExampleBackend {
    /// Starts the backend of the app `app_id` (the `aud` of its tokens) on a free
    /// loopback port, with a new ES256 signing key and a new authentication key.
    pub async fn start(app_id: &str) -> anyhow::Result<Self> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        let issuer = format!("http://127.0.0.1:{port}");
        let base: Url = format!("{issuer}/").parse()?;

        let (encoding, public) = new_p256_key()?;
        let (other, _) = new_p256_key()?;
        let kid = format!("example-{}", hex::encode(rand::random::<[u8; 6]>()));
        let point = public.to_encoded_point(false);
        let (x, y) = point
            .x()
            .zip(point.y())
            .context("the public key's coordinates")?;
        let jwks = json!({
            "keys": [{
                "kty": "EC",
                "crv": "P-256",
                "x": URL_SAFE_NO_PAD.encode(x),
                "y": URL_SAFE_NO_PAD.encode(y),
                "kid": kid,
                "alg": "ES256",
                "use": "sig",
            }]
        });
        let keys = Arc::new(Keys {
            app_id: app_id.to_owned(),
            issuer,
            kid,
            encoding,
            other,
            jwks,
            auth_key: new_auth_key(),
        });
        let app = Router::new()
            .route("/.well-known/jwks.json", get(serve_jwks))
            .route("/login", post(serve_login))
            .with_state(keys.clone());
        let server = tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, app).await {
                tracing::warn!(%error, "the example backend stopped");
            }
        });
        Ok(Self { keys, base, server })
    }

    /// The `iss` of its tokens: `http://127.0.0.1:<port>` (no trailing slash).
    pub fn issuer(&self) -> String {
        self.keys.issuer.clone()
    }

    /// The app id its tokens are for (their `aud`).
    pub fn app_id(&self) -> &str {
        &self.keys.app_id
    }

    /// `http://127.0.0.1:<port>/.well-known/jwks.json`.
    pub fn jwks_url(&self) -> Url {
        self.base
            .join(".well-known/jwks.json")
            .expect("a relative path joins")
    }

    /// `http://127.0.0.1:<port>/login`: `POST {"userId", "email"?}` answers
    /// `{"token", "sign"}`.
    pub fn login_url(&self) -> Url {
        self.base.join("login").expect("a relative path joins")
    }

    /// The `kid` of its signing key.
    pub fn kid(&self) -> &str {
        &self.keys.kid
    }

    /// The app's login public key (compressed secp256k1, hex): what the app
    /// registers with the service.
    pub fn login_public_key(&self) -> String {
        satchel_api::login_sign::public_key_for(&self.keys.auth_key)
            .expect("the authentication key is valid")
    }

    /// `getSignForLogin` of `message` with the app's authentication key.
    pub fn sign(&self, message: &str) -> String {
        self.keys.sign(message)
    }

    /// What `POST /login` answers, without the HTTP: `(token, sign)`.
    pub fn login_token(&self, user_id: &str, email: Option<&str>) -> (String, String) {
        let answer = self.keys.login(user_id, email);
        (
            answer["token"].as_str().unwrap_or_default().to_owned(),
            answer["sign"].as_str().unwrap_or_default().to_owned(),
        )
    }

    /// `claims`, exactly as given, signed with the backend's key and its `kid`.
    pub fn mint(&self, claims: Value) -> String {
        self.keys
            .sign_jwt(&self.keys.encoding, &self.keys.kid, &claims)
    }

    /// `claims` signed with the backend's key, under the header `kid` given.
    pub fn mint_with_kid(&self, claims: Value, kid: &str) -> String {
        self.keys.sign_jwt(&self.keys.encoding, kid, &claims)
    }

    /// `claims` signed with a key that is not the one in the JWKS, under the
    /// JWKS key's `kid`: a forged token.
    pub fn other_key_token(&self, claims: Value) -> String {
        self.keys
            .sign_jwt(&self.keys.other, &self.keys.kid, &claims)
    }
}

impl Drop for ExampleBackend {
    fn drop(&mut self) {
        self.server.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::jwk::JwkSet;
    use jsonwebtoken::{DecodingKey, Validation};
    use satchel_api::login_sign::{parse_public_key, verify_login_sign};

    async fn decoding_key(backend: &ExampleBackend) -> DecodingKey {
        let jwks: JwkSet = reqwest::get(backend.jwks_url())
            .await
            .expect("jwks")
            .json()
            .await
            .expect("jwks json");
        assert_eq!(jwks.keys.len(), 1);
        let jwk = &jwks.keys[0];
        assert_eq!(jwk.common.key_id.as_deref(), Some(backend.kid()));
        DecodingKey::from_jwk(jwk).expect("decoding key")
    }

    fn validation(backend: &ExampleBackend) -> Validation {
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_audience(&[backend.app_id()]);
        validation.set_issuer(&[backend.issuer()]);
        validation
    }

    #[tokio::test]
    async fn login_issues_a_token_the_jwks_verifies_and_a_sign_the_login_key_verifies() {
        let backend = ExampleBackend::start("app-123").await.expect("start");
        let key = decoding_key(&backend).await;
        let http = reqwest::Client::new();

        let answer: Value = http
            .post(backend.login_url())
            .json(&json!({"userId": "user-1", "email": "user1@example.com"}))
            .send()
            .await
            .expect("login")
            .error_for_status()
            .expect("login status")
            .json()
            .await
            .expect("login json");
        let token = answer["token"].as_str().expect("token");
        let sign = answer["sign"].as_str().expect("sign");

        let header = jsonwebtoken::decode_header(token).expect("header");
        assert_eq!(header.alg, Algorithm::ES256);
        assert_eq!(header.kid.as_deref(), Some(backend.kid()));
        let data =
            jsonwebtoken::decode::<Value>(token, &key, &validation(&backend)).expect("verify");
        let claims = data.claims;
        assert_eq!(claims["iss"], backend.issuer());
        assert_eq!(claims["aud"], "app-123");
        assert_eq!(claims["sub"], "user-1");
        assert_eq!(claims["email"], "user1@example.com");
        assert_eq!(claims["email_verified"], true);
        let iat = claims["iat"].as_u64().expect("iat");
        assert_eq!(claims["exp"].as_u64(), Some(iat + TOKEN_LIFETIME_SECS));

        let login_key = parse_public_key(&backend.login_public_key()).expect("login key");
        assert!(verify_login_sign(&login_key, token, sign));
        assert!(!verify_login_sign(&login_key, &format!("{token}x"), sign));
        assert_eq!(backend.sign(token), sign, "deterministic (RFC 6979)");

        // Without an e-mail, no e-mail claims.
        let answer: Value = http
            .post(backend.login_url())
            .json(&json!({"userId": "user-2"}))
            .send()
            .await
            .expect("login")
            .json()
            .await
            .expect("login json");
        let token = answer["token"].as_str().expect("token");
        let claims = jsonwebtoken::decode::<Value>(token, &key, &validation(&backend))
            .expect("verify")
            .claims;
        assert_eq!(claims["sub"], "user-2");
        assert!(claims.get("email").is_none());
        assert!(claims.get("email_verified").is_none());

        let refused = http
            .post(backend.login_url())
            .json(&json!({"userId": " "}))
            .send()
            .await
            .expect("login");
        assert_eq!(refused.status(), reqwest::StatusCode::BAD_REQUEST);
    }

    #[tokio::test]
    async fn minted_tokens_verify_and_forged_ones_do_not() {
        let backend = ExampleBackend::start("app-9").await.expect("start");
        let key = decoding_key(&backend).await;
        let now = now_secs();
        let claims = json!({
            "iss": backend.issuer(), "aud": "app-9", "sub": "u", "iat": now, "exp": now + 60,
        });

        let minted = backend.mint(claims.clone());
        jsonwebtoken::decode::<Value>(&minted, &key, &validation(&backend)).expect("minted");

        let other_kid = backend.mint_with_kid(claims.clone(), "another-kid");
        let header = jsonwebtoken::decode_header(&other_kid).expect("header");
        assert_eq!(header.kid.as_deref(), Some("another-kid"));

        let forged = backend.other_key_token(claims);
        let header = jsonwebtoken::decode_header(&forged).expect("header");
        assert_eq!(header.kid.as_deref(), Some(backend.kid()));
        assert!(jsonwebtoken::decode::<Value>(&forged, &key, &validation(&backend)).is_err());

        let (token, sign) = backend.login_token("u2", Some("u2@example.com"));
        let login_key = parse_public_key(&backend.login_public_key()).expect("login key");
        assert!(verify_login_sign(&login_key, &token, &sign));
    }
}
