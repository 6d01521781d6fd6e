//! Wallets: registering one with its first accounts ([`register`]), adding and
//! naming further accounts ([`accounts`]), the PIN material that guards its key
//! ([`pin`]) and the checks of what a device sends for them ([`checks`]).

pub mod accounts;
pub mod checks;
pub mod pin;
pub mod register;

pub use register::{create, register};
