//! The provider over real HTTP on 127.0.0.1, with a wallet standing in for the
//! app (the person's answers are the test's): the door's refusals, JSON-RPC's
//! errors, connect and disconnect, and a flood that leaves it serving.

mod common;

use alloy::primitives::{Address, Signature};
use common::{ADDRESS, DAPP, TX_HASH, code, start};
use satchel_connect::{Ask, Origin};
use serde_json::{Value, json};

#[tokio::test]
async fn the_door_refuses_rebinding_hosts_non_json_bodies_and_oversized_ones() {
    let running = start().await;
    let rebound = running
        .http
        .post(running.url())
        .header("host", format!("evil.example:{}", running.provider.port))
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}))
        .send()
        .await
        .expect("answered");
    assert_eq!(rebound.status(), 403);
    let plain = running
        .http
        .post(running.url())
        .header("content-type", "text/plain")
        .header("origin", DAPP)
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"eth_requestAccounts"}"#)
        .send()
        .await
        .expect("answered");
    assert_eq!(plain.status(), 415);
    let huge = running
        .http
        .post(running.url())
        .header("content-type", "application/json")
        .body(vec![b' '; 300 * 1024])
        .send()
        .await
        .expect("answered");
    assert_eq!(huge.status(), 413);
    let said: Value = huge.json().await.expect("a JSON-RPC error");
    assert_eq!(said["error"]["code"], -32600, "{said}");
    // Far past the bound the client still hears why, not a dropped connection.
    let six_mb = running
        .http
        .post(running.url())
        .header("content-type", "application/json")
        .body(vec![b' '; 6 * 1024 * 1024])
        .send()
        .await
        .expect("answered, not cut off");
    assert_eq!(six_mb.status(), 413);
    let said: Value = six_mb.json().await.expect("a JSON-RPC error");
    assert!(
        said["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("at most")),
        "{said}"
    );
    let preflight = running
        .http
        .request(reqwest::Method::OPTIONS, running.url())
        .header("origin", DAPP)
        .header("access-control-request-method", "POST")
        .header("access-control-request-private-network", "true")
        .send()
        .await
        .expect("answered");
    assert_eq!(preflight.status(), 204);
    assert_eq!(preflight.headers()["access-control-allow-origin"], DAPP);
    assert_eq!(
        preflight.headers()["access-control-allow-private-network"],
        "true"
    );
    // Nothing was asked of the person.
    assert_eq!(
        running.call(Some(DAPP), "eth_accounts", json!([])).await["result"],
        json!([])
    );
}

