//! Satchel's browser extension, which speaks for the pages a person visits.
//!
//! A page's own request carries the `Origin` the browser gives it, which the
//! page cannot choose. The extension's requests carry its own origin
//! (`chrome-extension://…`) instead, and name the page they come from in a
//! hello. Anyone on this computer can send that header, so the extension is
//! believed only once the person linked it, and only by a proof no program
//! can replay:
//!
//! - **Linking.** Settings shows a one-time code; the person types it into the
//!   extension, which makes an ECDSA P-256 key pair of its own (the private
//!   half cannot be exported, even by the extension) and sends the public key
//!   with a proof derived from the code, the key and Satchel's port (PBKDF2,
//!   [`LINK_ROUNDS`]). The code itself never crosses the socket, so a program
//!   listening on the port in Satchel's place learns no code it could use, and
//!   cannot swap in a key of its own. Satchel answers with its own half of the
//!   derivation: the extension knows it linked to Satchel, not to an impostor.
//! - **Each socket.** Satchel sends a fresh nonce first; the extension's hello
//!   names the page and signs the nonce, the page and the port it dialled. A
//!   signature is good for one socket, and one a program relays from another
//!   port names the wrong port.
//!
//! Kept in a JSON file beside the connected sites: each linked extension's
//! origin and its public key (nothing secret).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use p256::ecdsa::signature::Verifier as _;
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use subtle::ConstantTimeEq as _;

use crate::origin::Origin;
use crate::rpc::ProviderError;

/// How long a code shown in Settings may be typed into the extension.
pub const CODE_LIFETIME: Duration = Duration::from_secs(120);
/// Wrong codes tried before the code shown is void (a new one is needed).
pub const CODE_TRIES: u8 = 5;
/// Extensions linked at once (a browser or a profile each); linking one more
/// forgets the one linked longest ago.
pub const MAX_LINKED: usize = 8;
/// PBKDF2-HMAC-SHA256 rounds from the code to the link's proofs: a program
/// that saw a proof cannot try every code within the code's lifetime.
pub const LINK_ROUNDS: u32 = 100_000;
/// Characters of a code: Crockford's base32 without the easily confused ones.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTVWXYZ23456789";
const CODE_LENGTH: usize = 8;

/// What Satchel says first on each extension socket (params `{nonce}`).
pub const CHALLENGE: &str = "satchel_extensionChallenge";
/// The method that links an extension (params `[{key, proof, browser}]`).
pub const PAIR: &str = "satchel_extensionPair";
/// The first request on each of a linked extension's sockets (params
/// `[{key, origin, signature}]`): the page it speaks for.
pub const HELLO: &str = "satchel_extensionHello";

/// An extension's own origin: `chrome-extension://<32 letters a-p>` (Chromium
/// derives it from the extension's key) or `moz-extension://<uuid>` (Firefox,
/// random per install). `None` for anything else.
pub fn extension_origin(header: &str) -> Option<String> {
    let header = header.to_ascii_lowercase();
    if let Some(id) = header.strip_prefix("chrome-extension://") {
        return (id.len() == 32 && id.bytes().all(|b| (b'a'..=b'p').contains(&b)))
            .then_some(header);
    }
    if let Some(id) = header.strip_prefix("moz-extension://") {
        let uuid_like = id.len() == 36
            && id.bytes().enumerate().all(|(i, b)| match i {
                8 | 13 | 18 | 23 => b == b'-',
                _ => b.is_ascii_hexdigit(),
            });
        return uuid_like.then_some(header);
    }
    None
}

/// The code as the person typed it, as it is compared: capitals, without
/// the spaces and dashes that group it.
fn normalized_code(typed: &str) -> String {
    typed.trim().to_ascii_uppercase().replace(['-', ' '], "")
}

