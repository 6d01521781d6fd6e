//! `prepare`: the nonce, EIP-1559 fee levels and gas of a transfer from the
//! caller's own account, from an estimate that also simulates it, and the
//! replacement of a pending one (speed up, cancel). Any other transaction
//! (a contract call, a deployment) is prepared in `prepare/call.rs`.

use alloy::sol_types::SolCall;
use satchel_api::{
    ApprovalChange, ApprovalKind, AssetKind, BalanceChange, ChangeDirection, FeeLevel, FeeLevels,
    PrepareCallRequest, PrepareRequest, PreparedCall, PreparedTransaction,
};
#[cfg(test)]
use satchel_chain::Tips;
use satchel_chain::simulate::{Asset, AssetTransfer, Paying, SimulateError, SimulatedApproval};
use satchel_chain::{Address, Bytes, FeeMarket, Refusal, SendError, U256};

use super::{own_account, transferCall, would_fail};
use crate::assets::refresh::parse_address;
use crate::assets::views::{self, lower_hex};
use crate::db::{AccountRow, TransactionRow};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::state::AppState;

/// A replacement's fees must beat the pending one's by this much (in 1/1000):
/// nodes want at least 10 %.
const REPLACEMENT_BUMP_PER_MILLE: u128 = 1_125;

mod call;
pub use call::prepare_call;

/// A recipient as given: lowercase or uppercase hex, or mixed case that is its
/// EIP-55 checksum.
fn parse_recipient(text: &str) -> ApiResult<Address> {
    checked_address(text)
        .ok_or_else(|| ApiError::bad_request("`to` is not an address, or its checksum is wrong"))
}

/// `0x` and 40 hex digits, in one case or with its EIP-55 checksum.
pub(crate) fn checked_address(text: &str) -> Option<Address> {
    let hex = text.strip_prefix("0x").unwrap_or_default();
    let one_case = hex == hex.to_lowercase() || hex == hex.to_uppercase();
    let parsed = if one_case {
        text.parse().ok()
    } else {
        Address::parse_checksummed(text, None).ok()
    };
    parsed.filter(|_| hex.len() == 40)
}

fn parse_amount(text: &str) -> ApiResult<U256> {
    if text.is_empty() || text.len() > 78 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::bad_request(
            "`amount` must be an integer in the smallest unit",
        ));
    }
    text.parse()
        .map_err(|_| ApiError::bad_request("`amount` is too large"))
}

/// An integer amount in whole units for a message: `1500000000000000000` at 18
/// decimals is `1.5`.
fn in_units(value: U256, decimals: u32) -> String {
    satchel_chain::units::format_units(value, decimals)
}

/// Slow, normal and fast caps over the market; for a replacement, each at least
/// the bump over the pending one's.
fn fee_levels(market: FeeMarket, gas_limit: u64, floor: Option<(u128, u128)>) -> FeeLevels {
    let base = market.base_fee;
    let level = |tip: u128, max_fee: u128| {
        let (max_fee, tip) = match floor {
            Some((floor_fee, floor_tip)) => {
                let bump = |v: u128| v.saturating_mul(REPLACEMENT_BUMP_PER_MILLE).div_ceil(1000);
                (max_fee.max(bump(floor_fee)), tip.max(bump(floor_tip)))
            }
            None => (max_fee, tip),
        };
        let max_fee = max_fee.max(tip);
        FeeLevel {
            max_fee_per_gas: max_fee.to_string(),
            max_priority_fee_per_gas: tip.to_string(),
            max_fee: (U256::from(max_fee) * U256::from(gas_limit)).to_string(),
        }
    };
    let tips = market.tips;
    FeeLevels {
        // Room for one block of base-fee rise (12.5 %), at the low tip.
        slow: level(tips.low, (base + base / 8).saturating_add(tips.low)),
        // Room for several full blocks in a row, as most wallets leave.
        normal: {
            let (max_fee, tip) = normal_caps(market);
            level(tip, max_fee)
        },
        fast: level(tips.high, (3 * base).saturating_add(tips.high)),
    }
}

