//! The user's NFTs as the service last listed them (grouped by collection, see
//! [`satchel_api::NftsGrouped`]) and the widget judged them: the ones asked for, held by one
//! of the user's accounts, each id once, each with its spam verdict and its
//! picture's handle. `getNFTs` makes the spec's `ServiceNFT`s of it; the NFT tab
//! its grid, and the detail of one NFT when asked, so a collection's facts are
//! held once however many NFTs it has.
//!
//! The NFT tab keeps the judged listing until the next one (for an NFT's
//! detail), so an NFT is held compactly: only what its grid tile and detail
//! page show, each text in one exact allocation.

use std::collections::HashSet;
use std::fmt;

use alloy::primitives::Address;
use reqwest::Method;
use satchel_api::{
    GroupedNft, NFTS_GROUPED_MEDIA_TYPE, NftContentType, ServiceAccount, ServiceContentType,
    ServiceNft, ServiceNftContract,
};
use sha2::{Digest, Sha256};

use super::picture_urls::PictureUrls;
use super::{Refresh, Widget, hidden, mapping};
use judging::Judging;

mod judging;
mod scan;
use crate::client::Caller;
use crate::error::SdkError;

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

/// What the page asks the thumbnail protocol for instead of a picture's URL:
/// 96 bits of the URL's SHA-256, written in hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PictureHandle([u8; 12]);

impl PictureHandle {
    pub fn of(url: &str) -> Self {
        let mut handle = [0; 12];
        handle.copy_from_slice(&Sha256::digest(url.as_bytes())[..12]);
        PictureHandle(handle)
    }

    /// The handle a page wrote; `None` when it is not one.
    pub fn parse(hex: &str) -> Option<Self> {
        let mut handle = [0; 12];
        hex::decode_to_slice(hex, &mut handle).ok()?;
        Some(PictureHandle(handle))
    }
}

impl fmt::Display for PictureHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
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
            self.login.authed_for_answer(
                Caller::Rest,
                Method::GET,
                &path,
                None,
                NFTS_GROUPED_MEDIA_TYPE
            ),
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
mod tests {
    use satchel_api::{NftOrigin, NftsGrouped};

    use super::fixtures::*;
    use super::*;

    /// A judged listing with the pictures it allowed.
    struct Judged {
        listing: JudgedNfts,
        pictures: PictureUrls,
    }

    impl Judged {
        fn find(&self, id: &str) -> Option<ServiceNft> {
            self.listing.find(id, &self.pictures)
        }
    }

    impl std::ops::Deref for Judged {
        type Target = JudgedNfts;
        fn deref(&self) -> &JudgedNfts {
            &self.listing
        }
    }

    fn judge_into(
        listing: NftsGrouped,
        networks: Option<&[String]>,
        pictures: &PictureUrls,
    ) -> Result<JudgedNfts, SdkError> {
        let accounts = [
            account("e1", "sepolia", "0x1"),
            account("e2", "sepolia", "0x2"),
        ];
        JudgedNfts::judge(
            serde_json::to_vec(&listing).expect("json").as_slice(),
            &accounts,
            networks,
            &HashSet::new(),
            |_, c| c == "0xV",
            pictures,
        )
    }

    fn judge(listing: NftsGrouped, networks: Option<&[String]>) -> Result<Judged, SdkError> {
        let pictures = PictureUrls::default();
        let listing = judge_into(listing, networks, &pictures)?;
        Ok(Judged { listing, pictures })
    }

    #[test]
    fn a_listings_pictures_are_allowed_as_read_each_url_kept_once() {
        let pictures = PictureUrls::default();
        let url = "data:image/svg+xml,<svg>One</svg>";
        let other = "data:image/svg+xml,<svg>Not theirs</svg>";
        let mut not_theirs = nft("c", 0, "someone-else", "Not theirs");
        not_theirs.image_url = other.into();
        for _ in 0..2 {
            let judged = judge_into(
                listing(
                    vec![collection("sepolia", "0xA")],
                    vec![nft("a", 0, "e1", "One"), not_theirs.clone()],
                ),
                None,
                &pictures,
            )
            .expect("judged");
            assert_eq!(judged.nfts[0].picture, Some(PictureHandle::of(url)));
            assert_eq!(pictures.url(PictureHandle::of(url)).as_deref(), Some(url));
            // The NFT in the spec's shape has its URL.
            assert_eq!(judged.find("a", &pictures).expect("listed").image_url, url);
        }
        assert!(pictures.has(url));
        assert!(
            !pictures.has(other),
            "a stranger's NFT's picture is not allowed"
        );
    }

