//! Sending on the device: one flow, quote → review → sign → broadcast, and the
//! checks on what the service quotes. Signing and broadcasting are in
//! `confirm.rs`, replacements (speed up, cancel) in `replace.rs`, the activity
//! in `activity.rs`, the page's types in `types.rs`, the kept quotes in
//! `quotes.rs`, an application's `send` in `requests.rs`.
//!
//! Sending: the page asks for a quote (the service prepares nonce, fees and gas
//! and simulates the transfer), the person reviews it and confirms with the PIN,
//! and the device signs exactly what was quoted and hands the signed bytes to the
//! service, which broadcasts and follows them.
//!
//! The device builds the transaction itself (recipient, value, `transfer` call)
//! from what the person typed; from the service it takes only the nonce, the gas
//! limit and the fees, and it checks the chain id against the app's networks. A
//! quote is kept here, so what is signed is what the page showed.

use std::time::Instant;

use alloy::consensus::{SignableTransaction, TxEip1559, TxEnvelope};
use alloy::eips::eip2718::Encodable2718;
use alloy::network::TxSignerSync;
use alloy::primitives::{Address, Bytes, TxKind, U256};
use alloy::sol_types::SolCall;
use reqwest::Method;
use satchel_api::{
    Account, BroadcastRequest, PrepareRequest, PreparedTransaction, ServiceErrorCode,
    TransactionDirection, TransactionList, TransactionRecord, TransactionStatus,
};

mod activity;
mod call;
mod confirm;
mod fees;
mod quotes;
mod recipient;
mod replace;
mod requests;
mod signed;
mod types;

pub use call::{CallQuote, ExpectedApproval, ExpectedChange, NftSendForm};
use fees::{fee_caps, fee_options, high_fee};
pub(super) use quotes::Sends;
use quotes::{QUOTE_LIFETIME, StoredQuote};
pub use recipient::check_address;
pub use types::*;

use super::{AccountRef, Widget};
use crate::client::Caller;
use crate::error::{SdkError, blocking};
use crate::timing::Step;
use crate::widget::mapping::{format_units, parse_units};

/// The largest gas limit signed: a block's worth on most networks; a
/// service or an application asking for more is refused or capped.
pub(crate) const MAX_GAS_LIMIT: u64 = 30_000_000;

alloy::sol! {
    function transfer(address to, uint256 amount) returns (bool);
}

pub(crate) fn invalid(message: impl Into<String>) -> SdkError {
    SdkError::service(ServiceErrorCode::InvalidParameters, message)
}

fn gwei(wei: u128) -> String {
    format_units(&wei.to_string(), 9).unwrap_or_default()
}

fn units(value: U256, decimals: u32) -> String {
    format_units(&value.to_string(), decimals).unwrap_or_default()
}

fn wei(text: &str, what: &str) -> Result<U256, SdkError> {
    text.parse().map_err(|_| {
        SdkError::service(
            ServiceErrorCode::ApiRequestError,
            format!("the service sent a malformed {what}"),
        )
    })
}

impl Widget {
    /// The user's account entry `account` names: the coin's, or the token's at
    /// `account.contract`. Anything else is refused.
    pub(super) async fn own_account(&self, account: &AccountRef) -> Result<Account, SdkError> {
        let accounts = self.accounts().await?.accounts;
        accounts
            .into_iter()
            .find(|a| {
                a.network.eq_ignore_ascii_case(&account.network)
                    && a.address.eq_ignore_ascii_case(&account.address)
                    && match (&account.contract, &a.contract) {
                        (None, None) => true,
                        (Some(wanted), Some(have)) => wanted.eq_ignore_ascii_case(have),
                        _ => false,
                    }
            })
            .ok_or_else(|| invalid("not one of your accounts"))
    }

    /// The chain id this app's own network table gives `network` (never the
    /// service's answer: a transaction signed for another chain is another
    /// transaction).
    pub(super) fn chain_id_of(&self, network: &str) -> Result<u64, SdkError> {
        self.networks
            .network(network)
            .map(|n| n.chain_id)
            .ok_or_else(|| {
                SdkError::service(
                    ServiceErrorCode::NotInitializedNetwork,
                    format!("this app's network table does not name the network {network}"),
                )
            })
    }

    /// The coin entry of the account holding `entry`.
    async fn coin_of(&self, entry: &Account) -> Result<Account, SdkError> {
        self.own_account(&AccountRef {
            network: entry.network.clone(),
            address: entry.address.clone(),
            contract: None,
            is_aa: None,
        })
        .await
    }

    /// Quotes a send: checks the form, asks the service to prepare and simulate
    /// it, and keeps what confirming will sign. An empty amount quotes the fees
    /// (for Max) and cannot be confirmed.
    pub async fn prepare_send(&self, form: &SendForm) -> Result<SendQuote, SdkError> {
        let entry = self.own_account(&form.account).await?;
        let (to, recipient_name) = self.recipient(&entry.network, &form.to).await?;
        let amount = if form.amount.trim().is_empty() {
            U256::ZERO
        } else {
            parse_units(&form.amount, entry.decimals)
                .map_err(|e| invalid(e.message(entry.decimals)))?
        };
        let contract = entry
            .contract
            .as_deref()
            .map(str::parse::<Address>)
            .transpose()
            .map_err(|_| invalid("the token's contract does not parse"))?;
        let (tx_to, value, input) = transfer_parts(to, amount, contract);
        let prepared = self
            .prepare(&PrepareRequest {
                account_id: entry.account_id.clone(),
                contract: entry.contract.clone(),
                to: to.to_checksum(None),
                amount: amount.to_string(),
                replaces: None,
            })
            .await?;
        let coin = if contract.is_some() {
            self.coin_of(&entry).await?
        } else {
            entry.clone()
        };
        let fees = fee_options(&prepared.fees)?;
        let mut quote = self
            .quote(
                &prepared,
                QuoteParts {
                    entry: &entry,
                    coin: &coin,
                    to,
                    amount,
                    tx_to: TxKind::Call(tx_to),
                    value,
                    input,
                    fees,
                    replaces: None,
                },
            )
            .await?;
        quote.recipient_name = recipient_name;
        if to != quote.from.parse::<Address>().unwrap_or_default() {
            quote.warnings = self
                .recipient_warnings(&entry.network, to, prepared.recipient_is_contract)
                .await;
        }
        Ok(quote)
    }