#[tokio::test]
async fn json_rpc_errors_come_with_their_codes() {
    let running = start().await;
    let broken = running
        .http
        .post(running.url())
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .expect("answered");
    let broken: Value = broken.json().await.expect("json");
    assert_eq!(code(&broken), -32700);
    assert_eq!(
        code(&running.call(None, "eth_doesNotExist", json!([])).await),
        -32601
    );
    assert_eq!(
        code(
            &running
                .call(None, "eth_sign", json!([ADDRESS, "0xdead"]))
                .await
        ),
        4200
    );
    assert_eq!(
        code(&running.call(None, "eth_signTransaction", json!([{}])).await),
        4200
    );
    for method in [
        "personal_sign",
        "eth_signTypedData_v4",
        "eth_sendTransaction",
    ] {
        let answer = running.call(Some(DAPP), method, json!([])).await;
        assert_eq!(code(&answer), 4100, "{method} from an unconnected origin");
    }
    assert_eq!(
        running.call(Some(DAPP), "eth_chainId", json!([])).await["result"],
        "0x7a69"
    );
    assert_eq!(
        running.call(Some(DAPP), "net_version", json!([])).await["result"],
        "31337"
    );
    let version = running
        .call(Some(DAPP), "web3_clientVersion", json!([]))
        .await;
    assert!(
        version["result"]
            .as_str()
            .is_some_and(|v| v.starts_with("Satchel/")),
        "{version}"
    );
    let filter = running
        .call(Some(DAPP), "eth_newBlockFilter", json!([]))
        .await;
    assert_eq!(code(&filter), -32601);
    assert!(
        filter["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("eth_subscribe"))
    );
    let batch: Value = running
        .http
        .post(running.url())
        .json(&json!([
            {"jsonrpc": "2.0", "id": "a", "method": "eth_chainId"},
            {"jsonrpc": "2.0", "id": "b", "method": "nope"},
            {"id": "c", "method": "eth_chainId"},
        ]))
        .send()
        .await
        .expect("answered")
        .json()
        .await
        .expect("json");
    assert_eq!(batch[0]["result"], "0x7a69");
    assert_eq!(batch[1]["error"]["code"], -32601);
    assert_eq!(batch[2]["error"]["code"], -32600);
    assert_eq!(batch[2]["id"], "c");
}

#[tokio::test]
async fn a_page_connects_with_the_persons_yes_once_and_disconnect_forgets_it() {
    let mut running = start().await;
    // The person closes the first page: rejected, nothing kept.
    let asking = running.spawn_call(DAPP, "eth_requestAccounts", json!([]));
    let (origin, ask, answer) = running.pages.recv().await.expect("a page");
    assert_eq!(origin, Origin::Web(DAPP.into()));
    assert_eq!(
        ask,
        Ask::Connect {
            through_extension: false
        }
    );
    // A second prompt of the same kind while one waits: -32002.
    assert_eq!(
        code(
            &running
                .call(Some(DAPP), "eth_requestAccounts", json!([]))
                .await
        ),
        -32002
    );
    answer.send(false).expect("the page waits");
    assert_eq!(code(&asking.await.expect("joined")), 4001);
    assert_eq!(
        running.call(Some(DAPP), "eth_accounts", json!([])).await["result"],
        json!([])
    );

    // Answer: its accounts, now and without asking again.
    let asking = running.spawn_call(DAPP, "eth_requestAccounts", json!([]));
    let (_, _, answer) = running.pages.recv().await.expect("a page");
    answer.send(true).expect("the page waits");
    assert_eq!(asking.await.expect("joined")["result"], json!([ADDRESS]));
    assert_eq!(
        running
            .call(Some(DAPP), "eth_requestAccounts", json!([]))
            .await["result"],
        json!([ADDRESS])
    );
    assert!(running.pages.try_recv().is_err(), "asked once");
    let permissions = running
        .call(Some(DAPP), "wallet_getPermissions", json!([]))
        .await;
    assert_eq!(permissions["result"][0]["parentCapability"], "eth_accounts");
    // Another page and a local program are not connected by it.
    assert_eq!(
        running
            .call(Some("https://other.example"), "eth_accounts", json!([]))
            .await["result"],
        json!([])
    );
    assert_eq!(
        running.call(None, "eth_accounts", json!([])).await["result"],
        json!([])
    );

    // Reads go to the origin's network, which it may switch among the served ones.
    assert_eq!(
        running.call(Some(DAPP), "eth_blockNumber", json!([])).await["result"],
        "0x10"
    );
    assert_eq!(
        code(
            &running
                .call(
                    Some(DAPP),
                    "wallet_switchEthereumChain",
                    json!([{"chainId": "0x89"}])
                )
                .await
        ),
        4902
    );
    // Adding a chain Satchel serves is answered as MetaMask answers it: null;
    // one it does not serve, 4902.
    let added = running
        .call(
            Some(DAPP),
            "wallet_addEthereumChain",
            json!([{"chainId": "0x1", "chainName": "Ethereum"}]),
        )
        .await;
    assert_eq!(added["result"], Value::Null, "{added}");
    assert!(added.get("error").is_none(), "{added}");
    let unknown = running
        .call(
            Some(DAPP),
            "wallet_addEthereumChain",
            json!([{"chainId": "0x89", "chainName": "Polygon"}]),
        )
        .await;
    assert_eq!(code(&unknown), 4902);
    let switched = running
        .call(
            Some(DAPP),
            "wallet_switchEthereumChain",
            json!([{"chainId": "0x1"}]),
        )
        .await;
    assert_eq!(switched["result"], Value::Null, "{switched}");
    assert_eq!(
        running.call(Some(DAPP), "eth_chainId", json!([])).await["result"],
        "0x1"
    );
    running.call(Some(DAPP), "eth_blockNumber", json!([])).await;
    let reads = running.person.reads.lock().await.clone();
    assert_eq!(
        reads,
        vec![
            ("anvil".into(), "eth_blockNumber".into()),
            ("ethereum".into(), "eth_blockNumber".into())
        ]
    );

    let revoked = running
        .call(
            Some(DAPP),
            "wallet_revokePermissions",
            json!([{"eth_accounts": {}}]),
        )
        .await;
    assert_eq!(revoked["result"], Value::Null, "{revoked}");
    assert_eq!(
        running.call(Some(DAPP), "eth_accounts", json!([])).await["result"],
        json!([])
    );
    // Disconnected, it reads again within a page's own allowance.
    let reads_before = running.person.reads.lock().await.len();
    running.call(Some(DAPP), "eth_blockNumber", json!([])).await;
    assert_eq!(running.person.reads.lock().await.len(), reads_before + 1);
}

#[tokio::test]
async fn a_page_reads_before_it_connects_within_an_allowance_of_its_own() {
    use satchel_connect::allowance::READ_BURST;
    let mut running = start().await;
    // Dapps read first: the block, a balance, a call; nobody is asked.
    for _ in 0..READ_BURST {
        let answer = running.call(Some(DAPP), "eth_blockNumber", json!([])).await;
        assert!(answer.get("error").is_none(), "{answer}");
    }
    let spent = running.call(Some(DAPP), "eth_call", json!([{}])).await;
    assert_eq!(code(&spent), -32005, "{spent}");
    assert_eq!(running.person.reads.lock().await.len(), READ_BURST as usize);
    // Another page has its own; once connected, the page reads on.
    let other = running
        .call(Some("https://other.example"), "eth_blockNumber", json!([]))
        .await;
    assert!(other.get("error").is_none(), "{other}");
    running.connect(DAPP).await;
    let connected = running.call(Some(DAPP), "eth_blockNumber", json!([])).await;
    assert!(connected.get("error").is_none(), "{connected}");
}

#[tokio::test]
async fn a_flood_of_requests_is_answered_and_the_provider_keeps_serving() {
    let running = start().await;
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..300 {
        let (http, url) = (running.http.clone(), running.url());
        calls.spawn(async move {
            http.post(url)
                .header("origin", DAPP)
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}))
                .send()
                .await
                .map(|r| r.status().as_u16())
        });
    }
    while let Some(status) = calls.join_next().await {
        let status = status.expect("joined").expect("answered");
        assert!(status == 200 || status == 503, "{status}");
    }
    assert_eq!(
        running.call(Some(DAPP), "eth_chainId", json!([])).await["result"],
        "0x7a69"
    );
}

