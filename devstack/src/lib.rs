//! The local stack: an anvil dev chain, the demo contracts with metadata that reads
//! offline, a demo app, the service on SQLite, and the demo app's other ways in (a
//! loopback OpenID provider, an example app backend). The `satchel-devstack` binary
//! runs it for a person; the end-to-end tests start one per test from here.

pub mod anvil;
pub mod browser;
pub mod dapp;
pub mod demo;
pub mod example_backend;
pub mod faucet;
pub mod oidc;
pub mod outbox;
pub mod service;
pub mod stack;
mod startup;

pub use anvil::Anvil;
pub use browser::Browser;
pub use dapp::ExampleDapp;
pub use demo::{DEPLOYER_KEY, Demo};
pub use example_backend::ExampleBackend;
pub use faucet::with_faucet;
pub use oidc::{OAuthClient, OidcProvider, ProviderEndpoints};
pub use service::RunningService;
pub use stack::{
    DEMO_EMAIL, DEMO_PASSWORD, DEMO_PROVIDER_LOGIN, LocalStack, StackOptions, mail_links,
    open_link, verification_link,
};

/// A TCP port that was free a moment ago, for programs that cannot be given port 0.
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind(("127.0.0.1", 0))?
        .local_addr()?
        .port())
}

/// A test's real dependency (`POSTGRES`, `KEYCHAIN`, `UI`) is missing: the test
/// fails, so `cargo test` never passes by testing nothing, unless
/// `SATCHEL_SKIP_<NAME>=1` says to skip it. A skip is printed and written as a
/// line to the file `SATCHEL_SKIPPED_FILE` names, which the test command counts.
pub fn missing_dependency(name: &str, why: &str) {
    let switch = format!("SATCHEL_SKIP_{name}");
    assert!(
        std::env::var(&switch).as_deref() == Ok("1"),
        "{why}; {switch}=1 skips these tests"
    );
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    eprintln!("skipped ({name}): {test}: {why}");
    if let Ok(path) = std::env::var("SATCHEL_SKIPPED_FILE") {
        use std::io::Write as _;
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(file, "{name} {test}");
        }
    }
}
