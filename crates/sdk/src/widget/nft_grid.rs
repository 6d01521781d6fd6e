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

use satchel_api::{ServiceContentType, ServiceErrorCode, ServiceNft, ServiceNftScheme};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::Widget;
use crate::error::SdkError;
use crate::thumbnail::ThumbnailSize;

/// What the NFT tab lists.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct NftGrid {
    pub collections: Vec<GridCollection>,
    /// The addresses of the accounts holding them.
    pub holders: Vec<String>,
    pub nfts: Vec<GridNft>,
}

/// A collection, as a tile and the grid's filters need it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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

/// The handle of a picture's URL: what the page asks the thumbnail protocol for
/// instead of the URL itself (96 bits of its SHA-256, in hex).
pub(crate) fn picture_handle(url: &str) -> String {
    hex::encode(&Sha256::digest(url.as_bytes())[..12])
}

/// The grid of `listed` (each with its service id), in their order; an id seen
/// before is left out, so an id names one NFT.
pub(crate) fn grid_of(listed: &[(String, ServiceNft)]) -> NftGrid {
    let mut grid = NftGrid::default();
    let mut collections: HashMap<(&str, &str), u32> = HashMap::new();
    let mut holders: HashMap<&str, u32> = HashMap::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for (id, nft) in listed {
        if !seen.insert(id) {
            continue;
        }
        let next = position(grid.collections.len());
        let collection = *collections
            .entry((&nft.contract.network, &nft.contract.address))
            .or_insert_with(|| {
                grid.collections.push(GridCollection {
                    network: nft.contract.network.clone(),
                    address: nft.contract.address.clone(),
                    name: nft.contract.name.clone(),
                    scheme: nft.contract.scheme,
                });
                next
            });
        let next = position(grid.holders.len());
        let holder = *holders.entry(&nft.account.address).or_insert_with(|| {
            grid.holders.push(nft.account.address.clone());
            next
        });
        grid.nfts.push(GridNft {
            id: id.clone(),
            collection,
            holder,
            name: nft.name.clone(),
            quantity: nft.quantity,
            picture: (!nft.image_url.is_empty()).then(|| picture_handle(&nft.image_url)),
            video: nft.content_type == ServiceContentType::Video,
            likely_spam: nft.likely_spam,
        });
    }
    grid
}

/// A position in a list the service's bounded listing made.
fn position(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

impl Widget {
    /// The NFT tab's listing of the user's NFTs (see [`NftGrid`]); `refresh`
    /// re-reads them from the chain, as [`get_nfts`](Self::get_nfts) does. The
    /// NFTs it lists are kept for [`nft_detail`](Self::nft_detail) until the
    /// next listing or logout.
    pub async fn get_nft_grid(&self, refresh: bool) -> Result<NftGrid, SdkError> {
        let listed = self.judged_nfts(refresh, None).await?;
        let grid = grid_of(&listed);
        let mut details = HashMap::with_capacity(listed.len());
        for (id, nft) in listed {
            // The first of an id, as the grid has it.
            details.entry(id).or_insert(nft);
        }
        self.state.lock().nft_details = details;
        Ok(grid)
    }

    /// One NFT of the last [`get_nft_grid`](Self::get_nft_grid), in full.
    pub fn nft_detail(&self, id: &str) -> Result<ServiceNft, SdkError> {
        self.require_login()?;
        self.state
            .lock()
            .nft_details
            .get(id)
            .cloned()
            .ok_or_else(|| {
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
        let url = self.state.lock().allowed.picture_of(handle);
        let Some(url) = url else {
            self.require_login()?;
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "not the picture of one of your NFTs",
            ));
        };
        self.nft_thumbnail(&url, size).await
    }
}

#[cfg(test)]
mod tests {
    use satchel_api::{ServiceAccount, ServiceNftContract};

    use super::*;

    fn nft(network: &str, contract: &str, holder: &str, name: &str) -> ServiceNft {
        ServiceNft {
            account: ServiceAccount {
                address: holder.into(),
                network: network.into(),
                contract: None,
                is_aa: Some(false),
            },
            contract: ServiceNftContract {
                name: format!("{contract} collection"),
                address: contract.into(),
                scheme: ServiceNftScheme::Erc1155,
                description: Some("about it".into()),
                network: network.into(),
                external_link: None,
                image_url: None,
            },
            name: name.into(),
            description: "a long description the grid does not carry".into(),
            external_link: String::new(),
            image_url: format!("data:image/svg+xml,<svg>{name}</svg>"),
            content_url: None,
            quantity: 2,
            content_type: ServiceContentType::Image,
            state: 1,
            token_id: "7".into(),
            received_from: None,
            likely_spam: false,
        }
    }

    #[test]
    fn each_collection_and_holder_is_listed_once_and_referred_to() {
        let mut video = nft("sepolia", "0xB", "0x2", "Clip");
        video.content_type = ServiceContentType::Video;
        video.likely_spam = true;
        video.image_url = String::new();
        let listed = vec![
            ("a".to_owned(), nft("sepolia", "0xA", "0x1", "One")),
            ("b".to_owned(), video),
            ("c".to_owned(), nft("sepolia", "0xA", "0x2", "Two")),
            // The same address on another network is another collection.
            ("d".to_owned(), nft("base", "0xA", "0x1", "Three")),
        ];
        let grid = grid_of(&listed);
        let names: Vec<(&str, &str)> = grid
            .collections
            .iter()
            .map(|c| (c.network.as_str(), c.address.as_str()))
            .collect();
        assert_eq!(
            names,
            [("sepolia", "0xA"), ("sepolia", "0xB"), ("base", "0xA")]
        );
        assert_eq!(grid.holders, ["0x1", "0x2"]);
        let refs: Vec<(&str, u32, u32)> = grid
            .nfts
            .iter()
            .map(|n| (n.id.as_str(), n.collection, n.holder))
            .collect();
        assert_eq!(refs, [("a", 0, 0), ("b", 1, 1), ("c", 0, 1), ("d", 2, 0)]);
        assert_eq!(
            grid.nfts[0].picture.as_deref(),
            Some(picture_handle("data:image/svg+xml,<svg>One</svg>").as_str())
        );
        assert!(grid.nfts[1].picture.is_none() && grid.nfts[1].video && grid.nfts[1].likely_spam);
    }

    #[test]
    fn the_grid_leaves_out_what_a_tile_does_not_show_and_what_is_absent() {
        let grid = grid_of(&[("a".to_owned(), nft("sepolia", "0xA", "0x1", "One"))]);
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
    fn an_id_names_one_nft() {
        let grid = grid_of(&[
            ("a".to_owned(), nft("sepolia", "0xA", "0x1", "One")),
            ("a".to_owned(), nft("sepolia", "0xA", "0x1", "Impostor")),
        ]);
        assert_eq!(grid.nfts.len(), 1);
        assert_eq!(grid.nfts[0].name, "One");
    }

    #[test]
    fn a_picture_handle_is_short_and_its_urls_own() {
        let one = picture_handle("https://example.com/1.png");
        assert_eq!(one.len(), 24);
        assert_eq!(one, picture_handle("https://example.com/1.png"));
        assert_ne!(one, picture_handle("https://example.com/2.png"));
    }
}