/// The in-flight bound answers: with [`MAX_IN_FLIGHT`] requests held (each a
/// connect from its own site, waiting for the person), the next is told 503
/// at once; once they are answered, requests are served again.
#[tokio::test]
async fn past_the_in_flight_bound_a_request_is_told_to_ask_again() {
    use satchel_connect::server::MAX_IN_FLIGHT;
    let mut running = start().await;
    let mut held = tokio::task::JoinSet::new();
    for n in 0..MAX_IN_FLIGHT {
        let (http, url) = (running.http.clone(), running.url());
        held.spawn(async move {
            http.post(url)
                .header("origin", format!("https://site{n}.example"))
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_requestAccounts"}))
                .send()
                .await
                .map(|r| r.status().as_u16())
        });
    }
    let mut pages = Vec::new();
    while pages.len() < MAX_IN_FLIGHT {
        let (_, _, answer) = running.pages.recv().await.expect("a page");
        pages.push(answer);
    }
    let refused = running
        .http
        .post(running.url())
        .header("origin", DAPP)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}))
        .send()
        .await
        .expect("answered");
    assert_eq!(refused.status().as_u16(), 503);
    for answer in pages {
        answer.send(true).expect("the page waits");
    }
    while let Some(status) = held.join_next().await {
        assert_eq!(status.expect("joined").expect("answered"), 200);
    }
    assert_eq!(
        running.call(Some(DAPP), "eth_chainId", json!([])).await["result"],
        "0x7a69"
    );
}

