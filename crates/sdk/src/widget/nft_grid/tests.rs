use std::collections::HashSet;

use satchel_api::{NftContentType, NftsGrouped};

use super::super::nft_listing::fixtures::*;
use super::super::picture_urls::PictureUrls;
use super::*;

/// `listing` judged for the person's accounts 0x1 and 0x2 on sepolia and 0x1
/// on base; the NFTs named in `spam` marked likely spam.
fn judged(listing: NftsGrouped, spam: &[&str]) -> JudgedNfts {
    let accounts = [
        account("e1", "sepolia", "0x1"),
        account("e2", "sepolia", "0x2"),
        account("b1", "base", "0x1"),
    ];
    let json = serde_json::to_vec(&listing).expect("json");
    let mut judged = JudgedNfts::judge(
        json.as_slice(),
        &accounts,
        None,
        &HashSet::new(),
        |_, _| false,
        &PictureUrls::default(),
    )
    .expect("judged");
    for nft in &mut judged.nfts {
        nft.likely_spam = spam.contains(&&*nft.name);
    }
    judged
}

fn choices(hidden: &[&str], shown: &[&str]) -> CollectionChoices {
    let owned = |keys: &[&str]| keys.iter().map(|k| k.to_string()).collect();
    CollectionChoices {
        hidden: owned(hidden),
        shown: owned(shown),
    }
}

/// The tiles `filter` matches under `choices`, all of them.
fn tiles(listing: &JudgedNfts, filter: NftFilter, choices: CollectionChoices) -> NftTiles {
    let key = MatchKey::new(&filter, choices).expect("a filter");
    let matches = matches_of(listing, key, "v".into());
    window(listing, &matches, 0, MAX_TILES)
}

fn names(tiles: &NftTiles) -> Vec<&str> {
    tiles.tiles.iter().map(|t| t.name.as_str()).collect()
}

/// Two collections on sepolia (0xA, 0xB) and one on base (0xC).
fn three_collections() -> JudgedNfts {
    judged(
        listing(
            vec![
                collection("sepolia", "0xA"),
                collection("sepolia", "0xB"),
                collection("base", "0xC"),
            ],
            vec![
                nft("a", 0, "e1", "Red Fox"),
                nft("b", 1, "e2", "Blue Jay"),
                nft("c", 0, "e2", "Green Frog"),
                nft("d", 2, "b1", "Free Mint"),
                nft("e", 1, "e1", "Gold Fish"),
            ],
        ),
        &["Free Mint"],
    )
}

#[test]
fn the_page_gets_a_window_of_the_grid_never_more_than_the_bound() {
    let many: Vec<_> = (0..300)
        .map(|i| nft(&format!("n{i}"), 0, "e1", &format!("Item #{i}")))
        .collect();
    let listing = judged(listing(vec![collection("sepolia", "0xA")], many), &[]);
    let key = || MatchKey::new(&NftFilter::default(), CollectionChoices::default()).expect("key");
    let matches = matches_of(&listing, key(), "v".into());
    let first = window(&listing, &matches, 0, 10_000);
    assert_eq!(first.tiles.len(), MAX_TILES as usize, "at most the bound");
    assert_eq!((first.matching, first.listed, first.from), (300, 300, 0));
    assert_eq!(first.tiles[0].name, "Item #0");
    let last = window(&listing, &matches, 290, 60);
    assert_eq!(last.from, 290);
    assert_eq!(
        names(&last),
        (290..300).map(|i| format!("Item #{i}")).collect::<Vec<_>>()
    );
    let past = window(&listing, &matches, u32::MAX, u32::MAX);
    assert!(past.tiles.is_empty());
    assert_eq!((past.from, past.matching), (300, 300));
}

#[test]
fn the_account_network_and_search_filter_the_grid_as_the_page_did() {
    let listing = three_collections();
    let every = tiles(&listing, NftFilter::default(), CollectionChoices::default());
    assert_eq!(
        names(&every),
        ["Red Fox", "Blue Jay", "Green Frog", "Gold Fish"]
    );
    assert_eq!((every.listed, every.hidden), (5, 1), "the spam is left out");
    assert_eq!(every.networks, ["sepolia", "base"]);

    let account = |a: &str| NftFilter {
        account: Some(a.into()),
        ..NftFilter::default()
    };
    // An address in any letter case; on every network it holds on.
    let first = tiles(&listing, account("0X1"), CollectionChoices::default());
    assert_eq!(names(&first), ["Red Fox", "Gold Fish"]);
    assert_eq!((first.listed, first.hidden), (3, 1));
    assert_eq!(first.networks, ["sepolia", "base"]);
    let second = tiles(&listing, account("0x2"), CollectionChoices::default());
    assert_eq!(names(&second), ["Blue Jay", "Green Frog"]);
    assert_eq!(second.networks, ["sepolia"]);

    let on_base = NftFilter {
        network: Some("base".into()),
        show_hidden: true,
        ..NftFilter::default()
    };
    assert_eq!(
        names(&tiles(&listing, on_base, CollectionChoices::default())),
        ["Free Mint"]
    );

    let search = |s: &str| NftFilter {
        search: Some(s.into()),
        ..NftFilter::default()
    };
    let none = CollectionChoices::default;
    assert_eq!(
        names(&tiles(&listing, search("  fRoG "), none())),
        ["Green Frog"]
    );
    // A collection's name finds its NFTs.
    assert_eq!(
        names(&tiles(&listing, search("0xb coll"), none())),
        ["Blue Jay", "Gold Fish"]
    );
    assert!(tiles(&listing, search("nothing"), none()).tiles.is_empty());
    assert_eq!(
        tiles(&listing, search("   "), none()).matching,
        4,
        "blank is no search"
    );
}