    #[test]
    fn a_listing_whose_pictures_cannot_be_kept_is_refused_as_the_devices_error() {
        let dir = tempfile::tempdir().expect("dir");
        let not_a_folder = dir.path().join("a-file");
        std::fs::write(&not_a_folder, b"").expect("written");
        let pictures = PictureUrls::default();
        pictures.set_dir(not_a_folder);
        // More pictures than wait in memory: some must be written.
        let nfts = (0..2000)
            .map(|i| {
                let mut nft = nft(&format!("n{i}"), 0, "e1", "One");
                nft.image_url =
                    format!("https://example.com/pictures/{i:08}/{}.png", "x".repeat(60));
                nft
            })
            .collect();
        let e = judge_into(
            listing(vec![collection("sepolia", "0xA")], nfts),
            None,
            &pictures,
        )
        .expect_err("refused");
        assert!(e.is(satchel_api::ServiceErrorCode::UnknownError), "{e}");
        assert!(e.to_string().contains("pictures"), "{e}");
    }

    #[test]
    fn only_the_persons_nfts_of_the_networks_asked_for_each_id_once() {
        let listing = listing(
            vec![collection("sepolia", "0xA"), collection("base", "0xB")],
            vec![
                nft("a", 0, "e1", "One"),
                nft("b", 1, "e1", "On base"),
                nft("c", 0, "someone-else", "Not theirs"),
                nft("a", 0, "e2", "Impostor"),
                nft("d", 0, "e2", "Two"),
            ],
        );
        let judged = judge(listing.clone(), None).expect("judged");
        let ids: Vec<&str> = judged.nfts.iter().map(|n| &*n.id).collect();
        assert_eq!(ids, ["a", "b", "d"]);
        assert_eq!(
            judged.find("a").expect("a").name,
            "One",
            "the first of an id"
        );
        assert_eq!(judged.find("c"), None);
        let holders: Vec<&str> = judged.holders.iter().map(|h| h.address.as_str()).collect();
        assert_eq!(holders, ["0x1", "0x2"]);

        let sepolia = ["SEPOLIA".to_owned()];
        let judged = judge(listing, Some(&sepolia)).expect("judged");
        let ids: Vec<&str> = judged.nfts.iter().map(|n| &*n.id).collect();
        assert_eq!(ids, ["a", "d"]);
    }

    #[test]
    fn the_spec_shape_joins_the_collection_and_the_holder() {
        let judged = judge(
            listing(
                vec![collection("sepolia", "0xA")],
                vec![nft("a", 0, "e2", "One")],
            ),
            None,
        )
        .expect("judged");
        let nft = judged.find("a").expect("listed");
        assert_eq!(nft.contract.name, "0xA collection");
        assert_eq!(nft.contract.network, "sepolia");
        assert_eq!(nft.account.address, "0x2");
        assert_eq!(
            nft.description,
            "a long description the grid does not carry"
        );
        assert_eq!(nft.image_url, "data:image/svg+xml,<svg>One</svg>");
    }

