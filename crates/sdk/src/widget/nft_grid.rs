//! The NFT tab's grid. The judged listing stays here, in the SDK, and the page
//! asks for the tiles in view: a window of at most [`MAX_TILES`] of the NFTs
//! that match its filters (the account shown, a network, a search, the
//! person's hidden collections). So what the page takes in and keeps is the
//! same for a hundred NFTs and for a hundred thousand; only the scroll bar's
//! length follows the count. A tile carries only what it shows (its name,
//! quantity, picture handle and collection's name); the detail of one NFT
//! comes from the same listing ([`Widget::nft_detail`]), its picture from the
//! thumbnail protocol by handle ([`Widget::nft_thumbnail_by_handle`]).

use std::collections::HashSet;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::Arc;

use satchel_api::{ServiceErrorCode, ServiceNftScheme};
use serde::{Deserialize, Serialize};

use super::Widget;
use super::hidden::CollectionChoices;
use super::nft_listing::{JudgedNfts, position};
use super::picture_urls::PictureHandle;
use crate::error::SdkError;
use crate::thumbnail::ThumbnailSize;

#[cfg(test)]
mod tests;

/// The most tiles one ask returns: a few screens of the grid.
pub const MAX_TILES: u32 = 240;

/// The longest search the grid takes, in characters (a name is shorter).
pub const MAX_SEARCH_CHARS: usize = 200;

/// The grid the NFT tab shows: which one, and how many NFTs it has.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct NftGrid {
    /// What the grid is: the same listing has the same version (within this
    /// run of the app), so the page knows whether the tiles it holds are
    /// still the grid's.
    pub version: String,
    /// All the person's NFTs, on every account.
    pub count: u32,
}

/// Which of the grid's NFTs the page shows.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct NftFilter {
    /// Only this account's (an address); every account's when omitted.
    #[serde(default)]
    pub account: Option<String>,
    /// Only those on this network.
    #[serde(default)]
    pub network: Option<String>,
    /// Only those whose name or collection's name has this in it (letter
    /// case aside).
    #[serde(default)]
    pub search: Option<String>,
    /// Also those the person's choices leave out (see [`NftTiles::hidden`]).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub show_hidden: bool,
}

/// A window of the grid: the tiles from `from` on of the NFTs the filter
/// matches, with what the page's toolbar says of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct NftTiles {
    /// The grid's version (see [`NftGrid::version`]).
    pub version: String,
    /// The NFTs of the account shown, before the other filters.
    pub listed: u32,
    /// Of those, the ones left out unless the person asks to see them: of
    /// collections they hid, and likely spam unless they chose to show its
    /// collection.
    pub hidden: u32,
    /// The networks of the account's NFTs, each once, in the listing's order.
    pub networks: Vec<String>,
    /// How many match the filter: the grid's length.
    pub matching: u32,
    /// The first tile's place among them.
    pub from: u32,
    pub tiles: Vec<NftTile>,
}

/// One NFT as its tile shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct NftTile {
    /// What [`Widget::nft_detail`] knows it by.
    pub id: String,
    pub name: String,
    pub quantity: i64,
    /// Its picture for the thumbnail protocol (`nft/<handle>`), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
    /// Its content is a video; omitted when not.
    #[serde(skip_serializing_if = "is_false")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub video: bool,
    /// Shown as likely spam (its picture veiled): it looks like spam and the
    /// person did not choose to show its collection; omitted when not.
    #[serde(skip_serializing_if = "is_false")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub spam: bool,
    /// Its collection's name (its address when it has none).
    pub collection: String,
    pub scheme: ServiceNftScheme,
}

fn is_false(b: &bool) -> bool {
    !b
}

/// The grid the page was last given, and the matches of its last filter.
#[derive(Debug, Default)]
pub(super) struct KeptGrid {
    pub listing: Arc<JudgedNfts>,
    version: String,
    /// One filter's matches, kept while the page scrolls through them.
    matches: Option<Arc<Matches>>,
}

impl KeptGrid {
    /// The listing the next asks are answered from.
    pub fn keep(&mut self, listing: JudgedNfts, version: String) {
        *self = KeptGrid {
            listing: Arc::new(listing),
            version,
            matches: None,
        };
    }
}