#[tokio::test]
async fn a_page_sees_only_the_accounts_the_person_chose_for_it() {
    let mut running = start().await;
    let savings = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    *running.person.more.lock().expect("lock") = vec![savings.to_owned()];
    *running.person.picks.lock().expect("lock") = Some(vec![savings.to_owned()]);
    running.connect(DAPP).await;
    let seen = json!([savings]);
    assert_eq!(
        running.call(Some(DAPP), "eth_accounts", json!([])).await["result"],
        seen
    );
    assert_eq!(
        running
            .call(Some(DAPP), "eth_requestAccounts", json!([]))
            .await["result"],
        seen
    );
    let permissions = running
        .call(Some(DAPP), "wallet_getPermissions", json!([]))
        .await;
    assert_eq!(
        permissions["result"][0]["caveats"][0]["value"], seen,
        "{permissions}"
    );
    // The account it was not shown: refused before any page.
    let refused = running
        .call(
            Some(DAPP),
            "personal_sign",
            json!(["0x68656c6c6f", ADDRESS]),
        )
        .await;
    assert!(refused.get("error").is_some(), "{refused}");
    assert!(
        running.pages.try_recv().is_err(),
        "no page for an account it cannot see"
    );
    // Another page, connected with every account, sees both, the first first.
    *running.person.picks.lock().expect("lock") = None;
    let other = "https://other.example";
    running.connect(other).await;
    assert_eq!(
        running.call(Some(other), "eth_accounts", json!([])).await["result"],
        json!([ADDRESS, savings])
    );
    // Savings is gone (another person's wallet now): the first page sees
    // nothing, and asking again brings the page back instead of a dead end.
    running.person.more.lock().expect("lock").clear();
    *running.person.picks.lock().expect("lock") = None;
    assert_eq!(
        running.call(Some(DAPP), "eth_accounts", json!([])).await["result"],
        json!([])
    );
    let asking = running.spawn_call(DAPP, "eth_requestAccounts", json!([]));
    let (origin, ask, answer) = running.pages.recv().await.expect("asked again");
    assert_eq!(
        (origin, ask),
        (
            Origin::Web(DAPP.into()),
            Ask::Connect {
                through_extension: false
            }
        )
    );
    answer.send(true).expect("the page waits");
    assert_eq!(asking.await.expect("joined")["result"], json!([ADDRESS]));
}

#[tokio::test]
async fn a_message_is_signed_with_the_persons_yes_and_a_foreign_sign_in_comes_with_its_refusal() {
    let mut running = start().await;
    // Not connected: no page, 4100.
    let refused = running
        .call(
            Some(DAPP),
            "personal_sign",
            json!(["0x68656c6c6f", ADDRESS]),
        )
        .await;
    assert_eq!(code(&refused), 4100);
    running.connect(DAPP).await;

    let asking = running.spawn_call(DAPP, "personal_sign", json!(["0x68656c6c6f", ADDRESS]));
    let (origin, ask, answer) = running.pages.recv().await.expect("a page");
    assert_eq!(origin, Origin::Web(DAPP.into()));
    let Ask::SignMessage(message) = ask else {
        panic!("a message page: {ask:?}")
    };
    assert_eq!(message.review.text.as_deref(), Some("hello"));
    answer.send(true).expect("the page waits");
    let answer = asking.await.expect("joined");
    let signature: Signature = answer["result"]
        .as_str()
        .expect("a signature")
        .parse()
        .expect("65 bytes");
    let signer = signature
        .recover_address_from_msg(b"hello")
        .expect("recovers");
    assert_eq!(signer, ADDRESS.parse::<Address>().expect("address"));

    // A sign-in for another site reaches the page with its refusal.
    let foreign = format!(
        "evil.example wants you to sign in with your Ethereum account:\n{ADDRESS}\n\n\nURI: https://evil.example\nVersion: 1\nChain ID: 31337\nNonce: abcdefgh12\nIssued At: 2026-11-25T00:00:00Z"
    );
    let asking = running.spawn_call(DAPP, "personal_sign", json!([foreign, ADDRESS]));
    let (_, ask, answer) = running.pages.recv().await.expect("a page");
    let Ask::SignMessage(message) = ask else {
        panic!("a message page")
    };
    assert!(message.review.refusal.is_some(), "{:?}", message.review);
    answer.send(false).expect("the page waits");
    assert_eq!(code(&asking.await.expect("joined")), 4001);
}