/// The normal speed's fee cap and tip per gas (what a simulation pays).
fn normal_caps(market: FeeMarket) -> (u128, u128) {
    let tip = market.tips.middle;
    ((2 * market.base_fee).saturating_add(tip), tip)
}

/// `POST /v1/transactions/prepare`.
pub async fn prepare(
    state: &AppState,
    user: &AuthUser,
    request: &PrepareRequest,
) -> ApiResult<PreparedTransaction> {
    let (account, network) = own_account(state, user, &request.account_id).await?;
    let from = parse_address(&account.address)?;
    let to = parse_recipient(&request.to)?;
    let amount = parse_amount(&request.amount)?;
    let token = match &request.contract {
        None => None,
        Some(contract) => {
            let address = parse_recipient(contract)?;
            let lower = lower_hex(&address);
            state.learn_tokens(network, [lower.as_str()]).await?;
            let config = network
                .token(&lower)
                .ok_or_else(|| ApiError::bad_request("not a token of this network"))?;
            Some((address, config.decimals, config.symbol.clone()))
        }
    };
    let (tx_to, value, input) = match &token {
        None => (to, amount, Bytes::new()),
        Some((contract, _, _)) => (
            *contract,
            U256::ZERO,
            Bytes::from(transferCall { to, amount }.abi_encode()),
        ),
    };
    let replaced = match &request.replaces {
        None => None,
        Some(hash) => Some(pending_of(state, user, &account, hash).await?),
    };

    let chain = &network.chain;
    let tokens: Vec<Address> = token.iter().map(|(c, _, _)| *c).collect();
    let (nonce, market, gas, balances, recipient_code) = tokio::join!(
        chain.next_nonce(from),
        chain.fee_market(),
        chain.estimate_gas(from, Some(tx_to), value, input.clone()),
        chain.balances(from, &tokens),
        chain.has_code(to),
    );
    let upstream = |e| ApiError::upstream(&network.config.name, e);
    let balances = balances.map_err(upstream)?;
    let market = market.map_err(upstream)?;
    let token_balance = balances.tokens.first().copied().flatten();
    if let Some((_, decimals, symbol)) = &token
        && !amount.is_zero()
        && token_balance.is_none_or(|b| b < amount)
    {
        return Err(would_fail(format!(
            "not enough {symbol}: sending {} but the account has {}",
            in_units(amount, *decimals),
            in_units(token_balance.unwrap_or_default(), *decimals)
        )));
    }
    let gas_limit = match gas {
        Ok(gas) if input.is_empty() && gas == 21_000 => gas,
        // Room for state that changes before it is mined.
        Ok(gas) => gas.saturating_mul(6) / 5,
        Err(SendError::Refused(Refusal::Reverted(reason) | Refusal::Refused(reason))) => {
            if !amount.is_zero() {
                return Err(would_fail(format!("the transfer would fail: {reason}")));
            }
            // A fee quote for Max (nothing sent yet): a plain transfer's gas.
            if input.is_empty() { 21_000 } else { 100_000 }
        }
        Err(SendError::Chain(e)) => return Err(upstream(e)),
    };
    let floor = replaced.as_ref().map(|r| {
        let cap = |v: &Option<String>| v.as_deref().and_then(|v| v.parse().ok()).unwrap_or(0);
        (cap(&r.max_fee_per_gas), cap(&r.max_priority_fee_per_gas))
    });
    let fees = fee_levels(market, gas_limit, floor);
    let slowest: U256 = fees.slow.max_fee.parse().unwrap_or(U256::MAX);
    if !amount.is_zero() && balances.native < value.saturating_add(slowest) {
        return Err(would_fail(format!(
            "not enough {} for the amount and the fee: up to {} needed, the account has {}",
            network.config.symbol,
            in_units(value.saturating_add(slowest), network.config.decimals),
            in_units(balances.native, network.config.decimals)
        )));
    }
    let nonce = match &replaced {
        Some(r) => r.nonce.unwrap_or_default() as u64,
        None => {
            let node = nonce.map_err(upstream)?;
            let here = state
                .db
                .highest_pending_nonce(&account.id)
                .await?
                .map_or(0, |n| n as u64 + 1);
            node.max(here)
        }
    };
    Ok(PreparedTransaction {
        chain_id: network.config.chain_id,
        nonce,
        from: views::checksummed(&account.address),
        to: Some(tx_to.to_checksum(None)),
        value: value.to_string(),
        data: format!("0x{}", alloy::hex::encode(&input)),
        gas_limit,
        base_fee_per_gas: market.base_fee.to_string(),
        fees,
        coin_balance: balances.native.to_string(),
        token_balance: token
            .as_ref()
            .map(|_| token_balance.unwrap_or_default().to_string()),
        recipient_is_contract: recipient_code.map_err(upstream)?,
    })
}

