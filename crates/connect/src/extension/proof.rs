//! The link's cryptography: the proofs a one-time code derives (PBKDF2,
//! bound to the extension's key and Satchel's port), what each socket's hello
//! signs, and the public key it is checked with.

use p256::ecdsa::signature::Verifier as _;
use sha2::Sha256;

/// PBKDF2-HMAC-SHA256 rounds from the code to the link's proofs: a program
/// that saw a proof cannot try every code within the code's lifetime.
pub const LINK_ROUNDS: u32 = 100_000;

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
pub(super) fn verifying_key(hex: &str) -> Option<p256::ecdsa::VerifyingKey> {
    let bytes = alloy::hex::decode(hex).ok()?;
    (bytes.len() == 65)
        .then(|| p256::ecdsa::VerifyingKey::from_sec1_bytes(&bytes).ok())
        .flatten()
}

/// Whether `signature` (hex, r and s) is `key`'s over the hello for `nonce`,
/// `page` and `port`.
pub(super) fn hello_is_signed(
    key: &str,
    signature: &str,
    nonce: &str,
    page: &str,
    port: u16,
) -> bool {
    let signature = alloy::hex::decode(signature)
        .ok()
        .and_then(|bytes| p256::ecdsa::Signature::from_slice(&bytes).ok());
    verifying_key(key)
        .zip(signature)
        .is_some_and(|(key, signature)| {
            key.verify(hello_message(nonce, page, port).as_bytes(), &signature)
                .is_ok()
        })
}