#[tokio::test]
async fn typed_data_is_signed_as_eip_712_and_refused_before_any_page_when_malformed() {
    let mut running = start().await;
    running.connect(DAPP).await;
    let data = json!({
        "types": {
            "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "chainId", "type": "uint256"}],
            "Mail": [{"name": "to", "type": "string"}]
        },
        "primaryType": "Mail",
        "domain": {"name": "Mailer", "chainId": 31337},
        "message": {"to": "Bob"}
    });
    let asking = running.spawn_call(
        DAPP,
        "eth_signTypedData_v4",
        json!([ADDRESS, data.to_string()]),
    );
    let (_, ask, answer) = running.pages.recv().await.expect("a page");
    let Ask::SignTypedData(typed) = ask else {
        panic!("a typed-data page")
    };
    assert_eq!(typed.review.message[0].value.as_deref(), Some("Bob"));
    let hash = typed.data.eip712_signing_hash().expect("hash");
    answer.send(true).expect("the page waits");
    let answer = asking.await.expect("joined");
    let signature: Signature = answer["result"]
        .as_str()
        .expect("a signature")
        .parse()
        .expect("65 bytes");
    assert_eq!(
        signature
            .recover_address_from_prehash(&hash)
            .expect("recovers"),
        ADDRESS.parse::<Address>().expect("address")
    );
    // Data that does not fit its types: -32602, and nobody is asked.
    let broken = json!({"types": {"Mail": [{"name": "to", "type": "string"}]}, "primaryType": "Mail", "domain": {}, "message": {}});
    let refused = running
        .call(Some(DAPP), "eth_signTypedData_v4", json!([ADDRESS, broken]))
        .await;
    assert_eq!(code(&refused), -32602);
    // An account this site does not see: 4100.
    let other = "0x0000000000000000000000000000000000000001";
    let refused = running
        .call(Some(DAPP), "eth_signTypedData_v4", json!([other, data]))
        .await;
    assert_eq!(code(&refused), 4100);
    assert!(running.pages.try_recv().is_err(), "nobody was asked");
}

#[tokio::test]
async fn a_transaction_reaches_its_page_read_and_answers_its_hash() {
    let mut running = start().await;
    running.connect(DAPP).await;
    let nft = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    // setApprovalForAll(nft, true): every NFT of the collection.
    let data = format!("0xa22cb465{:0>64}{:0>64}", &nft[2..].to_lowercase(), "1");
    let asking = running.spawn_call(
        DAPP,
        "eth_sendTransaction",
        json!([{"from": ADDRESS, "to": nft, "data": data, "gas": "0x5208"}]),
    );
    let (_, ask, answer) = running.pages.recv().await.expect("a page");
    let Ask::SendTransaction(tx) = ask else {
        panic!("a transaction page")
    };
    assert_eq!(tx.network, "anvil");
    assert!(tx.review.takes_everything, "{:?}", tx.review);
    answer.send(true).expect("the page waits");
    assert_eq!(asking.await.expect("joined")["result"], TX_HASH);
    // A deployment (no `to`) reaches its own page, which says so.
    let deploying = running.spawn_call(
        DAPP,
        "eth_sendTransaction",
        json!([{"from": ADDRESS, "data": "0x6080604052"}]),
    );
    let (_, ask, answer) = running.pages.recv().await.expect("a page");
    let Ask::SendTransaction(tx) = ask else {
        panic!("a transaction page")
    };
    assert_eq!(tx.to, alloy::primitives::TxKind::Create);
    assert_eq!(
        tx.review.call,
        satchel_connect::review::transaction::DecodedCall::Deploy { code_size: 5 }
    );
    answer.send(true).expect("the page waits");
    assert_eq!(deploying.await.expect("joined")["result"], TX_HASH);
    // Without code there is nothing to deploy: refused, and nobody is asked.
    let refused = running
        .call(
            Some(DAPP),
            "eth_sendTransaction",
            json!([{"from": ADDRESS, "data": "0x"}]),
        )
        .await;
    assert_eq!(code(&refused), -32602);
    assert!(running.pages.try_recv().is_err(), "nobody was asked");
}

