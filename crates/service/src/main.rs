//! `satchel-service`: run the wallet service, or act on it as its operator.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use satchel_service::{AppState, Settings, admin};

#[derive(Parser)]
#[command(
    name = "satchel-service",
    version,
    about = "The Satchel wallet service"
)]
struct Cli {
    /// Settings file (TOML). Environment variables override it.
    #[arg(long, short, env = "SATCHEL_CONFIG", global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Parsed once at start: its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Serve the REST interface (the default).
    Serve,
    /// Operator actions on apps, users, wallets and tokens.
    #[command(subcommand)]
    Admin(Admin),
    /// Print the OpenAPI document.
    Openapi,
}

#[derive(Subcommand)]
enum Admin {
    /// Create an app; prints its id and its key (shown only this once).
    CreateApp {
        #[arg(long)]
        name: String,
        /// A domain the app calls from (X-API-DOMAIN); repeat for more.
        #[arg(long = "domain", required = true)]
        domains: Vec<String>,
        /// A login provider the app allows; repeat for more.
        #[arg(long = "provider", default_value = "email")]
        providers: Vec<String>,
        /// Let e-mail users log in without verifying their address first.
        #[arg(long)]
        no_email_verification: bool,
        /// Limit e-mail sign-up to this domain; repeat for more.
        #[arg(long = "email-domain")]
        email_domains: Vec<String>,
    },
    /// Register one more domain an app calls from: a web page's host, or a
    /// desktop application's bundle identifier (`com.example.game`).
    AddDomain {
        #[arg(long)]
        app: String,
        #[arg(long)]
        domain: String,
    },
    /// Create an e-mail user of an app with a verified address; prints the user id.
    CreateUser {
        #[arg(long)]
        app: String,
        #[arg(long)]
        email: String,
        /// The user's password. Env: SATCHEL_NEW_USER_PASSWORD.
        #[arg(long, env = "SATCHEL_NEW_USER_PASSWORD", hide_env_values = true)]
        password: String,
    },
    /// Create a user's wallet with this address on every configured network.
    CreateWallet {
        #[arg(long)]
        user: String,
        #[arg(long)]
        address: String,
    },
    /// Register an OAuth provider for an app (and allow logins through it). The
    /// endpoints default to the real provider's; give them all for a stand-in.
    SetOauthProvider {
        #[arg(long)]
        app: String,
        /// google, apple, line (OpenID: id token), naver, discord, facebook
        /// (userinfo).
        #[arg(long)]
        provider: String,
        #[arg(long)]
        client_id: String,
        /// The client secret (sealed before it is stored). Env: SATCHEL_OAUTH_CLIENT_SECRET.
        #[arg(long, env = "SATCHEL_OAUTH_CLIENT_SECRET", hide_env_values = true)]
        client_secret: String,
        #[arg(long)]
        authorize_url: Option<String>,
        #[arg(long)]
        token_url: Option<String>,
        #[arg(long)]
        issuer: Option<String>,
        #[arg(long)]
        jwks_url: Option<String>,
        #[arg(long)]
        userinfo_url: Option<String>,
        /// Space-separated scopes.
        #[arg(long)]
        scopes: Option<String>,
    },
    /// Set up external tokens for an app (loginWithIdToken, loginWithAccessToken):
    /// the public key of its authentication key, and its id tokens' issuer,
    /// audience (default: the app id) and JWKS URL.
    SetExternalToken {
        #[arg(long)]
        app: String,
        /// The secp256k1 public key, SEC1 hex (compressed or not).
        #[arg(long)]
        public_key: String,
        #[arg(long)]
        issuer: String,
        #[arg(long, default_value = "")]
        audience: String,
        #[arg(long)]
        jwks_url: String,
    },
    /// Seed USERS users (seed-u-1 ...) with a wallet of ACCOUNTS accounts each,
    /// for benchmarks: the database makes the rows, so a million take minutes.
    Seed {
        #[arg(long)]
        app: String,
        #[arg(long)]
        users: u64,
        #[arg(long, default_value_t = 10)]
        accounts: u64,
    },
    /// Add a new token signing key: published at once, signing in 10 minutes
    /// (every instance reads the keys each minute); the current key then
    /// retires and verifies until its tokens expire. Prints the new kid.
    RotateSigningKey,
    /// Open a session for a user and print an access token for it.
    MintToken {
        #[arg(long)]
        user: String,
        /// Lifetime in seconds.
        #[arg(long, default_value_t = 900)]
        ttl: i64,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    if let Some(Command::Openapi) = cli.command {
        println!("{}", satchel_service::http::openapi().to_pretty_json()?);
        return Ok(());
    }
    let settings = Settings::load(cli.config.as_deref())?;
    let state = AppState::new(settings).await?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve | Command::Openapi => {
            let listener = tokio::net::TcpListener::bind(state.settings.bind).await?;
            tracing::info!(address = %listener.local_addr()?, "serving");
            satchel_service::serve(state, listener, async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        }
        Command::Admin(action) => run_admin(&state, action).await?,
    }
    Ok(())
}

async fn run_admin(state: &AppState, action: Admin) -> anyhow::Result<()> {
    match action {
        Admin::CreateApp {
            name,
            domains,
            providers,
            no_email_verification,
            email_domains,
        } => {
            let providers = providers
                .iter()
                .map(|p| {
                    satchel_api::Provider::parse(p)
                        .ok_or_else(|| anyhow::anyhow!("unknown provider {p}"))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let app = admin::create_app(&state.db, &name, &domains).await?;
            state
                .db
                .set_app_policy(
                    &app.app_id,
                    &providers,
                    !no_email_verification,
                    &email_domains,
                )
                .await?;
            println!("app_id={}\napp_key={}", app.app_id, app.app_key);
        }
        Admin::AddDomain { app, domain } => {
            anyhow::ensure!(
                state.db.app(&app).await?.is_some(),
                "no app {app}: create-app prints the id"
            );
            state.db.add_app_domain(&app, &domain).await?;
            println!("{app} may call from {domain}");
        }
        Admin::CreateUser {
            app,
            email,
            password,
        } => {
            let user_id = admin::create_email_account(state, &app, &email, &password).await?;
            println!("user_id={user_id}");
        }
        Admin::CreateWallet { user, address } => {
            println!(
                "wallet_id={}",
                admin::create_wallet(state, &user, &address).await?
            );
        }
        Admin::SetOauthProvider {
            app,
            provider,
            client_id,
            client_secret,
            authorize_url,
            token_url,
            issuer,
            jwks_url,
            userinfo_url,
            scopes,
        } => {
            let provider = satchel_api::Provider::parse(&provider)
                .ok_or_else(|| anyhow::anyhow!("unknown provider {provider}"))?;
            admin::set_oauth_provider(
                state,
                &app,
                admin::OAuthProviderSetup {
                    provider,
                    client_id,
                    client_secret,
                    authorize_url,
                    token_url,
                    issuer,
                    jwks_url,
                    userinfo_url,
                    scopes,
                },
            )
            .await?;
            println!("{} registered for {app}", provider.as_str());
        }
        Admin::SetExternalToken {
            app,
            public_key,
            issuer,
            audience,
            jwks_url,
        } => {
            admin::set_external_token(
                state,
                &app,
                admin::ExternalTokenSetup {
                    public_key,
                    issuer,
                    audience,
                    jwks_url,
                },
            )
            .await?;
            println!("external tokens set up for {app}");
        }
        Admin::Seed {
            app,
            users,
            accounts,
        } => {
            let started = std::time::Instant::now();
            admin::seed(state, &app, users, accounts).await?;
            println!(
                "seeded {users} users with {accounts} accounts each in {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
        Admin::MintToken { user, ttl } => {
            println!("{}", admin::mint_access_token(state, &user, ttl).await?);
        }
        Admin::RotateSigningKey => {
            let kid =
                satchel_service::identity::tokens::SigningKeys::rotate(&state.db, &state.pin_keys)
                    .await?;
            println!("kid={kid}");
        }
    }
    Ok(())
}
