//! Satchel's browser extension, which speaks for the pages a person visits.
//!
//! A page's own request carries the `Origin` the browser gives it, which the
//! page cannot choose. The extension's requests carry its own origin
//! (`chrome-extension://…`) instead, and name the page they come from in a
//! hello. Anyone on this computer can send that header, so the extension is
//! believed only once the person linked it: Settings shows a one-time code, the
//! person types it into the extension, and the extension gets a token it
//! presents on every socket. A program that cannot see Satchel's window cannot
//! link itself, and so cannot claim a site's origin.
//!
//! Kept in a JSON file beside the connected sites: each linked extension's
//! origin and the SHA-256 of its token (a verifier, which cannot be presented
//! in the token's place).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
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
/// Characters of a code: Crockford's base32 without the easily confused ones.
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTVWXYZ23456789";
const CODE_LENGTH: usize = 8;

/// The method that links an extension (params `[{code, browser}]`).
pub const PAIR: &str = "satchel_extensionPair";
/// The first request on each of a linked extension's sockets (params
/// `[{token, origin}]`): the page it speaks for.
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

/// What an extension's socket says first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Greeting {
    /// Link me with the code the person typed.
    Pair { code: String, browser: String },
    /// I am linked (my token) and speak for the page at `origin`.
    Hello { token: String, origin: String },
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
        PAIR => field("code").map(|code| Greeting::Pair {
            code,
            browser: field("browser").unwrap_or_default(),
        }),
        HELLO => field("token")
            .zip(field("origin"))
            .map(|(token, origin)| Greeting::Hello { token, origin }),
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
    #[serde(skip_serializing_if = "String::is_empty", default)]
    #[cfg_attr(feature = "ts", ts(skip))]
    token_sha256: String,
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
}

fn digest(token: &str) -> String {
    alloy::hex::encode(Sha256::digest(token.as_bytes()))
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
                        .filter(|l| extension_origin(&l.extension).is_some())
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
        }
    }

    fn linked(&self) -> std::sync::MutexGuard<'_, Vec<LinkedExtension>> {
        self.linked.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new one-time code for Settings to show (any code shown before is void).
    pub fn new_code(&self) -> String {
        let code: String = (0..CODE_LENGTH)
            .map(|_| {
                CODE_ALPHABET[rand::Rng::gen_range(&mut rand::thread_rng(), 0..CODE_ALPHABET.len())]
                    as char
            })
            .collect();
        *self.code.lock().unwrap_or_else(|e| e.into_inner()) = Some(ShownCode {
            code: code.clone(),
            until: Instant::now() + CODE_LIFETIME,
            tries_left: CODE_TRIES,
        });
        code
    }

    /// Links `extension` (its handshake's origin) with the code the person
    /// typed into it: a new token for it to keep. The code is used up either
    /// way once right, and after [`CODE_TRIES`] wrong ones.
    pub fn pair(
        &self,
        extension: &str,
        code: &str,
        browser: &str,
    ) -> Result<String, ProviderError> {
        let extension = extension_origin(extension)
            .ok_or_else(|| ProviderError::not_allowed("only Satchel's browser extension links"))?;
        {
            let mut shown = self.code.lock().unwrap_or_else(|e| e.into_inner());
            let Some(current) = shown.as_mut().filter(|c| Instant::now() < c.until) else {
                *shown = None;
                return Err(ProviderError::not_allowed(
                    "no code is shown: open Satchel, Settings, Browser extension, Link, and type the code it shows",
                ));
            };
            let typed = code.trim().to_ascii_uppercase().replace(['-', ' '], "");
            if !bool::from(typed.as_bytes().ct_eq(current.code.as_bytes())) {
                current.tries_left = current.tries_left.saturating_sub(1);
                if current.tries_left == 0 {
                    *shown = None;
                    return Err(ProviderError::not_allowed(
                        "too many wrong codes: show a new one in Satchel's Settings",
                    ));
                }
                return Err(ProviderError::not_allowed(
                    "that is not the code Satchel shows",
                ));
            }
            *shown = None;
        }
        let token = alloy::hex::encode(rand::random::<[u8; 32]>());
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
            token_sha256: digest(&token),
        });
        self.write(&next)
            .map_err(|e| ProviderError::internal(format!("the link could not be kept: {e}")))?;
        *linked = next;
        Ok(token)
    }

    /// The page `extension` speaks for on this socket, when its token is the
    /// one it was given and the page is a web origin.
    pub fn admit(&self, extension: &str, token: &str, page: &str) -> Result<Origin, ProviderError> {
        let extension = extension_origin(extension).ok_or_else(not_linked)?;
        let presented = digest(token);
        let known = self.linked().iter().any(|l| {
            // Every entry is compared, whatever matched, in constant time.
            l.extension == extension
                && bool::from(l.token_sha256.as_bytes().ct_eq(presented.as_bytes()))
        });
        if !known {
            return Err(not_linked());
        }
        match Origin::from_header(Some(page)) {
            Ok(origin @ Origin::Web(_)) => Ok(origin),
            _ => Err(ProviderError::invalid_params(format!(
                "{page:?} is not a web page's origin"
            ))),
        }
    }

    /// The linked extensions, for Settings (without their verifiers).
    pub fn list(&self) -> Vec<LinkedExtension> {
        self.linked()
            .iter()
            .map(|l| LinkedExtension {
                token_sha256: String::new(),
                ..l.clone()
            })
            .collect()
    }

    /// Unlinks `extension`; whether it was linked. Its open sockets end at
    /// their next hello (each socket says hello once, so they run on until
    /// the page closes them); a new socket is refused.
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
mod tests {
    use super::*;

