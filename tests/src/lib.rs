//! The harness of the end-to-end tests: each test starts its own dev chain with the
//! demo contracts, its own database (a SQLite file in a fresh folder, or a fresh
//! PostgreSQL database) and its own service on a free port.

/// The desktop tests' harness: Xvfb, tauri-driver and the app through WebDriver
/// (the desktop UI tests, the packaging test and the desktop benchmark). It lives
/// beside the UI tests, where the machine's desktop set-up is written once.
#[path = "../ui/desktop.rs"]
pub mod desktop;
/// The browser extension loaded in Chromium and linked to Satchel (the
/// extension's tests and the desktop benchmark).
#[path = "../ui/extension_link.rs"]
pub mod extension_link;
/// The benchmarks' load: keep-alive connections asking for targets in turn.
pub mod load;

use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use reqwest::StatusCode;
use satchel_devstack::{Anvil, Demo, RunningService};
use satchel_service::{Settings, admin};
use serde_json::Value;
use sqlx::Connection as _;

/// The password [`Stack::sign_in`] signs people up with.
pub const PASSWORD: &str = "correct1horse";

/// Where a test's service keeps its data.
#[derive(Debug, Clone)]
pub enum Backend {
    Sqlite,
    /// A PostgreSQL server's URL; each test creates its own database there.
    Postgres(String),
}

impl Backend {
    /// The PostgreSQL server named by `SATCHEL_TEST_POSTGRES_URL` (the test
    /// command starts one). Without it the PostgreSQL tests fail, unless
    /// `SATCHEL_SKIP_POSTGRES=1` skips them.
    pub fn postgres() -> Option<Self> {
        match std::env::var("SATCHEL_TEST_POSTGRES_URL") {
            Ok(url) if !url.is_empty() => Some(Self::Postgres(url)),
            _ => {
                satchel_devstack::missing_dependency(
                    "POSTGRES",
                    "SATCHEL_TEST_POSTGRES_URL is not set (scripts/test.sh starts a server)",
                );
                None
            }
        }
    }

    /// A database URL of this backend that no other test uses.
    async fn fresh_database(&self, dir: &std::path::Path) -> anyhow::Result<String> {
        match self {
            Self::Sqlite => Ok(format!(
                "sqlite://{}?mode=rwc",
                dir.join("satchel.db").display()
            )),
            Self::Postgres(server) => {
                sqlx::any::install_default_drivers();
                let name = format!("satchel_test_{}", uuid::Uuid::new_v4().simple());
                let mut conn = sqlx::AnyConnection::connect(server).await?;
                sqlx::query(&format!("CREATE DATABASE {name}"))
                    .execute(&mut conn)
                    .await?;
                conn.close().await?;
                let mut url: url::Url = server.parse()?;
                url.set_path(&format!("/{name}"));
                Ok(url.to_string())
            }
        }
    }
}

/// A running stack: chain, contracts, service, and one app to call it as.
pub struct Stack {
    pub anvil: Anvil,
    pub demo: Demo,
    pub service: RunningService,
    pub app_key: String,
    pub domain: String,
    pub http: reqwest::Client,
    _dir: tempfile::TempDir,
}

/// A user with a wallet and a live access token.
pub struct User {
    pub user_id: String,
    pub wallet_id: String,
    pub signer: PrivateKeySigner,
    pub token: String,
}

impl User {
    pub fn address(&self) -> Address {
        self.signer.address()
    }

    /// The query of operations 1, 3 and 4 for this user's own wallet.
    pub fn wallet_query(&self) -> String {
        format!("userId={}&walletId={}", self.user_id, self.wallet_id)
    }
}

impl Stack {
    pub async fn start(backend: Backend) -> Self {
        Self::start_with(backend, |_| {}).await
    }

    /// Starts a stack whose settings `tweak` may change first.
    pub async fn start_with(backend: Backend, tweak: impl FnOnce(&mut Settings)) -> Self {
        Self::try_start(backend, tweak)
            .await
            .expect("the test stack starts")
    }