#[test]
fn hidden_collections_and_spam_stay_out_unless_the_person_asks() {
    let listing = three_collections();
    let hid_b = choices(&["sepolia:0xb"], &[]);
    let grid = tiles(&listing, NftFilter::default(), hid_b.clone());
    assert_eq!(names(&grid), ["Red Fox", "Green Frog"]);
    assert_eq!(grid.hidden, 3, "two of the hidden collection and the spam");

    let everything = NftFilter {
        show_hidden: true,
        ..NftFilter::default()
    };
    let shown = tiles(&listing, everything.clone(), hid_b);
    assert_eq!(shown.matching, 5);
    let spam = shown
        .tiles
        .iter()
        .find(|t| t.name == "Free Mint")
        .expect("listed");
    assert!(spam.spam, "shown veiled");
    assert!(
        shown
            .tiles
            .iter()
            .filter(|t| t.name != "Free Mint")
            .all(|t| !t.spam)
    );

    // The person chose to see the spam's collection: in the grid, unveiled.
    let chose = tiles(&listing, NftFilter::default(), choices(&[], &["base:0xc"]));
    assert_eq!(chose.hidden, 0);
    let free = chose
        .tiles
        .iter()
        .find(|t| t.name == "Free Mint")
        .expect("shown");
    assert!(!free.spam);
}

#[test]
fn a_search_longer_than_any_name_is_refused() {
    let long = NftFilter {
        search: Some("x".repeat(MAX_SEARCH_CHARS + 1)),
        ..NftFilter::default()
    };
    assert!(MatchKey::new(&long, CollectionChoices::default()).is_err());
    let longest = NftFilter {
        search: Some("é".repeat(MAX_SEARCH_CHARS)),
        ..NftFilter::default()
    };
    assert!(MatchKey::new(&longest, CollectionChoices::default()).is_ok());
}

#[test]
fn a_tile_leaves_out_what_it_does_not_show_and_what_is_absent() {
    let mut video = nft("b", 0, "e1", "Clip");
    video.content_type = NftContentType::Video;
    video.image_url = String::new();
    let listing = judged(
        listing(
            vec![collection("sepolia", "0xA")],
            vec![nft("a", 0, "e1", "One"), video],
        ),
        &[],
    );
    let grid = tiles(&listing, NftFilter::default(), CollectionChoices::default());
    let json = serde_json::to_value(&grid).expect("json");
    let tile = &json["tiles"][0];
    assert_eq!(tile["name"], "One");
    assert_eq!(tile["quantity"], 2);
    assert_eq!(tile["collection"], "0xA collection");
    assert_eq!(tile["scheme"], "ERC1155");
    assert_eq!(
        tile["picture"],
        PictureHandle::of("data:image/svg+xml,<svg>One</svg>").to_string()
    );
    for absent in [
        "video",
        "spam",
        "description",
        "imageUrl",
        "contract",
        "holder",
    ] {
        assert!(tile.get(absent).is_none(), "{absent} is left out: {tile}");
    }
    let clip = &json["tiles"][1];
    assert!(clip.get("picture").is_none());
    assert_eq!(clip["video"], true);
}

#[test]
fn a_grids_version_follows_what_it_shows_and_this_runs_key() {
    let key = RandomState::new();
    let listing_of = || {
        listing(
            vec![collection("sepolia", "0xA")],
            vec![nft("a", 0, "e1", "One"), nft("b", 0, "e2", "Two")],
        )
    };
    let one = judged(listing_of(), &[]);
    assert_eq!(
        version_of(&one, &key),
        version_of(&judged(listing_of(), &[]), &key)
    );
    assert_eq!(version_of(&one, &key).len(), 16);
    let mut renamed = listing_of();
    renamed.nfts[1].name = "Two, renamed".into();
    let mut given_away = listing_of();
    given_away.nfts.pop();
    let mut moved = listing_of();
    moved.nfts[1].account_id = "e1".into();
    for other in [renamed, given_away, moved] {
        assert_ne!(
            version_of(&one, &key),
            version_of(&judged(other, &[]), &key)
        );
    }
    assert_ne!(
        version_of(&one, &key),
        version_of(&judged(listing_of(), &["One"]), &key),
        "judged spam since"
    );
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
