//! The NFT tab's own listing: each collection and each holding account once,
//! every NFT referring to them by position, with only what a tile shows (its
//! name, quantity, picture handle and kinds). 10,000 NFTs of one collection are
//! about a megabyte here where `getNFTs`' shape (the spec's, kept for
//! applications) repeats the collection and the account in every element and
//! carries each picture's URL, a `data:` URI often, in full. The detail of one
//! NFT comes from the listing the grid was made of ([`Widget::nft_detail`]);
//! its picture from the thumbnail protocol by handle
//! ([`Widget::nft_thumbnail_by_handle`]).

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

use satchel_api::{ServiceErrorCode, ServiceNft, ServiceNftScheme};
use serde::Serialize;

use super::Widget;
use super::nft_listing::{JudgedNfts, position};
use super::picture_urls::PictureHandle;
use crate::error::SdkError;
use crate::thumbnail::ThumbnailSize;

/// What the NFT tab lists.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct NftGrid {
    /// What the grid is: the same lists have the same version (within this
    /// run of the app), so the page can say which grid it shows.
    pub version: String,
    /// This is the grid the page said it shows, so its lists are left out
    /// (empty); omitted when not.
    #[serde(skip_serializing_if = "is_false")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub unchanged: bool,
    pub collections: Vec<GridCollection>,
    /// The addresses of the accounts holding them.
    pub holders: Vec<String>,
    pub nfts: Vec<GridNft>,
}

/// A collection, as a tile and the grid's filters need it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct GridCollection {
    pub network: String,
    pub address: String,
    /// Its name; its address when it has none.
    pub name: String,
    pub scheme: ServiceNftScheme,
}

/// One NFT of the grid.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct GridNft {
    /// What [`Widget::nft_detail`] knows it by.
    pub id: String,
    /// Its position in [`NftGrid::collections`].
    pub collection: u32,
    /// Its holder's position in [`NftGrid::holders`].
    pub holder: u32,
    pub name: String,
    pub quantity: i64,
    /// Its picture for the thumbnail protocol (`nft/<handle>`), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
    /// Its content is a video; omitted when not.
    #[serde(skip_serializing_if = "is_false")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub video: bool,
    /// See [`ServiceNft::likely_spam`]; omitted when not.
    #[serde(skip_serializing_if = "is_false")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub likely_spam: bool,
}

fn is_false(b: &bool) -> bool {
    !b
}

/// The grid of what `judged` lists, in its order.
pub(super) fn grid_of(judged: &JudgedNfts) -> NftGrid {
    let mut grid = NftGrid::default();
    // The grid's holder of each of the listing's: one per address (an address
    // holds on each network as an account of its own).
    let mut holder_positions: HashMap<&str, u32> = HashMap::new();
    let holder_of: Vec<u32> = judged
        .holders
        .iter()
        .map(|h| {
            let next = position(grid.holders.len());
            *holder_positions.entry(&h.address).or_insert_with(|| {
                grid.holders.push(h.address.clone());
                next
            })
        })
        .collect();
    // The grid's collection of each of the listing's: one per network and
    // address (the listing may tell two apart by their other facts), made when
    // an NFT of it is first listed.
    let mut by_address: HashMap<(&str, &str), u32> = HashMap::new();
    let mut of_listed: Vec<Option<u32>> = vec![None; judged.collections.len()];
    for nft in &judged.nfts {
        let listed = nft.collection as usize;
        let collection = match of_listed[listed] {
            Some(position) => position,
            None => {
                let c = &judged.collections[listed];
                let next = position(grid.collections.len());
                let position = *by_address
                    .entry((c.network.as_str(), c.address.as_str()))
                    .or_insert_with(|| {
                        grid.collections.push(GridCollection {
                            network: c.network.clone(),
                            address: c.address.clone(),
                            name: c.name.clone(),
                            scheme: c.scheme,
                        });
                        next
                    });
                of_listed[listed] = Some(position);
                position
            }
        };
        grid.nfts.push(GridNft {
            id: nft.id.to_string(),
            collection,
            holder: holder_of[nft.holder as usize],
            name: nft.name.to_string(),
            quantity: nft.quantity,
            picture: nft.picture.map(|handle| handle.to_string()),
            video: nft.video,
            likely_spam: nft.likely_spam,
        });
    }
    grid
}

