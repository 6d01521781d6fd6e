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

use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq as _;

use crate::origin::Origin;
use crate::rpc::ProviderError;

mod proof;

use proof::verifying_key;
pub use proof::{LINK_ROUNDS, hello_message, link_proofs, new_nonce};

/// How long a code shown in Settings may be typed into the extension.
pub const CODE_LIFETIME: Duration = Duration::from_secs(120);
/// Wrong codes tried before the code shown is void (a new one is needed).
pub const CODE_TRIES: u8 = 5;
/// Extensions linked at once (a browser or a profile each); linking one more
/// forgets the one linked longest ago.
pub const MAX_LINKED: usize = 8;
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
        if !proof::hello_is_signed(&key, signature, nonce, page, port) {
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

    /// The linked extensions, for Settings (without their keys).
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
