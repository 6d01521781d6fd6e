//! `getSignForLogin` and its check: the `sign` an app's backend puts beside an
//! external token. secp256k1 ECDSA over SHA-256 of the message's UTF-8 bytes,
//! with the deterministic nonce of RFC 6979, written as the 64-byte `r || s` in
//! lowercase hex (`s` in the lower half of the order). The app registers the
//! public key with the service (`satchel-service admin set-external-token`); the
//! private key stays on its backend.

use k256::ecdsa::signature::{Signer, Verifier};
use k256::ecdsa::{Signature, SigningKey, VerifyingKey};

/// Why a key or a signature could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignError(pub &'static str);

impl std::fmt::Display for SignError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for SignError {}

fn hex_bytes(text: &str) -> Option<Vec<u8>> {
    let text = text.trim();
    let text = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn signing_key(priv_key: &str) -> Result<SigningKey, SignError> {
    let bytes = hex_bytes(priv_key)
        .filter(|b| b.len() == 32)
        .ok_or(SignError("the private key must be 32 bytes of hex"))?;
    SigningKey::from_slice(&bytes)
        .map_err(|_| SignError("the private key is not a valid secp256k1 key"))
}

/// `getSignForLogin(privKey, message)`: the signature of `message` by the
/// 32-byte hex private key.
pub fn sign_for_login(priv_key: &str, message: &str) -> Result<String, SignError> {
    let signature: Signature = signing_key(priv_key)?.sign(message.as_bytes());
    let signature = signature.normalize_s().unwrap_or(signature);
    Ok(to_hex(&signature.to_bytes()))
}

/// The compressed public key (33 bytes, hex) of a private key: what the app
/// registers with the service.
pub fn public_key_for(priv_key: &str) -> Result<String, SignError> {
    let key = signing_key(priv_key)?;
    Ok(to_hex(
        key.verifying_key().to_encoded_point(true).as_bytes(),
    ))
}

/// Reads a SEC1 public key (compressed or not) from hex.
pub fn parse_public_key(public_key: &str) -> Result<VerifyingKey, SignError> {
    let bytes = hex_bytes(public_key).ok_or(SignError("the public key is not hex"))?;
    VerifyingKey::from_sec1_bytes(&bytes)
        .map_err(|_| SignError("the public key is not a secp256k1 point"))
}

/// Whether `sign` is `key`'s signature of `message`. Either `s` is taken (a
/// backend whose library does not normalise is not refused for it).
pub fn verify_login_sign(key: &VerifyingKey, message: &str, sign: &str) -> bool {
    let Some(bytes) = hex_bytes(sign).filter(|b| b.len() == 64) else {
        return false;
    };
    let Ok(signature) = Signature::from_slice(&bytes) else {
        return false;
    };
    let signature = signature.normalize_s().unwrap_or(signature);
    key.verify(message.as_bytes(), &signature).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Vector {
        priv_key: String,
        public_key: String,
        message: String,
        sign: String,
    }

    /// Computed by python-ecdsa (`scripts/login_sign_vectors.py`), not by this code.
    fn vectors() -> Vec<Vector> {
        serde_json::from_str(include_str!("login_sign_vectors.json")).expect("vectors")
    }

    #[test]
    fn signs_exactly_as_an_independent_implementation() {
        let vectors = vectors();
        assert!(vectors.len() >= 5);
        for v in vectors {
            assert_eq!(
                sign_for_login(&v.priv_key, &v.message).expect("sign"),
                v.sign,
                "{:?}",
                v.message
            );
            assert_eq!(public_key_for(&v.priv_key).expect("key"), v.public_key);
            let key = parse_public_key(&v.public_key).expect("public key");
            assert!(verify_login_sign(&key, &v.message, &v.sign));
            assert!(!verify_login_sign(
                &key,
                &format!("{}x", v.message),
                &v.sign
            ));
        }
    }

    #[test]
    fn a_high_s_signature_is_taken_and_a_tampered_one_is_not() {
        let v = &vectors()[2];
        let key = parse_public_key(&v.public_key).expect("public key");
        let low = Signature::from_slice(&hex_bytes(&v.sign).expect("hex")).expect("sig");
        let (r, s) = low.split_scalars();
        let high = Signature::from_scalars(r, -*s).expect("high s");
        assert!(verify_login_sign(
            &key,
            &v.message,
            &to_hex(&high.to_bytes())
        ));
        let mut tampered = hex_bytes(&v.sign).expect("hex");
        tampered[40] ^= 1;
        assert!(!verify_login_sign(&key, &v.message, &to_hex(&tampered)));
        assert!(!verify_login_sign(&key, &v.message, "00"));
        assert!(!verify_login_sign(&key, &v.message, "zz"));
    }

    #[test]
    fn bad_keys_are_errors_not_panics() {
        assert!(sign_for_login("", "m").is_err());
        assert!(sign_for_login("12", "m").is_err());
        assert!(sign_for_login(&"0".repeat(64), "m").is_err());
        assert!(sign_for_login(&"g".repeat(64), "m").is_err());
        assert!(sign_for_login("é".repeat(32).as_str(), "m").is_err());
        assert!(parse_public_key("02").is_err());
    }
}
