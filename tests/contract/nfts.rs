//! Operations 3 and 4: `GET /v1/nft` and `GET /v1/nft/refresh`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use alloy::network::EthereumWallet;
use alloy::primitives::{Address, utils::parse_units};
use alloy::providers::ProviderBuilder;
use axum::response::IntoResponse as _;
use satchel_devstack::demo::DemoNft;
use satchel_tests::{Backend, Stack};

pub async fn a_wallet_without_nfts_gets_an_empty_list(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    for op in ["nft", "nft/refresh"] {
        let response = stack
            .app_request(&format!("/v1/{op}?{}", user.wallet_query()))
            .bearer_auth(&user.token)
            .send()
            .await
            .expect("answers");
        assert_eq!(response.status(), 200);
        assert_eq!(response.text().await.expect("body"), r#"{"nfts":[]}"#);
    }
}

pub async fn minted_nfts_show_up_after_a_refresh_with_their_metadata(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let pal = stack
        .demo
        .mint_pal(user.address(), "Pal #1", "#6d5dfc")
        .await
        .expect("minted");
    stack
        .demo
        .mint_items(user.address(), &[(1, 3), (2, 1)])
        .await
        .expect("minted");
    let someone_else = Address::repeat_byte(0x42);
    stack
        .demo
        .mint_pal(someone_else, "Not yours", "#000000")
        .await
        .expect("minted");

    let (status, body) = stack
        .get(&format!("/v1/nft?{}", user.wallet_query()), &user.token)
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        body["nfts"],
        serde_json::json!([]),
        "nothing is known before a refresh"
    );

    let (status, refreshed) = stack
        .get(
            &format!("/v1/nft/refresh?{}", user.wallet_query()),
            &user.token,
        )
        .await;
    assert_eq!(status, 200, "{refreshed}");
    let nfts = refreshed["nfts"].as_array().expect("nfts");
    assert_eq!(nfts.len(), 3, "one Pal and two kinds of items: {refreshed}");
    let account_id = crate::first_account_id(&stack, &user).await;

    let pal_entry = nfts
        .iter()
        .find(|n| n["contract"]["address"] == stack.demo.pals.to_checksum(None).as_str())
        .expect("the Pal");
    assert_eq!(pal_entry["accountId"], account_id.as_str());
    assert_eq!(pal_entry["tokenId"], pal.to_string().as_str());
    assert_eq!(pal_entry["name"], "Pal #1");
    assert_eq!(pal_entry["description"], "A Satchel Pal.");
    assert_eq!(pal_entry["externalLink"], "https://satchel.dev/demo");
    assert!(
        pal_entry["imageUrl"]
            .as_str()
            .is_some_and(|u| u.starts_with("data:image/svg+xml;base64,"))
    );
    assert_eq!(pal_entry["quantity"], 1);
    assert_eq!(pal_entry["contentType"], 1);
    assert_eq!(pal_entry["contract"]["scheme"], 1);
    assert_eq!(
        pal_entry["contract"]["name"], "Satchel Pals",
        "the collection's name()"
    );
    assert_eq!(pal_entry["state"], 1, "described by its metadata");
    assert!(
        pal_entry.get("contentUrl").is_none(),
        "a picture has no media file"
    );
    assert_eq!(pal_entry["contract"]["network"], "anvil");
    assert_eq!(
        pal_entry["contract"]["description"],
        "Friendly circles that live in your Satchel."
    );
    assert_eq!(
        pal_entry["contract"]["externalLink"],
        "https://satchel.dev/demo"
    );
    assert!(
        pal_entry["contract"]["imageUrl"]
            .as_str()
            .is_some_and(|u| u.starts_with("data:image/svg+xml"))
    );
    assert!(pal_entry["id"].as_str().is_some_and(|id| !id.is_empty()));

    let items = stack.demo.items.to_checksum(None);
    let coin = nfts
        .iter()
        .find(|n| n["contract"]["address"] == items.as_str() && n["tokenId"] == "1")
        .expect("the coins");
    assert_eq!(coin["name"], "Gold Coin");
    assert_eq!(coin["quantity"], 3);
    assert_eq!(coin["contract"]["scheme"], 2);
    assert_eq!(coin["contentType"], 1);
    let clip = nfts
        .iter()
        .find(|n| n["contract"]["address"] == items.as_str() && n["tokenId"] == "2")
        .expect("the clip");
    assert_eq!(
        clip["contentType"], 2,
        "animation_url of a video makes it a video"
    );
    assert!(
        clip["contentUrl"].as_str().is_some_and(|u| !u.is_empty()),
        "the video's file: {clip}"
    );

    // Operation 3 now answers from what operation 4 stored, with the same ids.
    let (_, listed) = stack
        .get(&format!("/v1/nft?{}", user.wallet_query()), &user.token)
        .await;
    assert_eq!(listed, refreshed);
    let (_, again) = stack
        .get(
            &format!("/v1/nft/refresh?{}", user.wallet_query()),
            &user.token,
        )
        .await;
    assert_eq!(
        again, refreshed,
        "a refresh with no new transfers changes nothing"
    );

    let typed: satchel_api::NftsResponse =
        serde_json::from_value(refreshed).expect("the wire type");
    assert_eq!(typed.nfts.len(), 3);
}

