//! A transaction an application asks for (`eth_sendTransaction` through the
//! local provider): any call from one of the wallet's accounts on its network.
//! The service prepares it (nonce, fees, gas) and simulates what it moves
//! (`POST /v1/transactions/prepare-call`); the device checks the preparation is
//! of the transaction asked for, and keeps it as a quote the review confirms
//! like a send: the same fee options, high-fee guard, signing and Activity.

use alloy::primitives::{Address, Bytes, TxKind, U256};
use reqwest::Method;
use satchel_api::{
    Account, ApprovalChange, ApprovalKind, AssetKind, BalanceChange, ChangeDirection,
    PrepareCallRequest, PreparedCall, ServiceErrorCode,
};
use serde::Serialize;

use alloy::sol_types::SolCall as _;

use super::{MAX_GAS_LIMIT, QuoteParts, SendQuote, check_address, fee_options, invalid};
use crate::client::Caller;
use crate::error::SdkError;
use crate::widget::mapping::format_units;
use crate::widget::{AccountRef, Widget};

/// The NFT standards' transfers, as the device builds them and reads them back.
pub(super) mod nft {
    alloy::sol! {
        function safeTransferFrom(address from, address to, uint256 tokenId);
    }
    pub mod erc1155 {
        alloy::sol! {
            function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data);
        }
    }
}

/// What the NFT send page holds: which NFT (as `getNFTs` lists it), to whom,
/// and how many (an ERC-1155's; 1 for an ERC-721).
#[derive(Debug, Clone, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct NftSendForm {
    /// The account that holds it.
    pub account: AccountRef,
    /// The collection's contract.
    pub contract: String,
    pub token_id: String,
    pub erc1155: bool,
    pub to: String,
    pub amount: String,
}

/// An application's transaction, prepared: the quote the review confirms and,
/// when the node could simulate it, what it moves (as the service's node saw
/// it: a prediction the page labels as such).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct CallQuote {
    pub quote: SendQuote,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<ExpectedChange>>,
    /// The approvals the same simulation saw the account give or withdraw
    /// (absent when none): an allowance or an operator for a whole collection.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<ExpectedApproval>>"))]
    pub approvals: Vec<ExpectedApproval>,
}

/// One simulated approval the account gives or withdraws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ExpectedApproval {
    pub kind: ApprovalKind,
    pub contract: String,
    pub spender: String,
    /// An allowance in the token's units when the app knows it (else its
    /// smallest units); absent for an operator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// An allowance with no practical limit (2^128 or more), or an operator
    /// granted: either can take everything of its kind (shown in red).
    pub takes_everything: bool,
    /// The approval is withdrawn: an allowance set to 0, an operator removed.
    pub withdrawn: bool,
}

/// One simulated movement to or from the account, in the asset's units where
/// the app knows the asset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ExpectedChange {
    pub direction: ChangeDirection,
    pub kind: AssetKind,
    /// In the asset's units when the app knows it (coin, known tokens); else
    /// smallest units; an NFT's count.
    pub amount: String,
    /// The asset's symbol, when the app knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_id: Option<String>,
    pub counterparty: String,
}

impl Widget {
    /// Prepares the send of an NFT the account holds: `safeTransferFrom` of its
    /// standard, built here (never taken from the service), with what the
    /// simulation says leaves, and the recipient's warnings.
    pub async fn prepare_nft_send(&self, form: &NftSendForm) -> Result<CallQuote, SdkError> {
        let from: Address = check_address(&form.account.address)?;
        let (to, recipient_name) = self.recipient(&form.account.network, &form.to).await?;
        let contract = check_address(&form.contract)?;
        if to == from {
            return Err(invalid("this is the account that holds it"));
        }
        let id: U256 = form
            .token_id
            .parse()
            .map_err(|_| invalid("the token id is a decimal number"))?;
        let amount: U256 = form
            .amount
            .trim()
            .parse()
            .ok()
            .filter(|a: &U256| !a.is_zero())
            .ok_or_else(|| invalid("send 1 or more"))?;
        let data = if form.erc1155 {
            nft::erc1155::safeTransferFromCall {
                from,
                to,
                id,
                amount,
                data: Bytes::new(),
            }
            .abi_encode()
        } else {
            if amount != U256::from(1) {
                return Err(invalid("an ERC-721 token is one of a kind: send 1"));
            }
            nft::safeTransferFromCall {
                from,
                to,
                tokenId: id,
            }
            .abi_encode()
        };
        let mut prepared = self
            .prepare_call(
                &form.account.network,
                from,
                contract,
                U256::ZERO,
                data.into(),
            )
            .await?;
        prepared.quote.to = to.to_checksum(None);
        prepared.quote.recipient_name = recipient_name;
        prepared.quote.warnings = self
            .recipient_warnings(&form.account.network, to, false)
            .await;
        Ok(prepared)
    }

    /// Prepares `to`/`value`/`data` from `from` on `network` for the review.
    pub async fn prepare_call(
        &self,
        network: &str,
        from: Address,
        to: Address,
        value: U256,
        data: Bytes,
    ) -> Result<CallQuote, SdkError> {
        self.prepare_call_with_gas(network, from, TxKind::Call(to), value, data, None)
            .await
    }

