//! The local stack: an anvil dev chain, the demo contracts with metadata that reads
//! offline, a demo app, and the service on SQLite. The `satchel-devstack` binary
//! runs it for a person; the end-to-end tests start one per test from here.

pub mod anvil;
pub mod demo;
pub mod faucet;
pub mod service;
pub mod stack;

pub use anvil::Anvil;
pub use demo::{DEPLOYER_KEY, Demo};
pub use faucet::with_faucet;
pub use service::RunningService;
pub use stack::{DEMO_EMAIL, DEMO_PASSWORD, LocalStack, StackOptions, verification_link};

/// A TCP port that was free a moment ago, for programs that cannot be given port 0.
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind(("127.0.0.1", 0))?
        .local_addr()?
        .port())
}
