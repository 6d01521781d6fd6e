//! What a wallet holds: balances and NFTs read from the networks' nodes
//! ([`refresh`]) and their shapes in the spec's answers ([`views`]).

pub mod approvals;
pub mod balances;
pub mod prices;
pub mod refresh;
pub mod tokens;
pub mod views;
