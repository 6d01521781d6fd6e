//! The REST shapes turned into the widget SDK's: balances scaled to decimal
//! strings, accounts and NFTs' collections and holders as `ServiceAccount`
//! and `ServiceNftContract` (the NFTs themselves: `nft_listing`).

use satchel_api::{
    Account, AccountBalanceInfo, AccountKind, NftContract, NftScheme, ServiceAccount,
    ServiceErrorCode, ServiceNftContract, ServiceNftScheme, TokenBalanceInfo,
};

use crate::error::SdkError;

/// Scales an integer amount in smallest units (as the service sends it) by
/// `decimals` into an exact decimal string (`satchel_chain::units`): `(
/// "1500000000000000000", 18)` is `"1.5"`. A malformed amount is the service's
/// fault, and said so.
pub(crate) fn format_units(amount: &str, decimals: u32) -> Result<String, SdkError> {
    let malformed = || {
        SdkError::service(
            ServiceErrorCode::ApiRequestError,
            format!("the service sent a malformed amount {amount:?}"),
        )
    };
    if amount.is_empty() || !amount.bytes().all(|b| b.is_ascii_digit()) {
        return Err(malformed());
    }
    let value: alloy::primitives::U256 = amount.parse().map_err(|_| malformed())?;
    Ok(satchel_chain::units::format_units(value, decimals))
}

pub(crate) use satchel_chain::units::parse_units;

/// The `ServiceAccount` an accounts-list entry names.
pub(crate) fn service_account(account: &Account) -> ServiceAccount {
    ServiceAccount {
        address: account.address.clone(),
        network: account.network.clone(),
        contract: account.contract.clone(),
        is_aa: Some(EOA_ONLY),
    }
}

/// Satchel's accounts are all externally owned (one key, no smart-contract
/// account), so `isAA` is `false` on every one, and getAccounts' `withEoa` ("adds
/// the EOA accounts when an AA account exists") changes nothing: there is no AA
/// account, and the EOAs are always listed.
const EOA_ONLY: bool = false;

/// Whether `network` passes a `networks` filter (none = all).
pub(crate) fn network_selected(filter: Option<&[String]>, network: &str) -> bool {
    filter.is_none_or(|names| names.iter().any(|n| n.eq_ignore_ascii_case(network)))
}

/// Balances per account (native entries), each with its tokens, scaled.
pub(crate) fn balances(accounts: &[Account]) -> Result<Vec<AccountBalanceInfo>, SdkError> {
    let mut out: Vec<AccountBalanceInfo> = Vec::new();
    let mut holders: Vec<&str> = Vec::new();
    for account in accounts {
        match account.kind() {
            Some(AccountKind::Native { .. }) => {
                holders.push(&account.account_id);
                out.push(AccountBalanceInfo {
                    network: account.network.clone(),
                    address: account.address.clone(),
                    symbol: account.symbol.clone(),
                    balance: format_units(&account.balance, account.decimals)?,
                    tokens: Vec::new(),
                });
            }
            Some(AccountKind::Token { contract, .. }) => {
                if let Some(index) = holders.iter().position(|id| *id == account.account_id) {
                    out[index].tokens.push(TokenBalanceInfo {
                        symbol: account.symbol.clone(),
                        balance: format_units(&account.balance, account.decimals)?,
                        contract: contract.to_owned(),
                    });
                }
            }
            None => {}
        }
    }
    Ok(out)
}

/// A collection of the service's listing as the widget SDK names it.
pub(crate) fn service_nft_contract(contract: &NftContract) -> ServiceNftContract {
    let non_empty = |s: &str| (!s.is_empty()).then(|| s.to_owned());
    ServiceNftContract {
        // The collection's name; its address when it has none.
        name: contract
            .name
            .clone()
            .unwrap_or_else(|| contract.address.clone()),
        address: contract.address.clone(),
        scheme: match contract.scheme {
            NftScheme::Erc721 => ServiceNftScheme::Erc721,
            NftScheme::Erc1155 => ServiceNftScheme::Erc1155,
        },
        description: non_empty(&contract.description),
        network: contract.network.clone(),
        external_link: non_empty(&contract.external_link),
        image_url: non_empty(&contract.image_url),
    }
}

