//! `satchel-chain` against a real anvil node with the demo contracts.

use std::time::Duration;

use alloy::primitives::{Address, U256, utils::parse_units};
use satchel_chain::{Chain, MetadataFetcher, NftKind};
use satchel_devstack::{Anvil, Demo};

async fn chain() -> (Anvil, Demo, Chain) {
    let anvil = Anvil::spawn().await.expect("anvil");
    let demo = Demo::deploy(&anvil.url).await.expect("demo contracts");
    let chain = Chain::http(anvil.url.clone(), Duration::from_secs(5)).expect("client");
    (anvil, demo, chain)
}

#[tokio::test]
async fn one_call_and_one_batch_read_the_same_balances() {
    let (_anvil, demo, chain) = chain().await;
    let owner = Address::repeat_byte(0x11);
    demo.send_ether(owner, U256::from(7)).await.expect("ether");
    let amount: U256 = parse_units("3.000001", 6).expect("units").into();
    demo.send_token(demo.dollar6, owner, amount)
        .await
        .expect("DUSD");
    let not_a_token = Address::repeat_byte(0x22);
    let tokens = [demo.token18, demo.dollar6, not_a_token];

    let one_call = chain.balances(owner, &tokens).await.expect("one call");
    let batch = chain
        .balances_in_one_batch(owner, &tokens)
        .await
        .expect("batch");
    assert_eq!(one_call, batch);
    assert_eq!(one_call.native, U256::from(7));
    assert_eq!(one_call.tokens, vec![Some(U256::ZERO), Some(amount), None]);
}

#[tokio::test]
async fn nft_discovery_finds_the_same_holdings_in_any_window_size() {
    let (_anvil, demo, chain) = chain().await;
    let owner = Address::repeat_byte(0x33);
    let pal = demo.mint_pal(owner, "Pal", "#000").await.expect("minted");
    demo.mint_items(owner, &[(1, 3), (2, 1)])
        .await
        .expect("minted");
    demo.mint_pal(Address::repeat_byte(0x44), "Other", "#fff")
        .await
        .expect("minted");
    let latest = chain.block_number().await.expect("block");

    let wide = chain
        .nft_transfers_to(owner, 0, latest, 10_000)
        .await
        .expect("logs");
    let narrow = chain
        .nft_transfers_to(owner, 0, latest, 1)
        .await
        .expect("logs");
    assert_eq!(wide, narrow);
    assert_eq!(wide.len(), 3, "{wide:?}");
    assert!(wide.iter().any(|a| a.nft.kind == NftKind::Erc721
        && a.nft.token_id == pal
        && a.nft.contract == demo.pals));
    assert_eq!(
        wide.iter()
            .filter(|a| a.nft.kind == NftKind::Erc1155)
            .count(),
        2,
        "a batch mint of two ids"
    );
    // Each came in a mint (from the zero address), sent by the demo's deployer;
    // the batch's two ids in one transaction.
    assert!(wide.iter().all(|a| a.from == Address::ZERO), "{wide:?}");
    let hashes: Vec<_> = wide.iter().map(|a| a.tx_hash).collect();
    assert_eq!(hashes[1..].iter().filter(|h| **h == hashes[2]).count(), 2);
    let senders = chain.transaction_senders(&hashes).await.expect("senders");
    assert_eq!(senders, vec![Some(demo.deployer()); 3]);
    assert_eq!(
        chain
            .transaction_senders(&[satchel_chain::B256::repeat_byte(7)])
            .await
            .expect("an unknown hash"),
        vec![None]
    );
    let wide: Vec<_> = wide.into_iter().map(|a| a.nft).collect();

    let quantities = chain.nft_quantities(owner, &wide).await.expect("holdings");
    let mut sorted: Vec<_> = quantities.iter().map(|q| q.to::<u64>()).collect();
    sorted.sort_unstable();
    assert_eq!(sorted, [1, 1, 3]);
    assert!(
        chain
            .nft_transfers_to(owner, latest + 1, latest, 10)
            .await
            .expect("empty range")
            .is_empty()
    );
}

#[tokio::test]
async fn metadata_uris_and_collections_read_offline() {
    let (_anvil, demo, chain) = chain().await;
    let owner = Address::repeat_byte(0x55);
    demo.mint_pal(owner, "Pal #9", "#123456")
        .await
        .expect("minted");
    let latest = chain.block_number().await.expect("block");
    let found: Vec<_> = chain
        .nft_transfers_to(owner, 0, latest, 1_000)
        .await
        .expect("logs")
        .into_iter()
        .map(|a| a.nft)
        .collect();
    let uris = chain.nft_metadata_uris(&found).await.expect("uris");
    let uri = uris[0].as_deref().expect("a tokenURI");
    let fetcher = MetadataFetcher::new(
        "https://ipfs.example/ipfs/".parse().expect("url"),
        Duration::from_secs(1),
        1 << 20,
        satchel_chain::safe_http::HostPolicy::default(),
    )
    .expect("fetcher");
    let meta = fetcher.fetch(uri).await.expect("metadata");
    assert_eq!(meta.name, "Pal #9");
    assert!(meta.image_url.starts_with("data:image/svg+xml;base64,"));

    let collections = chain
        .nft_collections(&[demo.pals, Address::repeat_byte(0x66)])
        .await
        .expect("collections");
    assert_eq!(collections[0].name.as_deref(), Some("Satchel Pals"));
    assert!(collections[0].contract_uri.is_some());
    assert_eq!(
        collections[1],
        satchel_chain::Collection::default(),
        "an address without code has nothing"
    );
}

#[tokio::test]
async fn a_node_that_is_gone_is_unreachable_not_a_panic() {
    let mut anvil = Anvil::spawn().await.expect("anvil");
    let chain = Chain::http(anvil.url.clone(), Duration::from_secs(2)).expect("client");
    assert_eq!(chain.chain_id().await.expect("chain id"), 31337);
    anvil.stop().await.expect("stopped");
    let err = chain
        .balances(Address::ZERO, &[])
        .await
        .expect_err("no node");
    assert!(
        matches!(err, satchel_chain::ChainError::Unreachable(_)),
        "{err}"
    );
}