/// The two proofs a link derives from the code: the extension's (sent with
/// its key) and Satchel's (its answer), each bound to the key and the port.
pub fn link_proofs(code: &str, key: &str, port: u16) -> ([u8; 32], [u8; 32]) {
    let salt = format!("satchel-extension-link\n{key}\n{port}");
    let mut both = [0u8; 64];
    pbkdf2::pbkdf2_hmac::<Sha256>(
        normalized_code(code).as_bytes(),
        salt.as_bytes(),
        LINK_ROUNDS,
        &mut both,
    );
    let (extension, satchel) = both.split_at(32);
    (
        extension.try_into().unwrap_or_default(),
        satchel.try_into().unwrap_or_default(),
    )
}

/// What an extension signs on a socket: Satchel's nonce for it, the page it
/// speaks for and the port it dialled.
pub fn hello_message(nonce: &str, page: &str, port: u16) -> String {
    format!("satchel-extension-hello\n{nonce}\n{page}\n{port}")
}

/// A fresh nonce for a socket's hello.
pub fn new_nonce() -> String {
    alloy::hex::encode(rand::random::<[u8; 32]>())
}

/// The public key an extension links with: an uncompressed SEC1 P-256 point
/// in hex, as WebCrypto exports it (`raw`).
fn verifying_key(hex: &str) -> Option<p256::ecdsa::VerifyingKey> {
    let bytes = alloy::hex::decode(hex).ok()?;
    (bytes.len() == 65)
        .then(|| p256::ecdsa::VerifyingKey::from_sec1_bytes(&bytes).ok())
        .flatten()
}

/// What an extension socket says first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Greeting {
    /// Link my `key`: `proof` shows I was given the code Settings shows.
    Pair {
        key: String,
        proof: String,
        browser: String,
    },
    /// I am the extension linked with `key`, and speak for the page at
    /// `origin`: `signature` over [`hello_message`].
    Hello {
        key: String,
        origin: String,
        signature: String,
    },
}

/// Reads an extension socket's first message: the request's id and what it
/// says, or the id and why it is refused.
pub fn greeting(
    text: &str,
) -> Result<(serde_json::Value, Greeting), (serde_json::Value, ProviderError)> {
    use serde_json::Value;
    let request = match crate::rpc::parse(text.as_bytes()) {
        Ok(crate::rpc::Call::Single(Ok(request))) => request,
        Ok(crate::rpc::Call::Single(Err(refused))) => return Err(refused),
        Ok(crate::rpc::Call::Batch(_)) => {
            return Err((
                Value::Null,
                ProviderError::invalid_request("say hello first, alone"),
            ));
        }
        Err(error) => return Err((Value::Null, error)),
    };
    let first = request.params.get(0).cloned().unwrap_or(Value::Null);
    let field = |name: &str| {
        first
            .get(name)
            .and_then(Value::as_str)
            .filter(|v| v.len() <= 300)
            .map(str::to_owned)
    };
    let greeting = match request.method.as_str() {
        PAIR => field("key")
            .zip(field("proof"))
            .map(|(key, proof)| Greeting::Pair {
                key,
                proof,
                browser: field("browser").unwrap_or_default(),
            }),
        HELLO => match (field("key"), field("origin"), field("signature")) {
            (Some(key), Some(origin), Some(signature)) => Some(Greeting::Hello {
                key,
                origin,
                signature,
            }),
            _ => None,
        },
        _ => return Err((request.id, not_linked())),
    };
    match greeting {
        Some(greeting) => Ok((request.id, greeting)),
        None => Err((
            request.id,
            ProviderError::invalid_params(format!(
                "{} takes [{{…}}] with its fields as text",
                request.method
            )),
        )),
    }
}

/// One linked extension, as kept and as Settings lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LinkedExtension {
    /// Its origin (`chrome-extension://…`): what Unlink names it by.
    pub extension: String,
    /// The browser it said it runs in, for the person ("Chromium").
    pub browser: String,
    /// Seconds since 1970.
    pub linked_at: u64,
    /// The public key its hellos are signed with (a file from before keys has
    /// none: that link is forgotten, and the person links again).
    #[serde(skip_serializing_if = "String::is_empty", default)]
    #[cfg_attr(feature = "ts", ts(skip))]
    key: String,
}

