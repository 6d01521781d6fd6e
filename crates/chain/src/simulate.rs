//! What a transaction would do, from the node's `eth_simulateV1` with transfer
//! tracing (anvil and geth have it): whether it reverts and why, the gas it
//! uses, and every asset it moves: the coin (traced by the node as a transfer
//! log of the pseudo-address `0xeee…e`), ERC-20, ERC-721 and ERC-1155 transfers.

use alloy::primitives::{Address, B256, Bytes, U256, address};
use alloy::sol_types::SolEvent;
use serde_json::{Value, json};

use crate::abi::{IERC20, IERC1155};
use crate::approvals::{ApprovalKind, approval_in};
use crate::relay::RelayError;
use crate::{Chain, ChainError};

/// The address `eth_simulateV1` traces coin transfers as.
pub const COIN_TRACE_ADDRESS: Address = address!("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE");

/// What moved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asset {
    Coin,
    Erc20 { contract: Address },
    Erc721 { contract: Address, id: U256 },
    Erc1155 { contract: Address, id: U256 },
}

/// One movement of an asset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetTransfer {
    pub asset: Asset,
    pub from: Address,
    pub to: Address,
    /// Smallest units; 1 for an ERC-721 token.
    pub amount: U256,
}

/// A simulated transaction's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simulated {
    /// The revert's reason (decoded when it is an `Error(string)`), if it reverts.
    pub reverted: Option<String>,
    pub gas_used: u64,
    pub transfers: Vec<AssetTransfer>,
    /// The approvals its logs record, whoever the owner (the caller keeps its own).
    pub approvals: Vec<SimulatedApproval>,
}

/// An approval a simulated transaction records: ERC-20 `Approval` or
/// `ApprovalForAll`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulatedApproval {
    pub contract: Address,
    pub owner: Address,
    pub spender: Address,
    pub kind: ApprovalKind,
    /// The allowance, or 1/0 for an operator granted/withdrawn.
    pub value: U256,
}

/// Why there is no simulation.
#[derive(Debug, thiserror::Error)]
pub enum SimulateError {
    /// The node has no `eth_simulateV1`: the caller falls back to an estimate.
    #[error("the node does not simulate")]
    Unsupported,
    #[error(transparent)]
    Chain(#[from] ChainError),
}

/// The most transfers taken from one simulation (a call can emit many logs).
const MAX_TRANSFERS: usize = 64;

/// What the simulated transaction pays, as the signed one will: its fee caps
/// per gas and a gas limit it can afford. With them the node validates (the
/// sender's balance, the fees against the block's base fee) and the contract
/// sees the real `tx.gasprice` and `block.basefee`; without, both are 0 and a
/// contract can tell a simulation from the real thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paying {
    pub max_fee_per_gas: u128,
    pub max_priority_fee_per_gas: u128,
    pub gas: u64,
}

impl Chain {
    /// Simulates `from` calling `to` (deploying `data` when `None`) with
    /// `value` and `data` on the latest block, paying as [`Paying`] says,
    /// validated as the network would. The
    /// nonce is left to the node (the account's at that block): the nonce the
    /// transaction will carry can be ahead of it while earlier sends are
    /// pending, which a validating node would refuse.
    pub async fn simulate(
        &self,
        from: Address,
        to: Option<Address>,
        value: U256,
        data: &Bytes,
        paying: Paying,
    ) -> Result<Simulated, SimulateError> {
        let mut call = json!({
            "from": from, "value": value, "input": data,
            "maxFeePerGas": U256::from(paying.max_fee_per_gas),
            "maxPriorityFeePerGas": U256::from(paying.max_priority_fee_per_gas),
            "gas": U256::from(paying.gas),
        });
        if let Some(to) = to {
            call["to"] = json!(to);
        }
        let request = json!([{
            "blockStateCalls": [{"calls": [call]}],
            "traceTransfers": true,
            "validation": true,
        }, "latest"]);
        let answer = match self.relay("eth_simulateV1", request).await {
            Ok(answer) => answer,
            Err(RelayError::Node(e)) if e.code == -32601 || e.message.contains("not found") => {
                return Err(SimulateError::Unsupported);
            }
            // A node that simulates calls but not deployments (anvil cannot
            // build a simulated transaction without `to`): estimated instead.
            Err(RelayError::Node(e))
                if to.is_none() && e.code == -32602 && e.message.contains("missing keys") =>
            {
                return Err(SimulateError::Unsupported);
            }
            Err(RelayError::Node(e)) => return Err(ChainError::Node(e.message).into()),
            Err(RelayError::Unreachable) => {
                return Err(ChainError::Unreachable("the node did not answer".into()).into());
            }
        };
        let call = answer
            .get(0)
            .and_then(|block| block.get("calls"))
            .and_then(|calls| calls.get(0))
            .ok_or_else(|| ChainError::Node("eth_simulateV1 answered no call".into()))?;
        let quantity = |v: Option<&Value>| {
            v.and_then(Value::as_str)
                .and_then(|h| h.strip_prefix("0x"))
                .and_then(|h| u64::from_str_radix(h, 16).ok())
        };
        let succeeded = quantity(call.get("status")) == Some(1);
        let reverted = (!succeeded).then(|| revert_reason(call));
        let logs = call
            .get("logs")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        Ok(Simulated {
            reverted,
            gas_used: quantity(call.get("gasUsed")).unwrap_or_default(),
            transfers: if succeeded {
                transfers_in(logs)
            } else {
                Vec::new()
            },
            approvals: if succeeded {
                approvals_in(logs)
            } else {
                Vec::new()
            },
        })
    }
}

