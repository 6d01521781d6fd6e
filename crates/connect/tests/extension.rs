//! Satchel's browser extension over real loopback sockets: linked with the
//! code Settings shows, it speaks for the page it names; a program that sends
//! an extension's `Origin` without its key speaks for nobody, and one that
//! sees the link or a hello pass cannot use what it saw.

mod common;
#[path = "extension/linking.rs"]
mod linking;

use common::extension::Extension;
use common::socket::{Socket, answer, next, open, send};
use common::{ADDRESS, code, start};
use futures::StreamExt as _;
use satchel_connect::extension::{CODE_TRIES, HELLO, link_proofs};
use satchel_connect::{Ask, Origin};
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
    let extension = Extension::new(EXTENSION);

    // Satchel answers the link with its own proof: the extension knows it
    // linked to Satchel.
    let linked = extension.link(&running, &code_shown).await;
    let satchels = link_proofs(&code_shown, &extension.public(), running.provider.port).1;
    assert_eq!(
        linked["result"]["proof"],
        alloy::hex::encode(satchels),
        "{linked}"
    );

    let (mut socket, said) = extension.hello(&running, PAGE).await;
    assert_eq!(said["result"], true, "{said}");
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

    // A signature the page asked for waits on the person...
    send(&mut socket, 4, "personal_sign", json!(["0x00", ADDRESS])).await;
    let (_, _, mut waiting) = running.pages.recv().await.expect("a signing page");
    // ...when the extension is unlinked in Settings: its open socket closes,
    // and the page it asked for is withdrawn, never to be approved.
    assert!(running.extensions.unlink(EXTENSION).expect("written"));
    assert!(
        closed(&mut socket).await,
        "an unlinked extension's socket ends"
    );
    tokio::time::timeout(common::socket::PATIENCE, waiting.closed())
        .await
        .expect("the unlinked extension's page is withdrawn");
}

#[tokio::test]
async fn an_unlinked_program_with_an_extension_origin_speaks_for_nobody() {
    let running = start().await;
    let extension = Extension::new(EXTENSION);
    // No hello: whatever it asks is refused, and the socket closed.
    let (mut socket, _) = extension.open(&running).await;
    send(&mut socket, 1, "eth_requestAccounts", json!([])).await;
    assert_eq!(code(&next(&mut socket).await), 4100);
    assert!(closed(&mut socket).await);

    // A key never linked.
    let (mut socket, said) = extension.hello(&running, PAGE).await;
    assert_eq!(code(&said), 4100);
    assert!(closed(&mut socket).await);

    // Guessing the code: a few tries, then the code is void even if right.
    let shown = running.extensions.new_code();
    for attempt in 0..CODE_TRIES {
        let said = extension
            .link(&running, &format!("WRONG{attempt:03}"))
            .await;
        assert_eq!(code(&said), 4100);
    }
    assert_eq!(code(&extension.link(&running, &shown).await), 4100);

    // A linked extension's key names only web pages.
    let shown = running.extensions.new_code();
    assert!(extension.link(&running, &shown).await["result"]["proof"].is_string());
    for page in [
        "null",
        "local",
        "file://",
        "chrome-extension://bgbioobmbcidlnennocnlakmbalkfbcf",
    ] {
        let (_, said) = extension.hello(&running, page).await;
        assert_eq!(code(&said), -32602, "{page}");
    }
    // Nobody was connected by any of it.
    assert!(running.permissions.list().is_empty());
}