/// The code Settings shows, while it may be used.
struct ShownCode {
    code: String,
    until: Instant,
    tries_left: u8,
}

/// The linked extensions and the code being shown.
pub struct Extensions {
    path: PathBuf,
    linked: Mutex<Vec<LinkedExtension>>,
    code: Mutex<Option<ShownCode>>,
    /// Bumped whenever a link ends, so the sockets it opened close.
    unlinked: tokio::sync::watch::Sender<u64>,
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn not_linked() -> ProviderError {
    ProviderError::not_allowed(
        "this browser extension is not linked to Satchel: open Satchel, Settings, Browser extension, and type the code it shows into the extension",
    )
}

impl Extensions {
    /// Reads `path` (none yet: nothing linked; a damaged file is set aside and
    /// nothing is linked, so the person links again).
    pub fn open(path: &Path) -> Self {
        let linked = match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice::<Vec<LinkedExtension>>(&bytes)
                .map(|all| {
                    all.into_iter()
                        .filter(|l| {
                            extension_origin(&l.extension).is_some()
                                && verifying_key(&l.key).is_some()
                        })
                        .take(MAX_LINKED)
                        .collect()
                })
                .unwrap_or_else(|e| {
                    tracing::warn!("the linked extensions file is damaged ({e}); set aside");
                    let _ = std::fs::rename(path, path.with_extension("damaged"));
                    Vec::new()
                }),
            Err(_) => Vec::new(),
        };
        Self {
            path: path.to_owned(),
            linked: Mutex::new(linked),
            code: Mutex::new(None),
            unlinked: tokio::sync::watch::Sender::new(0),
        }
    }

    fn linked(&self) -> std::sync::MutexGuard<'_, Vec<LinkedExtension>> {
        self.linked.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn shown(&self) -> std::sync::MutexGuard<'_, Option<ShownCode>> {
        self.code.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new one-time code for Settings to show (any code shown before is void).
    pub fn new_code(&self) -> String {
        let code: String = (0..CODE_LENGTH)
            .map(|_| {
                CODE_ALPHABET[rand::Rng::gen_range(&mut rand::thread_rng(), 0..CODE_ALPHABET.len())]
                    as char
            })
            .collect();
        *self.shown() = Some(ShownCode {
            code: code.clone(),
            until: Instant::now() + CODE_LIFETIME,
            tries_left: CODE_TRIES,
        });
        code
    }

    /// Links `extension` (its handshake's origin) with its public `key`, when
    /// `proof` is the one the shown code derives for that key and `port`:
    /// Satchel's own proof for the extension to check. The code is used up
    /// once right, and after [`CODE_TRIES`] wrong ones. Takes a moment (the
    /// derivation): call it off the async threads.
    pub fn pair(
        &self,
        extension: &str,
        key: &str,
        proof: &str,
        browser: &str,
        port: u16,
    ) -> Result<String, ProviderError> {
        let extension = extension_origin(extension)
            .ok_or_else(|| ProviderError::not_allowed("only Satchel's browser extension links"))?;
        let key = key.to_ascii_lowercase();
        if verifying_key(&key).is_none() {
            return Err(ProviderError::invalid_params(
                "the key is a P-256 public key: 65 bytes, uncompressed, in hex",
            ));
        }
        // A try is spent before the derivation, so tries sent at once cannot
        // all be weighed against the same count.
        let code = {
            let mut shown = self.shown();
            let Some(current) = shown
                .as_mut()
                .filter(|c| Instant::now() < c.until && c.tries_left > 0)
            else {
                *shown = None;
                return Err(ProviderError::not_allowed(
                    "no code is shown: open Satchel, Settings, Browser extension, Link, and type the code it shows",
                ));
            };
            current.tries_left -= 1;
            current.code.clone()
        };
        let (expected, satchel) = link_proofs(&code, &key, port);
        let presented = alloy::hex::decode(proof).unwrap_or_default();
        let right = bool::from(presented.as_slice().ct_eq(expected.as_slice()));
        {
            let mut shown = self.shown();
            let still_shown = shown.as_ref().is_some_and(|c| c.code == code);
            if !right {
                if still_shown && shown.as_ref().is_some_and(|c| c.tries_left == 0) {
                    *shown = None;
                    return Err(ProviderError::not_allowed(
                        "too many wrong codes: show a new one in Satchel's Settings",
                    ));
                }
                return Err(ProviderError::not_allowed(
                    "that is not the code Satchel shows",
                ));
            }
            if !still_shown {
                return Err(ProviderError::not_allowed(
                    "that code was used or replaced: show a new one in Satchel's Settings",
                ));
            }
            *shown = None;
        }
        let browser: String = browser
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect();
        let mut linked = self.linked();
        let mut next = linked.clone();
        next.retain(|l| l.extension != extension);
        if next.len() >= MAX_LINKED {
            next.sort_by_key(|l| l.linked_at);
            next.remove(0);
        }
        next.push(LinkedExtension {
            extension,
            browser: if browser.is_empty() {
                "a browser".into()
            } else {
                browser
            },
            linked_at: now_secs(),
            key,
        });
        self.write(&next)
            .map_err(|e| ProviderError::internal(format!("the link could not be kept: {e}")))?;
        *linked = next;
        drop(linked);
        // A link that replaced another ends the old one's sockets.
        self.unlinked.send_modify(|generation| *generation += 1);
        Ok(alloy::hex::encode(satchel))
    }

