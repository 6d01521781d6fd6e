//! The link kept by [`Extensions`], without sockets: the code shown links one
//! key once, a proof for another key or port links nothing, wrong codes are
//! bounded, the list is bounded, and an ended link ends its sockets.

use std::sync::Arc;
use std::time::Duration;

use satchel_connect::extension::{
    CODE_TRIES, MAX_LINKED, extension_origin, hello_message, link_proofs, new_nonce,
};
use satchel_connect::{Extensions, Origin, ProviderError};

use crate::common::extension::Extension;

use crate::EXTENSION as CHROME;
const PORT: u16 = 1248;

fn extensions() -> (tempfile::TempDir, Extensions) {
    let dir = tempfile::tempdir().expect("dir");
    let extensions = Extensions::open(&dir.path().join("extensions.json"));
    (dir, extensions)
}

/// `extension` asks to link its key with `proof`: Satchel's own proof.
fn pair(
    extensions: &Extensions,
    extension: &Extension,
    proof: &str,
) -> Result<String, ProviderError> {
    extensions.pair(
        &extension.origin,
        &extension.public(),
        proof,
        "Chromium",
        PORT,
    )
}

/// Links `extension` with a code shown for it.
fn link(extensions: &Extensions, extension: &Extension) {
    let code = extensions.new_code();
    pair(extensions, extension, &extension.proof(&code, PORT)).expect("linked");
}

/// `extension`'s hello for `page` on a socket whose nonce was `nonce`.
fn hello(
    extensions: &Extensions,
    extension: &Extension,
    nonce: &str,
    page: &str,
) -> Result<Origin, ProviderError> {
    let signature = extension.sign(nonce, page, PORT);
    extensions.admit(
        &extension.origin,
        &extension.public(),
        page,
        nonce,
        &signature,
        PORT,
    )
}

/// The same known answers as the extension's own test (extension/test), so
/// the two sides of the link cannot drift apart.
#[test]
fn the_link_derives_what_the_extension_derives() {
    let key = format!("04{}", "11".repeat(64));
    let (extension, satchel) = link_proofs(" abcd-efgh ", &key, 1248);
    assert_eq!(
        alloy::hex::encode(extension),
        "025c94ea3c13a4a438bfa301200dc7c6970587b4b437cbc810ca49fac3ea7477"
    );
    assert_eq!(
        alloy::hex::encode(satchel),
        "1e367c45347bc65605485719ed85f98552a5f98532e87d5407e3b158a7940dc2"
    );
    assert_eq!(
        hello_message("n0nce", "https://app.example", 1248),
        "satchel-extension-hello\nn0nce\nhttps://app.example\n1248"
    );
}

#[test]
fn only_extension_origins_are_extensions() {
    assert!(extension_origin(CHROME).is_some());
    assert!(extension_origin("moz-extension://0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d").is_some());
    for not in [
        "https://a.example",
        "chrome-extension://short",
        "chrome-extension://bgbioobmbcidlnennocnlakmbalkfbcz",
        "chrome-extension://bgbioobmbcidlnennocnlakmbalkfbcf/",
        "moz-extension://not-a-uuid",
        "null",
    ] {
        assert!(extension_origin(not).is_none(), "{not}");
    }
}

#[test]
fn the_shown_code_links_a_key_once_and_its_signature_admits_only_web_pages() {
    let (dir, extensions) = extensions();
    let extension = Extension::new(CHROME);
    let page = "https://app.example";
    let nonce = new_nonce();
    assert!(
        hello(&extensions, &extension, &nonce, page).is_err(),
        "not linked yet"
    );
    let code = extensions.new_code();
    // The person may type it in lower case, grouped.
    let typed = format!("{}-{}", &code[..4], &code[4..]).to_lowercase();
    let satchel = pair(&extensions, &extension, &extension.proof(&typed, PORT)).expect("linked");
    assert_eq!(
        satchel,
        alloy::hex::encode(link_proofs(&code, &extension.public(), PORT).1)
    );
    assert_eq!(
        hello(&extensions, &extension, &nonce, page),
        Ok(Origin::Web(page.into()))
    );
    assert!(
        pair(&extensions, &extension, &extension.proof(&code, PORT)).is_err(),
        "the code is used up"
    );

    // Another extension origin, another nonce, page, port or key: refused.
    let signature = extension.sign(&nonce, page, PORT);
    let key = extension.public();
    let other = "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let stranger = Extension::new(CHROME).public();
    for (origin, key, page, nonce, port) in [
        (other, &key, page, nonce.as_str(), PORT),
        (CHROME, &key, page, &new_nonce(), PORT),
        (CHROME, &key, "https://b.example", &nonce, PORT),
        (CHROME, &key, page, &nonce, PORT + 1),
        (CHROME, &stranger, page, &nonce, PORT),
    ] {
        assert!(
            extensions
                .admit(origin, key, page, nonce, &signature, port)
                .is_err(),
            "{origin} {page} {port}"
        );
    }
    assert!(hello(&extensions, &extension, &nonce, "null").is_err());
    assert!(hello(&extensions, &extension, &nonce, "local").is_err());

    // Kept across a restart: the extension, its browser, when, its public key.
    let file = std::fs::read(dir.path().join("extensions.json")).expect("file");
    let kept: serde_json::Value = serde_json::from_slice(&file).expect("JSON");
    let mut fields: Vec<&String> = kept[0].as_object().expect("an entry").keys().collect();
    fields.sort();
    assert_eq!(fields, ["browser", "extension", "key", "linkedAt"]);
    assert_eq!(kept[0]["key"], extension.public());
    let again = Extensions::open(&dir.path().join("extensions.json"));
    assert!(hello(&again, &extension, &nonce, page).is_ok());
    assert_eq!(again.list()[0].browser, "Chromium");
    assert!(again.unlink(CHROME).expect("written"));
    assert!(hello(&again, &extension, &nonce, page).is_err());
}

