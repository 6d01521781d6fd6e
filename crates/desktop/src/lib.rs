//! What a desktop host of Satchel's widget decides without Tauri: where its
//! settings come from (`config`), its way to the service (`connection`), and
//! the local provider's prompt queue for dapps and programs (`dapps`), the
//! spec's application methods (`application`) and those methods for programs
//! that are not Tauri apps (`embedded`). The
//! Tauri plugin (`tauri-plugin-satchel`) and the Satchel app are thin shells
//! over this crate and `satchel-sdk`; the benchmarks use it directly.

pub mod application;
pub mod config;
pub mod connection;
pub mod dapps;
pub mod embedded;

pub use config::{AppConfig, ConfigError};
pub use connection::Connection;
pub use dapps::Dapps;
pub use embedded::{Embedded, Guest, GuestHost};