    async fn prepare(&self, request: &PrepareRequest) -> Result<PreparedTransaction, SdkError> {
        self.login
            .authed(
                Caller::Rest,
                Method::POST,
                "v1/transactions/prepare",
                Some(request),
            )
            .await
    }

    /// Checks the service's preparation against the device's own view, keeps
    /// the quote and renders it for the page.
    async fn quote(
        &self,
        prepared: &PreparedTransaction,
        parts: QuoteParts<'_>,
    ) -> Result<SendQuote, SdkError> {
        let QuoteParts {
            entry,
            coin,
            to,
            amount,
            tx_to,
            value,
            input,
            fees,
            replaces,
        } = parts;
        let chain_id = self.chain_id_of(&entry.network)?;
        let from: Address = entry
            .address
            .parse()
            .map_err(|_| invalid("not one of your accounts"))?;
        if prepared.chain_id != chain_id
            || !prepared.from.eq_ignore_ascii_case(&entry.address)
            || prepared.gas_limit == 0
            || prepared.gas_limit > MAX_GAS_LIMIT
        {
            return Err(SdkError::service(
                ServiceErrorCode::ApiRequestError,
                "the service prepared a different transaction than the one asked for",
            ));
        }
        let coin_balance = wei(&prepared.coin_balance, "balance")?;
        let token_balance = prepared
            .token_balance
            .as_deref()
            .map(|b| wei(b, "balance"))
            .transpose()?;
        let is_token = entry.contract.is_some();
        let base_fee: u128 = prepared.base_fee_per_gas.parse().unwrap_or_default();
        let options: Vec<FeeOption> = fees
            .iter()
            .map(|&(speed, max_fee, tip)| {
                let fee = U256::from(prepared.gas_limit) * U256::from(max_fee);
                let coin_spent = fee + value;
                let token_short = token_balance.is_some_and(|b| b < amount);
                let max = match token_balance {
                    Some(balance) if is_token => balance,
                    _ => coin_balance.saturating_sub(fee),
                };
                FeeOption {
                    speed,
                    max_fee_per_gas_gwei: gwei(max_fee),
                    fee: units(fee, coin.decimals),
                    total: (!is_token).then(|| units(coin_spent, coin.decimals)),
                    coin_after: units(coin_balance.saturating_sub(coin_spent), coin.decimals),
                    token_after: token_balance
                        .filter(|_| is_token)
                        .map(|b| units(b.saturating_sub(amount), entry.decimals)),
                    max: units(max, entry.decimals),
                    enough: coin_balance >= coin_spent && !token_short,
                    high_fee: high_fee(max_fee, tip, base_fee, fee, (!is_token).then_some(value)),
                }
            })
            .collect();
        let high_fees = options
            .iter()
            .filter(|o| o.high_fee.is_some())
            .map(|o| o.speed)
            .collect();
        let quote_id = uuid_like();
        let stored = StoredQuote {
            id: quote_id.clone(),
            made: Instant::now(),
            account_id: entry.account_id.clone(),
            chain_id,
            from,
            nonce: prepared.nonce,
            gas_limit: prepared.gas_limit,
            to: tx_to,
            value,
            input,
            fees,
            high_fees,
            replaces: replaces.is_some(),
        };
        self.state.lock().sends.keep(stored);
        Ok(SendQuote {
            quote_id,
            network: entry.network.clone(),
            chain_id,
            from: from.to_checksum(None),
            to: to.to_checksum(None),
            recipient_name: None,
            contract: entry.contract.clone(),
            symbol: entry.symbol.clone(),
            decimals: entry.decimals,
            coin_symbol: coin.symbol.clone(),
            amount: units(amount, entry.decimals),
            coin_balance: units(coin_balance, coin.decimals),
            token_balance: token_balance
                .filter(|_| is_token)
                .map(|b| units(b, entry.decimals)),
            gas_limit: prepared.gas_limit,
            base_fee_gwei: gwei(base_fee),
            options,
            recipient_is_contract: prepared.recipient_is_contract,
            recipient_is_self: to == from,
            replaces,
            warnings: Vec::new(),
        })
    }
}

struct QuoteParts<'a> {
    entry: &'a Account,
    coin: &'a Account,
    /// The recipient the person sees.
    to: Address,
    /// In the sent asset's smallest unit.
    amount: U256,
    /// The transaction's own fields.
    tx_to: TxKind,
    value: U256,
    input: Bytes,
    fees: Vec<(FeeSpeed, u128, u128)>,
    replaces: Option<Replacement>,
}

/// The transaction's own `to`, value and call data for sending `amount` to `to`:
/// the coin itself, or the token at `contract` by its `transfer`.
fn transfer_parts(to: Address, amount: U256, contract: Option<Address>) -> (Address, U256, Bytes) {
    match contract {
        None => (to, amount, Bytes::new()),
        Some(token) => (
            token,
            U256::ZERO,
            Bytes::from(transferCall { to, amount }.abi_encode()),
        ),
    }
}

/// A random quote id.
fn uuid_like() -> String {
    use rand::RngCore as _;
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

#[cfg(test)]
mod tests;
