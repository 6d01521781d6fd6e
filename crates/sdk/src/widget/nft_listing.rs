//! The user's NFTs as the service last listed them (grouped by collection, see
//! [`satchel_api::NftsGrouped`]) and the widget judged them: the ones asked for, held by one
//! of the user's accounts, each id once, each with its spam verdict and its
//! picture's handle. `getNFTs` makes the spec's `ServiceNFT`s of it; the NFT tab
//! its grid, and the detail of one NFT when asked, so a collection's facts are
//! held once however many NFTs it has.
//!
//! The listing is judged as it comes ([`judging`], over [`scan`]), so neither
//! the answer's text nor the service's form of it is held whole. The NFT tab
//! keeps the judged listing until the next one (for an NFT's detail), so an
//! NFT is held compactly: only what its grid tile and detail page show, each
//! text in one exact allocation, its picture's URL on disk
//! ([`PictureUrls`]).

use std::collections::HashSet;

use alloy::primitives::Address;
use reqwest::Method;
use satchel_api::{
    GroupedNft, NftContentType, ServiceAccount, ServiceContentType, ServiceNft, ServiceNftContract,
};

use super::picture_urls::{PictureHandle, PictureUrls};
use super::{Refresh, Widget, hidden, mapping};
use crate::client::{Caller, NFT_LISTING};
use crate::error::SdkError;

mod judging;
mod scan;
use judging::Judging;

/// The judged listing (see the module's comment).
#[derive(Debug, Default)]
pub(super) struct JudgedNfts {
    /// Every collection of the service's listing, as the SDK names it.
    pub collections: Vec<ServiceNftContract>,
    /// The accounts holding them.
    pub holders: Vec<ServiceAccount>,
    /// In the service's order.
    pub nfts: Vec<JudgedNft>,
}

/// One NFT of the judged listing: what the service listed of it but its
/// holder's id (in `holder`), its picture's URL (kept by handle in
/// [`PictureUrls`]) and how it came (but for its sender, the spam verdict is
/// all the widget needs of it).
#[derive(Debug)]
pub(super) struct JudgedNft {
    pub id: Box<str>,
    pub name: Box<str>,
    pub description: Box<str>,
    pub token_id: Box<str>,
    pub external_link: Box<str>,
    pub content_url: Option<Box<str>>,
    /// Who sent it to the person (the zero address for a mint), when the
    /// service told.
    pub received_from: Option<Box<str>>,
    pub quantity: i64,
    pub state: i64,
    pub video: bool,
    /// Its position in [`JudgedNfts::collections`].
    pub collection: u32,
    /// Its position in [`JudgedNfts::holders`].
    pub holder: u32,
    pub likely_spam: bool,
    /// Its picture, when it has one: its URL is the allowed pictures' (see
    /// [`PictureUrls`]).
    pub picture: Option<PictureHandle>,
}

impl JudgedNfts {
    /// The whole listing `json` judged at once (see [`Judging`]).
    #[cfg(test)]
    pub fn judge(
        json: &[u8],
        accounts: &[satchel_api::Account],
        networks: Option<&[String]>,
        known: &HashSet<Address>,
        vouched: impl Fn(&str, &str) -> bool,
        pictures: &PictureUrls,
    ) -> Result<Self, SdkError> {
        let mut judging = Judging::new(accounts, networks, known, vouched, pictures);
        judging.feed(json)?;
        judging.finish()
    }

    /// `nft` in the spec's shape; its picture's URL read from `pictures`.
    pub fn service_nft(&self, nft: &JudgedNft, pictures: &PictureUrls) -> ServiceNft {
        // Both positions were made by `judge`, within their lists.
        let contract = self.collections[nft.collection as usize].clone();
        let account = self.holders[nft.holder as usize].clone();
        ServiceNft {
            account,
            contract,
            name: nft.name.to_string(),
            description: nft.description.to_string(),
            external_link: nft.external_link.to_string(),
            image_url: nft
                .picture
                .and_then(|handle| pictures.url(handle))
                .unwrap_or_default(),
            content_url: nft.content_url.as_deref().map(str::to_owned),
            quantity: nft.quantity,
            content_type: if nft.video {
                ServiceContentType::Video
            } else {
                ServiceContentType::Image
            },
            state: nft.state,
            token_id: nft.token_id.to_string(),
            // A mint's sender (the zero address) is left out: the page says
            // "minted".
            received_from: nft
                .received_from
                .as_deref()
                .filter(|from| from.parse::<Address>() != Ok(Address::ZERO))
                .map(str::to_owned),
            likely_spam: nft.likely_spam,
        }
    }

    /// The NFT with service id `id`, in the spec's shape.
    pub fn find(&self, id: &str, pictures: &PictureUrls) -> Option<ServiceNft> {
        let nft = self.nfts.iter().find(|n| &*n.id == id)?;
        Some(self.service_nft(nft, pictures))
    }
}

