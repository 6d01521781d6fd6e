//! The whole local stack in one value: anvil with the demo contracts, the service
//! on SQLite with the faucet in front of it, the demo app and the demo user, and
//! (unless left out) the demo app's ways in besides e-mail: a loopback OpenID
//! provider registered as its "Google" and "Discord", and an example backend of
//! its own whose id tokens it accepts. The `satchel-devstack` binary runs one for
//! a person; the desktop UI tests start one per test on free ports.

use std::path::PathBuf;

use anyhow::Context as _;
use satchel_api::Provider;
use satchel_service::{Settings, admin};

use crate::{Anvil, Demo, ExampleBackend, OidcProvider, RunningService, with_faucet};

// The outbox's mails, read as a person reads them: where they were before.
pub use crate::outbox::{mail_links, mail_subjects, open_link, verification_link};

/// The demo user's login.
pub const DEMO_EMAIL: &str = "demo@satchel.dev";
pub const DEMO_PASSWORD: &str = "satchel-demo1";

/// The login at the demo "Google" and "Discord" of a local stack (the OpenID
/// provider's login page takes any password). `ada` and `noemail` are other
/// accounts there; `noemail` has no e-mail address.
pub const DEMO_PROVIDER_LOGIN: &str = "demo";

/// Where the stack listens (0: a free port), which domain the demo app calls
/// from, and whether the demo app's other ways in are started.
#[derive(Debug, Clone)]
pub struct StackOptions {
    pub data_dir: PathBuf,
    pub anvil_port: u16,
    pub service_port: u16,
    pub domain: String,
    /// Start the loopback OpenID provider (the demo "Google" and "Discord",
    /// `node` with the npm packages of `devstack/`) and the example backend, and
    /// register them with the demo app.
    pub identity_providers: bool,
    /// The service's database; `None`: a SQLite file in `data_dir`.
    pub database_url: Option<String>,
    /// The NFTs the service keeps of one account; `None`: its default.
    pub max_nfts_per_account: Option<usize>,
}

impl StackOptions {
    /// A stack of its own in `data_dir`, on free ports, for the domain `localhost`,
    /// with the identity providers: what a test or a benchmark starts.
    pub fn on_free_ports(data_dir: PathBuf) -> Self {
        Self {
            data_dir,
            anvil_port: 0,
            service_port: 0,
            domain: "localhost".into(),
            identity_providers: true,
            database_url: None,
            max_nfts_per_account: None,
        }
    }
}

pub struct LocalStack {
    pub anvil: Anvil,
    pub demo: Demo,
    pub service: RunningService,
    pub app_id: String,
    pub app_key: String,
    pub domain: String,
    pub demo_user_id: String,
    /// The folder of the database, the outbox and the files below.
    pub data_dir: PathBuf,
    /// The loopback OpenID provider registered as the demo app's `google`
    /// (OpenID Connect: its id token) and `discord` (OAuth 2: its userinfo), when
    /// [`StackOptions::identity_providers`].
    pub oidc: Option<OidcProvider>,
    /// The demo app's own backend, whose id tokens and `sign` the demo app
    /// accepts (`loginWithIdToken`), when [`StackOptions::identity_providers`].
    pub example_backend: Option<ExampleBackend>,
}

