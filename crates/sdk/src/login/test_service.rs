//! A stand-in for the service in the login tests: `GET /v1/app` with one OAuth
//! provider (google), the token logins answering as the test asks, and a record
//! of every other request (path and JSON body).

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use parking_lot::Mutex;
use satchel_api::{
    ApiErrorBody, AppInfo, IdentityTokens, LoginResult, OAuthProviderInfo, Provider,
    RegisterEmailRequired, ServiceErrorCode,
};
use serde_json::Value;
use url::Url;

use super::Login;
use crate::client::ServiceConfig;
use crate::keychain::MemoryStore;

pub const AUTHORIZE_URL: &str = "https://accounts.example.test/o/authorize";
pub const CLIENT_ID: &str = "client-1.apps.example.test";
pub const SCOPES: &str = "openid email profile";

/// How the login endpoints answer.
#[derive(Debug, Clone)]
pub enum Answer {
    /// 200 with identity tokens (204 for `external/email`).
    Success,
    /// 428 `RequiredSignupEmail` naming the refused token.
    RegisterEmail,
    /// An error body.
    Error(u16, ServiceErrorCode, &'static str),
}

#[derive(Debug)]
pub struct Recorded {
    pub answer: Mutex<Answer>,
    /// Path and JSON body of each request but `GET /v1/app`.
    pub calls: Mutex<Vec<(String, Value)>>,
}

impl Recorded {
    pub fn calls_to(&self, path: &str) -> Vec<Value> {
        self.calls
            .lock()
            .iter()
            .filter(|(p, _)| p == path)
            .map(|(_, body)| body.clone())
            .collect()
    }
}

pub struct TestService {
    pub url: Url,
    pub recorded: Arc<Recorded>,
}

impl TestService {
    pub async fn start(answer: Answer) -> Self {
        let recorded = Arc::new(Recorded {
            answer: Mutex::new(answer),
            calls: Mutex::new(Vec::new()),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}/", listener.local_addr().expect("addr"))
            .parse()
            .expect("url");
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(recorded.clone());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { url, recorded }
    }

    /// A `Login` initialised against this service.
    pub async fn login(&self, configure: impl FnOnce(Login) -> Login) -> Login {
        let login = configure(Login::new("app", "key", Arc::new(MemoryStore::default())));
        login
            .init(ServiceConfig::new(self.url.clone(), "localhost"))
            .await
            .expect("init");
        login
    }
}

pub fn identity_tokens(provider: Provider) -> LoginResult {
    LoginResult {
        provider,
        token: IdentityTokens {
            id_token: format!("{}-id-token", provider.as_str()),
            refresh_token: format!("{}-refresh-token", provider.as_str()),
        },
    }
}

fn app_info() -> AppInfo {
    AppInfo {
        app_id: "app".into(),
        name: "Test app".into(),
        providers: vec![Provider::Email, Provider::Google, Provider::Naver],
        oauth: vec![OAuthProviderInfo {
            provider: Provider::Google,
            client_id: CLIENT_ID.into(),
            authorize_url: AUTHORIZE_URL.into(),
            scopes: SCOPES.into(),
        }],
        networks: Vec::new(),
        email_verification: true,
        email_domains: Vec::new(),
        password_rules: String::new(),
    }
}

async fn handle(
    State(recorded): State<Arc<Recorded>>,
    method: Method,
    uri: Uri,
    body: Bytes,
) -> Response {
    let path = uri.path().to_owned();
    if method == Method::GET && path == "/v1/app" {
        return Json(app_info()).into_response();
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    recorded.calls.lock().push((path.clone(), body.clone()));
    if path == "/v1/auth/logout" {
        return StatusCode::NO_CONTENT.into_response();
    }
    let named = body
        .get("provider")
        .and_then(|p| serde_json::from_value::<Provider>(p.clone()).ok());
    let provider = named.unwrap_or(Provider::ExternalToken);
    let answer = recorded.answer.lock().clone();
    match answer {
        Answer::Success if path == "/v1/auth/external/email" => {
            StatusCode::NO_CONTENT.into_response()
        }
        Answer::Success => Json(identity_tokens(provider)).into_response(),
        Answer::RegisterEmail => {
            let token = body.get("token").and_then(Value::as_str).map(str::to_owned);
            let (id_token, access_token) = match path.as_str() {
                "/v1/auth/external/id-token" => (token, None),
                "/v1/auth/external/access-token" => (None, token),
                _ => (Some("refused-id-token".to_owned()), None),
            };
            let required = RegisterEmailRequired {
                status_code: 428,
                code: ServiceErrorCode::RequiredSignupEmail.into(),
                message: "register an e-mail for this identity first".into(),
                provider,
                id_token,
                access_token,
            };
            (StatusCode::PRECONDITION_REQUIRED, Json(required)).into_response()
        }
        Answer::Error(status, code, message) => {
            let status = StatusCode::from_u16(status).expect("status");
            let body = ApiErrorBody {
                status_code: status.as_u16(),
                code: code.into(),
                message: message.into(),
            };
            (status, Json(body)).into_response()
        }
    }
}
