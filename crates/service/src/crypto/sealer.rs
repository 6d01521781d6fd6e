//! The service's PIN secret and the two keys derived from it: the pepper of the
//! proof hashes and the key the shares are encrypted under.
//!
//! The secret comes from the configuration (`pin_secret`, base64 of 32 bytes) or
//! from `{data_dir}/pin.secret` (32 random bytes, mode 0600, made on first start);
//! it is never written to the database. So a copy of the database alone can
//! neither check a PIN guess against a proof hash nor open a share.

use std::io::Write as _;
use std::path::Path;

use base64::Engine as _;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;
use subtle::ConstantTimeEq as _;

use super::decode_base64;
use super::login_device::LoginDevices;
use crate::config::Settings;

/// The file the secret is kept in, in `data_dir`, when `pin_secret` is not set.
pub const SECRET_FILE: &str = "pin.secret";

/// HKDF contexts of the two keys, versioned.
const PEPPER_CONTEXT: &[u8] = b"satchel pin proof pepper v1";
const SHARE_KEY_CONTEXT: &[u8] = b"satchel pin share key v1";
const SIGNING_KEY_CONTEXT: &[u8] = b"satchel token signing key seal v1";
const REFRESH_CHILD_CONTEXT: &[u8] = b"satchel refresh token child v1";
/// Names the key a login device token is made with.
const LOGIN_DEVICE_CONTEXT: &[u8] = b"satchel login device tokens v1";
/// Associated data of a sealed token signing key, before its kid.
const SIGNING_KEY_AAD: &[u8] = b"satchel signing key v1:";
/// Associated data of a sealed share, before the wallet id: a share sealed for
/// one wallet does not open as another's.
const SHARE_AAD: &[u8] = b"satchel share v1:";
const NONCE_LEN: usize = 24;

/// The keys of the wallets' PIN material. Never printed.
pub struct PinKeys {
    pepper: [u8; 32],
    cipher: XChaCha20Poly1305,
    /// Seals the service's token signing keys (the identity tokens).
    key_cipher: XChaCha20Poly1305,
    /// Derives the refresh token that follows another.
    refresh_child: [u8; 32],
    /// Makes and checks login device tokens.
    login_devices: LoginDevices,
}

impl std::fmt::Debug for PinKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PinKeys { <redacted> }")
    }
}

/// A sealed share that does not open: damaged, or sealed under another secret.
#[derive(Debug, thiserror::Error)]
#[error("the share does not open: is pin_secret the one it was sealed with?")]
pub struct ShareError;

impl PinKeys {
    /// The keys of the configured secret, or of `pin.secret` in `data_dir` (made
    /// now if missing).
    pub fn load(settings: &Settings) -> anyhow::Result<Self> {
        let secret = match &settings.pin_secret {
            Some(text) => {
                let bytes = decode_base64(text.trim()).ok_or_else(|| {
                    anyhow::anyhow!("pin_secret (SATCHEL_PIN_SECRET) must be base64")
                })?;
                <[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| {
                    anyhow::anyhow!(
                        "pin_secret (SATCHEL_PIN_SECRET) must be 32 bytes, it is {}",
                        bytes.len()
                    )
                })?
            }
            None => load_or_create_file(&settings.data_dir.join(SECRET_FILE))?,
        };
        Ok(Self::from_secret(&secret))
    }

    pub fn from_secret(secret: &[u8; 32]) -> Self {
        let hkdf = hkdf::Hkdf::<Sha256>::new(None, secret);
        let mut pepper = [0u8; 32];
        let mut share_key = [0u8; 32];
        let mut signing_seal = [0u8; 32];
        // 32 bytes is far below HKDF-SHA256's limit of 8160.
        let _ = hkdf.expand(PEPPER_CONTEXT, &mut pepper);
        let _ = hkdf.expand(SHARE_KEY_CONTEXT, &mut share_key);
        let _ = hkdf.expand(SIGNING_KEY_CONTEXT, &mut signing_seal);
        let mut refresh_child = [0u8; 32];
        let _ = hkdf.expand(REFRESH_CHILD_CONTEXT, &mut refresh_child);
        let mut login_device = [0u8; 32];
        let _ = hkdf.expand(LOGIN_DEVICE_CONTEXT, &mut login_device);
        let cipher = XChaCha20Poly1305::new((&share_key).into());
        let key_cipher = XChaCha20Poly1305::new((&signing_seal).into());
        Self {
            pepper,
            cipher,
            key_cipher,
            refresh_child,
            login_devices: LoginDevices::new(login_device),
        }
    }

    /// The login device tokens this service issues and accepts.
    pub fn login_devices(&self) -> &LoginDevices {
        &self.login_devices
    }

    /// The refresh token that replaces `parent`: HMAC-SHA256 under a key of the
    /// service's, so presenting the same token again (a retry whose answer was
    /// lost) gets the same replacement, while a stolen old token tells nobody
    /// which one follows it. URL-safe base64, like a random secret.
    pub fn refresh_child(&self, parent: &str) -> String {
        use base64::Engine as _;
        #[allow(clippy::expect_used)] // HMAC takes keys of any length
        let mut mac =
            <Hmac<Sha256> as Mac>::new_from_slice(&self.refresh_child).expect("any key length");
        mac.update(parent.as_bytes());
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
    }

