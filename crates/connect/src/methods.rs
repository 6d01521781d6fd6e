//! What each method does, for an origin, over the [`Wallet`] the shell gives:
//! the local answers (chain, accounts, permissions), the reads relayed to the
//! network's node through the service, and the requests the person approves.
//! Whatever a request carries is the caller's and hostile: parameters are
//! checked here before anything acts on them. Connecting an origin is in
//! `methods/connection.rs`, EIP-5792's batches in `methods/eip5792.rs`.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use alloy::primitives::Address;

use crate::allowance::ReadAllowance;
use crate::batches::Batches;
use crate::origin::Origin;
use crate::permissions::Permissions;
use crate::review::asset;
use crate::review::message;
use crate::review::transaction;
use crate::review::typed;
use crate::rpc::{ProviderError, Request};
use crate::wallet::{Answer, Ask, Wallet};

mod connection;
mod eip5792;

/// Read methods relayed to the network's node (the service's relay checks its
/// own allow-list and limits too). A page the person never connected reads
/// within a small allowance of its own ([`ReadAllowance`]): it cannot spend
/// the person's.
pub const READS: &[&str] = &[
    "eth_blockNumber",
    "eth_call",
    "eth_estimateGas",
    "eth_feeHistory",
    "eth_gasPrice",
    "eth_getBalance",
    "eth_getBlockByHash",
    "eth_getBlockByNumber",
    "eth_getCode",
    "eth_getLogs",
    "eth_getStorageAt",
    "eth_getTransactionByHash",
    "eth_getTransactionCount",
    "eth_getTransactionReceipt",
    "eth_maxPriorityFeePerGas",
];

/// Filter methods, which Satchel does not serve (a filter is state kept for a
/// client that may never come back): refused with -32601 and what to use.
const FILTERS: &[&str] = &[
    "eth_newFilter",
    "eth_newBlockFilter",
    "eth_newPendingTransactionFilter",
    "eth_getFilterChanges",
    "eth_getFilterLogs",
    "eth_uninstallFilter",
];

/// The widget's methods for programs that embed it: `satchel_init`,
/// `satchel_loginWithUI`… (the widget SDK's names after the prefix).
pub const WIDGET_PREFIX: &str = "satchel_";

/// How a request came: straight to the endpoint, or through Satchel's browser
/// extension (which names the page by what the browser says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Direct,
    Extension,
}

/// The methods, for every transport.
pub struct Methods<W> {
    wallet: Arc<W>,
    permissions: Arc<Permissions>,
    /// The prompts waiting, by origin and kind.
    asking: Mutex<HashSet<(Origin, &'static str)>>,
    /// What pages not connected may still read.
    reads_before_connecting: ReadAllowance,
    /// The batches of calls sites sent (`wallet_sendCalls`).
    batches: Batches,
}

/// A prompt marked waiting until dropped.
struct Asking<'a> {
    asking: &'a Mutex<HashSet<(Origin, &'static str)>>,
    key: (Origin, &'static str),
}

impl Drop for Asking<'_> {
    fn drop(&mut self) {
        self.asking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.key);
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn hex(n: u64) -> String {
    format!("{n:#x}")
}

impl<W: Wallet> Methods<W> {
    pub fn new(wallet: Arc<W>, permissions: Arc<Permissions>) -> Self {
        Self {
            wallet,
            permissions,
            asking: Mutex::new(HashSet::new()),
            reads_before_connecting: ReadAllowance::default(),
            batches: Batches::default(),
        }
    }

    pub fn permissions(&self) -> &Permissions {
        &self.permissions
    }

    pub(crate) fn wallet(&self) -> &Arc<W> {
        &self.wallet
    }

    /// The network `origin` is on: the one it switched to, else the first the
    /// app serves.
    pub(crate) fn network_of(&self, origin: &Origin) -> Result<(String, u64), ProviderError> {
        let networks = self.wallet.networks();
        let chosen = self.permissions.get(origin).and_then(|c| c.network);
        chosen
            .and_then(|name| networks.iter().find(|(n, _)| *n == name).cloned())
            .or_else(|| networks.first().cloned())
            .ok_or_else(ProviderError::disconnected)
    }

    /// Whether a request that came `via` this way may act as `origin`: a
    /// connected site is spoken for the way it was connected. Not a request
    /// straight to Satchel for a site connected through the extension (a
    /// program can send any Origin header); not the extension for a site
    /// connected straight to Satchel, until the person connects it again
    /// through the extension (then only the extension speaks for it).
    pub(crate) fn speaks_for(&self, origin: &Origin, via: Via) -> bool {
        self.permissions
            .get(origin)
            .is_none_or(|c| c.through_extension == (via == Via::Extension))
    }