    async fn try_start(
        backend: Backend,
        tweak: impl FnOnce(&mut Settings),
    ) -> anyhow::Result<Self> {
        let anvil = Anvil::spawn().await?;
        let demo = Demo::deploy(&anvil.url).await?;
        Self::start_on(anvil, demo, backend, tweak).await
    }

    /// Starts the service on a chain the caller has already prepared.
    pub async fn start_on(
        anvil: Anvil,
        demo: Demo,
        backend: Backend,
        tweak: impl FnOnce(&mut Settings),
    ) -> anyhow::Result<Self> {
        let dir = tempfile::tempdir()?;
        let mut settings = Settings {
            bind: ([127, 0, 0, 1], 0).into(),
            data_dir: dir.path().to_owned(),
            database_url: Some(backend.fresh_database(dir.path()).await?),
            networks: vec![demo.network_config("anvil")],
            upstream_timeout_secs: 3,
            ..Settings::default()
        };
        tweak(&mut settings);
        let service = RunningService::start(settings).await?;
        let domain = "wallet.example".to_owned();
        let app =
            admin::create_app(&service.state.db, "Test App", std::slice::from_ref(&domain)).await?;
        Ok(Self {
            anvil,
            demo,
            service,
            app_key: app.app_key,
            domain,
            http: reqwest::Client::new(),
            _dir: dir,
        })
    }

    /// A new e-mail user of the test app with a wallet at a fresh random address.
    pub async fn user(&self, email: &str) -> User {
        let state = &self.service.state;
        let app_id = self.app_id().await;
        let user_id = admin::create_email_account(state, &app_id, email, "correct1horse")
            .await
            .expect("user");
        let signer = PrivateKeySigner::random();
        let wallet_id = admin::create_wallet(state, &user_id, &signer.address().to_string())
            .await
            .expect("wallet");
        let token = admin::mint_access_token(state, &user_id, 600)
            .await
            .expect("token");
        User {
            user_id,
            wallet_id,
            signer,
            token,
        }
    }

    pub fn url(&self, path_and_query: &str) -> String {
        format!(
            "{}{}",
            self.service.base_url,
            path_and_query.trim_start_matches('/')
        )
    }

    /// A GET with the three app headers and `Content-Type`, and no bearer token.
    pub fn app_request(&self, path_and_query: &str) -> reqwest::RequestBuilder {
        self.http
            .get(self.url(path_and_query))
            .header("X-API-KEY", &self.app_key)
            .header("X-API-DOMAIN", &self.domain)
            .header("X-SDK-TYPE", "desktop_rest_api")
            .header("Content-Type", "application/json")
    }

    /// `POST /v1/auth/email/login` with `body`, as the login library sends
    /// it, to `base`: this stack's service, or another instance on its database.
    pub fn email_login_to(&self, base: &url::Url, body: Value) -> reqwest::RequestBuilder {
        self.http
            .post(format!("{base}v1/auth/email/login"))
            .header("X-API-KEY", &self.app_key)
            .header("X-API-DOMAIN", &self.domain)
            .header("X-SDK-TYPE", "desktop-login")
            .json(&body)
    }

    /// A second instance of this stack's service: the same settings (database,
    /// `pin_secret`, public URL: one service behind a load balancer) on
    /// another port.
    pub async fn second_instance(&self) -> RunningService {
        let settings = (*self.service.state.settings).clone();
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("a port");
        RunningService::start_on(listener, settings)
            .await
            .expect("a second instance on the same database")
    }

    /// A GET with all five headers, as a REST client sends it.
    pub async fn get(&self, path_and_query: &str, token: &str) -> (StatusCode, Value) {
        send(self.app_request(path_and_query).bearer_auth(token)).await
    }
}