impl JudgedNft {
    fn of(nft: GroupedNft, holder: u32, likely_spam: bool, picture: Option<PictureHandle>) -> Self {
        JudgedNft {
            id: nft.id.into_boxed_str(),
            name: nft.name.into_boxed_str(),
            description: nft.description.into_boxed_str(),
            token_id: nft.token_id.into_boxed_str(),
            external_link: nft.external_link.into_boxed_str(),
            content_url: nft.content_url.map(String::into_boxed_str),
            received_from: nft.received.map(|r| r.from.into_boxed_str()),
            quantity: nft.quantity,
            state: nft.state,
            video: nft.content_type == NftContentType::Video,
            collection: nft.collection,
            holder,
            likely_spam,
            picture,
        }
    }
}

/// A position in a list the service's bounded listing made.
pub(super) fn position(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

impl Widget {
    /// The user's NFTs, judged (see [`JudgedNfts`]); `refresh` re-reads them
    /// from the chain, refused within a minute of the last refresh. Their
    /// pictures and links are allowed from then on.
    pub(super) async fn judged_nfts(
        &self,
        refresh: bool,
        networks: Option<&[String]>,
    ) -> Result<JudgedNfts, SdkError> {
        let (user_id, wallet_id) = self.require_login()?;
        if refresh {
            self.state.lock().cooldowns.start(Refresh::Nfts)?;
        }
        let path = if refresh { "v1/nft/refresh" } else { "v1/nft" };
        let path = format!("{path}?userId={user_id}&walletId={wallet_id}");
        // Grouped by collection: a few collections of thousands of NFTs come
        // once each, not once an NFT. The accounts (a read of the service and of
        // the keychain) while the listing comes: the grid's first row waits on
        // both.
        let (mut answer, accounts) = tokio::try_join!(
            self.login
                .authed_for_answer(Caller::Rest, Method::GET, &path, None, NFT_LISTING,),
            self.accounts(),
        )?;
        // Whom the person knows: their accounts this device holds, and the
        // addresses they saved.
        let mut known: HashSet<Address> = accounts
            .accounts
            .iter()
            .filter_map(|a| a.address.parse().ok())
            .collect();
        known.extend(
            self.saved_addresses()?
                .iter()
                .filter_map(|s| s.address.parse::<Address>().ok()),
        );
        // Judged as it comes: neither its text (a listing of thousands of NFTs
        // is megabytes) nor the service's form of it is held whole.
        let mut judging = Judging::new(
            &accounts.accounts,
            networks,
            &known,
            |network, contract| self.vouched_collection(network, contract),
            &self.pictures,
        );
        while let Some(chunk) = answer.chunk().await? {
            judging.feed(&chunk)?;
        }
        let judged = judging.finish()?;
        self.state.lock().allowed.extend(&judged);
        Ok(judged)
    }
}

#[cfg(test)]
pub(super) mod fixtures {
    //! Listings and accounts as the service sends them, for the tests of the
    //! judged listing and of the grid.

    use satchel_api::{Account, GroupedNft, NftContentType, NftContract, NftScheme, NftsGrouped};

    /// The person's account `id` at `address` on `network`.
    pub fn account(id: &str, network: &str, address: &str) -> Account {
        Account {
            account_id: id.into(),
            account_token_id: None,
            address: address.into(),
            address_path: "m/44'/60'/0'/0/0".into(),
            label: String::new(),
            balance: "0".into(),
            coin_id: None,
            name: "Ether".into(),
            network: network.into(),
            symbol: "ETH".into(),
            decimals: 18,
            contract: None,
            icon_url: String::new(),
            ids: String::new(),
        }
    }

    pub fn collection(network: &str, address: &str) -> NftContract {
        NftContract {
            name: Some(format!("{address} collection")),
            address: address.into(),
            scheme: NftScheme::Erc1155,
            description: "about it".into(),
            network: network.into(),
            external_link: String::new(),
            image_url: String::new(),
        }
    }

    /// NFT `id` named `name` of the listing's collection `collection`, held by
    /// account `account`.
    pub fn nft(id: &str, collection: u32, account: &str, name: &str) -> GroupedNft {
        GroupedNft {
            id: id.into(),
            account_id: account.into(),
            name: name.into(),
            description: "a long description the grid does not carry".into(),
            token_id: "7".into(),
            external_link: format!("https://example.com/{id}"),
            image_url: format!("data:image/svg+xml,<svg>{name}</svg>"),
            quantity: 2,
            content_type: NftContentType::Image,
            collection,
            content_url: None,
            state: 1,
            received: None,
        }
    }

    pub fn listing(collections: Vec<NftContract>, nfts: Vec<GroupedNft>) -> NftsGrouped {
        NftsGrouped { collections, nfts }
    }
}

#[cfg(test)]
mod tests;