/// Operations 3 and 4 asked for `application/vnd.satchel.nfts-grouped+json`:
/// the spec's listing, each collection once.
pub async fn the_grouped_listing_is_the_spec_listing_with_each_collection_once(backend: Backend) {
    use satchel_api::{NFTS_GROUPED_MEDIA_TYPE, NftsGrouped, NftsResponse};
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let grouped = |path: String| {
        let request = stack.app_request(&path).bearer_auth(&user.token).header(
            "accept",
            format!("{NFTS_GROUPED_MEDIA_TYPE}, application/json;q=0.5"),
        );
        async move {
            let response = request.send().await.expect("answers");
            assert_eq!(response.status(), 200);
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned)
            };
            assert_eq!(
                header("content-type").as_deref(),
                Some(NFTS_GROUPED_MEDIA_TYPE)
            );
            assert_eq!(header("vary").as_deref(), Some("accept"));
            response.text().await.expect("body")
        }
    };
    let listing = format!("/v1/nft?{}", user.wallet_query());
    let refresh = format!("/v1/nft/refresh?{}", user.wallet_query());
    assert_eq!(
        grouped(listing.clone()).await,
        r#"{"collections":[],"nfts":[]}"#,
        "never refreshed"
    );

    stack
        .demo
        .mint_pal(user.address(), "Pal #1", "#6d5dfc")
        .await
        .expect("minted");
    stack
        .demo
        .mint_pal(user.address(), "Pal #2", "#ff8800")
        .await
        .expect("minted");
    stack
        .demo
        .mint_items(user.address(), &[(1, 3), (2, 1)])
        .await
        .expect("minted");
    let body = grouped(refresh).await;
    // The SDK judges each NFT as it reads it, knowing its collection.
    assert!(
        body.starts_with(r#"{"collections":"#),
        "the collections come before the NFTs"
    );
    let refreshed: NftsGrouped = serde_json::from_str(&body).expect("the grouped wire type");
    assert_eq!(refreshed.nfts.len(), 4);
    assert_eq!(refreshed.collections.len(), 2, "Pals and Items, once each");

    // Without the media type in Accept, the spec's shape, as before.
    let response = stack
        .app_request(&listing)
        .bearer_auth(&user.token)
        .send()
        .await
        .expect("answers");
    assert_eq!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("application/json")
    );
    let spec: NftsResponse = response.json().await.expect("the spec's wire type");
    assert_eq!(
        refreshed.clone().into_nfts(),
        Some(spec),
        "element for element"
    );
    let stored: NftsGrouped =
        serde_json::from_str(&grouped(listing.clone()).await).expect("grouped");
    assert_eq!(
        stored, refreshed,
        "operation 3 answers what operation 4 stored"
    );

    // A listing stored before the grouped one was kept is grouped when asked.
    {
        use sqlx::Connection as _;
        sqlx::any::install_default_drivers();
        let mut db = sqlx::AnyConnection::connect(&stack.service.state.settings.database_url())
            .await
            .expect("the service's database");
        sqlx::query("UPDATE nft_listings SET grouped_body = NULL")
            .execute(&mut db)
            .await
            .expect("updated");
    }
    let regrouped: NftsGrouped = serde_json::from_str(&grouped(listing).await).expect("grouped");
    assert_eq!(regrouped, refreshed);
    assert_eq!(
        stack
            .service
            .state
            .db
            .grouped_nft_listing(&user.wallet_id)
            .await
            .expect("db")
            .flatten()
            .map(|body| serde_json::from_str::<NftsGrouped>(&body).expect("grouped")),
        Some(refreshed),
        "and kept"
    );
}

