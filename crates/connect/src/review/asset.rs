//! `wallet_watchAsset` (EIP-747): an application suggests an ERC-20 token for
//! the wallet to list. Only its address is taken as given; its symbol and
//! decimals are compared with what the contract itself says (read by the
//! shell), and a page whose suggestion disagrees with the chain is refused.

use alloy::primitives::Address;
use serde_json::Value;

use crate::rpc::ProviderError;

/// A token an application asks the wallet to list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetToWatch {
    pub network: String,
    pub contract: Address,
    /// What the application says it is called and how it divides (unchecked).
    pub symbol: Option<String>,
    pub decimals: Option<u32>,
}

/// Reads `wallet_watchAsset`'s parameters: `{type: "ERC20", options: {address,
/// symbol?, decimals?, image?}}`, as an object or the single item of a list.
pub fn watch_asset(params: &Value, network: &str) -> Result<AssetToWatch, ProviderError> {
    let request = match params {
        Value::Array(items) if items.len() == 1 => &items[0],
        other => other,
    };
    let kind = request.get("type").and_then(Value::as_str);
    if kind != Some("ERC20") {
        return Err(ProviderError::unsupported(
            "Satchel lists ERC20 tokens only; its NFTs are found on their own",
        ));
    }
    let options = request.get("options").ok_or_else(|| {
        ProviderError::invalid_params("expected options with the token's address")
    })?;
    let contract: Address = options
        .get("address")
        .and_then(Value::as_str)
        .and_then(checked_address)
        .ok_or_else(|| {
            ProviderError::invalid_params(
                "options.address is not an address, or its checksum is wrong",
            )
        })?;
    let symbol = match options.get("symbol") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.chars().count() <= 64 => Some(s.clone()),
        Some(_) => {
            return Err(ProviderError::invalid_params(
                "options.symbol is not a short text",
            ));
        }
    };
    let decimals = match options.get("decimals") {
        None | Some(Value::Null) => None,
        Some(d) => Some(
            d.as_u64()
                .or_else(|| d.as_str().and_then(|s| s.parse().ok()))
                .and_then(|d| u32::try_from(d).ok())
                .filter(|d| *d <= 77)
                .ok_or_else(|| ProviderError::invalid_params("options.decimals is not 0 to 77"))?,
        ),
    };
    Ok(AssetToWatch {
        network: network.to_owned(),
        contract,
        symbol,
        decimals,
    })
}

/// `0x` and 40 hex digits, in one case or with its EIP-55 checksum.
fn checked_address(text: &str) -> Option<Address> {
    let hex = text.strip_prefix("0x").filter(|h| h.len() == 40)?;
    let one_case = hex == hex.to_lowercase() || hex == hex.to_uppercase();
    if one_case {
        text.parse().ok()
    } else {
        Address::parse_checksummed(text, None).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TOKEN: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

    #[test]
    fn an_erc20_suggestion_is_read_with_what_it_claims() {
        let asked = json!({"type": "ERC20", "options": {"address": TOKEN, "symbol": "FRSH", "decimals": 9, "image": "https://x/y.png"}});
        let asset = watch_asset(&asked, "anvil").expect("read");
        assert_eq!(asset.contract, TOKEN.parse::<Address>().expect("address"));
        assert_eq!(asset.symbol.as_deref(), Some("FRSH"));
        assert_eq!(asset.decimals, Some(9));
        // As the single item of a list, and without the optional claims.
        let listed = json!([{"type": "ERC20", "options": {"address": TOKEN}}]);
        let asset = watch_asset(&listed, "anvil").expect("read");
        assert_eq!((asset.symbol, asset.decimals), (None, None));
    }

    #[test]
    fn other_kinds_and_bad_options_are_refused() {
        let nft = json!({"type": "ERC721", "options": {"address": TOKEN, "tokenId": "1"}});
        assert_eq!(watch_asset(&nft, "anvil").expect_err("an NFT").code, 4200);
        for options in [
            json!({"address": "0x12"}),
            // A typo in a checksummed address (its last letter's case).
            json!({"address": "0x5FbDB2315678afecb367f032d93F642f64180aA3"}),
            json!({"address": TOKEN, "decimals": 300}),
            json!({"address": TOKEN, "symbol": "x".repeat(65)}),
        ] {
            let asked = json!({"type": "ERC20", "options": options});
            assert_eq!(
                watch_asset(&asked, "anvil").expect_err("bad options").code,
                -32602
            );
        }
    }
}
