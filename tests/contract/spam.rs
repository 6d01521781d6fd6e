//! Spam NFTs: the service keeps how each NFT came (the transfer's sender, the
//! transaction and who sent it), and the device hides what a stranger sent of
//! a collection the app does not vouch for, until the person shows it.

use alloy::primitives::{Address, U256, utils::parse_units};
use alloy::signers::local::PrivateKeySigner;
use satchel_api::ServiceNft;
use satchel_sdk::Widget;
use satchel_tests::Backend;

use crate::sending::{PIN, person, stack};

fn held(nfts: &[ServiceNft], contract: Address, id: U256) -> &ServiceNft {
    nfts.iter()
        .find(|n| n.contract.address == contract.to_checksum(None) && n.token_id == id.to_string())
        .unwrap_or_else(|| panic!("{contract} #{id} is listed: {nfts:?}"))
}

async fn listed(w: &Widget) -> Vec<ServiceNft> {
    w.get_nfts(false, None).await.expect("listed")
}

pub async fn a_strangers_airdrop_is_hidden_as_spam_until_the_person_shows_it(backend: Backend) {
    let stack = stack(backend).await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    let demo = &stack.demo;
    // The demo's Pals and Items (a collection the app vouches for), minted to
    // Ada by the demo's deployer, whom she does not know.
    demo.fund(ada_address).await.expect("funded");
    let stranger = PrivateKeySigner::random();
    let friend = PrivateKeySigner::random();
    for who in [stranger.address(), friend.address()] {
        demo.send_ether(who, parse_units("1", 18).expect("wei").into())
            .await
            .expect("funded");
    }
    let prize = demo
        .deploy_collection_as(&stranger, "Free Prize")
        .await
        .expect("deployed");
    // 1. Minted to Ada by the stranger: an airdrop.
    let (airdrop, _) = demo
        .mint_as(&stranger, prize, ada_address, "Claim your prize")
        .await
        .expect("minted");
    // 2. Minted to the friend, who sends it on to Ada.
    let (gift, _) = demo
        .mint_as(&stranger, prize, friend.address(), "A gift")
        .await
        .expect("minted");
    demo.transfer_nft_as(&friend, prize, ada_address, gift)
        .await
        .expect("sent on");
    // 3. Claimed by Ada herself: her account sends the transaction.
    let ada_key: PrivateKeySigner = ada
        .export_private_key(PIN, ada_address)
        .await
        .expect("exported")
        .parse()
        .expect("a key");
    let claimed = demo
        .claim_as(&ada_key, prize, "Mine")
        .await
        .expect("claimed");

    let nfts = ada.get_nfts(true, None).await.expect("refreshed");
    let pal = nfts
        .iter()
        .find(|n| n.contract.address == demo.pals.to_checksum(None))
        .expect("a Pal");
    assert!(
        !pal.likely_spam,
        "a collection the app vouches for: {pal:?}"
    );
    assert_eq!(pal.received_from, None, "a mint's sender is left out");
    let dropped = held(&nfts, prize, airdrop);
    assert!(dropped.likely_spam, "minted by a stranger: {dropped:?}");
    assert_eq!(dropped.received_from, None, "minted");
    let given = held(&nfts, prize, gift);
    assert!(
        given.likely_spam,
        "from an address Ada has not saved: {given:?}"
    );
    assert_eq!(
        given.received_from.as_deref(),
        Some(&*friend.address().to_checksum(None))
    );
    assert!(!held(&nfts, prize, claimed).likely_spam, "Ada's own claim");

    // The service's listing says how each came, beside the spec's fields.
    let bo = stack.user("bo@example.com").await;
    let (to_bo, to_bo_tx) = demo
        .mint_as(&stranger, prize, bo.address(), "Claim your prize")
        .await
        .expect("minted");
    let (status, body) = stack
        .get(&format!("/v1/nft/refresh?{}", bo.wallet_query()), &bo.token)
        .await;
    assert_eq!(status, 200, "{body}");
    let entry = body["nfts"]
        .as_array()
        .expect("nfts")
        .iter()
        .find(|n| n["tokenId"] == to_bo.to_string().as_str())
        .expect("Bo's airdrop")
        .clone();
    assert_eq!(
        entry["received"],
        serde_json::json!({
            "from": Address::ZERO.to_checksum(None),
            "sentBy": stranger.address().to_checksum(None),
            "txHash": format!("{to_bo_tx:#x}"),
        })
    );

    // Once Ada saves her friend, what the friend sent is not spam.
    ada.save_address(&friend.address().to_checksum(None), "Friend")
        .expect("saved");
    assert!(!held(&listed(&ada).await, prize, gift).likely_spam);
    assert!(held(&listed(&ada).await, prize, airdrop).likely_spam);

    // Ada shows the collection: kept on the device as her choice; hiding it
    // again takes it back.
    let key = format!("anvil:{prize:#x}");
    let choices = ada
        .show_collection("anvil", &prize.to_checksum(None))
        .expect("shown");
    assert_eq!(choices.shown, std::slice::from_ref(&key));
    assert!(choices.hidden.is_empty());
    assert_eq!(ada.collection_choices().expect("read"), choices);
    let choices = ada
        .hide_collection("anvil", &prize.to_checksum(None))
        .expect("hidden");
    assert_eq!(choices.hidden, [key]);
    assert!(choices.shown.is_empty());
}