    /// Connected, and spoken for this way (see [`Methods::speaks_for`]).
    pub(crate) fn is_connected_via(&self, origin: &Origin, via: Via) -> bool {
        self.permissions.is_connected(origin) && self.speaks_for(origin, via)
    }

    fn require_connected(&self, origin: &Origin) -> Result<(), ProviderError> {
        if self.permissions.is_connected(origin) {
            Ok(())
        } else {
            Err(ProviderError::unauthorized())
        }
    }

    async fn ask(&self, origin: &Origin, ask: Ask) -> Result<Answer, ProviderError> {
        let key = (origin.clone(), ask.kind());
        if !self
            .asking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.clone())
        {
            return Err(ProviderError::pending());
        }
        let _waiting = Asking {
            asking: &self.asking,
            key,
        };
        self.wallet.ask(origin, ask).await
    }

    /// The chain a `wallet_switchEthereumChain` or `wallet_addEthereumChain` names.
    fn chain_param(params: &Value) -> Result<u64, ProviderError> {
        let id = params
            .get(0)
            .and_then(|p| p.get("chainId"))
            .and_then(Value::as_str)
            .ok_or_else(|| ProviderError::invalid_params("expected [{\"chainId\": \"0x…\"}]"))?;
        id.strip_prefix("0x")
            .filter(|digits| !digits.is_empty() && digits.len() <= 16)
            .and_then(|digits| u64::from_str_radix(digits, 16).ok())
            .ok_or_else(|| ProviderError::invalid_params("chainId is a 0x-prefixed hex number"))
    }

    /// The accounts a connected `origin` sees and its active chain, for a
    /// request that signs.
    async fn signing_context(&self, origin: &Origin) -> Result<(Vec<Address>, u64), ProviderError> {
        self.require_connected(origin)?;
        let (_, chain_id) = self.network_of(origin)?;
        let accounts: Vec<Address> = self
            .accounts_of(origin)
            .await
            .iter()
            .filter_map(|a| a.parse().ok())
            .collect();
        if accounts.is_empty() {
            return Err(ProviderError::disconnected());
        }
        Ok((accounts, chain_id))
    }

    /// The signature the person approved.
    async fn signature(&self, origin: &Origin, ask: Ask) -> Result<Value, ProviderError> {
        match self.ask(origin, ask).await? {
            Answer::Signed(signature) => Ok(json!(signature)),
            _ => Err(ProviderError::internal("no signature was made")),
        }
    }

    /// Answers one request of `origin`, made straight to the endpoint.
    pub async fn call(&self, origin: &Origin, request: &Request) -> Result<Value, ProviderError> {
        self.call_via(origin, Via::Direct, request).await
    }

    /// Answers one request of `origin` that came `via` the endpoint or the
    /// browser extension.
    pub async fn call_via(
        &self,
        origin: &Origin,
        via: Via,
        request: &Request,
    ) -> Result<Value, ProviderError> {
        // A site connected through the extension is spoken for by the
        // extension only: a request straight to Satchel claiming its name (a
        // program can send any Origin header) gets what a stranger gets.
        if !self.speaks_for(origin, via) {
            match (request.method.as_str(), via) {
                ("eth_chainId" | "net_version" | "web3_clientVersion", _) => {}
                ("eth_accounts", _) => return Ok(json!([])),
                // The extension for a site connected straight to Satchel: the
                // person is asked again, on a page that says it came through
                // the extension.
                ("eth_requestAccounts" | "wallet_requestPermissions", Via::Extension) => {}
                (_, Via::Direct) => {
                    return Err(ProviderError::not_allowed(format!(
                        "{origin} is connected through Satchel Connector: only the browser extension speaks for it, not a request straight to Satchel"
                    )));
                }
                (_, Via::Extension) => {
                    return Err(ProviderError::not_allowed(format!(
                        "{origin} was connected straight to Satchel, not through Satchel Connector: ask eth_requestAccounts to connect it through the extension"
                    )));
                }
            }
        }
        let params = &request.params;
        match request.method.as_str() {
            "eth_chainId" => Ok(json!(hex(self.network_of(origin)?.1))),
            // Who answers: a page's library checks it is Satchel on the port,
            // not another wallet (Frame uses the same one).
            "web3_clientVersion" => Ok(json!(format!("Satchel/{}", env!("CARGO_PKG_VERSION")))),
            filter if FILTERS.contains(&filter) => Err(ProviderError::not_served(format!(
                "{filter}: Satchel keeps no filters; subscribe over the WebSocket (eth_subscribe newHeads) or read eth_getLogs"
            ))),
            "net_version" => Ok(json!(self.network_of(origin)?.1.to_string())),
            "eth_accounts" => Ok(json!(self.accounts_of(origin).await)),
            "eth_requestAccounts" => Ok(json!(self.request_accounts(origin, via).await?)),
            "wallet_getPermissions" => Ok(self.permissions_of(origin).await),
            "wallet_requestPermissions" => {
                Self::only_eth_accounts(params)?;
                self.request_accounts(origin, via).await?;
                Ok(self.permissions_of(origin).await)
            }
            "wallet_revokePermissions" => {
                Self::only_eth_accounts(params)?;
                self.permissions
                    .disconnect(origin)
                    .map_err(|e| ProviderError::internal(format!("not forgotten: {e}")))?;
                Ok(Value::Null)
            }
            "wallet_switchEthereumChain" => {
                self.require_connected(origin)?;
                let chain = Self::chain_param(params)?;
                let Some((name, _)) = self
                    .wallet
                    .networks()
                    .into_iter()
                    .find(|(_, id)| *id == chain)
                else {
                    return Err(ProviderError::unknown_chain(format!(
                        "Satchel does not serve chain {chain}: it serves the networks its app was configured for"
                    )));
                };
                let before = self.network_of(origin).ok().map(|(network, _)| network);
                self.permissions
                    .set_network(origin, &name)
                    .map_err(|e| ProviderError::internal(format!("not kept: {e}")))?;
                if before.as_deref() != Some(name.as_str()) {
                    self.wallet.switched(origin, &name, chain);
                }
                Ok(Value::Null)
            }
            "wallet_addEthereumChain" => {
                let chain = Self::chain_param(params)?;
                if self.wallet.networks().iter().any(|(_, id)| *id == chain) {
                    // As MetaMask answers a chain it has: nothing to add (dapps
                    // ask before they switch, and take an error for a refusal).
                    Ok(Value::Null)
                } else {
                    Err(ProviderError::unknown_chain(format!(
                        "Satchel cannot add chain {chain}: its networks come from its app's configuration"
                    )))
                }
            }
            "eth_subscribe" | "eth_unsubscribe" => Err(ProviderError::unsupported(
                "subscriptions need the WebSocket: ws://127.0.0.1 on this same port",
            )),
            "eth_sign" | "eth_signTransaction" => Err(ProviderError::unsupported(format!(
                "{} signs what the person cannot read: Satchel does not do it (use personal_sign, eth_signTypedData_v4 or eth_sendTransaction)",
                request.method
            ))),
            "personal_sign" => {
                let (accounts, chain_id) = self.signing_context(origin).await?;
                let signing = message::personal_sign(params, &accounts, origin, chain_id)?;
                self.signature(origin, Ask::SignMessage(signing)).await
            }
            "eth_signTypedData_v4" => {
                let (accounts, chain_id) = self.signing_context(origin).await?;
                let (network, _) = self.network_of(origin)?;
                let signing = typed::sign_typed_data(params, &accounts, chain_id, |contract| {
                    self.wallet.token(&network, contract)
                })?;
                self.signature(origin, Ask::SignTypedData(signing)).await
            }
            "eth_sendTransaction" => {
                let (accounts, chain_id) = self.signing_context(origin).await?;
                let (network, _) = self.network_of(origin)?;
                let tx =
                    transaction::send_transaction(params, &accounts, &network, chain_id, |c| {
                        self.wallet.token(&network, c)
                    })?;
                match self.ask(origin, Ask::SendTransaction(tx)).await? {
                    Answer::Sent(hash) => Ok(json!(hash)),
                    _ => Err(ProviderError::internal("nothing was sent")),
                }
            }
            "wallet_getCapabilities"
            | "wallet_sendCalls"
            | "wallet_getCallsStatus"
            | "wallet_showCallsStatus" => self.eip5792(origin, &request.method, params).await,
            "wallet_watchAsset" => {
                self.require_connected(origin)?;
                let (network, _) = self.network_of(origin)?;
                let asset = asset::watch_asset(params, &network)?;
                match self.ask(origin, Ask::WatchAsset(asset)).await? {
                    Answer::Watched => Ok(json!(true)),
                    _ => Err(ProviderError::internal("the token was not listed")),
                }
            }
            widget if widget.starts_with(WIDGET_PREFIX) => {
                let method = &widget[WIDGET_PREFIX.len()..];
                self.wallet
                    .widget_method(origin, method, params.clone())
                    .await
            }
            read if READS.contains(&read) => {
                if !self.permissions.is_connected(origin) {
                    self.reads_before_connecting.take(origin)?;
                }
                let (network, _) = self.network_of(origin)?;
                self.wallet.read(&network, read, params.clone()).await
            }
            other => Err(ProviderError::method_not_found(other)),
        }
    }
}
