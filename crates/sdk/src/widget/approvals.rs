//! What the person allowed others to spend or move: the service finds ERC-20
//! allowances and NFT operators in the account's logs
//! (`GET /v1/account/{accountId}/approvals`); this device checks each one
//! with a call now (`allowance`, `isApprovedForAll`, through the service's
//! read relay) and shows only what still holds, with its amount as the chain
//! says it. Revoking builds `approve(spender, 0)` or
//! `setApprovalForAll(operator, false)` here and prepares it as any call.

use alloy::primitives::{Address, Bytes, U256};
use alloy::sol_types::SolCall as _;
use futures::StreamExt as _;
use reqwest::Method;
use satchel_api::{ApprovalKind, ApprovalsResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{CallQuote, Widget};
use crate::client::Caller;
use crate::error::SdkError;
use crate::widget::mapping::format_units;

mod abi {
    alloy::sol! {
        function allowance(address owner, address spender) external view returns (uint256);
        function approve(address spender, uint256 amount) external returns (bool);
        function isApprovedForAll(address owner, address operator) external view returns (bool);
        function setApprovalForAll(address operator, bool approved) external;
    }
}

/// The approvals checked per listing, all accounts together (each check is
/// a relay call, counted against the person's relay allowance).
pub const MAX_CHECKED: usize = 200;
/// Reads of the service's scan per listing, each reading further back.
const SCAN_READS: usize = 5;
/// Calls checking approvals at once.
const CHECKS_AT_ONCE: usize = 4;

/// An approval that holds now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ApprovalEntry {
    pub network: String,
    /// The account that gave it (EIP-55).
    pub account: String,
    /// The token or NFT collection (EIP-55).
    pub contract: String,
    /// Who may spend or move (EIP-55).
    pub spender: String,
    /// The spender's name in the person's address book.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spender_name: Option<String>,
    pub kind: ApprovalKind,
    /// An allowance as the chain says it now, in the token's units when this
    /// device knows the token (else its smallest units); absent for an operator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// No practical limit (2^128 or more of the smallest unit).
    pub unlimited: bool,
    pub block_number: u64,
    pub tx_hash: String,
}

/// Which approval to revoke, as the page names it.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RevokeForm {
    pub network: String,
    pub account: String,
    pub contract: String,
    pub spender: String,
    pub kind: ApprovalKind,
}

fn parse(address: &str) -> Result<Address, SdkError> {
    super::send::check_address(address)
}

