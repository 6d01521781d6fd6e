//! Satchel's client: the login library ([`Login`]), the widget core ([`Widget`]),
//! the REST client, the keychain (everything kept secret on the device) and the
//! wallet key vault. Plain Rust, no Tauri; the desktop shell forwards to it.
//!
//! Tokens live in a [`TokenStore`]: the OS keychain in the app, memory in unit
//! tests. They never reach a log line (their `Debug` is redacted) or a web page.

mod client;
mod error;
pub mod keychain;
mod login;
pub mod thumbnail;
pub mod timing;
pub mod vault;
mod widget;

pub use client::{Answer, Caller, RestClient, ServiceConfig};
pub use error::{ErrorCode, OrUnknown, SdkError, SdkErrorCode};
pub use keychain::session::StoredSession;
pub use keychain::{KeyringStore, MemoryStore, StoreError, TokenStore};
pub use login::{Login, OpenUrl, SignUpWait, get_sign_for_login};
pub use satchel_api as api;
pub use satchel_chain::networks::{KnownNetwork, KnownToken, NetworkTable};
pub use thumbnail::{ThumbnailSize, Thumbnails};
pub use widget::{
    AccountRef, ActivityEntry, ActivityKind, AddressCheck, ApprovalEntry, CallQuote,
    CollectionChoices, ConfirmSend, ExpectedApproval, ExpectedChange, ExternalLoginOutcome,
    FeeOption, FeeSpeed, HighFee, ImportOutcome, KeyState, KeyStatus, LANGUAGES, LanguageRequest,
    LoginOptions, LoginProviderChoice, MAX_TILES, NftFilter, NftGrid, NftSendForm, NftSent,
    NftTile, NftTiles, OwnToken, REFRESH_COOLDOWN, ReceiveInfo, RecipientWarning, Refresh,
    RegisterEmailPrompt, RelayRefusal, ReplaceAction, Replacement, RevokeForm, SavedAddress,
    SendForm, SendQuote, SendRequest, SendResult, TxData, WalletAccount, Widget, check_address,
    payment_uri, qr_png,
};
