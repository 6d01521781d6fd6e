//! Wire renderings: stored rows and configuration turned into the spec's JSON
//! shapes (accounts, balances, NFTs, the service user).

use satchel_api::{
    Account, AccountHolder, CoinInfo, LoginStatus, Nft, NftContentType, NftContract, NftOrigin,
    NftScheme, Outcome, Provider, ServiceToken, ServiceUser, TokenBalance, UserInfo, UserStatus,
};
use satchel_chain::Address;

use crate::config::{NetworkConfig, TokenConfig};
use crate::db::{AccountRow, NftRow, TokenRow};
use crate::state::Network;

/// Addresses are stored lowercase and shown with their EIP-55 checksum.
pub fn checksummed(address: &str) -> String {
    address
        .parse::<Address>()
        .map(|a| a.to_checksum(None))
        .unwrap_or_else(|_| address.to_owned())
}

/// An address as it is stored: lowercase hex with `0x`.
pub fn lower_hex(address: &Address) -> String {
    format!("{address:#x}")
}

/// The user as `ServiceUser`: registration is complete once the user has a
/// wallet; `token` is there when a session was just opened.
pub fn service_user(
    user_id: &str,
    email: String,
    provider: &str,
    wallet_id: Option<String>,
    token: Option<ServiceToken>,
) -> ServiceUser {
    ServiceUser {
        status: Outcome::Success,
        user_info: Some(UserInfo {
            user_id: user_id.to_owned(),
            email,
            provider: Provider::parse(provider).unwrap_or(Provider::Email),
            use_2fa: false,
        }),
        user_status: UserStatus {
            login_status: if wallet_id.is_some() {
                LoginStatus::Complete
            } else {
                LoginStatus::RegisterRequired
            },
            pin_required: None,
        },
        wallet_id,
        token,
    }
}

pub fn native_coin(network: &NetworkConfig) -> CoinInfo {
    CoinInfo {
        name: network.coin_name.clone(),
        network: network.name.clone(),
        symbol: network.symbol.clone(),
        decimals: network.decimals,
        icon_url: network.icon_url.clone(),
        ids: network.ids.clone(),
    }
}

pub fn token_coin(network: &NetworkConfig, token: &TokenConfig) -> CoinInfo {
    CoinInfo {
        name: token.name.clone(),
        network: network.name.clone(),
        symbol: token.symbol.clone(),
        decimals: token.decimals,
        icon_url: token.icon_url.clone(),
        ids: token.ids.clone(),
    }
}

/// The `accounts` list: each account's native entry followed by its token entries.
/// Accounts on networks no longer configured, and tokens no longer tracked, are
/// left out rather than shown without their coin facts.
pub fn accounts_list<'a>(
    accounts: &[AccountRow],
    tokens: &[TokenRow],
    network_of: impl Fn(&str) -> Option<&'a Network>,
) -> Vec<Account> {
    let mut list = Vec::with_capacity(accounts.len() + tokens.len());
    for row in accounts {
        let Some(known) = network_of(&row.network) else {
            continue;
        };
        let network = &known.config;
        let holder = AccountHolder {
            account_id: row.id.clone(),
            address: checksummed(&row.address),
            address_path: row.address_path.clone(),
            label: row.label.clone(),
        };
        list.push(Account::native(
            &holder,
            network.coin_id,
            native_coin(network),
            row.balance.clone(),
        ));
        for token in tokens.iter().filter(|t| t.account_id == row.id) {
            let Some(config) = known.token(&token.contract) else {
                continue;
            };
            list.push(Account::token(
                &holder,
                token.id.clone(),
                config.contract().to_owned(),
                token_coin(network, &config),
                token.balance.clone(),
            ));
        }
    }
    list
}

/// A token's balance in the spec's shape (`contract` checksummed).
pub fn token_balance(token: &TokenConfig, contract: &str, balance: String) -> TokenBalance {
    TokenBalance {
        balance,
        decimals: token.decimals,
        symbol: token.symbol.clone(),
        contract: contract.to_owned(),
    }
}

pub fn nft(row: NftRow) -> Nft {
    Nft {
        id: row.id,
        account_id: row.account_id,
        name: row.name,
        description: row.description,
        token_id: row.token_id,
        external_link: row.external_link,
        image_url: row.image_url,
        quantity: row.quantity,
        content_type: if row.content_type == 2 {
            NftContentType::Video
        } else {
            NftContentType::Image
        },
        content_url: row.content_url.filter(|u| !u.is_empty()),
        state: row.state,
        received: match (row.arrival.received_from, row.arrival.received_tx) {
            (Some(from), Some(tx_hash)) => Some(NftOrigin {
                from: checksummed(&from),
                sent_by: row.arrival.received_by.as_deref().map(checksummed),
                tx_hash,
            }),
            _ => None,
        },
        contract: NftContract {
            name: row.collection_name.filter(|n| !n.is_empty()),
            address: checksummed(&row.contract),
            scheme: if row.scheme == 2 {
                NftScheme::Erc1155
            } else {
                NftScheme::Erc721
            },
            description: row.collection_description.unwrap_or_default(),
            network: row.network,
            external_link: row.collection_external_link.unwrap_or_default(),
            image_url: row.collection_image_url.unwrap_or_default(),
        },
    }
}