/// A client that gives up (an aborted fetch, `curl -m 1`) drops its request
/// on Satchel's side too: the wallet's `ask` is cancelled, so the shell's
/// prompt for it leaves the queue (`satchel-desktop`'s queue tests).
#[tokio::test]
async fn a_request_given_up_by_its_client_is_dropped_while_it_waits_on_the_person() {
    let mut running = start().await;
    let impatient = reqwest::Client::builder()
        .timeout(std::time::Duration::from_millis(300))
        .build()
        .expect("a client");
    let asking = {
        let (http, url) = (impatient.clone(), running.url());
        tokio::spawn(async move {
            http.post(url)
                .header("origin", DAPP)
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_requestAccounts"}))
                .send()
                .await
        })
    };
    let (_, _, mut page) = running.pages.recv().await.expect("the page is asked");
    assert!(
        asking.await.expect("the task").is_err(),
        "the client gave up"
    );
    tokio::time::timeout(std::time::Duration::from_secs(5), page.closed())
        .await
        .expect("the request waiting on the person was dropped");
}

#[tokio::test]
async fn a_batch_of_calls_is_approved_on_one_page_and_its_status_read() {
    use satchel_connect::review::calls::codes;
    let mut running = start().await;
    // Not connected: nothing, not even what Satchel can do.
    let refused = running
        .call(Some(DAPP), "wallet_getCapabilities", json!([ADDRESS]))
        .await;
    assert_eq!(code(&refused), 4100);
    running.connect(DAPP).await;
    let capabilities = running
        .call(
            Some(DAPP),
            "wallet_getCapabilities",
            json!([ADDRESS, ["0x7a69"]]),
        )
        .await;
    assert_eq!(
        capabilities["result"],
        json!({"0x7a69": {"atomic": {"status": "unsupported"}}})
    );

    let batch = json!([{
        "version": "2.0.0", "id": "mint-and-pay", "chainId": "0x7a69", "atomicRequired": false,
        "calls": [{"to": ADDRESS, "value": "0x1"}, {"to": ADDRESS, "data": "0x1234"}]
    }]);
    let sending = running.spawn_call(DAPP, "wallet_sendCalls", batch.clone());
    let (origin, ask, yes) = running.pages.recv().await.expect("one page");
    assert_eq!(origin, Origin::Web(DAPP.into()));
    let Ask::SendCalls(calls) = ask else {
        panic!("the batch's page")
    };
    assert_eq!(calls.calls.len(), 2);
    yes.send(true).expect("the page waits");
    assert_eq!(
        sending.await.expect("joined")["result"],
        json!({"id": "mint-and-pay"})
    );

    let status = running
        .call(Some(DAPP), "wallet_getCallsStatus", json!(["mint-and-pay"]))
        .await;
    assert_eq!(status["result"]["status"], 200, "{status}");
    assert_eq!(status["result"]["atomic"], false);
    assert_eq!(
        status["result"]["receipts"].as_array().map(Vec::len),
        Some(2)
    );
    // The same id again, another site's view of it, an unknown one.
    let again = running.call(Some(DAPP), "wallet_sendCalls", batch).await;
    assert_eq!(code(&again), codes::DUPLICATE_ID);
    running.connect("https://other.example").await;
    let other = running
        .call(
            Some("https://other.example"),
            "wallet_getCallsStatus",
            json!(["mint-and-pay"]),
        )
        .await;
    assert_eq!(code(&other), codes::UNKNOWN_BUNDLE);
    let shown = running
        .call(
            Some(DAPP),
            "wallet_showCallsStatus",
            json!(["mint-and-pay"]),
        )
        .await;
    assert_eq!(shown["result"], Value::Null, "{shown}");
}
