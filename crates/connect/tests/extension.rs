//! Satchel's browser extension over real loopback sockets: linked with the
//! code Settings shows, it speaks for the page it names; a program that sends
//! an extension's `Origin` without having been linked speaks for nobody.

mod common;

use common::socket::{Socket, answer, next, open, send};
use common::{ADDRESS, code, start};
use futures::StreamExt as _;
use satchel_connect::Origin;
use satchel_connect::extension::{CODE_TRIES, HELLO, PAIR};
use serde_json::json;

const EXTENSION: &str = "chrome-extension://bgbioobmbcidlnennocnlakmbalkfbcf";
const PAGE: &str = "https://app.example";

/// Whether the server closed `socket` (nothing more comes).
async fn closed(socket: &mut Socket) -> bool {
    let end = tokio::time::timeout(common::socket::PATIENCE, socket.next()).await;
    matches!(
        end,
        Ok(None | Some(Err(_)) | Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))))
    )
}

#[tokio::test]
async fn a_linked_extension_speaks_for_the_page_it_names() {
    let mut running = start().await;
    let code_shown = running.extensions.new_code();

    let mut linking = open(&running, Some(EXTENSION)).await.expect("open");
    send(
        &mut linking,
        1,
        PAIR,
        json!([{"code": code_shown, "browser": "Chromium"}]),
    )
    .await;
    let (linked, _) = answer(&mut linking, 1).await;
    let token = linked["result"]["token"]
        .as_str()
        .expect("a token")
        .to_owned();
    assert!(
        closed(&mut linking).await,
        "a linking socket ends once linked"
    );

    let mut socket = open(&running, Some(EXTENSION)).await.expect("open");
    send(
        &mut socket,
        1,
        HELLO,
        json!([{"token": token, "origin": PAGE}]),
    )
    .await;
    assert_eq!(answer(&mut socket, 1).await.0["result"], true);
    // From now the socket is the page's: its connect names the page.
    send(&mut socket, 2, "eth_requestAccounts", json!([])).await;
    let (origin, _, yes) = running.pages.recv().await.expect("a page");
    assert_eq!(origin, Origin::Web(PAGE.into()));
    yes.send(true).expect("the page waits");
    assert_eq!(answer(&mut socket, 2).await.0["result"], json!([ADDRESS]));
    let connection = running
        .permissions
        .get(&Origin::Web(PAGE.into()))
        .expect("connected");
    assert!(
        connection.through_extension,
        "Settings says it came through the extension"
    );
    // A program claiming the page's name straight to Satchel gets what a
    // stranger gets: no accounts, no connect without the person, no signing.
    assert_eq!(
        running.call(Some(PAGE), "eth_accounts", json!([])).await["result"],
        json!([])
    );
    assert_eq!(
        code(
            &running
                .call(Some(PAGE), "eth_requestAccounts", json!([]))
                .await
        ),
        4100
    );
    assert_eq!(
        code(
            &running
                .call(Some(PAGE), "personal_sign", json!(["0x00", ADDRESS]))
                .await
        ),
        4100
    );
    assert_eq!(
        running.call(Some(PAGE), "eth_chainId", json!([])).await["result"],
        "0x7a69"
    );
    let mut claimed = open(&running, Some(PAGE)).await.expect("open");
    send(&mut claimed, 1, "eth_subscribe", json!(["newHeads"])).await;
    assert_eq!(code(&answer(&mut claimed, 1).await.0), 4100);
    assert!(running.pages.try_recv().is_err(), "nobody was asked");
    // The extension's own socket still speaks for it.
    send(&mut socket, 3, "eth_accounts", json!([])).await;
    assert_eq!(answer(&mut socket, 3).await.0["result"], json!([ADDRESS]));
    // A page connected straight to the endpoint is not marked so.
    running.connect("https://direct.example").await;
    let direct = running
        .permissions
        .get(&Origin::Web("https://direct.example".into()))
        .expect("connected");
    assert!(!direct.through_extension);
}

#[tokio::test]
async fn an_unlinked_program_with_an_extension_origin_speaks_for_nobody() {
    let running = start().await;
    // No hello: whatever it asks is refused, and the socket closed.
    let mut socket = open(&running, Some(EXTENSION)).await.expect("open");
    send(&mut socket, 1, "eth_requestAccounts", json!([])).await;
    assert_eq!(code(&next(&mut socket).await), 4100);
    assert!(closed(&mut socket).await);

    // A made-up token.
    let mut socket = open(&running, Some(EXTENSION)).await.expect("open");
    send(
        &mut socket,
        1,
        HELLO,
        json!([{"token": "00".repeat(32), "origin": PAGE}]),
    )
    .await;
    assert_eq!(code(&next(&mut socket).await), 4100);
    assert!(closed(&mut socket).await);

    // Guessing the code: a few tries, then the code is void even if right.
    let shown = running.extensions.new_code();
    for attempt in 0..CODE_TRIES {
        let mut socket = open(&running, Some(EXTENSION)).await.expect("open");
        send(
            &mut socket,
            1,
            PAIR,
            json!([{"code": format!("WRONG{attempt:03}")}]),
        )
        .await;
        assert_eq!(code(&next(&mut socket).await), 4100);
    }
    let mut socket = open(&running, Some(EXTENSION)).await.expect("open");
    send(&mut socket, 1, PAIR, json!([{"code": shown}])).await;
    assert_eq!(code(&next(&mut socket).await), 4100);

    // A linked extension's token names only web pages.
    let shown = running.extensions.new_code();
    let token = running
        .extensions
        .pair(EXTENSION, &shown, "Chromium")
        .expect("linked");
    for page in [
        "null",
        "local",
        "file://",
        "chrome-extension://bgbioobmbcidlnennocnlakmbalkfbcf",
    ] {
        let mut socket = open(&running, Some(EXTENSION)).await.expect("open");
        send(
            &mut socket,
            1,
            HELLO,
            json!([{"token": token, "origin": page}]),
        )
        .await;
        assert_eq!(code(&next(&mut socket).await), -32602, "{page}");
    }
    // Nobody was connected by any of it.
    assert!(running.permissions.list().is_empty());
}