impl Stack {
    /// One JSON-RPC call to the test's own dev chain (anvil), its `result`.
    pub async fn chain_rpc(&self, method: &str, params: Value) -> Value {
        let answer: Value = self
            .http
            .post(self.anvil.url.clone())
            .json(
                &serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}),
            )
            .send()
            .await
            .expect("anvil answers")
            .json()
            .await
            .expect("a JSON-RPC answer");
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// Waits until the transaction `hash` (as a send answered it) is in a
    /// block: anvil answers `eth_sendTransaction` before it mines.
    pub async fn mined(&self, hash: &Value) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while self
            .chain_rpc("eth_getTransactionReceipt", serde_json::json!([hash]))
            .await
            .is_null()
        {
            assert!(
                std::time::Instant::now() < deadline,
                "{hash} was never mined"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// The next nonce of `address` on the dev chain, pending transactions counted.
    pub async fn nonce_of(&self, address: &str) -> u64 {
        let count = self
            .chain_rpc(
                "eth_getTransactionCount",
                serde_json::json!([address, "pending"]),
            )
            .await;
        u64::from_str_radix(count.as_str().unwrap_or("0x0").trim_start_matches("0x"), 16)
            .expect("a hex count")
    }
}

impl Stack {
    /// The login library of the test app, initialised against this service.
    pub async fn login(
        &self,
        store: std::sync::Arc<dyn satchel_sdk::TokenStore>,
    ) -> satchel_sdk::Login {
        let login = satchel_sdk::Login::new(self.app_id().await, &self.app_key, store);
        login.init(self.sdk_config()).await.expect("initialised");
        login
    }

    /// Starts an example app backend (devstack) and registers it as the issuer
    /// and signer of this app's external tokens.
    pub async fn example_backend(&self) -> satchel_devstack::ExampleBackend {
        satchel_devstack::stack::start_example_backend(&self.service.state, &self.app_id().await)
            .await
            .expect("example backend")
    }

    pub fn sdk_config(&self) -> satchel_sdk::ServiceConfig {
        satchel_sdk::ServiceConfig::new(self.service.base_url.clone(), &self.domain)
    }

    pub async fn app_id(&self) -> String {
        self.service
            .state
            .app_for_key(
                &satchel_service::crypto::app_key_hash(&self.app_key),
                &self.domain,
            )
            .await
            .expect("db")
            .expect("the test app")
            .app_id
    }

    /// Signs a new e-mail user up, opens the verification link from the outbox,
    /// logs in and logs in to the service, keeping the session in `store`.
    pub async fn sign_in(
        &self,
        email: &str,
        store: std::sync::Arc<dyn satchel_sdk::TokenStore>,
    ) -> satchel_sdk::Login {
        let login = self.login(store).await;
        let _ = login
            .sign_up_with_email_and_password(email, PASSWORD, false)
            .await;
        let link = self
            .verification_link(email)
            .expect("a verification e-mail");
        assert_eq!(
            satchel_devstack::open_link(&self.http, &link)
                .await
                .expect("opened")
                .0,
            200
        );
        let result = login
            .login_with_email_and_password(email, PASSWORD)
            .await
            .expect("logged in");
        login
            .login_service(result.provider, result.token)
            .await
            .expect("service login");
        login
    }

    /// A person signed in as [`sign_in`](Self::sign_in) does it, with a widget
    /// registered with `pin` (its key made with `kdf`'s Argon2id cost), the
    /// session and the key in memory; and the address of their first account.
    pub async fn registered_widget(
        &self,
        email: &str,
        pin: &str,
        kdf: satchel_sdk::vault::KdfStrength,
    ) -> (satchel_sdk::Widget, Address) {
        let store: std::sync::Arc<dyn satchel_sdk::TokenStore> =
            std::sync::Arc::new(satchel_sdk::MemoryStore::default());
        drop(self.sign_in(email, store.clone()).await);
        let login = satchel_sdk::Login::new(self.app_id().await, &self.app_key, store.clone());
        let widget = satchel_sdk::Widget::new(std::sync::Arc::new(login), store)
            .with_kdf(kdf)
            .with_networks(self.service.network_table());
        widget.init(self.sdk_config()).await.expect("initialised");
        widget.register(pin, false).await.expect("registered");
        let address = widget.get_accounts(None, false).await.expect("accounts")[0]
            .address
            .parse()
            .expect("address");
        (widget, address)
    }

    /// What another REST client of `widget`'s logged-in user would hold: an
    /// access token of their own, and the id of the wallet's first account (as
    /// operation 1 lists it).
    pub async fn rest_client_of(&self, widget: &satchel_sdk::Widget) -> (String, String) {
        let user = widget.current_user().expect("logged in");
        let user_id = user.user_info.expect("user info").user_id;
        let wallet_id = user.wallet_id.expect("a wallet");
        let token = admin::mint_access_token(&self.service.state, &user_id, 600)
            .await
            .expect("a token");
        let (_, accounts) = self
            .get(
                &format!("/v1/account?userId={user_id}&walletId={wallet_id}"),
                &token,
            )
            .await;
        let account_id = accounts["accounts"][0]["accountId"]
            .as_str()
            .expect("an account")
            .to_owned();
        (token, account_id)
    }

    /// A POST with the app headers and a JSON body.
    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let request = self
            .http
            .post(self.url(path))
            .header("X-API-KEY", &self.app_key)
            .header("X-API-DOMAIN", &self.domain)
            .header("X-SDK-TYPE", "desktop-login")
            .json(&body);
        send(request).await
    }

    /// The verification link of the newest e-mail to `to` in the outbox.
    pub fn verification_link(&self, to: &str) -> Option<String> {
        let outbox = self.service.state.settings.data_dir.join("outbox");
        satchel_devstack::verification_link(&outbox, to)
    }

    /// The link of every e-mail to `to` in the outbox (verification, password
    /// reset, PIN unlock), oldest first; e-mails of the same second in either
    /// order, so a test tells a new one by comparing with the links before.
    pub fn mail_links(&self, to: &str) -> Vec<String> {
        let outbox = self.service.state.settings.data_dir.join("outbox");
        satchel_devstack::mail_links(&outbox, to)
    }

    /// The subject of every e-mail to `to` in the outbox, oldest first.
    pub fn mail_subjects(&self, to: &str) -> Vec<String> {
        let outbox = self.service.state.settings.data_dir.join("outbox");
        satchel_devstack::stack::mail_subjects(&outbox, to)
    }

    /// The one link e-mailed to `to` since `before` (an earlier `mail_links`).
    pub fn new_mail_link(&self, to: &str, before: &[String]) -> Option<String> {
        let mut new: Vec<String> = self
            .mail_links(to)
            .into_iter()
            .filter(|link| !before.contains(link))
            .collect();
        assert!(new.len() <= 1, "more than one new e-mail to {to}: {new:?}");
        new.pop()
    }
}

