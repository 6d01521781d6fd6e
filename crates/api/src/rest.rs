//! The REST resources and the responses of the four GET operations.

use serde::{Deserialize, Serialize};
use serde_repr::{Deserialize_repr, Serialize_repr};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// One element of `accounts`: a native-coin account or a token account.
///
/// A native-coin entry carries `coinId` and omits `accountTokenId` and `contract`; a
/// token entry carries `accountTokenId` and `contract` and omits `coinId`, repeating
/// the `accountId` and `address` of the account that holds it. Build entries with
/// [`Account::native`] or [`Account::token`] so that rule always holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Account {
    pub account_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_token_id: Option<String>,
    pub address: String,
    pub address_path: String,
    pub label: String,
    /// Integer amount in the coin's smallest unit (wei for ether).
    pub balance: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coin_id: Option<i64>,
    pub name: String,
    pub network: String,
    pub symbol: String,
    pub decimals: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    pub icon_url: String,
    pub ids: String,
}

/// What the holder of an account needs to know about the coin it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoinInfo {
    pub name: String,
    pub network: String,
    pub symbol: String,
    pub decimals: u32,
    pub icon_url: String,
    pub ids: String,
}

/// The account-level fields shared by a native entry and its token entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountHolder {
    pub account_id: String,
    pub address: String,
    pub address_path: String,
    pub label: String,
}

/// Which of the two kinds an [`Account`] entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountKind<'a> {
    Native {
        coin_id: i64,
    },
    Token {
        account_token_id: &'a str,
        contract: &'a str,
    },
}

impl Account {
    pub fn native(holder: &AccountHolder, coin_id: i64, coin: CoinInfo, balance: String) -> Self {
        Self::entry(holder, coin, balance, Some(coin_id), None)
    }

    pub fn token(
        holder: &AccountHolder,
        account_token_id: String,
        contract: String,
        coin: CoinInfo,
        balance: String,
    ) -> Self {
        Self::entry(
            holder,
            coin,
            balance,
            None,
            Some((account_token_id, contract)),
        )
    }

    fn entry(
        holder: &AccountHolder,
        coin: CoinInfo,
        balance: String,
        coin_id: Option<i64>,
        token: Option<(String, String)>,
    ) -> Self {
        let (account_token_id, contract) = token.unzip();
        Self {
            account_id: holder.account_id.clone(),
            account_token_id,
            address: holder.address.clone(),
            address_path: holder.address_path.clone(),
            label: holder.label.clone(),
            balance,
            coin_id,
            name: coin.name,
            network: coin.network,
            symbol: coin.symbol,
            decimals: coin.decimals,
            contract,
            icon_url: coin.icon_url,
            ids: coin.ids,
        }
    }

    /// The entry's kind, or `None` when it breaks the native/token rule.
    pub fn kind(&self) -> Option<AccountKind<'_>> {
        match (self.coin_id, &self.account_token_id, &self.contract) {
            (Some(coin_id), None, None) => Some(AccountKind::Native { coin_id }),
            (None, Some(id), Some(contract)) => Some(AccountKind::Token {
                account_token_id: id,
                contract,
            }),
            _ => None,
        }
    }
}

/// Operation 1: `GET /v1/account?userId=&walletId=`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AccountsResponse {
    pub wallet_id: String,
    pub accounts: Vec<Account>,
}

/// One element of `tokens` in the balance response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TokenBalance {
    pub balance: String,
    pub decimals: u32,
    pub symbol: String,
    pub contract: String,
}

/// Operation 2: `GET /v1/accountbalance/{accountId}/balance`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BalanceResponse {
    pub balance: String,
    pub decimals: u32,
    pub symbol: String,
    pub tokens: Vec<TokenBalance>,
}

/// `contentType` of an NFT: 1 = image, 2 = video.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize_repr, Deserialize_repr)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[repr(u8)]
pub enum NftContentType {
    Image = 1,
    Video = 2,
}

/// `scheme` of an NFT contract: 1 = ERC-721, 2 = ERC-1155.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize_repr, Deserialize_repr)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[repr(u8)]
pub enum NftScheme {
    Erc721 = 1,
    Erc1155 = 2,
}

/// One element of `nfts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Nft {
    pub id: String,
    pub account_id: String,
    pub name: String,
    pub description: String,
    pub token_id: String,
    pub external_link: String,
    pub image_url: String,
    pub quantity: i64,
    pub content_type: NftContentType,
    pub contract: NftContract,
    /// Beyond the spec: the media file (a video's) when the metadata names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_url: Option<String>,
    /// Beyond the spec: 1 when the metadata was read, 2 when it could not be (the
    /// name is then the placeholder `#<tokenId>`).
    #[serde(default = "described")]
    pub state: i64,
    /// Beyond the spec: how the NFT last came to the account, when the service
    /// saw it come (NFTs found before it kept this have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received: Option<NftOrigin>,
}