/// A program that listened where Satchel was expected, or watched a socket,
/// learns nothing it can present: the link's proof names the extension's key
/// and port, and a hello's signature one socket's nonce.
#[tokio::test]
async fn what_a_program_sees_pass_links_and_admits_nothing() {
    let running = start().await;
    let port = running.provider.port;
    let extension = Extension::new(EXTENSION);
    let thief = Extension::new(EXTENSION);

    // The extension's proof, seen by a program on another port (where the
    // extension thought Satchel was): neither its key nor the thief's links.
    let shown = running.extensions.new_code();
    let seen = extension.proof(&shown, port + 1);
    for key in [extension.public(), thief.public()] {
        assert_eq!(
            code(&extension.pair_with(&running, &key, &seen).await),
            4100
        );
    }
    // Nor does the proof for the right port link the thief's key in its place.
    let passing = extension.proof(&shown, port);
    let said = extension
        .pair_with(&running, &thief.public(), &passing)
        .await;
    assert_eq!(code(&said), 4100);
    assert!(extension.link(&running, &shown).await["result"]["proof"].is_string());

    // A hello seen on one socket, replayed on another: a new nonce there.
    let (mut first, nonce) = extension.open(&running).await;
    let signature = extension.sign(&nonce, PAGE, port);
    let hello = json!([{"key": extension.public(), "origin": PAGE, "signature": signature}]);
    let (mut replayed, _) = thief.open(&running).await;
    send(&mut replayed, 1, HELLO, hello.clone()).await;
    assert_eq!(code(&answer(&mut replayed, 1).await.0), 4100);
    // Signed for a relay on another port: refused too.
    let relayed = extension.sign(&nonce, PAGE, port + 1);
    send(
        &mut first,
        1,
        HELLO,
        json!([{"key": extension.public(), "origin": PAGE, "signature": relayed}]),
    )
    .await;
    assert_eq!(code(&answer(&mut first, 1).await.0), 4100);
    // The thief's own key, with the extension's origin: not linked.
    assert_eq!(code(&thief.hello(&running, PAGE).await.1), 4100);
    // The extension itself, signing what Satchel asked: admitted.
    assert_eq!(extension.hello(&running, PAGE).await.1["result"], true);
}

/// A program's connect request straight to Satchel and the extension's for
/// the same site are two pages, each saying how it came; a site connected
/// straight to Satchel is asked again when the extension first reaches it,
/// and from then on only the extension speaks for it.
#[tokio::test]
async fn each_connect_page_says_how_it_came_and_the_extension_takes_a_direct_site_over() {
    let mut running = start().await;
    let extension = Extension::new(EXTENSION);
    let shown = running.extensions.new_code();
    assert!(extension.link(&running, &shown).await["result"]["proof"].is_string());

    // Both ask at once: neither is refused -32002 for the other.
    let direct = running.spawn_call(PAGE, "eth_requestAccounts", json!([]));
    let (origin, asked, no) = running.pages.recv().await.expect("a page");
    assert_eq!(origin, Origin::Web(PAGE.into()));
    assert_eq!(
        asked,
        Ask::Connect {
            through_extension: false
        }
    );
    let (mut socket, said) = extension.hello(&running, PAGE).await;
    assert_eq!(said["result"], true);
    send(&mut socket, 2, "eth_requestAccounts", json!([])).await;
    let (_, asked, yes) = running.pages.recv().await.expect("a second page");
    assert_eq!(
        asked,
        Ask::Connect {
            through_extension: true
        }
    );
    // The person refuses the program's and approves the extension's.
    no.send(false).expect("the page waits");
    assert_eq!(code(&direct.await.expect("joined")), 4001);
    yes.send(true).expect("the page waits");
    assert_eq!(answer(&mut socket, 2).await.0["result"], json!([ADDRESS]));

    // A site connected straight to Satchel first...
    const OTHER: &str = "https://direct-first.example";
    running.connect(OTHER).await;
    let (mut other, said) = extension.hello(&running, OTHER).await;
    assert_eq!(said["result"], true);
    // ...is not connected for the extension: no accounts, nothing signed...
    send(&mut other, 1, "eth_accounts", json!([])).await;
    assert_eq!(answer(&mut other, 1).await.0["result"], json!([]));
    send(&mut other, 2, "personal_sign", json!(["0x00", ADDRESS])).await;
    assert_eq!(code(&answer(&mut other, 2).await.0), 4100);
    // ...until the person connects it through the extension.
    send(&mut other, 3, "eth_requestAccounts", json!([])).await;
    let (_, asked, yes) = running.pages.recv().await.expect("asked again");
    assert_eq!(
        asked,
        Ask::Connect {
            through_extension: true
        }
    );
    yes.send(true).expect("the page waits");
    assert_eq!(answer(&mut other, 3).await.0["result"], json!([ADDRESS]));
    // From then on a request straight to Satchel naming it is a stranger's.
    assert_eq!(
        running.call(Some(OTHER), "eth_accounts", json!([])).await["result"],
        json!([])
    );
}