/// The account holding an NFT of the service's listing, as the widget SDK
/// names it: the accounts-list entry with its `accountId`; `None` when none is.
pub(crate) fn nft_holder(account_id: &str, accounts: &[Account]) -> Option<ServiceAccount> {
    let holder = accounts
        .iter()
        .find(|a| a.account_id == account_id && a.contract.is_none())?;
    Some(ServiceAccount {
        address: holder.address.clone(),
        network: holder.network.clone(),
        contract: None,
        is_aa: Some(EOA_ONLY),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use satchel_api::{AccountHolder, CoinInfo};

    #[test]
    fn amounts_scale_exactly() {
        let cases = [
            ("0", 18, "0"),
            ("0", 0, "0"),
            ("42", 0, "42"),
            ("1500000000000000000", 18, "1.5"),
            ("1", 18, "0.000000000000000001"),
            ("420250000", 6, "420.25"),
            ("1000000", 6, "1"),
            ("000123", 2, "1.23"),
            (
                "115792089237316195423570985008687907853269984665640564039457584007913129639935",
                18,
                "115792089237316195423570985008687907853269984665640564039457.584007913129639935",
            ),
            (
                "123456789012345678901234567890123456789012345678901234567890",
                0,
                "123456789012345678901234567890123456789012345678901234567890",
            ),
        ];
        for (amount, decimals, expected) in cases {
            assert_eq!(
                format_units(amount, decimals).expect("valid"),
                expected,
                "{amount} / 10^{decimals}"
            );
        }
        for bad in ["", "-1", "1.5", "1e18", " 1"] {
            assert!(format_units(bad, 18).is_err(), "{bad:?}");
        }
    }

    fn holder(id: &str) -> AccountHolder {
        AccountHolder {
            account_id: id.into(),
            address: format!("0x{id}"),
            address_path: "m/44'/60'/0'/0/0".into(),
            label: "Account 1".into(),
        }
    }

    fn coin(network: &str, symbol: &str, decimals: u32) -> CoinInfo {
        CoinInfo {
            name: symbol.into(),
            network: network.into(),
            symbol: symbol.into(),
            decimals,
            icon_url: String::new(),
            ids: String::new(),
        }
    }

    fn accounts() -> Vec<Account> {
        let eth = holder("a1");
        let base = holder("a2");
        vec![
            Account::native(
                &eth,
                60,
                coin("ethereum", "ETH", 18),
                "2500000000000000000".into(),
            ),
            Account::token(
                &eth,
                "t1".into(),
                "0xUSDC".into(),
                coin("ethereum", "USDC", 6),
                "1234567".into(),
            ),
            Account::native(&base, 60, coin("base", "ETH", 18), "0".into()),
        ]
    }

    #[test]
    fn balances_group_tokens_under_their_account() {
        let balances = balances(&accounts()).expect("valid");
        assert_eq!(balances.len(), 2);
        assert_eq!(
            (balances[0].network.as_str(), balances[0].balance.as_str()),
            ("ethereum", "2.5")
        );
        assert_eq!(
            balances[0].tokens,
            vec![TokenBalanceInfo {
                symbol: "USDC".into(),
                balance: "1.234567".into(),
                contract: "0xUSDC".into()
            }]
        );
        assert_eq!(
            (
                balances[1].network.as_str(),
                balances[1].balance.as_str(),
                balances[1].tokens.len()
            ),
            ("base", "0", 0)
        );
    }

    #[test]
    fn an_nfts_collection_and_holder_in_the_sdks_names() {
        let contract = service_nft_contract(&NftContract {
            name: Some("Satchel Items".into()),
            address: "0xN".into(),
            scheme: NftScheme::Erc1155,
            description: "Items".into(),
            network: "base".into(),
            external_link: "".into(),
            image_url: "".into(),
        });
        assert_eq!(contract.scheme, ServiceNftScheme::Erc1155);
        assert_eq!(
            contract.external_link, None,
            "empty optional text is omitted"
        );
        assert_eq!(
            contract.name, "Satchel Items",
            "the name, not the description"
        );
        assert_eq!(
            nft_holder("a2", &accounts()),
            Some(ServiceAccount {
                address: "0xa2".into(),
                network: "base".into(),
                contract: None,
                is_aa: Some(false)
            })
        );
        assert_eq!(nft_holder("gone", &accounts()), None);
    }

    #[test]
    fn network_filters_match_without_case() {
        let filter = vec!["Base".to_owned()];
        assert!(network_selected(Some(&filter), "base"));
        assert!(!network_selected(Some(&filter), "ethereum"));
        assert!(network_selected(None, "ethereum"));
    }
}