    /// The page `extension` speaks for on a socket whose nonce was `nonce`,
    /// when `signature` is its linked key's over [`hello_message`] for this
    /// `port`, and the page is a web origin.
    pub fn admit(
        &self,
        extension: &str,
        key: &str,
        page: &str,
        nonce: &str,
        signature: &str,
        port: u16,
    ) -> Result<Origin, ProviderError> {
        let extension = extension_origin(extension).ok_or_else(not_linked)?;
        let key = key.to_ascii_lowercase();
        if !self.is_linked(&extension, &key) {
            return Err(not_linked());
        }
        let signed = verifying_key(&key)
            .zip(
                alloy::hex::decode(signature)
                    .ok()
                    .and_then(|bytes| p256::ecdsa::Signature::from_slice(&bytes).ok()),
            )
            .is_some_and(|(key, signature)| {
                key.verify(hello_message(nonce, page, port).as_bytes(), &signature)
                    .is_ok()
            });
        if !signed {
            return Err(not_linked());
        }
        match Origin::from_header(Some(page)) {
            Ok(origin @ Origin::Web(_)) => Ok(origin),
            _ => Err(ProviderError::invalid_params(format!(
                "{page:?} is not a web page's origin"
            ))),
        }
    }

    fn is_linked(&self, extension: &str, key: &str) -> bool {
        self.linked()
            .iter()
            .any(|l| l.extension == extension && l.key == key)
    }

    /// Resolves once the link `extension` holds with `key` has ended
    /// (unlinked, or linked again with another key): its sockets close then.
    pub async fn until_unlinked(self: std::sync::Arc<Self>, extension: String, key: String) {
        let mut changes = self.unlinked.subscribe();
        let (extension, key) = (
            extension_origin(&extension).unwrap_or_default(),
            key.to_ascii_lowercase(),
        );
        while self.is_linked(&extension, &key) {
            if changes.changed().await.is_err() {
                return;
            }
        }
    }

    /// The linked extensions, for Settings (without their verifiers).
    pub fn list(&self) -> Vec<LinkedExtension> {
        self.linked()
            .iter()
            .map(|l| LinkedExtension {
                key: String::new(),
                ..l.clone()
            })
            .collect()
    }

    /// Unlinks `extension`; whether it was linked. Its open sockets close
    /// (see [`Extensions::until_unlinked`]) and a new one is refused.
    pub fn unlink(&self, extension: &str) -> std::io::Result<bool> {
        let mut linked = self.linked();
        let next: Vec<LinkedExtension> = linked
            .iter()
            .filter(|l| l.extension != extension)
            .cloned()
            .collect();
        if next.len() == linked.len() {
            return Ok(false);
        }
        self.write(&next)?;
        *linked = next;
        drop(linked);
        self.unlinked.send_modify(|generation| *generation += 1);
        Ok(true)
    }

