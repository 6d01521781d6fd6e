//! What a request needs from the wallet, as the shell that hosts the provider
//! gives it ([`Wallet`]), and what the person is asked and answers on an
//! approval page ([`Ask`], [`Answer`]).

use std::future::Future;

use alloy::primitives::Address;
use serde_json::Value;

use crate::origin::Origin;
use crate::review::asset::AssetToWatch;
use crate::review::calls::CallsToSend;
use crate::review::message::MessageToSign;
use crate::review::permit::TokenFacts;
use crate::review::transaction::TransactionToSend;
use crate::review::typed::TypedDataToSign;
use crate::rpc::ProviderError;

/// What the person is asked on an approval page.
#[derive(Debug, Clone, PartialEq)]
pub enum Ask {
    /// Connect this origin: it will see the wallet's address. The page says
    /// how the request came: through Satchel Connector (the browser named the
    /// site) or straight to the endpoint (whatever sent it named it).
    Connect { through_extension: bool },
    /// Sign a message (`personal_sign`), shown as text or a sign-in.
    SignMessage(MessageToSign),
    /// Sign EIP-712 typed data (`eth_signTypedData_v4`).
    SignTypedData(TypedDataToSign),
    /// Sign and send a transaction (`eth_sendTransaction`).
    SendTransaction(TransactionToSend),
    /// Sign and send a batch of calls, one after another (`wallet_sendCalls`).
    SendCalls(CallsToSend),
    /// List a token (`wallet_watchAsset`).
    WatchAsset(AssetToWatch),
    /// Let a program use Satchel's widget for its own app (`satchel_init`):
    /// its own users and wallets, shown in a window of their own.
    UseWidget(WidgetApp),
}

/// The application a program embeds Satchel's widget for: its app id, the
/// domain (bundle identifier) it is registered under at the service, and its
/// name as the service knows it (the app key checked, never the program's claim).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WidgetApp {
    pub app_id: String,
    pub domain: String,
    pub name: String,
}

impl Ask {
    /// One prompt of a kind per origin waits at a time (`-32002` for more).
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            // A program's request straight to Satchel and the extension's for
            // the same site are two pages, each saying how it came.
            Self::Connect {
                through_extension: false,
            } => "connect",
            Self::Connect {
                through_extension: true,
            } => "connect through the extension",
            Self::SignMessage(_) => "personal_sign",
            Self::SignTypedData(_) => "eth_signTypedData_v4",
            Self::SendTransaction(_) => "eth_sendTransaction",
            Self::SendCalls(_) => "wallet_sendCalls",
            Self::WatchAsset(_) => "wallet_watchAsset",
            Self::UseWidget(_) => "satchel_init",
        }
    }
}

/// What the person approved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The connection, with the accounts the person chose for it (checksummed,
    /// the first its selected one).
    Connected(Vec<String>),
    /// A signature (0x-hex, 65 bytes), made after the person's PIN.
    Signed(String),
    /// A transaction signed after the person's PIN and broadcast: its hash.
    Sent(String),
    /// A batch's calls signed and broadcast one after another: their hashes,
    /// and why the rest were not sent when the batch stopped early.
    SentCalls {
        hashes: Vec<String>,
        stopped: Option<String>,
    },
    /// The token is listed (now, or it was already).
    Watched,
    /// The program may use the widget for its app.
    WidgetAllowed,
}

/// What a request needs from the wallet; the desktop shell implements it over
/// the SDK (and its approval pages).
pub trait Wallet: Send + Sync + 'static {
    /// The logged-in wallet's addresses (checksummed), none when nobody is.
    fn accounts(&self) -> impl Future<Output = Vec<String>> + Send;
    /// The networks the app serves (its network table): name and chain id.
    fn networks(&self) -> Vec<(String, u64)>;
    /// A token the app's network table names on `network`.
    fn token(&self, network: &str, contract: Address) -> Option<TokenFacts>;
    /// Changes whenever who is logged in (and so the accounts) may have
    /// changed: the WebSocket's `accountsChanged` is recomputed on it.
    fn changes(&self) -> tokio::sync::watch::Receiver<u64>;
    /// A read call relayed to `network`'s node through the service.
    fn read(
        &self,
        network: &str,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<Value, ProviderError>> + Send;
    /// `network`'s newest block header (as `eth_getBlockByNumber`) once it is
    /// past block `after` (at once when none), waiting a while for it; the
    /// newest then, which may be no newer. What `newHeads` subscribers are told.
    fn next_head(
        &self,
        network: &str,
        after: Option<u64>,
    ) -> impl Future<Output = Result<Value, ProviderError>> + Send;
    /// `origin` switched to `network` (`wallet_switchEthereumChain`): what
    /// its later pages check against changed, so the person is told.
    fn switched(&self, _origin: &Origin, _network: &str, _chain_id: u64) {}
    /// Asks the person on an approval page showing `origin`: what they
    /// approved, or [`ProviderError::rejected`] when they reject it or close
    /// the window. A signature is made only for a review without a refusal.
    fn ask(
        &self,
        origin: &Origin,
        ask: Ask,
    ) -> impl Future<Output = Result<Answer, ProviderError>> + Send;
    /// Brings the wallet's window forward on its activity, where a batch's
    /// transactions are (`wallet_showCallsStatus`); by default nothing.
    fn show_activity(&self) {}
    /// The widget's methods for a program that embeds it (`satchel_<method>`,
    /// the spec's widget SDK names); by default there are none.
    fn widget_method(
        &self,
        origin: &Origin,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<Value, ProviderError>> + Send {
        let _ = (origin, params);
        let missing = ProviderError::method_not_found(&format!("satchel_{method}"));
        async move { Err(missing) }
    }
}