    const CHROME: &str = "chrome-extension://bgbioobmbcidlnennocnlakmbalkfbcf";

    fn extensions() -> (tempfile::TempDir, Extensions) {
        let dir = tempfile::tempdir().expect("dir");
        let extensions = Extensions::open(&dir.path().join("extensions.json"));
        (dir, extensions)
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
    fn the_shown_code_links_once_and_the_token_admits_only_web_pages() {
        let (dir, extensions) = extensions();
        let page = "https://app.example";
        assert!(extensions.admit(CHROME, "guess", page).is_err());
        let code = extensions.new_code();
        let token = extensions
            .pair(CHROME, &code.to_lowercase(), "Chromium")
            .expect("linked");
        assert_eq!(
            extensions.admit(CHROME, &token, page),
            Ok(Origin::Web(page.into()))
        );
        // The code is used up; the token is not another extension's.
        assert!(extensions.pair(CHROME, &code, "Chromium").is_err());
        let other = "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
        assert!(extensions.admit(other, &token, page).is_err());
        assert!(extensions.admit(CHROME, &token, "null").is_err());
        assert!(extensions.admit(CHROME, &token, "local").is_err());
        // Kept across a restart, by its verifier only.
        let file = std::fs::read_to_string(dir.path().join("extensions.json")).expect("file");
        assert!(!file.contains(&token));
        let again = Extensions::open(&dir.path().join("extensions.json"));
        assert!(again.admit(CHROME, &token, page).is_ok());
        assert_eq!(again.list()[0].browser, "Chromium");
        assert!(again.unlink(CHROME).expect("written"));
        assert!(again.admit(CHROME, &token, page).is_err());
    }

    #[test]
    fn wrong_codes_are_bounded() {
        let (_dir, extensions) = extensions();
        let code = extensions.new_code();
        for _ in 0..CODE_TRIES {
            assert!(extensions.pair(CHROME, "WRONGWRO", "Chromium").is_err());
        }
        assert!(extensions.pair(CHROME, &code, "Chromium").is_err());
    }

    #[test]
    fn linking_past_the_bound_forgets_the_oldest() {
        let (_dir, extensions) = extensions();
        let mut tokens = Vec::new();
        for i in 0..=MAX_LINKED {
            let id = format!(
                "chrome-extension://{}",
                "a".repeat(31) + &((b'a' + i as u8) as char).to_string()
            );
            let code = extensions.new_code();
            tokens.push((
                id.clone(),
                extensions.pair(&id, &code, "Chromium").expect("linked"),
            ));
        }
        assert_eq!(extensions.list().len(), MAX_LINKED);
        let kept = tokens
            .iter()
            .filter(|(id, token)| extensions.admit(id, token, "https://a.example").is_ok())
            .count();
        assert_eq!(kept, MAX_LINKED);
    }
}
