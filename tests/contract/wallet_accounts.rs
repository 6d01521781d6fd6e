//! A wallet's further accounts against the real service: the next index only,
//! proven by a signature of the new address's key, on every network, bounded;
//! names on every network; another user's wallet refused with nothing changed.

use alloy::signers::local::PrivateKeySigner;
use reqwest::Method;
use satchel_api::rules::{MAX_ACCOUNTS, account_path};
use satchel_tests::{Backend, Stack};
use serde_json::{Value, json};

use crate::assert_error;
use crate::keys::{Person, call, challenge, person, register, sign};

/// `signer`'s add-account request for `path`, signed by `by` over a fresh nonce.
async fn add_body(
    stack: &Stack,
    who: &Person,
    signer: &PrivateKeySigner,
    by: &PrivateKeySigner,
    path: &str,
    label: &str,
) -> Value {
    let (nonce, message) = challenge(stack, &who.token).await;
    json!({
        "address": signer.address().to_checksum(None),
        "addressPath": path,
        "nonce": nonce,
        "signature": sign(by, &message).await,
        "label": label,
    })
}

async fn add(
    stack: &Stack,
    who: &Person,
    wallet_id: &str,
    body: Value,
) -> (reqwest::StatusCode, Value) {
    call(
        stack,
        Method::POST,
        &format!("/v1/wallets/{wallet_id}/accounts"),
        &who.token,
        Some(body),
    )
    .await
}