    /// The same, a deployment too (`TxKind::Create`, `data` the contract's
    /// creation code), with an application's own gas limit as the least the
    /// limit may be (it knows its contract: a call whose gas depends on state
    /// the simulation did not see). The fees shown are for the limit signed.
    pub async fn prepare_call_with_gas(
        &self,
        network: &str,
        from: Address,
        to: TxKind,
        value: U256,
        data: Bytes,
        gas_floor: Option<u64>,
    ) -> Result<CallQuote, SdkError> {
        let entry: Account = self
            .own_account(&AccountRef {
                network: network.to_owned(),
                address: from.to_checksum(None),
                contract: None,
                is_aa: None,
            })
            .await?;
        let data_hex = format!("0x{}", alloy::hex::encode(&data));
        let mut prepared: PreparedCall = self
            .login
            .authed(
                Caller::Rest,
                Method::POST,
                "v1/transactions/prepare-call",
                Some(&PrepareCallRequest {
                    account_id: entry.account_id.clone(),
                    to: to.to().map(|to| to.to_checksum(None)),
                    value: value.to_string(),
                    data: data_hex.clone(),
                }),
            )
            .await?;
        if let Some(floor) = gas_floor {
            let limit = &mut prepared.transaction.gas_limit;
            *limit = (*limit).max(floor.min(MAX_GAS_LIMIT));
        }
        let echoed = &prepared.transaction;
        let echoed_to = match &echoed.to {
            Some(to) => to.parse::<Address>().ok().map(TxKind::Call),
            None => Some(TxKind::Create),
        };
        let same = echoed_to == Some(to)
            && echoed.value.parse::<U256>().ok() == Some(value)
            && echoed.data.eq_ignore_ascii_case(&data_hex);
        if !same {
            return Err(SdkError::service(
                ServiceErrorCode::ApiRequestError,
                "the service prepared a different transaction than the one asked for",
            ));
        }
        let fees = fee_options(&echoed.fees)?;
        if value.is_zero() && data.is_empty() {
            return Err(invalid("this transaction does nothing"));
        }
        // Who receives, when the device can tell: the coin's recipient, or an
        // ERC-20 transfer's; the review warns of them as a send's.
        let recipient = if let TxKind::Call(to) = to
            && data.is_empty()
        {
            Some((to, echoed.recipient_is_contract))
        } else if to.is_create() {
            None
        } else {
            super::transferCall::abi_decode(&data)
                .ok()
                .map(|call| (call.to, false))
        };
        let mut quote = self
            .quote(
                echoed,
                QuoteParts {
                    entry: &entry,
                    coin: &entry,
                    // A deployment's: the contract it makes, at the address
                    // the account and the nonce give.
                    to: match to {
                        TxKind::Call(to) => to,
                        TxKind::Create => from.create(echoed.nonce),
                    },
                    amount: value,
                    tx_to: to,
                    value,
                    input: data,
                    fees,
                    replaces: None,
                },
            )
            .await?;
        if let Some((who, is_contract)) = recipient {
            quote.warnings = self.recipient_warnings(network, who, is_contract).await;
        }
        let changes = prepared
            .changes
            .map(|changes| {
                changes
                    .into_iter()
                    .take(MAX_CHANGES)
                    .map(|c| self.expected_change(network, c))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        let approvals = prepared
            .approvals
            .into_iter()
            .take(MAX_CHANGES)
            .map(|a| self.expected_approval(network, a))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(CallQuote {
            quote,
            changes,
            approvals,
        })
    }

    fn expected_approval(
        &self,
        network: &str,
        approval: ApprovalChange,
    ) -> Result<ExpectedApproval, SdkError> {
        let malformed = || {
            SdkError::service(
                ServiceErrorCode::ApiRequestError,
                "the service sent a malformed approval",
            )
        };
        let value: U256 = approval.value.parse().map_err(|_| malformed())?;
        let contract = check_address(&approval.contract).map_err(|_| malformed())?;
        let spender = check_address(&approval.spender).map_err(|_| malformed())?;
        let (amount, symbol) = match approval.kind {
            ApprovalKind::Operator => (None, None),
            ApprovalKind::Allowance => match self.known_asset(network, Some(&approval.contract)) {
                Some((symbol, decimals)) => {
                    (Some(format_units(&approval.value, decimals)?), Some(symbol))
                }
                None => (Some(approval.value), None),
            },
        };
        Ok(ExpectedApproval {
            kind: approval.kind,
            contract: contract.to_checksum(None),
            spender: spender.to_checksum(None),
            amount,
            symbol,
            takes_everything: match approval.kind {
                ApprovalKind::Allowance => value >= U256::from(1u8) << 128,
                ApprovalKind::Operator => !value.is_zero(),
            },
            withdrawn: value.is_zero(),
        })
    }

    fn expected_change(
        &self,
        network: &str,
        change: BalanceChange,
    ) -> Result<ExpectedChange, SdkError> {
        let known = match change.kind {
            AssetKind::Coin | AssetKind::Erc20 => {
                self.known_asset(network, change.contract.as_deref())
            }
            AssetKind::Erc721 | AssetKind::Erc1155 => None,
        };
        let (amount, symbol) = match known {
            Some((symbol, decimals)) => (
                format_units(&change.amount, decimals)?,
                Some(symbol.to_owned()),
            ),
            None => (change.amount, None),
        };
        Ok(ExpectedChange {
            direction: change.direction,
            kind: change.kind,
            amount,
            symbol,
            contract: change.contract,
            token_id: change.token_id,
            counterparty: change.counterparty,
        })
    }
}

/// The most simulated movements shown (the service's answer is hostile too).
const MAX_CHANGES: usize = 50;