pub async fn an_nft_sent_away_disappears_on_the_next_refresh(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let pal = stack
        .demo
        .mint_pal(user.address(), "Pal #1", "#6d5dfc")
        .await
        .expect("minted");
    stack
        .demo
        .mint_pal(user.address(), "Pal #2", "#10b981")
        .await
        .expect("minted");
    stack
        .demo
        .send_ether(user.address(), parse_units("1", 18).expect("units").into())
        .await
        .expect("gas money");
    let (_, before) = stack
        .get(
            &format!("/v1/nft/refresh?{}", user.wallet_query()),
            &user.token,
        )
        .await;
    assert_eq!(before["nfts"].as_array().map(Vec::len), Some(2), "{before}");

    let provider = ProviderBuilder::new()
        .wallet(EthereumWallet::from(user.signer.clone()))
        .connect_http(stack.anvil.url.clone());
    DemoNft::new(stack.demo.pals, &provider)
        .transferFrom(user.address(), Address::repeat_byte(0x42), pal)
        .send()
        .await
        .expect("sent")
        .get_receipt()
        .await
        .expect("mined");

    let (status, after) = stack
        .get(
            &format!("/v1/nft/refresh?{}", user.wallet_query()),
            &user.token,
        )
        .await;
    assert_eq!(status, 200);
    let names: Vec<_> = after["nfts"]
        .as_array()
        .expect("nfts")
        .iter()
        .map(|n| n["name"].clone())
        .collect();
    assert_eq!(names, ["Pal #2"]);
}

pub async fn metadata_that_cannot_be_read_keeps_what_was_read_before(backend: Backend) {
    let stack = Stack::start_with(backend, |s| {
        s.refresh_per_minute = 100;
        // The metadata server of this test is on loopback, on a port of its own.
        s.fetch_internal_hosts = true;
        s.fetch_ports = Vec::new();
    })
    .await;
    let user = stack.user("ada@example.com").await;
    // A metadata server that answers once and then goes away.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    let app = axum::Router::new().route(
        "/pal.json",
        axum::routing::get(|| async {
            axum::Json(serde_json::json!({"name": "Served Pal", "description": "From a server"}))
        }),
    );
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    stack
        .demo
        .mint_pal_at(user.address(), format!("http://{address}/pal.json"))
        .await
        .expect("minted");
    let path = format!("/v1/nft/refresh?{}", user.wallet_query());
    let (_, first) = stack.get(&path, &user.token).await;
    assert_eq!(first["nfts"][0]["name"], "Served Pal", "{first}");

    server.abort();
    let _ = server.await;
    let (status, second) = stack.get(&path, &user.token).await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(
        second["nfts"][0]["name"], "Served Pal",
        "the earlier metadata is kept"
    );
    assert_eq!(second["nfts"][0]["description"], "From a server");
    assert_eq!(second["nfts"][0]["state"], 1);

    // One whose metadata was never readable: a placeholder name, state 2.
    let id = stack
        .demo
        .mint_pal_at(user.address(), format!("http://{address}/gone.json"))
        .await
        .expect("minted");
    let (_, third) = stack.get(&path, &user.token).await;
    let gone = third["nfts"]
        .as_array()
        .expect("nfts")
        .iter()
        .find(|n| n["tokenId"] == id.to_string().as_str())
        .expect("listed")
        .clone();
    assert_eq!(gone["name"], format!("#{id}"));
    assert_eq!(gone["state"], 2, "{gone}");
}