/// How an NFT came to an account: what the app judges likely spam by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NftOrigin {
    /// The transfer's sender (the zero address for a mint), checksummed.
    pub from: String,
    /// Who sent the transaction that carried it (the one who paid its fee),
    /// checksummed, when the node told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent_by: Option<String>,
    /// That transaction's hash.
    pub tx_hash: String,
}

fn described() -> i64 {
    1
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NftContract {
    /// Beyond the spec: the collection's `name()`, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub address: String,
    pub scheme: NftScheme,
    pub description: String,
    pub network: String,
    pub external_link: String,
    pub image_url: String,
}

/// Operations 3 and 4: `GET /v1/nft` and `GET /v1/nft/refresh`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NftsResponse {
    pub nfts: Vec<Nft>,
}

/// Beyond the spec: the media type operations 3 and 4 answer [`NftsGrouped`] in,
/// when a request's `Accept` names it (any other asks for the spec's shape).
pub const NFTS_GROUPED_MEDIA_TYPE: &str = "application/vnd.satchel.nfts-grouped+json";

/// Beyond the spec: operations 3 and 4 with each collection once and every NFT
/// naming its collection by position, for a device listing thousands of NFTs
/// of a few collections (the spec's shape repeats the collection in each).
/// [`NftsGrouped::into_nfts`] gives back the spec's listing, element for
/// element. Its collections come before its NFTs in the JSON (the SDK judges
/// each NFT as it reads it, so it must know the collections by then).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NftsGrouped {
    pub collections: Vec<NftContract>,
    pub nfts: Vec<GroupedNft>,
}

/// One element of [`NftsGrouped::nfts`]: an [`Nft`] with its collection's
/// position in place of the collection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct GroupedNft {
    pub id: String,
    pub account_id: String,
    pub name: String,
    pub description: String,
    pub token_id: String,
    pub external_link: String,
    pub image_url: String,
    pub quantity: i64,
    pub content_type: NftContentType,
    /// Its collection's position in [`NftsGrouped::collections`].
    pub collection: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_url: Option<String>,
    #[serde(default = "described")]
    pub state: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received: Option<NftOrigin>,
}

impl NftsGrouped {
    /// Groups a listing, in its order.
    pub fn group(listing: NftsResponse) -> Self {
        let mut grouped = NftsGrouped::default();
        let mut positions: std::collections::HashMap<NftContract, u32> =
            std::collections::HashMap::new();
        for nft in listing.nfts {
            let next = u32::try_from(grouped.collections.len()).unwrap_or(u32::MAX);
            let collection = match positions.get(&nft.contract) {
                Some(position) => *position,
                None => {
                    grouped.collections.push(nft.contract.clone());
                    positions.insert(nft.contract, next);
                    next
                }
            };
            grouped.nfts.push(GroupedNft {
                id: nft.id,
                account_id: nft.account_id,
                name: nft.name,
                description: nft.description,
                token_id: nft.token_id,
                external_link: nft.external_link,
                image_url: nft.image_url,
                quantity: nft.quantity,
                content_type: nft.content_type,
                collection,
                content_url: nft.content_url,
                state: nft.state,
                received: nft.received,
            });
        }
        grouped
    }

    /// The collection of `nft`; `None` when the listing names none at its
    /// position (a listing the device did not check).
    pub fn collection_of(&self, nft: &GroupedNft) -> Option<&NftContract> {
        self.collections.get(usize::try_from(nft.collection).ok()?)
    }

    /// The spec's listing; `None` when an NFT names a collection the listing
    /// does not have.
    pub fn into_nfts(self) -> Option<NftsResponse> {
        let collections = self.collections;
        let nfts = self
            .nfts
            .into_iter()
            .map(|nft| {
                let contract = collections.get(usize::try_from(nft.collection).ok()?)?;
                Some(Nft {
                    id: nft.id,
                    account_id: nft.account_id,
                    name: nft.name,
                    description: nft.description,
                    token_id: nft.token_id,
                    external_link: nft.external_link,
                    image_url: nft.image_url,
                    quantity: nft.quantity,
                    content_type: nft.content_type,
                    contract: contract.clone(),
                    content_url: nft.content_url,
                    state: nft.state,
                    received: nft.received,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(NftsResponse { nfts })
    }
}

/// The query of operations 1, 3 and 4.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[serde(rename_all = "camelCase")]
pub struct WalletQuery {
    /// The caller's id: `userInfo.userId` of the login.
    pub user_id: String,
    /// The caller's wallet: `walletId` of the login.
    pub wallet_id: String,
}
