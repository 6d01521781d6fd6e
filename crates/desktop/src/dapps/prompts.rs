//! What the page shows for each prompt: the ask as the person reads it
//! (what the request derived, and what the device read beside it: a
//! transaction's preparation, a suggested token's facts).

use satchel_api::AddableToken;
use satchel_connect::Ask;
use satchel_connect::review::asset::AssetToWatch;
use satchel_connect::review::message::MessageReview;
use satchel_connect::review::transaction::{CallReview, TransactionToSend};
use satchel_connect::review::typed::TypedReview;
use satchel_sdk::{CallQuote, FeeSpeed, SdkError};
use serde::Serialize;

/// An ask the page shows.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ConnectPrompt {
    pub id: u64,
    /// Who asks: a web origin, or "a program on this computer".
    pub origin: String,
    /// A program on this computer rather than a web page.
    pub local: bool,
    /// How many more prompts wait after this one.
    pub waiting: u32,
    /// What it asks.
    pub request: PromptRequest,
}

/// A site or program switched its network (`wallet_switchEthereumChain`):
/// the window tells the person, as its later pages check against it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SiteSwitched {
    /// Counts the switches told, so two alike are two notices.
    pub id: u64,
    pub origin: String,
    pub local: bool,
    /// The network's name in the app's table, and its chain id.
    pub network: String,
    pub chain_id: u64,
}

/// What an application asks the person, as the page shows it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum PromptRequest {
    /// Connect: it will see the wallet's address.
    Connect(ConnectAsk),
    /// Sign a message (text, hex, or a sign-in).
    SignMessage(MessageReview),
    /// Sign typed data (EIP-712).
    SignTypedData(TypedReview),
    /// Send a transaction.
    SendTransaction(Box<TransactionPrompt>),
    /// Send a batch of calls, one after another (`wallet_sendCalls`).
    SendCalls(CallsPrompt),
    /// List a token the application suggests.
    WatchAsset(Box<WatchAssetPrompt>),
    /// Use Satchel's widget for its own app (`satchel_init`).
    UseWidget(UseWidgetPrompt),
}

/// How a connect request came, which the page says: through Satchel
/// Connector (the browser named the site) or straight to Satchel's endpoint
/// (whatever sent it named the site, and a program on this computer can name any).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ConnectAsk {
    pub through_extension: bool,
}

/// A program that embeds Satchel's widget for its own app: its people log in
/// and keep wallets of that app, apart from this Satchel's own.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct UseWidgetPrompt {
    pub app_id: String,
    /// Its name as the service knows it (its key checked), not the program's claim.
    pub name: String,
    /// The domain (bundle identifier) it says it is registered under; the
    /// service checks it against the app key.
    pub domain: String,
}

/// A token an application suggests: what its contract says of itself (read
/// by the service now), and what the application claimed.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct WatchAssetPrompt {
    pub token: AddableToken,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked_symbol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked_decimals: Option<u32>,
    /// Why it will not be listed: the application's claim is not the chain's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
}

impl WatchAssetPrompt {
    fn new(asset: &AssetToWatch, token: AddableToken) -> Self {
        let symbol_differs = asset.symbol.as_ref().is_some_and(|s| *s != token.symbol);
        let decimals_differ = asset.decimals.is_some_and(|d| d != token.decimals);
        let refusal = (symbol_differs || decimals_differ).then(|| {
            format!(
                "The application calls this token {} with {} decimals, but its contract says {} with {}: it is not listed.",
                asset.symbol.as_deref().unwrap_or(&token.symbol),
                asset.decimals.unwrap_or(token.decimals),
                token.symbol,
                token.decimals
            )
        });
        Self {
            token,
            asked_symbol: asset.symbol.clone(),
            asked_decimals: asset.decimals,
            refusal,
        }
    }
}

/// What the shell read before showing a prompt.
pub(super) enum Prepared {
    Nothing,
    /// A transaction's preparation (fees, what it moves), or why it failed.
    Call(Box<Result<CallQuote, SdkError>>),
    /// Each call's of a batch.
    Calls(Vec<Result<CallQuote, SdkError>>),
    /// A suggested token's facts.
    Token(AddableToken),
}

