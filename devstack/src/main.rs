//! `satchel-devstack`: the local stack for a person trying Satchel. Starts anvil,
//! deploys the demo contracts, creates the demo app and a funded demo user, starts
//! the demo app's "Google" and "Discord" (a loopback OpenID provider) and its
//! example backend, and serves the service on SQLite until Ctrl-C.

use std::path::PathBuf;

use clap::Parser;
use satchel_devstack::{
    DEMO_EMAIL, DEMO_PASSWORD, DEMO_PROVIDER_LOGIN, ExampleDapp, LocalStack, StackOptions,
};

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
    /// Give this address what a demo wallet gets (ether, both tokens, NFTs) once
    /// the stack is up, as the faucet does for a registered wallet; repeat for
    /// more. For wallets made with `satchel-service admin create-wallet`.
    #[arg(long = "fund", value_name = "ADDRESS")]
    fund: Vec<alloy::primitives::Address>,
    /// Leave out the demo "Google" and "Discord" (a loopback OpenID provider run
    /// by `node`) and the example app backend: e-mail logins only.
    #[arg(long)]
    no_identity_providers: bool,
    /// The service's database: a fresh `postgres://` one, say; default a SQLite
    /// file in the data folder.
    #[arg(long)]
    database_url: Option<String>,
    /// The example dapp's port (examples/dapp, a page that uses the desktop app
    /// as its wallet); 0 leaves it out.
    #[arg(long, default_value_t = satchel_devstack::dapp::DAPP_PORT)]
    dapp_port: u16,
    /// The desktop app's provider port, which the example dapp talks to.
    #[arg(long, default_value_t = 1248)]
    provider_port: u16,
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

/// The demo "Google" and "Discord" and the example backend, as lines of the
/// banner (none when they were left out).
fn identity_lines(stack: &LocalStack) -> String {
    let mut lines = String::new();
    if stack.oidc.is_some() {
        lines.push_str(&format!(
            "\x20 demo Google   and Discord (the app's buttons): log in as {DEMO_PROVIDER_LOGIN}, any password,\n\
             \x20               in the browser that opens (or ada; noemail has no e-mail: the app asks for one)\n"
        ));
    }
    if let Some(backend) = &stack.example_backend {
        lines.push_str(&format!(
            "\x20 app backend   {base}  the demo app's id tokens for loginWithIdToken:\n\
             \x20               curl -s {login} -H 'content-type: application/json' -d '{{\"userId\":\"u1\",\"email\":\"u1@example.com\"}}'\n",
            base = backend.issuer(),
            login = backend.login_url(),
        ));
    }
    lines
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
    let stack = LocalStack::start(StackOptions {
        data_dir: args.data_dir,
        anvil_port: args.anvil_port,
        service_port: args.service_port,
        domain: args.domain,
        identity_providers: !args.no_identity_providers,
        database_url: args.database_url,
        max_nfts_per_account: None,
    })
    .await?;
    for address in &args.fund {
        stack.demo.fund(*address).await?;
    }
    let market = tokio::spawn(stack.demo.clone().move_prices());
    let provider_url = format!("http://127.0.0.1:{}", args.provider_port);
    let dapp = if args.dapp_port == 0 {
        None
    } else {
        Some(ExampleDapp::serve(args.dapp_port, &stack.demo, &provider_url).await)
    };
    let dapp_line = match &dapp {
        None => String::new(),
        Some(Ok(dapp)) => format!(
            "\x20 example dapp  {}  (a page that uses the app as its wallet, at {provider_url})\n",
            dapp.url
        ),
        Some(Err(e)) => format!("\x20 example dapp  not served: {e}\n"),
    };
    println!(
        "Satchel local stack is up.\n\
         \x20 dev chain     {anvil}\n\
         \x20 service       {service}  (OpenAPI: {service}v1/openapi.json)\n\
         \x20 demo app      id {app_id}, domain {domain}; key in {env}\n\
         \x20 demo user     {DEMO_EMAIL} / {DEMO_PASSWORD}  user {user_id} (registers on first login)\n\
         {identity}\
         {dapp_line}\
         \x20 faucet        every new wallet gets 10 ETH, DEMO, DUSD and NFTs\n\
         \x20 prices        demo feeds (USD, EUR) move a little every minute\n\
         \x20 e-mails       {outbox} (verification links of new sign-ups)\n\
         \x20 access token  satchel-service --config {config} admin mint-token --user {user_id}\n\
         Press Ctrl-C to stop.",
        anvil = stack.anvil.url,
        service = stack.service.base_url,
        app_id = stack.app_id,
        domain = stack.domain,
        env = stack.env_file().display(),
        user_id = stack.demo_user_id,
        config = stack.config_file().display(),
        outbox = stack.outbox().display(),
        identity = identity_lines(&stack),
    );
    stop_requested().await?;
    market.abort();
    stack.stop().await
}
