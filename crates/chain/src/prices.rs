//! Prices from Chainlink `AggregatorV3Interface` feeds: each feed's
//! `decimals()` and `latestRoundData()`, all of a network's feeds in one
//! JSON-RPC batch. A feed is any contract the configuration names, and what it
//! answers is checked before it is believed.

use alloy::eips::BlockNumberOrTag;
use alloy::primitives::{Address, Bytes, U256};
use alloy::rpc::types::TransactionRequest;
use alloy::sol_types::SolCall;

use crate::abi::IAggregatorV3;
use crate::{Chain, ChainError, Result, rpc_error};

/// The most feeds read in one call (two requests each in the batch).
pub const MAX_FEEDS: usize = 256;
/// More decimals than any real feed has (Chainlink's use 8 or 18).
const MAX_FEED_DECIMALS: u8 = 36;

/// A feed's latest answer: `answer / 10^decimals` units of the quote currency
/// for one whole unit of the asset, as of `updated_at` (Unix seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeedAnswer {
    pub answer: U256,
    pub decimals: u8,
    pub updated_at: u64,
}

impl FeedAnswer {
    /// The answer as a decimal string (`"3012.5"`).
    pub fn price(&self) -> String {
        crate::units::format_units(self.answer, u32::from(self.decimals))
    }
}

impl Chain {
    /// The latest answer of each feed, in order: `None` for one that has no
    /// such functions, reverts, or answers what a working feed never does (a
    /// price of zero or below, no update time, a round answered in an earlier
    /// one, a time in the future). At most [`MAX_FEEDS`]; the rest are `None`.
    pub async fn feed_answers(
        &self,
        feeds: &[Address],
        now: u64,
    ) -> Result<Vec<Option<FeedAnswer>>> {
        let latest = BlockNumberOrTag::Latest;
        let node = |e: alloy::transports::TransportError| ChainError::Node(e.to_string());
        let mut batch = self.client().new_batch();
        let mut waiting = Vec::with_capacity(feeds.len().min(MAX_FEEDS));
        for feed in feeds.iter().take(MAX_FEEDS) {
            let mut call = |input: Vec<u8>| {
                let request = TransactionRequest::default()
                    .to(*feed)
                    .input(Bytes::from(input).into());
                batch.add_call::<_, Bytes>("eth_call", &(request, latest))
            };
            let decimals = call(IAggregatorV3::decimalsCall {}.abi_encode()).map_err(node)?;
            let round = call(IAggregatorV3::latestRoundDataCall {}.abi_encode()).map_err(node)?;
            waiting.push((decimals, round));
        }
        if waiting.is_empty() {
            return Ok(Vec::new());
        }
        batch.send().await.map_err(rpc_error)?;
        let mut answers = Vec::with_capacity(feeds.len());
        for (decimals, round) in waiting {
            let answer = |r: alloy::transports::TransportResult<Bytes>| match r {
                Ok(bytes) => Ok(Some(bytes)),
                Err(alloy::transports::RpcError::ErrorResp(_)) => Ok(None),
                Err(e) => Err(rpc_error(e)),
            };
            let decimals = answer(decimals.await)?
                .and_then(|b| IAggregatorV3::decimalsCall::abi_decode_returns(&b).ok());
            let round = answer(round.await)?
                .and_then(|b| IAggregatorV3::latestRoundDataCall::abi_decode_returns(&b).ok());
            answers.push(decimals.zip(round).and_then(|(decimals, round)| {
                checked(
                    decimals,
                    round.answer,
                    round.updatedAt,
                    round.roundId.to::<u128>(),
                    round.answeredInRound.to::<u128>(),
                    now,
                )
            }));
        }
        answers.resize(feeds.len(), None);
        Ok(answers)
    }
}

/// A feed's round as it may be believed: a positive answer, an update time
/// that is set and not ahead of `now` by more than a block's drift, answered
/// in its own round.
fn checked(
    decimals: u8,
    answer: alloy::primitives::I256,
    updated_at: U256,
    round: u128,
    answered_in: u128,
    now: u64,
) -> Option<FeedAnswer> {
    /// How far a block's time may run ahead of this machine's clock.
    const DRIFT_SECS: u64 = 60;
    if decimals > MAX_FEED_DECIMALS || !answer.is_positive() || answered_in < round {
        return None;
    }
    let updated_at = u64::try_from(updated_at).ok().filter(|t| *t > 0)?;
    if updated_at > now.saturating_add(DRIFT_SECS) {
        return None;
    }
    Some(FeedAnswer {
        answer: answer.into_raw(),
        decimals,
        updated_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::I256;

    const NOW: u64 = 1_800_000_000;

    #[test]
    fn a_working_feed_is_believed_and_shown_exactly() {
        let answer = checked(
            8,
            I256::try_from(301_250_000_000i64).expect("fits"),
            U256::from(NOW - 30),
            7,
            7,
            NOW,
        )
        .expect("believed");
        assert_eq!(answer.price(), "3012.5");
        assert_eq!(answer.updated_at, NOW - 30);
    }

    #[test]
    fn what_a_working_feed_never_answers_is_refused() {
        let price = I256::try_from(100i64).expect("fits");
        // Zero and negative prices.
        assert!(checked(8, I256::ZERO, U256::from(NOW), 1, 1, NOW).is_none());
        assert!(checked(8, -price, U256::from(NOW), 1, 1, NOW).is_none());
        // Never updated, or updated in the future.
        assert!(checked(8, price, U256::ZERO, 1, 1, NOW).is_none());
        assert!(checked(8, price, U256::from(NOW + 3600), 1, 1, NOW).is_none());
        assert!(checked(8, price, U256::MAX, 1, 1, NOW).is_none());
        // A round answered in an earlier one (a stalled feed), absurd decimals.
        assert!(checked(8, price, U256::from(NOW), 5, 4, NOW).is_none());
        assert!(checked(77, price, U256::from(NOW), 1, 1, NOW).is_none());
    }
}
