//! The judged listing's tests.

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
            nft.image_url = format!("https://example.com/pictures/{i:08}/{}.png", "x".repeat(60));
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
