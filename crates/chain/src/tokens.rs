//! An ERC-20 contract's own facts (name, symbol, decimals) and one holder's
//! balance, read in one round trip, for a token a person adds by its address.

use alloy::eips::BlockNumberOrTag;
use alloy::primitives::{Address, Bytes, U256};
use alloy::rpc::types::TransactionRequest;
use alloy::sol_types::SolCall;

use crate::abi::{IERC20, IERC20Bytes32};
use crate::{Chain, ChainError, Result, rpc_error};

/// The longest name and symbol kept: what a token says of itself is shown in
/// lists and on review pages, so it is bounded like any other hostile text.
pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_SYMBOL_CHARS: usize = 16;
/// More decimals than any amount of 256 bits can use.
pub const MAX_DECIMALS: u8 = 77;

/// What an ERC-20 contract says of itself, and a holder's balance of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenFacts {
    pub name: String,
    pub symbol: String,
    pub decimals: u32,
    pub balance: U256,
}

impl Chain {
    /// Reads `contract`'s name, symbol and decimals and `holder`'s balance of it
    /// in one JSON-RPC batch. `None` when it is not an ERC-20 token: no code,
    /// a missing or reverting function, or a name or symbol that is not plain
    /// text of a sensible length.
    pub async fn token_facts(
        &self,
        contract: Address,
        holder: Address,
    ) -> Result<Option<TokenFacts>> {
        let latest = BlockNumberOrTag::Latest;
        let call = |input: Vec<u8>| {
            TransactionRequest::default()
                .to(contract)
                .input(Bytes::from(input).into())
        };
        let node = |e: alloy::transports::TransportError| ChainError::Node(e.to_string());
        let mut batch = self.client().new_batch();
        let code = batch
            .add_call::<_, Bytes>("eth_getCode", &(contract, latest))
            .map_err(node)?;
        let mut add =
            |input: Vec<u8>| batch.add_call::<_, Bytes>("eth_call", &(call(input), latest));
        let name = add(IERC20::nameCall {}.abi_encode()).map_err(node)?;
        let symbol = add(IERC20::symbolCall {}.abi_encode()).map_err(node)?;
        let decimals = add(IERC20::decimalsCall {}.abi_encode()).map_err(node)?;
        let balance = add(IERC20::balanceOfCall { owner: holder }.abi_encode()).map_err(node)?;
        batch.send().await.map_err(rpc_error)?;

        let answer = |r: alloy::transports::TransportResult<Bytes>| match r {
            Ok(bytes) => Ok(Some(bytes)),
            Err(alloy::transports::RpcError::ErrorResp(_)) => Ok(None),
            Err(e) => Err(rpc_error(e)),
        };
        let code = code.await.map_err(rpc_error)?;
        let (name, symbol, decimals, balance) = (
            answer(name.await)?,
            answer(symbol.await)?,
            answer(decimals.await)?,
            answer(balance.await)?,
        );
        if code.is_empty() {
            return Ok(None);
        }
        let text = |bytes: Option<Bytes>,
                    string: fn(&[u8]) -> Option<String>,
                    word: fn(&[u8]) -> Option<String>,
                    most: usize| {
            let bytes = bytes?;
            let raw = string(&bytes).or_else(|| word(&bytes))?;
            shown_text(&raw, most)
        };
        let Some(symbol) = text(
            symbol,
            |b| IERC20::symbolCall::abi_decode_returns(b).ok(),
            |b| {
                IERC20Bytes32::symbolCall::abi_decode_returns(b)
                    .ok()
                    .map(word_text)
            },
            MAX_SYMBOL_CHARS,
        ) else {
            return Ok(None);
        };
        // A token without a name is shown by its symbol.
        let name = text(
            name,
            |b| IERC20::nameCall::abi_decode_returns(b).ok(),
            |b| {
                IERC20Bytes32::nameCall::abi_decode_returns(b)
                    .ok()
                    .map(word_text)
            },
            MAX_NAME_CHARS,
        )
        .unwrap_or_else(|| symbol.clone());
        let Some(decimals) = decimals
            .and_then(|b| IERC20::decimalsCall::abi_decode_returns(&b).ok())
            .filter(|d| *d <= MAX_DECIMALS)
        else {
            return Ok(None);
        };
        let Some(balance) =
            balance.and_then(|b| IERC20::balanceOfCall::abi_decode_returns(&b).ok())
        else {
            return Ok(None);
        };
        Ok(Some(TokenFacts {
            name,
            symbol,
            decimals: u32::from(decimals),
            balance,
        }))
    }
}

/// A `bytes32` name or symbol: the text before the first zero byte.
fn word_text(word: alloy::primitives::FixedBytes<32>) -> String {
    let end = word.iter().position(|b| *b == 0).unwrap_or(32);
    String::from_utf8_lossy(&word[..end]).into_owned()
}

/// Text a contract gave, as it may be shown: trimmed, non-empty, at most `most`
/// characters, and without control, invisible or direction-changing characters
/// (which could make one token's symbol read as another's). `None` otherwise.
pub fn shown_text(raw: &str, most: usize) -> Option<String> {
    let text = raw.trim();
    let hidden = |c: char| {
        c.is_control()
            || matches!(c, '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFF}')
    };
    if text.is_empty() || text.chars().count() > most || text.chars().any(hidden) {
        return None;
    }
    Some(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_bounded_text_is_shown() {
        assert_eq!(shown_text("  USDC ", 16).as_deref(), Some("USDC"));
        assert_eq!(shown_text("USD₮0", 16).as_deref(), Some("USD₮0"));
        assert_eq!(shown_text("", 16), None);
        assert_eq!(shown_text("US\u{200B}DC", 16), None, "zero-width space");
        assert_eq!(
            shown_text("\u{202E}CDSU", 16),
            None,
            "right-to-left override"
        );
        assert_eq!(shown_text("a\nb", 16), None);
        assert_eq!(shown_text(&"x".repeat(17), 16), None);
    }

    #[test]
    fn a_bytes32_symbol_ends_at_its_first_zero() {
        let mut word = [0u8; 32];
        word[..3].copy_from_slice(b"MKR");
        assert_eq!(word_text(word.into()), "MKR");
    }
}