/// What a filter matches, and what it was made for.
#[derive(Debug)]
struct Matches {
    version: String,
    key: MatchKey,
    listed: u32,
    hidden: u32,
    networks: Vec<String>,
    /// The matching NFTs' places in the listing, in its order.
    places: Vec<u32>,
}

/// A filter as it is matched (the account and search in lower case, an empty
/// search none), with the choices it was matched under.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MatchKey {
    filter: NftFilter,
    choices: CollectionChoices,
}

impl MatchKey {
    fn new(filter: &NftFilter, choices: CollectionChoices) -> Result<Self, SdkError> {
        let search = filter.search.as_deref().map(str::trim).unwrap_or("");
        if search.chars().count() > MAX_SEARCH_CHARS {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                format!("a search is at most {MAX_SEARCH_CHARS} characters"),
            ));
        }
        Ok(MatchKey {
            filter: NftFilter {
                account: filter.account.as_deref().map(str::to_lowercase),
                network: filter.network.clone(),
                search: (!search.is_empty()).then(|| search.to_lowercase()),
                show_hidden: filter.show_hidden,
            },
            choices,
        })
    }
}

/// The person's choices as sets to look collections up in.
struct ChoiceSets<'a> {
    hidden: HashSet<&'a str>,
    shown: HashSet<&'a str>,
}

impl<'a> ChoiceSets<'a> {
    fn of(choices: &'a CollectionChoices) -> Self {
        ChoiceSets {
            hidden: choices.hidden.iter().map(String::as_str).collect(),
            shown: choices.shown.iter().map(String::as_str).collect(),
        }
    }

    /// How they treat the collection `address` on `network`.
    fn of_collection(&self, network: &str, address: &str) -> Chosen {
        let key = format!("{network}:{}", address.to_lowercase());
        Chosen {
            hidden: self.hidden.contains(key.as_str()),
            shown: self.shown.contains(key.as_str()),
        }
    }
}

/// How the person's choices treat one collection.
struct Chosen {
    hidden: bool,
    shown: bool,
}

impl Chosen {
    /// Left out of the grid unless the person asks to see them.
    fn leaves_out(&self, likely_spam: bool) -> bool {
        self.hidden || (likely_spam && !self.shown)
    }

    /// Veiled as spam where shown.
    fn veils(&self, likely_spam: bool) -> bool {
        likely_spam && (self.hidden || !self.shown)
    }
}

fn matches_of(listing: &JudgedNfts, key: MatchKey, version: String) -> Matches {
    let filter = &key.filter;
    let shown_holder: Vec<bool> = listing
        .holders
        .iter()
        .map(|h| {
            filter
                .account
                .as_deref()
                .is_none_or(|a| h.address.eq_ignore_ascii_case(a))
        })
        .collect();
    let sets = ChoiceSets::of(&key.choices);
    let chosen: Vec<Chosen> = listing
        .collections
        .iter()
        .map(|c| sets.of_collection(&c.network, &c.address))
        .collect();
    let search = filter.search.as_deref();
    let found_in_collection: Vec<bool> = listing
        .collections
        .iter()
        .map(|c| search.is_none_or(|s| c.name.to_lowercase().contains(s)))
        .collect();
    let (mut listed, mut hidden) = (0u32, 0u32);
    let mut networks: Vec<String> = Vec::new();
    let mut places = Vec::new();
    for (place, nft) in listing.nfts.iter().enumerate() {
        // Both positions were made by the judging, within their lists.
        let (holder, collection) = (nft.holder as usize, nft.collection as usize);
        if !shown_holder[holder] {
            continue;
        }
        listed += 1;
        let network = &listing.collections[collection].network;
        if !networks.contains(network) {
            networks.push(network.clone());
        }
        let left_out = chosen[collection].leaves_out(nft.likely_spam);
        hidden += u32::from(left_out);
        let wanted = filter.network.as_ref().is_none_or(|n| n == network)
            && (filter.show_hidden || !left_out)
            && (found_in_collection[collection]
                || search.is_none_or(|s| nft.name.to_lowercase().contains(s)));
        if wanted {
            places.push(position(place));
        }
    }
    Matches {
        version,
        key,
        listed,
        hidden,
        networks,
        places,
    }
}