/// Why a simulated call reverted, in words when the contract gave them.
fn revert_reason(call: &Value) -> String {
    let data = call
        .get("returnData")
        .or_else(|| call.get("error").and_then(|e| e.get("data")))
        .and_then(Value::as_str)
        .and_then(|h| alloy::hex::decode(h).ok())
        .unwrap_or_default();
    alloy::sol_types::decode_revert_reason(&data)
        .or_else(|| {
            call.get("error")
                .and_then(|e| e.get("message"))
                .and_then(Value::as_str)
                .map(|m| m.chars().take(200).collect())
        })
        .unwrap_or_else(|| "reverted".to_owned())
}

/// The approvals among a simulation's logs, at most [`MAX_TRANSFERS`].
pub fn approvals_in(logs: &[Value]) -> Vec<SimulatedApproval> {
    logs.iter()
        .filter_map(|log| {
            let log = primitive_log(log)?;
            let (owner, spender, kind, value) = approval_in(&log)?;
            Some(SimulatedApproval {
                contract: log.address,
                owner,
                spender,
                kind,
                value,
            })
        })
        .take(MAX_TRANSFERS)
        .collect()
}

/// A log of the node's JSON answer: its contract, topics and data.
fn primitive_log(log: &Value) -> Option<alloy::primitives::Log> {
    let address: Address = log.get("address")?.as_str()?.parse().ok()?;
    let topics: Vec<B256> = log
        .get("topics")?
        .as_array()?
        .iter()
        .map(|t| t.as_str()?.parse().ok())
        .collect::<Option<_>>()?;
    let data = alloy::hex::decode(log.get("data")?.as_str()?).ok()?;
    alloy::primitives::Log::new(address, topics, data.into())
}

/// The asset transfers among a simulation's logs.
pub fn transfers_in(logs: &[Value]) -> Vec<AssetTransfer> {
    logs.iter()
        .filter_map(transfer_of)
        .flatten()
        .take(MAX_TRANSFERS)
        .collect()
}