/// The caller's pending transaction `hash` of `account`, to replace.
async fn pending_of(
    state: &AppState,
    user: &AuthUser,
    account: &AccountRow,
    hash: &str,
) -> ApiResult<TransactionRow> {
    let (row, owner) = state
        .db
        .sent_transaction(&hash.to_lowercase())
        .await?
        .ok_or_else(|| ApiError::not_found("transaction"))?;
    if owner != user.user_id || row.account_id != account.id {
        return Err(ApiError::forbidden());
    }
    if row.status != "pending" {
        return Err(would_fail("that transaction is no longer pending"));
    }
    Ok(row)
}

/// The largest call data taken, in bytes.
const MAX_CALL_DATA: usize = 32 * 1024;
/// The most gas a simulation is given (a block's worth on most networks).
const SIMULATED_GAS_CAP: u64 = 30_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fee_levels_rise_from_slow_to_fast_and_replacements_beat_the_pending_fees() {
        let market = FeeMarket {
            base_fee: 1_000_000_000,
            tips: Tips {
                low: 1_000_000_000,
                middle: 1_500_000_000,
                high: 2_000_000_000,
            },
        };
        let caps = |l: &FeeLevel| -> (u128, u128) {
            (
                l.max_fee_per_gas.parse().expect("fee"),
                l.max_priority_fee_per_gas.parse().expect("tip"),
            )
        };
        let levels = fee_levels(market, 21_000, None);
        let (slow, normal, fast) = (caps(&levels.slow), caps(&levels.normal), caps(&levels.fast));
        assert!(slow.0 < normal.0 && normal.0 < fast.0);
        assert!(
            slow.0 >= market.base_fee + slow.1,
            "covers the base fee and tip"
        );
        assert_eq!(levels.slow.max_fee, (slow.0 * 21_000).to_string());

        let pending = (fast.0 * 4, fast.1 * 4);
        let bumped = fee_levels(market, 21_000, Some(pending));
        for level in [&bumped.slow, &bumped.normal, &bumped.fast] {
            let (fee, tip) = caps(level);
            assert!(fee * 1000 >= pending.0 * 1_125 && tip * 1000 >= pending.1 * 1_125);
        }
    }

    #[test]
    fn recipients_need_a_valid_checksum_when_mixed_case() {
        assert!(parse_recipient("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").is_ok());
        assert!(parse_recipient("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266").is_ok());
        assert!(parse_recipient("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267").is_err());
        assert!(parse_recipient("0xf39fd6").is_err());
        assert!(parse_recipient("f39fd6e51aad88f6f4ce6ab8827279cfffb92266").is_err());
    }

    #[test]
    fn amounts_are_integers_in_the_smallest_unit() {
        assert_eq!(parse_amount("100").expect("ok"), U256::from(100));
        for bad in ["", "1.5", "-1", "1e18", " 1", &"9".repeat(79)] {
            assert!(parse_amount(bad).is_err(), "{bad:?}");
        }
        assert_eq!(in_units(U256::from(1_500_000u64), 6), "1.5");
        assert_eq!(in_units(U256::ZERO, 18), "0");
    }
}