/// Up to `count` (at most [`MAX_TILES`]) tiles of `matches`, from the
/// `from`th on.
fn window(listing: &JudgedNfts, matches: &Matches, from: u32, count: u32) -> NftTiles {
    let choices = ChoiceSets::of(&matches.key.choices);
    let start = (from as usize).min(matches.places.len());
    let end = start
        .saturating_add(count.min(MAX_TILES) as usize)
        .min(matches.places.len());
    let tiles = matches.places[start..end]
        .iter()
        .map(|&place| {
            let nft = &listing.nfts[place as usize];
            let c = &listing.collections[nft.collection as usize];
            NftTile {
                id: nft.id.to_string(),
                name: nft.name.to_string(),
                quantity: nft.quantity,
                picture: nft.picture.map(|handle| handle.to_string()),
                video: nft.video,
                spam: choices
                    .of_collection(&c.network, &c.address)
                    .veils(nft.likely_spam),
                collection: c.name.clone(),
                scheme: c.scheme,
            }
        })
        .collect();
    NftTiles {
        version: matches.version.clone(),
        listed: matches.listed,
        hidden: matches.hidden,
        networks: matches.networks.clone(),
        matching: position(matches.places.len()),
        from: position(start),
        tiles,
    }
}

/// A digest of what the grid shows of `listing`: SipHash keyed with `key`,
/// this run's random key, so that no listing can be made to have another's
/// version and pass for the grid the page already shows.
fn version_of(listing: &JudgedNfts, key: &RandomState) -> String {
    let mut hasher = key.build_hasher();
    for nft in &listing.nfts {
        let c = &listing.collections[nft.collection as usize];
        (&c.network, &c.address, &c.name, c.scheme).hash(&mut hasher);
        listing.holders[nft.holder as usize]
            .address
            .hash(&mut hasher);
        (&nft.id, &nft.name, nft.quantity, nft.picture).hash(&mut hasher);
        (nft.video, nft.likely_spam).hash(&mut hasher);
    }
    listing.nfts.len().hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

impl Widget {
    /// Reads the person's NFTs for the NFT tab (see [`NftGrid`]); `refresh`
    /// re-reads them from the chain, as [`get_nfts`](Self::get_nfts) does.
    /// The listing is kept for [`nft_tiles`](Self::nft_tiles) and
    /// [`nft_detail`](Self::nft_detail) until the next one or logout.
    pub async fn get_nft_grid(&self, refresh: bool) -> Result<NftGrid, SdkError> {
        let judged = self.judged_nfts(refresh, None).await?;
        let version = version_of(&judged, &self.grid_versions);
        let grid = NftGrid {
            version: version.clone(),
            count: position(judged.nfts.len()),
        };
        self.state.lock().nft_grid.keep(judged, version);
        Ok(grid)
    }

    /// Up to `count` (at most [`MAX_TILES`]) of the last grid's NFTs that
    /// `filter` matches, from the `from`th on.
    pub fn nft_tiles(
        &self,
        filter: &NftFilter,
        from: u32,
        count: u32,
    ) -> Result<NftTiles, SdkError> {
        let choices = self.collection_choices()?;
        let key = MatchKey::new(filter, choices)?;
        let (listing, version, kept) = {
            let state = self.state.lock();
            let grid = &state.nft_grid;
            (
                grid.listing.clone(),
                grid.version.clone(),
                grid.matches.clone(),
            )
        };
        let matches = match kept {
            Some(m) if m.version == version && m.key == key => m,
            // Matched outside the lock: a hundred thousand NFTs take a while.
            _ => {
                let made = Arc::new(matches_of(&listing, key, version));
                let mut state = self.state.lock();
                if state.nft_grid.version == made.version {
                    state.nft_grid.matches = Some(made.clone());
                }
                made
            }
        };
        Ok(window(&listing, &matches, from, count))
    }

    /// One NFT of the last [`get_nft_grid`](Self::get_nft_grid), in full.
    pub fn nft_detail(&self, id: &str) -> Result<satchel_api::ServiceNft, SdkError> {
        self.require_login()?;
        let listing = self.state.lock().nft_grid.listing.clone();
        listing.find(id, &self.pictures).ok_or_else(|| {
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