/// Operation 1's accounts of the wallet (coin entries only): (address, path, label).
async fn listed(stack: &Stack, owner: &Person, wallet_id: &str) -> Vec<(String, String, String)> {
    let (status, body) = stack
        .get(
            &format!("/v1/account?userId={}&walletId={wallet_id}", owner.user_id),
            &owner.token,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .filter(|a| a.get("contract").is_none())
        .map(|a| {
            (
                a["address"].as_str().expect("address").to_lowercase(),
                a["addressPath"].as_str().expect("path").to_owned(),
                a["label"].as_str().expect("label").to_owned(),
            )
        })
        .collect()
}

pub async fn a_wallet_adds_its_next_account_on_every_network_proven_by_its_key(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = person(&stack, "ada@example.com").await;
    let bob = person(&stack, "bob@example.com").await;
    let wallet_id = register(&stack, &ada, [1; 32], [2; 32], None).await;
    let before = listed(&stack, &ada, &wallet_id).await;
    let networks = before.len();
    assert!(networks >= 1, "{before:?}");
    let second = PrivateKeySigner::random();

    // Not the next index: 400, saying which is.
    let body = add_body(&stack, &ada, &second, &second, &account_path(2), "Savings").await;
    let (status, answer) = add(&stack, &ada, &wallet_id, body).await;
    assert_error(status, &answer, 400, "InvalidParameters");
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("m/44'/60'/0'/0/1")),
        "{answer}"
    );
    // Signed by another key than the address's: 400.
    let body = add_body(
        &stack,
        &ada,
        &second,
        &ada.signer,
        &account_path(1),
        "Savings",
    )
    .await;
    let (status, answer) = add(&stack, &ada, &wallet_id, body).await;
    assert_error(status, &answer, 400, "InvalidParameters");
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("signature")),
        "{answer}"
    );
    // The first account's address again: 409.
    let body = add_body(
        &stack,
        &ada,
        &ada.signer,
        &ada.signer,
        &account_path(1),
        "Again",
    )
    .await;
    let (status, answer) = add(&stack, &ada, &wallet_id, body).await;
    assert_error(status, &answer, 409, "Conflict");
    // A name that is blank or too long: 400.
    for label in ["  ", &"x".repeat(33)] {
        let body = add_body(&stack, &ada, &second, &second, &account_path(1), label).await;
        let (status, answer) = add(&stack, &ada, &wallet_id, body).await;
        assert_error(status, &answer, 400, "InvalidParameters");
    }
    // Bob, rightly signed for his own key, into Ada's wallet: 403; a wallet
    // that does not exist: 404.
    let body = add_body(&stack, &bob, &second, &second, &account_path(1), "Mine").await;
    let (status, answer) = add(&stack, &bob, &wallet_id, body.clone()).await;
    assert_error(status, &answer, 403, "Forbidden");
    let (status, answer) = add(&stack, &bob, "no-such-wallet", body).await;
    assert_error(status, &answer, 404, "NotFound");
    assert_eq!(
        listed(&stack, &ada, &wallet_id).await,
        before,
        "a refusal changes nothing"
    );

    // The next index, signed by its key: on every network, after the first.
    let body = add_body(
        &stack,
        &ada,
        &second,
        &second,
        &account_path(1),
        " Savings ",
    )
    .await;
    let (status, answer) = add(&stack, &ada, &wallet_id, body).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["walletId"], wallet_id.as_str(), "{answer}");
    let after = listed(&stack, &ada, &wallet_id).await;
    assert_eq!(after.len(), 2 * networks, "{after:?}");
    assert_eq!(
        after[..networks],
        before[..],
        "the first account stays first"
    );
    let address = second.address().to_string().to_lowercase();
    for (listed_address, path, label) in &after[networks..] {
        assert_eq!(
            (listed_address.as_str(), path.as_str(), label.as_str()),
            (address.as_str(), "m/44'/60'/0'/0/1", "Savings")
        );
    }
    let coins_in_answer = answer["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .filter(|a| a.get("contract").is_none())
        .count();
    assert_eq!(coins_in_answer, 2 * networks, "{answer}");

    // Renamed on every network; Bob, a bad name or an unknown address changes nothing.
    let rename = |who: &Person, address: String, label: &str| {
        let (token, path, label) = (
            who.token.clone(),
            format!("/v1/wallets/{wallet_id}/accounts/{address}/label"),
            label.to_owned(),
        );
        let stack = &stack;
        async move {
            call(
                stack,
                Method::PUT,
                &path,
                &token,
                Some(json!({"label": label})),
            )
            .await
        }
    };
    let checksummed = second.address().to_checksum(None);
    let (status, answer) = rename(&bob, checksummed.clone(), "Bob's").await;
    assert_error(status, &answer, 403, "Forbidden");
    let (status, answer) = rename(&ada, checksummed.clone(), "").await;
    assert_error(status, &answer, 400, "InvalidParameters");
    let (status, answer) = rename(
        &ada,
        PrivateKeySigner::random().address().to_checksum(None),
        "Gone",
    )
    .await;
    assert_error(status, &answer, 404, "NotFound");
    assert_eq!(listed(&stack, &ada, &wallet_id).await, after);
    let (status, answer) = rename(&ada, checksummed, "Rent").await;
    assert_eq!(status, 204, "{answer}");
    let renamed = listed(&stack, &ada, &wallet_id).await;
    assert!(
        renamed[networks..]
            .iter()
            .all(|(_, _, label)| label == "Rent"),
        "{renamed:?}"
    );
    assert!(
        renamed[..networks]
            .iter()
            .all(|(_, _, label)| label == "Account 1"),
        "{renamed:?}"
    );
}

pub async fn a_wallet_keeps_a_bounded_number_of_accounts(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = person(&stack, "ada@example.com").await;
    let wallet_id = register(&stack, &ada, [1; 32], [2; 32], None).await;
    for index in 1..MAX_ACCOUNTS {
        let key = PrivateKeySigner::random();
        let body = add_body(&stack, &ada, &key, &key, &account_path(index), "More").await;
        let (status, answer) = add(&stack, &ada, &wallet_id, body).await;
        assert_eq!(status, 200, "account {index}: {answer}");
    }
    let before = listed(&stack, &ada, &wallet_id).await;
    let key = PrivateKeySigner::random();
    let body = add_body(
        &stack,
        &ada,
        &key,
        &key,
        &account_path(MAX_ACCOUNTS),
        "One more",
    )
    .await;
    let (status, answer) = add(&stack, &ada, &wallet_id, body).await;
    assert_error(status, &answer, 429, "TooManyRequests");
    assert_eq!(listed(&stack, &ada, &wallet_id).await, before);
}