/// A transaction an application asks for: what the device read of it, and the
/// service's preparation (fees, what it moves) or why it cannot be sent.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct TransactionPrompt {
    pub call: CallReview,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prepared: Option<CallQuote>,
    /// Why it will not be sent (it would fail, the balance is short…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
}

/// A batch of calls an application asks for, each as its own transaction
/// page would show it. Each was prepared on today's state: a call after the
/// first may fail alone yet succeed after the ones before it (a token approval,
/// then the swap that spends it); it is prepared again when its turn comes, and the
/// batch stops at the first that would fail then.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CallsPrompt {
    pub calls: Vec<TransactionPrompt>,
}

/// How the person confirms a transaction on its page.
#[derive(Debug, Clone, Copy)]
pub struct SendChoice {
    pub speed: FeeSpeed,
    pub accept_high_fee: bool,
}

fn not_prepared() -> SdkError {
    SdkError::service(
        satchel_api::ServiceErrorCode::ApiRequestError,
        "it was not prepared",
    )
}

impl TransactionPrompt {
    fn new(tx: &TransactionToSend, prepared: Result<CallQuote, SdkError>) -> Self {
        let (prepared, refusal) = match prepared {
            Ok(quote) => (Some(quote), None),
            Err(e) => (None, Some(e.message)),
        };
        Self {
            call: tx.review.clone(),
            prepared,
            refusal,
        }
    }
}

impl PromptRequest {
    pub(super) fn of(ask: &Ask, prepared: Prepared) -> Self {
        match ask {
            Ask::Connect { through_extension } => Self::Connect(ConnectAsk {
                through_extension: *through_extension,
            }),
            Ask::UseWidget(app) => Self::UseWidget(UseWidgetPrompt {
                app_id: app.app_id.clone(),
                name: app.name.clone(),
                domain: app.domain.clone(),
            }),
            Ask::SignMessage(m) => Self::SignMessage(m.review.clone()),
            Ask::SignTypedData(t) => Self::SignTypedData(t.review.clone()),
            Ask::WatchAsset(asset) => match prepared {
                Prepared::Token(token) => {
                    Self::WatchAsset(Box::new(WatchAssetPrompt::new(asset, token)))
                }
                // Always read before its page shows; shown refused otherwise.
                _ => Self::WatchAsset(Box::new(WatchAssetPrompt {
                    token: AddableToken {
                        contract: asset.contract.to_checksum(None),
                        network: asset.network.clone(),
                        name: String::new(),
                        symbol: String::new(),
                        decimals: 0,
                        balance: "0".into(),
                        tracked: false,
                        configured: false,
                    },
                    asked_symbol: asset.symbol.clone(),
                    asked_decimals: asset.decimals,
                    refusal: Some("the token was not read".into()),
                })),
            },
            Ask::SendTransaction(tx) => {
                let prepared = match prepared {
                    Prepared::Call(prepared) => *prepared,
                    _ => Err(not_prepared()),
                };
                Self::SendTransaction(Box::new(TransactionPrompt::new(tx, prepared)))
            }
            Ask::SendCalls(batch) => {
                let mut prepared = match prepared {
                    Prepared::Calls(quotes) => quotes,
                    _ => Vec::new(),
                }
                .into_iter();
                Self::SendCalls(CallsPrompt {
                    calls: batch
                        .calls
                        .iter()
                        .map(|call| {
                            TransactionPrompt::new(
                                call,
                                prepared.next().unwrap_or_else(|| Err(not_prepared())),
                            )
                        })
                        .collect(),
                })
            }
        }
    }

    /// The quote a transaction's page confirms (a batch's first call's).
    pub(super) fn quote_id(&self) -> Option<String> {
        let sendable = |tx: &TransactionPrompt| {
            tx.refusal
                .is_none()
                .then(|| tx.prepared.as_ref().map(|p| p.quote.quote_id.clone()))
                .flatten()
        };
        match self {
            Self::SendTransaction(tx) => sendable(tx),
            Self::SendCalls(batch) => batch.calls.first().and_then(sendable),
            _ => None,
        }
    }
}