    /// Writes `all` whole (a temporary file renamed over the old one).
    fn write(&self, all: &[LinkedExtension]) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let partial = self.path.with_extension("partial");
        std::fs::write(&partial, serde_json::to_vec_pretty(all)?)?;
        std::fs::rename(&partial, &self.path)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use p256::ecdsa::signature::Signer as _;

    const CHROME: &str = "chrome-extension://bgbioobmbcidlnennocnlakmbalkfbcf";
    const PORT: u16 = 1248;

    /// An extension's key pair, as WebCrypto makes it.
    pub(crate) struct Keys(p256::ecdsa::SigningKey);

    impl Keys {
        pub(crate) fn new() -> Self {
            Self(p256::ecdsa::SigningKey::random(&mut rand::thread_rng()))
        }
        pub(crate) fn public(&self) -> String {
            alloy::hex::encode(self.0.verifying_key().to_encoded_point(false).as_bytes())
        }
        pub(crate) fn proof(&self, code: &str, port: u16) -> String {
            alloy::hex::encode(link_proofs(code, &self.public(), port).0)
        }
        pub(crate) fn sign(&self, nonce: &str, page: &str, port: u16) -> String {
            let signature: p256::ecdsa::Signature =
                self.0.sign(hello_message(nonce, page, port).as_bytes());
            alloy::hex::encode(signature.to_bytes())
        }
    }

    fn extensions() -> (tempfile::TempDir, Extensions) {
        let dir = tempfile::tempdir().expect("dir");
        let extensions = Extensions::open(&dir.path().join("extensions.json"));
        (dir, extensions)
    }

    fn link(extensions: &Extensions, extension: &str, keys: &Keys) -> String {
        let code = extensions.new_code();
        extensions
            .pair(
                extension,
                &keys.public(),
                &keys.proof(&code, PORT),
                "Chromium",
                PORT,
            )
            .expect("linked")
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
        let keys = Keys::new();
        let page = "https://app.example";
        let nonce = new_nonce();
        let hello = |e: &Extensions, page: &str| {
            e.admit(
                CHROME,
                &keys.public(),
                page,
                &nonce,
                &keys.sign(&nonce, page, PORT),
                PORT,
            )
        };
        assert!(hello(&extensions, page).is_err(), "not linked yet");
        let code = extensions.new_code();
        // The person may type it in lower case, grouped.
        let typed = format!("{}-{}", &code[..4], &code[4..]).to_lowercase();
        let satchel = extensions
            .pair(
                CHROME,
                &keys.public(),
                &keys.proof(&typed, PORT),
                "Chromium",
                PORT,
            )
            .expect("linked");
        assert_eq!(
            satchel,
            alloy::hex::encode(link_proofs(&code, &keys.public(), PORT).1)
        );
        assert_eq!(hello(&extensions, page), Ok(Origin::Web(page.into())));
        // The code is used up.
        assert!(
            extensions
                .pair(
                    CHROME,
                    &keys.public(),
                    &keys.proof(&code, PORT),
                    "Chromium",
                    PORT
                )
                .is_err()
        );
        // Another extension origin, another nonce, page or port: refused.
        let other = "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
        let signature = keys.sign(&nonce, page, PORT);
        assert!(
            extensions
                .admit(other, &keys.public(), page, &nonce, &signature, PORT)
                .is_err()
        );
        assert!(
            extensions
                .admit(CHROME, &keys.public(), page, &new_nonce(), &signature, PORT)
                .is_err()
        );
        assert!(
            extensions
                .admit(
                    CHROME,
                    &keys.public(),
                    "https://b.example",
                    &nonce,
                    &signature,
                    PORT
                )
                .is_err()
        );
        assert!(
            extensions
                .admit(CHROME, &keys.public(), page, &nonce, &signature, PORT + 1)
                .is_err()
        );
        assert!(
            extensions
                .admit(
                    CHROME,
                    &Keys::new().public(),
                    page,
                    &nonce,
                    &signature,
                    PORT
                )
                .is_err()
        );
        assert!(hello(&extensions, "null").is_err());
        assert!(hello(&extensions, "local").is_err());
        // Kept across a restart, with nothing secret in the file.
        let file = std::fs::read_to_string(dir.path().join("extensions.json")).expect("file");
        assert!(file.contains(&keys.public()) && !file.contains(&code));
        let again = Extensions::open(&dir.path().join("extensions.json"));
        assert!(hello(&again, page).is_ok());
        assert_eq!(again.list()[0].browser, "Chromium");
        assert!(again.unlink(CHROME).expect("written"));
        assert!(hello(&again, page).is_err());
    }