/// A listener that counts the connections made to it, answering each with a
/// redirect to `redirect_to` (or with metadata when there is none).
async fn counting_server(redirect_to: Option<String>) -> (std::net::SocketAddr, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    let app = axum::Router::new().fallback(move || {
        let redirect_to = redirect_to.clone();
        counted.fetch_add(1, Ordering::SeqCst);
        async move {
            match redirect_to {
                Some(to) => axum::response::Redirect::temporary(&to).into_response(),
                None => {
                    axum::Json(serde_json::json!({"name": "Secret", "description": "internal"}))
                        .into_response()
                }
            }
        }
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    (address, hits)
}

pub async fn metadata_on_internal_addresses_is_never_requested(backend: Backend) {
    // The production default: the public web on ports 80 and 443 only.
    let stack = Stack::start_with(backend.clone(), |s| s.refresh_per_minute = 100).await;
    let user = stack.user("ada@example.com").await;
    let (internal, hits) = counting_server(None).await;
    for uri in [
        format!("http://{internal}/meta.json"),
        format!("http://localhost:{}/meta.json", internal.port()),
        format!("http://[::ffff:127.0.0.1]:{}/meta.json", internal.port()),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
    ] {
        stack
            .demo
            .mint_pal_at(user.address(), uri)
            .await
            .expect("minted");
    }
    let (status, body) = stack
        .get(
            &format!("/v1/nft/refresh?{}", user.wallet_query()),
            &user.token,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let nfts = body["nfts"].as_array().expect("nfts");
    assert_eq!(nfts.len(), 4, "listed, undescribed: {body}");
    assert!(
        nfts.iter()
            .all(|n| n["state"] == 2 && n["description"] == ""),
        "{body}"
    );
    assert!(
        !body.to_string().contains("Secret"),
        "nothing internal is echoed"
    );
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "the internal server was never contacted"
    );
    drop(stack);

    // Every redirect is checked again: an allowed server that redirects to a
    // port (or address) that is not allowed is not followed.
    let (target, target_hits) = counting_server(None).await;
    let (hop, hop_hits) = counting_server(Some(format!("http://{target}/meta.json"))).await;
    let stack = Stack::start_with(backend, |s| {
        s.refresh_per_minute = 100;
        s.fetch_internal_hosts = true;
        s.fetch_ports = vec![hop.port()];
    })
    .await;
    let user = stack.user("bob@example.com").await;
    stack
        .demo
        .mint_pal_at(user.address(), format!("http://{hop}/meta.json"))
        .await
        .expect("minted");
    let (status, body) = stack
        .get(
            &format!("/v1/nft/refresh?{}", user.wallet_query()),
            &user.token,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["nfts"][0]["state"], 2, "{body}");
    assert_eq!(
        hop_hits.load(Ordering::SeqCst),
        1,
        "the allowed server was asked"
    );
    assert_eq!(
        target_hits.load(Ordering::SeqCst),
        0,
        "its redirect was not followed"
    );
}

pub async fn a_spam_airdrop_cannot_grow_the_list_past_the_allowance(backend: Backend) {
    let stack = Stack::start_with(backend, |s| {
        s.refresh_per_minute = 100;
        s.max_nfts_per_account = 5;
    })
    .await;
    let user = stack.user("ada@example.com").await;
    let pal = stack
        .demo
        .mint_pal(user.address(), "Pal #1", "#6d5dfc")
        .await
        .expect("minted");
    let path = format!("/v1/nft/refresh?{}", user.wallet_query());
    let (status, first) = stack.get(&path, &user.token).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["nfts"].as_array().expect("nfts").len(), 1);

    // One TransferBatch with 40 ids aimed at the wallet.
    let spam: Vec<(u64, u64)> = (100..140).map(|id| (id, 1)).collect();
    stack
        .demo
        .mint_items(user.address(), &spam)
        .await
        .expect("airdropped");
    let (status, after) = stack.get(&path, &user.token).await;
    assert_eq!(status, 200, "{after}");
    let nfts = after["nfts"].as_array().expect("nfts");
    assert_eq!(nfts.len(), 5, "the allowance: {after}");
    assert!(
        nfts.iter().any(|n| n["tokenId"] == pal.to_string().as_str()
            && n["contract"]["address"] == stack.demo.pals.to_checksum(None).as_str()),
        "what the person held stays: {after}"
    );
}