/// Sends a request and reads its JSON body (`Null` when there is none).
pub async fn send(request: reqwest::RequestBuilder) -> (StatusCode, Value) {
    let response = request.send().await.expect("the service answers");
    let status = response.status();
    let text = response.text().await.expect("a body");
    let body = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("a JSON body, got {text:?}"))
    };
    (status, body)
}

/// A device's store in the real OS keychain (the Secret Service the test command
/// starts), under a service name of its own. Without a keychain the test fails,
/// unless `SATCHEL_SKIP_KEYCHAIN=1` skips it (and counts it): then `None`.
pub fn keychain_store() -> Option<std::sync::Arc<dyn satchel_sdk::TokenStore>> {
    use satchel_sdk::TokenStore as _;
    let service = format!("dev.satchel.test.{}", uuid::Uuid::new_v4().simple());
    let store = satchel_sdk::KeyringStore::new(&service);
    match store
        .save("probe", "1")
        .and_then(|()| store.delete("probe"))
    {
        Ok(()) => Some(std::sync::Arc::new(store)),
        Err(e) => {
            satchel_devstack::missing_dependency(
                "KEYCHAIN",
                &format!("no Secret Service keychain answers ({e})"),
            );
            None
        }
    }
}

/// A service that lies: a proxy in front of the real one that passes every
/// request on and rewrites the JSON answers `rewrite` chooses to (by method and
/// path), as a compromised service would. For the device's checks.
pub struct LyingService {
    pub url: url::Url,
    /// The lies served: how many answers the rewrite changed, by path.
    lies: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
    _task: tokio::task::JoinHandle<()>,
}