#[test]
fn a_proof_for_another_key_or_port_links_nothing() {
    let (_dir, extensions) = extensions();
    let (extension, thief) = (Extension::new(CHROME), Extension::new(CHROME));
    let code = extensions.new_code();
    // A program between the extension and Satchel saw the extension's proof:
    // it cannot link its own key with it, nor relay it from another port.
    let seen = extension.proof(&code, PORT + 1);
    assert!(pair(&extensions, &thief, &seen).is_err());
    let passing = extension.proof(&code, PORT);
    assert!(
        pair(&extensions, &thief, &passing).is_err(),
        "the proof names the extension's key"
    );
    assert!(pair(&extensions, &extension, &seen).is_err());
    assert!(pair(&extensions, &extension, &extension.proof(&code, PORT)).is_ok());
}

#[test]
fn wrong_codes_are_bounded() {
    let (_dir, extensions) = extensions();
    let extension = Extension::new(CHROME);
    let code = extensions.new_code();
    for _ in 0..CODE_TRIES {
        assert!(pair(&extensions, &extension, &extension.proof("WRONGWRO", PORT)).is_err());
    }
    assert!(
        pair(&extensions, &extension, &extension.proof(&code, PORT)).is_err(),
        "the code is void after {CODE_TRIES} wrong tries"
    );
}

#[test]
fn linking_past_the_bound_forgets_the_oldest() {
    let (_dir, extensions) = extensions();
    let all: Vec<Extension> = (0..=MAX_LINKED)
        .map(|i| {
            let letter = (b'a' + i as u8) as char;
            let extension =
                Extension::new(format!("chrome-extension://{}{letter}", "a".repeat(31)));
            link(&extensions, &extension);
            extension
        })
        .collect();
    assert_eq!(extensions.list().len(), MAX_LINKED);
    let nonce = new_nonce();
    let admitted: Vec<bool> = all
        .iter()
        .map(|extension| hello(&extensions, extension, &nonce, "https://a.example").is_ok())
        .collect();
    assert!(!admitted[0], "the first linked is forgotten");
    assert!(admitted[1..].iter().all(|&a| a));
}

#[tokio::test]
async fn unlinking_or_linking_again_ends_the_old_links_sockets() {
    let (_dir, extensions) = extensions();
    let extensions = Arc::new(extensions);
    let (first, second) = (Extension::new(CHROME), Extension::new(CHROME));
    link(&extensions, &first);
    let ended = extensions
        .clone()
        .until_unlinked(CHROME.into(), first.public());
    let mut ended = std::pin::pin!(ended);
    assert!(
        futures::poll!(ended.as_mut()).is_pending(),
        "linked: runs on"
    );
    link(&extensions, &second);
    tokio::time::timeout(Duration::from_secs(5), ended)
        .await
        .expect("the first key's sockets end");
    let ended = extensions
        .clone()
        .until_unlinked(CHROME.into(), second.public());
    let mut ended = std::pin::pin!(ended);
    assert!(futures::poll!(ended.as_mut()).is_pending());
    assert!(extensions.unlink(CHROME).expect("written"));
    tokio::time::timeout(Duration::from_secs(5), ended)
        .await
        .expect("unlinked: its sockets end");
}

#[test]
fn a_file_from_before_keys_links_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("extensions.json");
    std::fs::write(
        &path,
        format!(
            r#"[{{"extension":"{CHROME}","browser":"Chromium","linkedAt":1,"tokenSha256":"00"}}]"#
        ),
    )
    .expect("written");
    assert!(Extensions::open(&path).list().is_empty());
}