impl LocalStack {
    /// Empties `data_dir` (the chain starts empty too), then starts everything and
    /// writes `service.toml`, `networks.toml` and `app.env` into it.
    pub async fn start(options: StackOptions) -> anyhow::Result<Self> {
        if options.data_dir.exists() {
            std::fs::remove_dir_all(&options.data_dir)?;
        }
        std::fs::create_dir_all(&options.data_dir)?;
        let data_dir = std::fs::canonicalize(&options.data_dir)?;

        // The provider (a node process) starts while the chain is set up.
        let provider = async {
            if !options.identity_providers {
                return Ok(None);
            }
            OidcProvider::start().await.map(Some).context(
                "the local stack's demo Google and Discord (a loopback OpenID provider) did not start",
            )
        };
        let chain = async {
            let anvil = match options.anvil_port {
                0 => Anvil::spawn().await?,
                port => Anvil::spawn_on(port).await?,
            };
            let demo = Demo::deploy(&anvil.url).await?;
            Ok::<_, anyhow::Error>((anvil, demo))
        };
        let (oidc, chain) = tokio::join!(provider, chain);
        let (oidc, (anvil, demo)) = (oidc?, chain?);
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", options.service_port)).await?;
        let address = listener.local_addr()?;
        let settings = Settings {
            bind: address,
            database_url: options.database_url.clone(),
            data_dir: data_dir.clone(),
            public_url: format!("http://{address}/").parse()?,
            networks: vec![demo.network_config("anvil")],
            ..Settings::default()
        };
        let settings = Settings {
            max_nfts_per_account: options
                .max_nfts_per_account
                .unwrap_or(settings.max_nfts_per_account),
            ..settings
        };
        std::fs::write(
            data_dir.join("service.toml"),
            toml::to_string_pretty(&settings)?,
        )?;
        let faucet = demo.clone();
        let service =
            RunningService::start_on_with(listener, settings, |router| with_faucet(router, faucet))
                .await?;

        let app = admin::create_app(
            &service.state.db,
            "Satchel Demo",
            std::slice::from_ref(&options.domain),
        )
        .await?;
        let demo_user_id =
            admin::create_email_account(&service.state, &app.app_id, DEMO_EMAIL, DEMO_PASSWORD)
                .await?;
        if let Some(oidc) = &oidc {
            register_providers(&service.state, &app.app_id, oidc).await?;
        }
        let example_backend = match oidc {
            Some(_) => Some(start_example_backend(&service.state, &app.app_id).await?),
            None => None,
        };
        let stack = Self {
            anvil,
            demo,
            service,
            app_id: app.app_id,
            app_key: app.app_key,
            domain: options.domain,
            demo_user_id,
            data_dir,
            oidc,
            example_backend,
        };
        std::fs::write(
            stack.networks_file(),
            toml::to_string_pretty(&stack.service.network_table())?,
        )?;
        std::fs::write(stack.env_file(), stack.app_env())?;
        Ok(stack)
    }

    /// Registers another app at the service, under `domain`, with one person
    /// who signed up by e-mail (verified): its `(app_id, app_key)`. For a
    /// second application on the same computer (an embedding program).
    pub async fn another_app(
        &self,
        name: &str,
        domain: &str,
        email: &str,
        password: &str,
    ) -> anyhow::Result<(String, String)> {
        let app = admin::create_app(&self.service.state.db, name, &[domain.to_owned()]).await?;
        admin::create_email_account(&self.service.state, &app.app_id, email, password).await?;
        Ok((app.app_id, app.app_key))
    }

    /// The desktop app's settings for this stack, as `NAME=value` lines.
    pub fn app_env(&self) -> String {
        self.app_env_vars()
            .iter()
            .map(|(name, value)| format!("{name}={value}\n"))
            .collect()
    }

    /// The desktop app's settings for this stack (docs/desktop-app.md: Settings).
    pub fn app_env_vars(&self) -> Vec<(&'static str, String)> {
        vec![
            ("SATCHEL_SERVICE_URL", self.service.base_url.to_string()),
            ("SATCHEL_APP_ID", self.app_id.clone()),
            ("SATCHEL_APP_KEY", self.app_key.clone()),
            ("SATCHEL_APP_DOMAIN", self.domain.clone()),
            (
                "SATCHEL_NETWORKS_FILE",
                self.networks_file().display().to_string(),
            ),
        ]
    }

    /// The network table the desktop app trusts (`networks.toml`).
    pub fn networks_file(&self) -> PathBuf {
        self.data_dir.join("networks.toml")
    }

    pub fn env_file(&self) -> PathBuf {
        self.data_dir.join("app.env")
    }

    pub fn outbox(&self) -> PathBuf {
        self.data_dir.join("outbox")
    }

    pub fn config_file(&self) -> PathBuf {
        self.data_dir.join("service.toml")
    }

    /// Stops the service, then the chain, the OpenID provider and the example
    /// backend.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        self.service.shutdown().await?;
        drop(self.anvil);
        if let Some(mut oidc) = self.oidc.take() {
            oidc.stop().await?;
        }
        drop(self.example_backend.take());
        Ok(())
    }
}

/// Registers the loopback OpenID provider as the app's `google` (its id token,
/// checked against its JWKS) and `discord` (its userinfo endpoint, called with
/// the access token).
pub async fn register_providers(
    state: &satchel_service::AppState,
    app_id: &str,
    oidc: &OidcProvider,
) -> anyhow::Result<()> {
    let endpoints = oidc.endpoints().await?;
    let google = admin::OAuthProviderSetup {
        provider: Provider::Google,
        client_id: oidc.google.client_id.clone(),
        client_secret: oidc.google.client_secret.clone(),
        authorize_url: Some(endpoints.authorize_url.to_string()),
        token_url: Some(endpoints.token_url.to_string()),
        issuer: Some(endpoints.issuer.clone()),
        jwks_url: Some(endpoints.jwks_url.to_string()),
        userinfo_url: None,
        scopes: Some("openid email".into()),
    };
    let discord = admin::OAuthProviderSetup {
        provider: Provider::Discord,
        client_id: oidc.discord.client_id.clone(),
        client_secret: oidc.discord.client_secret.clone(),
        authorize_url: Some(endpoints.authorize_url.to_string()),
        token_url: Some(endpoints.token_url.to_string()),
        issuer: None,
        jwks_url: None,
        userinfo_url: Some(endpoints.userinfo_url.to_string()),
        scopes: Some("openid email".into()),
    };
    admin::set_oauth_provider(state, app_id, google).await?;
    admin::set_oauth_provider(state, app_id, discord).await?;
    Ok(())
}