fn transfer_of(log: &Value) -> Option<Vec<AssetTransfer>> {
    let contract: Address = log.get("address")?.as_str()?.parse().ok()?;
    let topics: Vec<B256> = log
        .get("topics")?
        .as_array()?
        .iter()
        .filter_map(|t| t.as_str()?.parse().ok())
        .collect();
    let data = alloy::hex::decode(log.get("data")?.as_str()?).ok()?;
    let word = |i: usize| data.get(i * 32..(i + 1) * 32).map(U256::from_be_slice);
    let topic_address = |i: usize| topics.get(i).map(|t| Address::from_word(*t));
    let first = *topics.first()?;
    if first == IERC20::Transfer::SIGNATURE_HASH {
        let (from, to) = (topic_address(1)?, topic_address(2)?);
        return Some(vec![match topics.len() {
            // ERC-721: the token id is the third indexed topic.
            4 => AssetTransfer {
                asset: Asset::Erc721 {
                    contract,
                    id: U256::from_be_bytes(topics[3].0),
                },
                from,
                to,
                amount: U256::from(1),
            },
            _ => AssetTransfer {
                asset: if contract == COIN_TRACE_ADDRESS {
                    Asset::Coin
                } else {
                    Asset::Erc20 { contract }
                },
                from,
                to,
                amount: word(0)?,
            },
        }]);
    }
    if first == IERC1155::TransferSingle::SIGNATURE_HASH {
        return Some(vec![AssetTransfer {
            asset: Asset::Erc1155 {
                contract,
                id: word(0)?,
            },
            from: topic_address(2)?,
            to: topic_address(3)?,
            amount: word(1)?,
        }]);
    }
    if first == IERC1155::TransferBatch::SIGNATURE_HASH {
        let decoded =
            IERC1155::TransferBatch::decode_raw_log(topics.iter().copied(), &data).ok()?;
        return Some(
            decoded
                .ids
                .iter()
                .zip(&decoded.values)
                .take(MAX_TRANSFERS)
                .map(|(id, value)| AssetTransfer {
                    asset: Asset::Erc1155 { contract, id: *id },
                    from: decoded.from,
                    to: decoded.to,
                    amount: *value,
                })
                .collect(),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(a: Address) -> String {
        format!("{:#x}", a.into_word())
    }

    #[test]
    fn transfers_of_every_kind_are_read_from_the_logs() {
        let (me, them, token) = (
            Address::repeat_byte(1),
            Address::repeat_byte(2),
            Address::repeat_byte(9),
        );
        let sig = format!("{:#x}", IERC20::Transfer::SIGNATURE_HASH);
        let amount = format!("0x{:064x}", 1_500_000u64);
        let logs = vec![
            json!({"address": COIN_TRACE_ADDRESS, "topics": [sig, word(me), word(them)], "data": amount}),
            json!({"address": token, "topics": [sig, word(me), word(them)], "data": amount}),
            json!({"address": token, "topics": [sig, word(them), word(me), format!("0x{:064x}", 7)], "data": "0x"}),
            json!({"address": token, "topics": ["0x1234"], "data": "0x"}),
        ];
        let found = transfers_in(&logs);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].asset, Asset::Coin);
        assert_eq!(found[0].amount, U256::from(1_500_000u64));
        assert_eq!(found[1].asset, Asset::Erc20 { contract: token });
        assert_eq!((found[1].from, found[1].to), (me, them));
        assert_eq!(
            found[2].asset,
            Asset::Erc721 {
                contract: token,
                id: U256::from(7)
            }
        );
        assert_eq!(found[2].to, me);
        let flood: Vec<Value> = (0..200).map(|_| logs[1].clone()).collect();
        assert_eq!(transfers_in(&flood).len(), MAX_TRANSFERS);
    }

    #[test]
    fn approvals_and_operators_are_read_from_the_logs_but_not_per_token_approvals() {
        use crate::abi::IOperators;
        let (me, them, token) = (
            Address::repeat_byte(1),
            Address::repeat_byte(2),
            Address::repeat_byte(9),
        );
        let approval = format!("{:#x}", IERC20::Approval::SIGNATURE_HASH);
        let for_all = format!("{:#x}", IOperators::ApprovalForAll::SIGNATURE_HASH);
        let max = format!("0x{}", "f".repeat(64));
        let logs = vec![
            json!({"address": token, "topics": [approval, word(me), word(them)], "data": max}),
            json!({"address": token, "topics": [for_all, word(me), word(them)], "data": format!("0x{:064x}", 1)}),
            // ERC-721's approval of one token: its id is a fourth topic.
            json!({"address": token, "topics": [approval, word(me), word(them), format!("0x{:064x}", 7)], "data": "0x"}),
            json!({"address": token, "topics": [approval, "not hex"], "data": max}),
        ];
        let found = approvals_in(&logs);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(
            (
                found[0].kind,
                found[0].owner,
                found[0].spender,
                found[0].value
            ),
            (ApprovalKind::Allowance, me, them, U256::MAX)
        );
        assert_eq!(found[0].contract, token);
        assert_eq!(
            (found[1].kind, found[1].value),
            (ApprovalKind::Operator, U256::from(1))
        );
        let flood: Vec<Value> = (0..200).map(|_| logs[0].clone()).collect();
        assert_eq!(approvals_in(&flood).len(), MAX_TRANSFERS);
    }
}
