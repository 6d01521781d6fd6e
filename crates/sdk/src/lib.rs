//! Satchel's client: the login library, the widget core, the REST client and the
//! token store. Plain Rust, no Tauri; the desktop shell forwards to it.

pub use satchel_api as api;