impl Widget {
    /// The approvals of every account that hold now, newest first.
    pub async fn approvals(&self) -> Result<Vec<ApprovalEntry>, SdkError> {
        let accounts = self.accounts().await?;
        let saved = self.saved_addresses().unwrap_or_default();
        let mut entries = Vec::new();
        let mut budget = MAX_CHECKED;
        for account in accounts.accounts.iter().filter(|a| a.contract.is_none()) {
            let path = format!("v1/account/{}/approvals", account.account_id);
            let mut listed: ApprovalsResponse = self
                .login
                .authed(Caller::Rest, Method::GET, &path, None)
                .await?;
            for _ in 1..SCAN_READS {
                if listed.complete {
                    break;
                }
                listed = self
                    .login
                    .authed(Caller::Rest, Method::GET, &path, None)
                    .await?;
            }
            let owner = parse(&account.address)?;
            let take = listed.approvals.len().min(budget);
            budget -= take;
            let checks = listed.approvals.into_iter().take(take).map(|record| {
                let network = account.network.clone();
                async move {
                    let contract = parse(&record.contract)?;
                    let spender = parse(&record.spender)?;
                    let now = self
                        .approval_now(&network, owner, contract, spender, record.kind)
                        .await?;
                    Ok::<_, SdkError>((record, contract, spender, now))
                }
            });
            let checked: Vec<_> = futures::stream::iter(checks)
                .buffered(CHECKS_AT_ONCE)
                .collect()
                .await;
            for result in checked {
                // One that cannot be checked now is not shown (nor does it
                // keep the others from showing).
                let (record, contract, spender, now) = match result {
                    Ok(checked) => checked,
                    Err(e) => {
                        tracing::info!("an approval could not be checked: {}", e.message);
                        continue;
                    }
                };
                if now.is_zero() {
                    continue;
                }
                let known = match record.kind {
                    ApprovalKind::Allowance => {
                        self.known_asset(&account.network, Some(&record.contract))
                    }
                    ApprovalKind::Operator => None,
                };
                let amount = match (record.kind, &known) {
                    (ApprovalKind::Operator, _) => None,
                    (_, Some((_, decimals))) => Some(format_units(&now.to_string(), *decimals)?),
                    (_, None) => Some(now.to_string()),
                };
                entries.push(ApprovalEntry {
                    network: account.network.clone(),
                    account: account.address.clone(),
                    contract: contract.to_checksum(None),
                    spender: spender.to_checksum(None),
                    spender_name: saved
                        .iter()
                        .find(|s| s.address.eq_ignore_ascii_case(&record.spender))
                        .map(|s| s.name.clone()),
                    kind: record.kind,
                    amount,
                    symbol: known.map(|(symbol, _)| symbol),
                    unlimited: record.kind == ApprovalKind::Allowance
                        && now >= U256::from(1u8) << 128,
                    block_number: record.block_number,
                    tx_hash: record.tx_hash,
                });
            }
        }
        entries.sort_by_key(|e| std::cmp::Reverse(e.block_number));
        Ok(entries)
    }

    /// The allowance now, or 1/0 for an operator, read with a call.
    async fn approval_now(
        &self,
        network: &str,
        owner: Address,
        contract: Address,
        spender: Address,
        kind: ApprovalKind,
    ) -> Result<U256, SdkError> {
        let data = match kind {
            ApprovalKind::Allowance => abi::allowanceCall { owner, spender }.abi_encode(),
            ApprovalKind::Operator => abi::isApprovedForAllCall {
                owner,
                operator: spender,
            }
            .abi_encode(),
        };
        let call = json!([{"to": contract, "data": Bytes::from(data)}, "latest"]);
        let answer = match self.relay_read(network, "eth_call", call).await {
            Ok(answer) => answer,
            // A contract that reverts holds no approval of this account.
            Err(refusal) if refusal.code == 3 || refusal.message.contains("revert") => {
                return Ok(U256::ZERO);
            }
            Err(refusal) => {
                return Err(SdkError::service(
                    satchel_api::ServiceErrorCode::ApiRequestError,
                    refusal.message,
                ));
            }
        };
        let bytes: Bytes = serde_json::from_value(answer).map_err(SdkError::unknown)?;
        Ok(match kind {
            ApprovalKind::Allowance => {
                abi::allowanceCall::abi_decode_returns(&bytes).unwrap_or_default()
            }
            ApprovalKind::Operator => U256::from(u8::from(
                abi::isApprovedForAllCall::abi_decode_returns(&bytes).unwrap_or(false),
            )),
        })
    }

    /// Prepares the revocation of an approval: `approve(spender, 0)` or
    /// `setApprovalForAll(operator, false)` to its contract, from its account,
    /// built here; the review and signing are a call's.
    pub async fn prepare_revoke(&self, form: &RevokeForm) -> Result<CallQuote, SdkError> {
        let from = parse(&form.account)?;
        let contract = parse(&form.contract)?;
        let spender = parse(&form.spender)?;
        let data = match form.kind {
            ApprovalKind::Allowance => abi::approveCall {
                spender,
                amount: U256::ZERO,
            }
            .abi_encode(),
            ApprovalKind::Operator => abi::setApprovalForAllCall {
                operator: spender,
                approved: false,
            }
            .abi_encode(),
        };
        self.prepare_call(&form.network, from, contract, U256::ZERO, data.into())
            .await
    }
}