type Rewrite = dyn Fn(&reqwest::Method, &str, &mut Value) + Send + Sync;

impl LyingService {
    pub async fn start(
        upstream: url::Url,
        rewrite: impl Fn(&reqwest::Method, &str, &mut Value) + Send + Sync + 'static,
    ) -> Self {
        use http_body_util::{BodyExt as _, Full};
        use hyper::body::{Bytes, Incoming};
        use hyper::{Request, Response};
        use hyper_util::rt::TokioIo;

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let url = format!("http://{}/", listener.local_addr().expect("address"))
            .parse()
            .expect("url");
        let rewrite: std::sync::Arc<Rewrite> = std::sync::Arc::new(rewrite);
        let http = reqwest::Client::new();
        let lies = std::sync::Arc::new(std::sync::Mutex::new(std::collections::HashMap::new()));
        let counted = lies.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (http, upstream, rewrite, counted) = (
                    http.clone(),
                    upstream.clone(),
                    rewrite.clone(),
                    counted.clone(),
                );
                let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let (http, upstream, rewrite, counted) = (
                        http.clone(),
                        upstream.clone(),
                        rewrite.clone(),
                        counted.clone(),
                    );
                    async move {
                        let (parts, body) = request.into_parts();
                        let body = body
                            .collect()
                            .await
                            .map_err(std::io::Error::other)?
                            .to_bytes();
                        let path_and_query = parts
                            .uri
                            .path_and_query()
                            .map_or("/", |p| p.as_str())
                            .trim_start_matches('/')
                            .to_owned();
                        let target = upstream
                            .join(&path_and_query)
                            .map_err(std::io::Error::other)?;
                        let method = reqwest::Method::from_bytes(parts.method.as_str().as_bytes())
                            .map_err(std::io::Error::other)?;
                        let mut forward = http.request(method.clone(), target).body(body.to_vec());
                        for (name, value) in &parts.headers {
                            if name != "host" && name != "content-length" {
                                forward = forward.header(name.as_str(), value.as_bytes());
                            }
                        }
                        let answer = forward.send().await.map_err(std::io::Error::other)?;
                        let status = answer.status().as_u16();
                        let bytes = answer.bytes().await.map_err(std::io::Error::other)?;
                        let path = parts.uri.path().to_owned();
                        let bytes = match serde_json::from_slice::<Value>(&bytes) {
                            Ok(mut json) => {
                                let truth = json.clone();
                                rewrite(&method, &path, &mut json);
                                if json != truth {
                                    let mut lies =
                                        counted.lock().unwrap_or_else(|e| e.into_inner());
                                    *lies.entry(path.clone()).or_default() += 1;
                                }
                                Bytes::from(json.to_string())
                            }
                            Err(_) => bytes,
                        };
                        Response::builder()
                            .status(status)
                            .header("content-type", "application/json")
                            .body(Full::new(bytes))
                            .map_err(std::io::Error::other)
                    }
                });
                tokio::spawn(async move {
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Self {
            url,
            lies,
            _task: task,
        }
    }

    /// How many answers of paths starting with `prefix` were lies: a test
    /// asserts the lie it is about was served, not merely switched on.
    pub fn lies_on(&self, prefix: &str) -> usize {
        self.lies
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(path, _)| path.starts_with(prefix))
            .map(|(_, n)| n)
            .sum()
    }
}
