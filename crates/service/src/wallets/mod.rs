//! Wallets: registering one with its first accounts ([`register`]), the PIN
//! material that guards its key ([`pin`]) and the checks of what a device sends
//! for them ([`checks`]).

pub mod checks;
pub mod pin;
pub mod register;

pub use register::{create, register};