    #[test]
    fn a_proof_for_another_key_or_port_links_nothing() {
        let (_dir, extensions) = extensions();
        let (keys, thief) = (Keys::new(), Keys::new());
        let code = extensions.new_code();
        // A program between the extension and Satchel saw the extension's
        // proof: it cannot link its own key with it, nor relay it from
        // another port.
        let seen = keys.proof(&code, PORT + 1);
        assert!(
            extensions
                .pair(CHROME, &thief.public(), &seen, "Chromium", PORT)
                .is_err()
        );
        assert!(
            extensions
                .pair(CHROME, &keys.public(), &seen, "Chromium", PORT)
                .is_err()
        );
        assert!(
            extensions
                .pair(
                    CHROME,
                    &keys.public(),
                    &keys.proof(&code, PORT),
                    "Chromium",
                    PORT
                )
                .is_ok()
        );
    }

    #[test]
    fn wrong_codes_are_bounded() {
        let (_dir, extensions) = extensions();
        let keys = Keys::new();
        let code = extensions.new_code();
        for _ in 0..CODE_TRIES {
            let wrong = keys.proof("WRONGWRO", PORT);
            assert!(
                extensions
                    .pair(CHROME, &keys.public(), &wrong, "Chromium", PORT)
                    .is_err()
            );
        }
        let right = keys.proof(&code, PORT);
        assert!(
            extensions
                .pair(CHROME, &keys.public(), &right, "Chromium", PORT)
                .is_err()
        );
    }

    #[test]
    fn linking_past_the_bound_forgets_the_oldest() {
        let (_dir, extensions) = extensions();
        let all: Vec<(String, Keys)> = (0..=MAX_LINKED)
            .map(|i| {
                let id = format!(
                    "chrome-extension://{}",
                    "a".repeat(31) + &((b'a' + i as u8) as char).to_string()
                );
                let keys = Keys::new();
                link(&extensions, &id, &keys);
                (id, keys)
            })
            .collect();
        assert_eq!(extensions.list().len(), MAX_LINKED);
        let nonce = new_nonce();
        let page = "https://a.example";
        let kept = all
            .iter()
            .filter(|(id, keys)| {
                extensions
                    .admit(
                        id,
                        &keys.public(),
                        page,
                        &nonce,
                        &keys.sign(&nonce, page, PORT),
                        PORT,
                    )
                    .is_ok()
            })
            .count();
        assert_eq!(kept, MAX_LINKED);
    }

    #[tokio::test]
    async fn unlinking_or_linking_again_ends_the_old_links_sockets() {
        let (_dir, extensions) = extensions();
        let extensions = std::sync::Arc::new(extensions);
        let (first, second) = (Keys::new(), Keys::new());
        link(&extensions, CHROME, &first);
        let ended = extensions
            .clone()
            .until_unlinked(CHROME.into(), first.public());
        let mut ended = std::pin::pin!(ended);
        assert!(
            futures::poll!(ended.as_mut()).is_pending(),
            "linked: runs on"
        );
        link(&extensions, CHROME, &second);
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
            format!(r#"[{{"extension":"{CHROME}","browser":"Chromium","linkedAt":1,"tokenSha256":"00"}}]"#),
        )
        .expect("written");
        assert!(Extensions::open(&path).list().is_empty());
    }
}