/// A digest of the grid's lists: SipHash keyed with `key`, this run's random
/// key, so that no listing can be made to have another's version and pass for
/// the grid the page already shows.
fn version_of(grid: &NftGrid, key: &RandomState) -> String {
    let digest = key.hash_one((&grid.collections, &grid.holders, &grid.nfts));
    format!("{digest:016x}")
}

impl Widget {
    /// The NFT tab's listing of the user's NFTs (see [`NftGrid`]); `refresh`
    /// re-reads them from the chain, as [`get_nfts`](Self::get_nfts) does. The
    /// listing it was made of is kept for [`nft_detail`](Self::nft_detail) until
    /// the next listing or logout. `held`: the version of the grid the page
    /// shows; when this one is the same, it comes without its lists, marked
    /// `unchanged` (the chain's read after the stored listing mostly finds
    /// what was stored, and the page need not take in thousands of NFTs again).
    pub async fn get_nft_grid(
        &self,
        refresh: bool,
        held: Option<&str>,
    ) -> Result<NftGrid, SdkError> {
        let judged = self.judged_nfts(refresh, None).await?;
        let mut grid = grid_of(&judged);
        self.state.lock().nft_listing = judged;
        grid.version = version_of(&grid, &self.grid_versions);
        if held == Some(grid.version.as_str()) {
            return Ok(NftGrid {
                version: grid.version,
                unchanged: true,
                ..NftGrid::default()
            });
        }
        Ok(grid)
    }