    #[test]
    fn the_spec_shape_keeps_what_the_service_listed_and_omits_a_mints_sender() {
        let mut clip = nft("v", 0, "e1", "Clip");
        clip.content_type = NftContentType::Video;
        clip.content_url = Some("https://x/clip.mp4".into());
        clip.image_url = String::new();
        clip.state = 2;
        clip.received = Some(NftOrigin {
            from: "0x00000000000000000000000000000000000000aA".into(),
            sent_by: None,
            tx_hash: "0x01".into(),
        });
        let mut minted = nft("m", 0, "e1", "Minted");
        minted.received = Some(NftOrigin {
            from: format!("{}", Address::ZERO),
            sent_by: None,
            tx_hash: "0x02".into(),
        });
        let judged = judge(
            listing(vec![collection("sepolia", "0xA")], vec![clip, minted]),
            None,
        )
        .expect("judged");
        let clip = judged.find("v").expect("listed");
        assert_eq!(clip.content_type, ServiceContentType::Video);
        assert_eq!(clip.content_url.as_deref(), Some("https://x/clip.mp4"));
        assert_eq!(clip.image_url, "");
        assert_eq!((clip.quantity, clip.state), (2, 2));
        assert_eq!(clip.token_id, "7");
        assert_eq!(clip.external_link, "https://example.com/v");
        assert_eq!(
            clip.received_from.as_deref(),
            Some("0x00000000000000000000000000000000000000aA")
        );
        let minted = judged.find("m").expect("listed");
        assert_eq!(minted.content_type, ServiceContentType::Image);
        assert_eq!(minted.received_from, None, "a mint's sender is left out");
    }

    #[test]
    fn a_strangers_nft_is_likely_spam_unless_its_collection_is_vouched_for() {
        let from_stranger = |mut nft: GroupedNft| {
            nft.received = Some(NftOrigin {
                from: "0x00000000000000000000000000000000000000aa".into(),
                sent_by: None,
                tx_hash: "0x01".into(),
            });
            nft
        };
        let judged = judge(
            listing(
                vec![collection("sepolia", "0xA"), collection("sepolia", "0xV")],
                vec![
                    from_stranger(nft("a", 0, "e1", "Drop")),
                    from_stranger(nft("v", 1, "e1", "Vouched")),
                    nft("m", 0, "e1", "Unknown origin"),
                ],
            ),
            None,
        )
        .expect("judged");
        let spam: Vec<bool> = judged.nfts.iter().map(|n| n.likely_spam).collect();
        assert_eq!(spam, [true, false, false]);
        assert!(judged.find("a").expect("a").likely_spam);
    }

    #[test]
    fn nfts_before_their_collections_or_collections_twice_are_refused() {
        let accounts = [account("e1", "sepolia", "0x1")];
        let judge = |json: &str| {
            JudgedNfts::judge(
                json.as_bytes(),
                &accounts,
                None,
                &HashSet::new(),
                |_, _| false,
                &PictureUrls::default(),
            )
        };
        // Written out: a JSON map of serde_json's would put its members in
        // their names' order.
        let collections = serde_json::to_string(&[collection("sepolia", "0xA")]).expect("json");
        let nfts = serde_json::to_string(&[nft("a", 0, "e1", "One")]).expect("json");
        let listed = judge(&format!(
            r#"{{"collections": {collections}, "future": [1, {{"x": 2}}], "nfts": {nfts}}}"#
        ))
        .expect("a member the SDK does not know is skipped");
        assert_eq!(listed.nfts.len(), 1);
        for refused in [
            format!(r#"{{"nfts": {nfts}, "collections": {collections}}}"#),
            format!(r#"{{"collections": {collections}, "nfts": {nfts}, "collections": []}}"#),
            format!(r#"{{"collections": {collections}, "nfts": [{{"id": "a"}}]}}"#),
            format!(r#"[{collections}, {nfts}]"#),
            format!(r#"{{"collections": {collections}, "nfts": {nfts}}} trailing"#),
            r#"{"collections": ["#.to_owned(),
        ] {
            let e = judge(&refused).expect_err("refused");
            assert!(
                e.is(satchel_api::ServiceErrorCode::ApiRequestError),
                "{refused}: {e}"
            );
        }
    }

    #[test]
    fn a_listing_naming_a_collection_it_does_not_have_is_refused() {
        let refused = judge(
            listing(
                vec![collection("sepolia", "0xA")],
                vec![nft("a", 1, "e1", "One")],
            ),
            None,
        );
        assert!(refused.is_err());
    }
}
