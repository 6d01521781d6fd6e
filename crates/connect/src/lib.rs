//! Satchel as the wallet of other programs: an EIP-1193 provider served as
//! JSON-RPC 2.0 over HTTP on `127.0.0.1` (Frame's port, 1248, by default), for
//! dapps in a browser and programs on the same computer.
//!
//! Framework-free like the SDK: the desktop shell hosts it and answers what a
//! request needs from the wallet through [`Wallet`]. The parts, one way down:
//! - [`rpc`]: the JSON-RPC envelope (single requests and bounded batches) and
//!   the EIP-1193 / EIP-1474 error codes;
//! - [`origin`]: who is asking (a web page's `Origin`, or a program on this
//!   computer) and [`permissions`]: which of them the person connected, kept in
//!   the app's data folder;
//! - [`door`]: what a request must be before anything reads it (the `Host` a
//!   DNS-rebinding page cannot fake, JSON only, bounded size, CORS with Private
//!   Network Access);
//! - [`review`]: what the person is shown for a request that signs (the text or
//!   sign-in of a message, typed data as a tree, permits in words), derived with
//!   what the key signs;
//! - [`wallet`]: what a request needs from the shell ([`Wallet`]) and what the
//!   person is asked ([`Ask`]);
//! - [`methods`]: what each method does, over [`Wallet`];
//! - [`server`]: the HTTP transport and [`socket`]: the WebSocket one, with
//!   subscriptions (`newHeads`, `accountsChanged`, `chainChanged`). A
//!   WalletConnect transport would sit beside them and call [`methods`] the
//!   same way.

pub mod allowance;
pub mod batches;
pub mod door;
pub mod extension;
pub mod methods;
pub mod origin;
pub mod permissions;
pub mod review;
pub mod rpc;
pub mod server;
pub mod socket;
pub mod wallet;

pub use extension::{Extensions, LinkedExtension};
pub use origin::Origin;
pub use permissions::Permissions;
pub use review::permit::TokenFacts;
pub use rpc::ProviderError;
pub use server::{DEFAULT_PORT, Provider};
pub use wallet::{Answer, Ask, Wallet, WidgetApp};