    /// A token signing key (PKCS#8 PEM) sealed for storage, bound to its kid.
    pub fn seal_signing_key(&self, kid: &str, pem: &str) -> String {
        seal(
            &self.key_cipher,
            &[SIGNING_KEY_AAD, kid.as_bytes()].concat(),
            pem.as_bytes(),
        )
    }

    /// The PEM [`seal_signing_key`](Self::seal_signing_key) sealed for `kid`.
    pub fn open_signing_key(&self, kid: &str, sealed: &str) -> Result<String, ShareError> {
        let bytes = open(
            &self.key_cipher,
            &[SIGNING_KEY_AAD, kid.as_bytes()].concat(),
            sealed,
        )?;
        String::from_utf8(bytes).map_err(|_| ShareError)
    }

    /// An OAuth client secret sealed for storage, bound to its app and provider.
    pub fn seal_client_secret(&self, app_id: &str, provider: &str, secret: &str) -> String {
        seal(
            &self.key_cipher,
            &client_secret_aad(app_id, provider),
            secret.as_bytes(),
        )
    }

    /// The secret [`seal_client_secret`](Self::seal_client_secret) sealed.
    pub fn open_client_secret(
        &self,
        app_id: &str,
        provider: &str,
        sealed: &str,
    ) -> Result<String, ShareError> {
        let bytes = open(
            &self.key_cipher,
            &client_secret_aad(app_id, provider),
            sealed,
        )?;
        String::from_utf8(bytes).map_err(|_| ShareError)
    }

    /// HMAC-SHA256(pepper, proof), hex: what is stored of a proof.
    pub fn proof_hash(&self, proof: &[u8]) -> String {
        hex::encode(self.mac(proof))
    }

    /// Whether `proof` is the one `stored` (a [`proof_hash`](Self::proof_hash))
    /// was made of, compared in constant time.
    pub fn proof_matches(&self, proof: &[u8], stored: &str) -> bool {
        let Ok(stored) = hex::decode(stored) else {
            return false;
        };
        self.mac(proof).as_slice().ct_eq(&stored).into()
    }

    fn mac(&self, proof: &[u8]) -> [u8; 32] {
        #[allow(clippy::expect_used)] // HMAC takes keys of any length
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.pepper).expect("any key length");
        mac.update(proof);
        mac.finalize().into_bytes().into()
    }

    /// base64(random nonce || XChaCha20-Poly1305(share)), bound to `wallet_id`.
    pub fn seal_share(&self, wallet_id: &str, share: &[u8; 32]) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let aad = [SHARE_AAD, wallet_id.as_bytes()].concat();
        // Encryption fails only for messages longer than the cipher allows.
        let ciphertext = self
            .cipher
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: share,
                    aad: &aad,
                },
            )
            .unwrap_or_default();
        let mut sealed = nonce.to_vec();
        sealed.extend(ciphertext);
        base64::engine::general_purpose::STANDARD.encode(sealed)
    }

    /// The share [`seal_share`](Self::seal_share) sealed for `wallet_id`.
    pub fn open_share(&self, wallet_id: &str, sealed: &str) -> Result<[u8; 32], ShareError> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(sealed)
            .map_err(|_| ShareError)?;
        if bytes.len() <= NONCE_LEN {
            return Err(ShareError);
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce = <[u8; NONCE_LEN]>::try_from(nonce).map_err(|_| ShareError)?;
        let aad = [SHARE_AAD, wallet_id.as_bytes()].concat();
        let share = self
            .cipher
            .decrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: ciphertext,
                    aad: &aad,
                },
            )
            .map_err(|_| ShareError)?;
        share.as_slice().try_into().map_err(|_| ShareError)
    }
}

/// base64(random nonce || XChaCha20-Poly1305(msg)) with `aad`.
fn client_secret_aad(app_id: &str, provider: &str) -> Vec<u8> {
    [
        b"satchel oauth client secret\0",
        app_id.as_bytes(),
        b"\0",
        provider.as_bytes(),
    ]
    .concat()
}

fn seal(cipher: &XChaCha20Poly1305, aad: &[u8], msg: &[u8]) -> String {
    let mut nonce = [0u8; NONCE_LEN];
    rand::rngs::OsRng.fill_bytes(&mut nonce);
    // Encryption fails only for messages longer than the cipher allows.
    let ciphertext = cipher
        .encrypt(&XNonce::from(nonce), Payload { msg, aad })
        .unwrap_or_default();
    let mut sealed = nonce.to_vec();
    sealed.extend(ciphertext);
    base64::engine::general_purpose::STANDARD.encode(sealed)
}