/// Starts the app's example backend and registers its tokens with the service:
/// its login public key, its issuer and its JWKS.
pub async fn start_example_backend(
    state: &satchel_service::AppState,
    app_id: &str,
) -> anyhow::Result<ExampleBackend> {
    let backend = ExampleBackend::start(app_id).await?;
    admin::set_external_token(
        state,
        app_id,
        admin::ExternalTokenSetup {
            public_key: backend.login_public_key(),
            issuer: backend.issuer(),
            audience: String::new(),
            jwks_url: backend.jwks_url().to_string(),
        },
    )
    .await?;
    Ok(backend)
}

#[cfg(test)]
mod tests {
    use satchel_api::{AppInfo, LoginResult, Provider, headers};
    use serde_json::{Value, json};

    use super::*;

    /// A call of the demo app to its service, as the login library makes it.
    fn call(stack: &LocalStack, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        reqwest::Client::new()
            .request(method, stack.service.base_url.join(path).expect("a path"))
            .header(headers::API_KEY, &stack.app_key)
            .header(headers::API_DOMAIN, &stack.domain)
            .header(headers::SDK_TYPE, "desktop-login")
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_demo_app_takes_the_demo_google_discord_and_its_backends_tokens() {
        let data = tempfile::tempdir().expect("temp dir");
        let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack")))
            .await
            .expect("the stack starts");
        let oidc = stack.oidc.as_ref().expect("the OpenID provider");
        let backend = stack.example_backend.as_ref().expect("the example backend");
        assert_eq!(backend.app_id(), stack.app_id);

        // The app's login options: e-mail, both providers at the loopback
        // provider with their own clients, and external tokens.
        let info: AppInfo = call(&stack, reqwest::Method::GET, "v1/app")
            .send()
            .await
            .expect("GET /v1/app")
            .error_for_status()
            .expect("the app's info")
            .json()
            .await
            .expect("AppInfo");
        for provider in [
            Provider::Email,
            Provider::Google,
            Provider::Discord,
            Provider::ExternalToken,
        ] {
            assert!(
                info.providers.contains(&provider),
                "{provider:?} in {info:?}"
            );
        }
        let client = |provider| {
            info.oauth
                .iter()
                .find(|o| o.provider == provider)
                .unwrap_or_else(|| panic!("{provider:?} registered"))
        };
        let endpoints = oidc.endpoints().await.expect("discovery");
        for (provider, registered) in [
            (Provider::Google, &oidc.google),
            (Provider::Discord, &oidc.discord),
        ] {
            let info = client(provider);
            assert_eq!(info.client_id, registered.client_id);
            assert_eq!(info.authorize_url, endpoints.authorize_url.as_str());
        }

        // An id token from the app's backend (its HTTP route, as an application
        // calls it) logs in.
        let answer: Value = reqwest::Client::new()
            .post(backend.login_url())
            .json(&json!({"userId": "backend-user-1", "email": "backend1@example.com"}))
            .send()
            .await
            .expect("POST /login")
            .json()
            .await
            .expect("{token, sign}");
        let login = call(&stack, reqwest::Method::POST, "v1/auth/external/id-token")
            .json(&json!({"token": answer["token"], "sign": answer["sign"]}))
            .send()
            .await
            .expect("the id token login");
        assert_eq!(login.status(), reqwest::StatusCode::OK);
        let result: LoginResult = login.json().await.expect("LoginResult");
        assert_eq!(result.provider, Provider::ExternalToken);

        // One without an e-mail is asked for one.
        let (token, sign) = backend.login_token("backend-user-2", None);
        let refused = call(&stack, reqwest::Method::POST, "v1/auth/external/id-token")
            .json(&json!({"token": token, "sign": sign}))
            .send()
            .await
            .expect("the id token login");
        assert_eq!(refused.status(), reqwest::StatusCode::PRECONDITION_REQUIRED);

        stack.stop().await.expect("the stack stops");
    }
}
