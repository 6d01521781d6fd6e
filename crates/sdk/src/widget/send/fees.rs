//! The fee levels the service quotes, as the device takes them: the three
//! speeds' caps (each checked to parse), and when one is unusually high and
//! needs the person's explicit yes (a lying or mistaken service could drain an
//! account through the fee alone).

use alloy::primitives::U256;
use satchel_api::{FeeLevel, FeeLevels, ServiceErrorCode};

use super::{FeeSpeed, HighFee};
use crate::error::SdkError;

/// Above this many times the base fee (plus twice the tip) a fee cap is
/// unusually high; the service's fastest level is three times plus twice.
const HIGH_FEE_BASE_MULTIPLE: u128 = 4;
/// A tip above both the base fee and this (5 gwei) is unusually high.
const HIGH_TIP_FLOOR: u128 = 5_000_000_000;

/// Whether a fee needs the person's explicit yes: the cap far above the base
/// fee, or (for a coin send) the most it can cost above a quarter of the amount.
pub(super) fn high_fee(
    max_fee_per_gas: u128,
    tip: u128,
    base_fee: u128,
    fee: U256,
    coin_amount: Option<U256>,
) -> Option<HighFee> {
    let cap = base_fee
        .saturating_mul(HIGH_FEE_BASE_MULTIPLE)
        .saturating_add(tip.saturating_mul(2));
    if max_fee_per_gas > cap || tip > base_fee.max(HIGH_TIP_FLOOR) {
        return Some(HighFee::AboveBaseFee);
    }
    match coin_amount {
        Some(amount) if !amount.is_zero() && fee.saturating_mul(U256::from(4)) > amount => {
            Some(HighFee::ShareOfAmount)
        }
        _ => None,
    }
}

pub(super) fn fee_caps(level: &FeeLevel) -> Result<(u128, u128), SdkError> {
    let parse = |t: &str| {
        t.parse::<u128>().map_err(|_| {
            SdkError::service(
                ServiceErrorCode::ApiRequestError,
                "the service sent a malformed fee",
            )
        })
    };
    Ok((
        parse(&level.max_fee_per_gas)?,
        parse(&level.max_priority_fee_per_gas)?,
    ))
}

/// The three speeds' (speed, max fee per gas, max priority fee per gas), in wei.
pub(super) fn fee_options(levels: &FeeLevels) -> Result<Vec<(FeeSpeed, u128, u128)>, SdkError> {
    [
        (FeeSpeed::Slow, &levels.slow),
        (FeeSpeed::Normal, &levels.normal),
        (FeeSpeed::Fast, &levels.fast),
    ]
    .into_iter()
    .map(|(speed, level)| {
        let (max_fee, priority) = fee_caps(level)?;
        Ok((speed, max_fee, priority))
    })
    .collect()
}