/// What [`seal`] sealed with `aad`.
fn open(cipher: &XChaCha20Poly1305, aad: &[u8], sealed: &str) -> Result<Vec<u8>, ShareError> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(sealed)
        .map_err(|_| ShareError)?;
    if bytes.len() <= NONCE_LEN {
        return Err(ShareError);
    }
    let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
    let nonce = <[u8; NONCE_LEN]>::try_from(nonce).map_err(|_| ShareError)?;
    cipher
        .decrypt(
            &XNonce::from(nonce),
            Payload {
                msg: ciphertext,
                aad,
            },
        )
        .map_err(|_| ShareError)
}

/// The 32 bytes of `path`, made first when it does not exist. A new secret is
/// written to a private temporary file and hard-linked into place, which fails if
/// the file appeared meanwhile: two instances starting at once both end up with
/// the one secret that won, and no reader ever sees a half-written file.
fn load_or_create_file(path: &Path) -> anyhow::Result<[u8; 32]> {
    if let Some(secret) = read_secret(path)? {
        return Ok(secret);
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let mut secret = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut secret);
    let temporary = dir.join(format!(
        ".{SECRET_FILE}.{}.partial",
        uuid::Uuid::new_v4().simple()
    ));
    let written =
        write_private(&temporary, &secret).and_then(|()| std::fs::hard_link(&temporary, path));
    let _ = std::fs::remove_file(&temporary);
    match written {
        Ok(()) => {
            tracing::info!(path = %path.display(), "made a new PIN secret");
            Ok(secret)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read_secret(path)?
            .ok_or_else(|| anyhow::anyhow!("{} vanished while it was read", path.display())),
        Err(e) => Err(anyhow::anyhow!(
            "cannot write the PIN secret {}: {e} (or set pin_secret)",
            path.display()
        )),
    }
}

fn read_secret(path: &Path) -> anyhow::Result<Option<[u8; 32]>> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(anyhow::anyhow!("cannot read {}: {e}", path.display())),
    };
    let secret = <[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| {
        anyhow::anyhow!(
            "{} must hold exactly 32 bytes, it holds {}",
            path.display(),
            bytes.len()
        )
    })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(path).map_or(0, |m| m.permissions().mode());
        if mode & 0o077 != 0 {
            tracing::warn!(path = %path.display(), "the PIN secret is readable by others; chmod 600 it");
        }
    }
    Ok(Some(secret))
}

/// Writes `bytes` to a new file only its owner may read.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_opens_only_for_its_wallet_and_secret() {
        let keys = PinKeys::from_secret(&[7; 32]);
        let share = [42u8; 32];
        let sealed = keys.seal_share("w1", &share);
        assert_ne!(
            sealed,
            keys.seal_share("w1", &share),
            "a fresh nonce each time"
        );
        assert_eq!(keys.open_share("w1", &sealed).expect("opens"), share);
        assert!(keys.open_share("w2", &sealed).is_err());
        assert!(
            PinKeys::from_secret(&[8; 32])
                .open_share("w1", &sealed)
                .is_err()
        );
        assert!(keys.open_share("w1", "AAAA").is_err());
    }

    #[test]
    fn a_proof_hash_needs_the_secret() {
        let keys = PinKeys::from_secret(&[7; 32]);
        let hash = keys.proof_hash(&[1; 32]);
        assert_eq!(hash.len(), 64);
        assert!(keys.proof_matches(&[1; 32], &hash));
        assert!(!keys.proof_matches(&[2; 32], &hash));
        assert!(!PinKeys::from_secret(&[8; 32]).proof_matches(&[1; 32], &hash));
        assert!(!keys.proof_matches(&[1; 32], "not hex"));
    }

    #[test]
    fn the_secret_file_is_made_once_privately_and_then_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let settings = Settings {
            data_dir: dir.path().join("data"),
            ..Settings::default()
        };
        let path = settings.data_dir.join(SECRET_FILE);
        let first = load_or_create_file(&path).expect("made");
        assert_eq!(std::fs::read(&path).expect("file"), first);
        assert_eq!(load_or_create_file(&path).expect("read"), first);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let names: Vec<_> = std::fs::read_dir(&settings.data_dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from(SECRET_FILE)]);
        let keys = PinKeys::load(&settings).expect("loads");
        assert!(keys.proof_matches(&[1; 32], &PinKeys::from_secret(&first).proof_hash(&[1; 32])));

        std::fs::write(&path, b"short").expect("written");
        assert!(PinKeys::load(&settings).is_err());
    }

    #[test]
    fn a_configured_secret_wins_and_must_be_32_bytes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut settings = Settings {
            data_dir: dir.path().to_owned(),
            pin_secret: Some(base64::engine::general_purpose::STANDARD.encode([9u8; 32])),
            ..Settings::default()
        };
        let keys = PinKeys::load(&settings).expect("loads");
        let hash = PinKeys::from_secret(&[9; 32]).proof_hash(&[1; 32]);
        assert!(keys.proof_matches(&[1; 32], &hash));
        assert!(!dir.path().join(SECRET_FILE).exists(), "no file is made");
        settings.pin_secret = Some(base64::engine::general_purpose::STANDARD.encode([9u8; 16]));
        assert!(PinKeys::load(&settings).is_err());
        settings.pin_secret = Some("not base64!".into());
        assert!(PinKeys::load(&settings).is_err());
    }
}
