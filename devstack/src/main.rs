//! `satchel-devstack`: the local stack for a person trying Satchel. Starts anvil,
//! deploys the demo contracts, creates the demo app and a funded demo user, and
//! serves the service on SQLite until Ctrl-C.

use std::path::PathBuf;

use clap::Parser;
use satchel_devstack::{Anvil, Demo, RunningService};
use satchel_service::{Settings, admin};

#[derive(Parser)]
#[command(about = "Run Satchel's local stack: dev chain, demo contracts, demo app, service")]
struct Args {
    /// Folder for the SQLite database and the files the desktop app reads.
    /// It is emptied at every start, as the dev chain starts empty too.
    #[arg(long, default_value = ".devstack")]
    data_dir: PathBuf,
    #[arg(long, default_value_t = 8545)]
    anvil_port: u16,
    #[arg(long, default_value_t = 8787)]
    service_port: u16,
    /// The domain the demo app calls from (X-API-DOMAIN).
    #[arg(long, default_value = "localhost")]
    domain: String,
}

/// The demo user's login.
const DEMO_EMAIL: &str = "demo@satchel.dev";
const DEMO_PASSWORD: &str = "satchel-demo1";

/// Gives every new wallet on the dev chain what a demo wallet shows (ether, both
/// tokens, NFTs) a moment after it is registered, so a person who signs up and
/// chooses a PIN sees a wallet with something in it.
async fn faucet(state: satchel_service::AppState, demo: Demo) {
    let mut funded = std::collections::HashSet::new();
    loop {
        match state.db.network_addresses("anvil").await {
            Ok(addresses) => {
                for address in addresses {
                    if funded.contains(&address) {
                        continue;
                    }
                    match address.parse() {
                        Ok(parsed) => match demo.fund(parsed).await {
                            Ok(()) => {
                                tracing::info!(%address, "faucet: funded a new wallet");
                                funded.insert(address);
                            }
                            Err(e) => {
                                tracing::warn!(%address, error = %e, "faucet: funding failed")
                            }
                        },
                        Err(_) => {
                            funded.insert(address);
                        }
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "faucet: cannot list wallets"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}

/// Ctrl-C, or the SIGTERM a script's `kill` sends: either stops the stack cleanly,
/// so the dev chain goes with it.
async fn stop_requested() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            result = tokio::signal::ctrl_c() => result,
            _ = terminate.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .init();
    let args = Args::parse();
    if args.data_dir.exists() {
        std::fs::remove_dir_all(&args.data_dir)?;
    }
    std::fs::create_dir_all(&args.data_dir)?;
    let data_dir = std::fs::canonicalize(&args.data_dir)?;

    let anvil = Anvil::spawn_on(args.anvil_port).await?;
    let demo = Demo::deploy(&anvil.url).await?;
    let settings = Settings {
        bind: ([127, 0, 0, 1], args.service_port).into(),
        data_dir: data_dir.clone(),
        public_url: format!("http://127.0.0.1:{}/", args.service_port).parse()?,
        networks: vec![demo.network_config("anvil")],
        ..Settings::default()
    };
    std::fs::write(
        data_dir.join("service.toml"),
        toml::to_string_pretty(&settings)?,
    )?;
    let service = RunningService::start(settings).await?;

    let app = admin::create_app(
        &service.state.db,
        "Satchel Demo",
        std::slice::from_ref(&args.domain),
    )
    .await?;
    let user_id =
        admin::create_email_account(&service.state, &app.app_id, DEMO_EMAIL, DEMO_PASSWORD).await?;
    tokio::spawn(faucet(service.state.clone(), demo.clone()));

    let env_file = data_dir.join("app.env");
    std::fs::write(
        &env_file,
        format!(
            "SATCHEL_SERVICE_URL={}\nSATCHEL_APP_ID={}\nSATCHEL_APP_KEY={}\nSATCHEL_APP_DOMAIN={}\n",
            service.base_url, app.app_id, app.app_key, args.domain
        ),
    )?;
    println!(
        "Satchel local stack is up.\n\
         \x20 dev chain     {anvil}\n\
         \x20 service       {service}  (OpenAPI: {service}v1/openapi.json)\n\
         \x20 demo app      id {app_id}, domain {domain}; key in {env}\n\
         \x20 demo user     {DEMO_EMAIL} / {DEMO_PASSWORD}  user {user_id} (registers on first login)\n\
         \x20 faucet        every new wallet gets 10 ETH, DEMO, DUSD and NFTs\n\
         \x20 e-mails       {outbox} (verification links of new sign-ups)\n\
         \x20 access token  satchel-service --config {config} admin mint-token --user {user_id}\n\
         Press Ctrl-C to stop.",
        anvil = anvil.url,
        service = service.base_url,
        app_id = app.app_id,
        domain = args.domain,
        env = env_file.display(),
        config = data_dir.join("service.toml").display(),
        outbox = data_dir.join("outbox").display(),
    );
    stop_requested().await?;
    service.shutdown().await?;
    drop(anvil);
    Ok(())
}