    /// One NFT of the last [`get_nft_grid`](Self::get_nft_grid), in full.
    pub fn nft_detail(&self, id: &str) -> Result<ServiceNft, SdkError> {
        self.require_login()?;
        let state = self.state.lock();
        state.nft_listing.find(id, &self.pictures).ok_or_else(|| {
            SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "not one of your NFTs as last listed",
            )
        })
    }

    /// The thumbnail of the picture whose handle a grid listed.
    pub async fn nft_thumbnail_by_handle(
        &self,
        handle: &str,
        size: ThumbnailSize,
    ) -> Result<Vec<u8>, SdkError> {
        let url = PictureHandle::parse(handle).and_then(|handle| self.pictures.url(handle));
        let Some(url) = url else {
            self.require_login()?;
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "not the picture of one of your NFTs",
            ));
        };
        // Allowed: the handle named it (its URL is not read and checked again).
        self.require_login()?;
        self.thumbnail_of_allowed(&url, size).await
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use satchel_api::NftContentType;

    use super::super::nft_listing::fixtures::*;
    use super::*;

    fn grid(listing: satchel_api::NftsGrouped) -> NftGrid {
        let accounts = [
            account("e1", "sepolia", "0x1"),
            account("e2", "sepolia", "0x2"),
            account("b1", "base", "0x1"),
        ];
        let json = serde_json::to_vec(&listing).expect("json");
        let pictures = super::super::picture_urls::PictureUrls::default();
        let judged = JudgedNfts::judge(
            json.as_slice(),
            &accounts,
            None,
            &HashSet::new(),
            |_, _| false,
            &pictures,
        )
        .expect("judged");
        grid_of(&judged)
    }

    #[test]
    fn each_collection_and_holder_is_listed_once_and_referred_to() {
        let mut video = nft("b", 1, "e2", "Clip");
        video.content_type = NftContentType::Video;
        video.image_url = String::new();
        let mut other_facts = collection("sepolia", "0xA");
        other_facts.description = "told otherwise".into();
        let grid = grid(listing(
            vec![
                collection("sepolia", "0xA"),
                collection("sepolia", "0xB"),
                // The same address on another network is another collection.
                collection("base", "0xA"),
                // The same collection with other facts is the same tile's.
                other_facts,
            ],
            vec![
                nft("a", 0, "e1", "One"),
                video,
                nft("c", 0, "e2", "Two"),
                nft("d", 2, "b1", "Three"),
                nft("e", 3, "e1", "Four"),
            ],
        ));
        let names: Vec<(&str, &str)> = grid
            .collections
            .iter()
            .map(|c| (c.network.as_str(), c.address.as_str()))
            .collect();
        assert_eq!(
            names,
            [("sepolia", "0xA"), ("sepolia", "0xB"), ("base", "0xA")]
        );
        assert_eq!(
            grid.holders,
            ["0x1", "0x2"],
            "an address once, on any network"
        );
        let refs: Vec<(&str, u32, u32)> = grid
            .nfts
            .iter()
            .map(|n| (n.id.as_str(), n.collection, n.holder))
            .collect();
        assert_eq!(
            refs,
            [
                ("a", 0, 0),
                ("b", 1, 1),
                ("c", 0, 1),
                ("d", 2, 0),
                ("e", 0, 0)
            ]
        );
        assert_eq!(
            grid.nfts[0].picture.as_deref(),
            Some(
                PictureHandle::of("data:image/svg+xml,<svg>One</svg>")
                    .to_string()
                    .as_str()
            )
        );
        assert!(grid.nfts[1].picture.is_none() && grid.nfts[1].video);
    }

    #[test]
    fn the_grid_leaves_out_what_a_tile_does_not_show_and_what_is_absent() {
        let grid = grid(listing(
            vec![collection("sepolia", "0xA")],
            vec![nft("a", 0, "e1", "One")],
        ));
        let json = serde_json::to_value(&grid).expect("json");
        let tile = &json["nfts"][0];
        assert_eq!(tile["name"], "One");
        assert_eq!(tile["quantity"], 2);
        for absent in ["video", "likelySpam", "description", "imageUrl", "contract"] {
            assert!(tile.get(absent).is_none(), "{absent} is left out: {tile}");
        }
        assert_eq!(json["collections"][0]["name"], "0xA collection");
        assert_eq!(json["collections"][0]["scheme"], "ERC1155");
    }

    #[test]
    fn a_grids_version_follows_its_lists_and_this_runs_key() {
        let key = RandomState::new();
        let listing = || {
            listing(
                vec![collection("sepolia", "0xA")],
                vec![nft("a", 0, "e1", "One"), nft("b", 0, "e2", "Two")],
            )
        };
        let one = grid(listing());
        assert_eq!(version_of(&one, &key), version_of(&grid(listing()), &key));
        assert_eq!(version_of(&one, &key).len(), 16);
        let mut renamed = listing();
        renamed.nfts[1].name = "Two, renamed".into();
        let mut given_away = listing();
        given_away.nfts.pop();
        for other in [renamed, given_away] {
            assert_ne!(version_of(&one, &key), version_of(&grid(other), &key));
        }
        assert_ne!(
            version_of(&one, &key),
            version_of(&one, &RandomState::new()),
            "another run's key"
        );
    }

    #[test]
    fn a_picture_handle_is_short_and_its_urls_own() {
        let one = PictureHandle::of("https://example.com/1.png");
        assert_eq!(one.to_string().len(), 24);
        assert_eq!(one, PictureHandle::of("https://example.com/1.png"));
        assert_ne!(one, PictureHandle::of("https://example.com/2.png"));
        assert_eq!(PictureHandle::parse(&one.to_string()), Some(one));
        for not_one in ["", "zz", &one.to_string()[..22], &format!("{one}00")] {
            assert_eq!(PictureHandle::parse(not_one), None, "{not_one:?}");
        }
    }
}
