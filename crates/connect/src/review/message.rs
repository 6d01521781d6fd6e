//! `personal_sign`: the message as the person reads it (text when it is plain
//! text, else its bytes in hex) and, when it is a Sign-In with Ethereum message,
//! the sign-in it asks for, checked against who asks.

use alloy::primitives::Address;
use serde::Serialize;
use serde_json::Value;

use super::siwe::{self, SignIn};
use crate::origin::Origin;
use crate::rpc::ProviderError;

/// The longest message signed, in bytes (a sign-in is a few hundred).
pub const MAX_MESSAGE: usize = 16 * 1024;

/// What the person is shown for a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct MessageReview {
    /// The account that would sign (checksummed).
    pub account: String,
    /// The message as text, when it is plain text.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub text: Option<String>,
    /// The message's bytes as 0x-hex, always.
    pub hex: String,
    /// The sign-in it asks for, when it is an EIP-4361 message.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub sign_in: Option<SignIn>,
    /// Why Satchel will not sign it (shown in red, with no way to approve).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub refusal: Option<String>,
    /// Exactly 32 bytes that are not text: most likely a hash, whose signature
    /// may approve what the page cannot show (an order, a transaction). Warned.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub looks_like_hash: bool,
}

/// A message to sign: the bytes the key signs (with EIP-191's prefix) and what
/// the page shows of them, both from the same request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageToSign {
    pub account: Address,
    pub bytes: Vec<u8>,
    pub review: MessageReview,
}

/// Reads `personal_sign`'s `[message, address]` for `origin` on chain
/// `chain_id`, where `accounts` are the addresses it sees.
pub fn personal_sign(
    params: &Value,
    accounts: &[Address],
    origin: &Origin,
    chain_id: u64,
) -> Result<MessageToSign, ProviderError> {
    let message = params.get(0).and_then(Value::as_str).ok_or_else(|| {
        ProviderError::invalid_params("expected [message, address], the message a string")
    })?;
    let account = super::account_param(params.get(1), accounts)?;
    let bytes = message_bytes(message)?;
    let text = plain_text(&bytes);
    // A sign-in is recognised whatever invisible characters it carries (a site
    // verifying it may read past them), and then refused for carrying them.
    let readable = std::str::from_utf8(&bytes).ok().map(without_deceptive);
    let (sign_in, refusal) = match readable.as_deref().map(siwe::parse) {
        None | Some(Ok(None)) => (None, None),
        Some(Ok(Some(sign_in))) => {
            let refusal = if text.is_none() {
                Some(format!(
                    "This sign-in for {} carries invisible or control characters, which make it read other than it is.",
                    sign_in.domain
                ))
            } else {
                sign_in.refusal(origin, account, chain_id, now())
            };
            (Some(sign_in), refusal)
        }
        Some(Err(why)) => (
            None,
            Some(format!(
                "This looks like a sign-in but is not a valid Sign-In with Ethereum message: {why}"
            )),
        ),
    };
    let looks_like_hash = bytes.len() == 32 && text.is_none();
    Ok(MessageToSign {
        account,
        review: MessageReview {
            account: account.to_checksum(None),
            text,
            hex: format!("0x{}", alloy::hex::encode(&bytes)),
            sign_in,
            refusal,
            looks_like_hash,
        },
        bytes,
    })
}

/// A message is 0x-hex bytes (as viem and ethers send it) or, as MetaMask also
/// takes, a string signed as its UTF-8 bytes.
fn message_bytes(message: &str) -> Result<Vec<u8>, ProviderError> {
    let bytes = match message.strip_prefix("0x") {
        Some(digits) => alloy::hex::decode(digits)
            .map_err(|_| ProviderError::invalid_params("the message is 0x but not hexadecimal"))?,
        None => message.as_bytes().to_vec(),
    };
    if bytes.len() > MAX_MESSAGE {
        return Err(ProviderError::invalid_params(format!(
            "a message to sign is at most {MAX_MESSAGE} bytes"
        )));
    }
    Ok(bytes)
}

/// A character that makes text read other than it is: a control character
/// but line breaks and tabs, or an invisible or direction-changing one.
fn deceptive(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        || matches!(c, '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF9}'..='\u{FFFB}')
}

/// The text with every deceptive character taken out (and `\r\n` read as a
/// line break): what a lenient reader of it would see.
fn without_deceptive(text: &str) -> String {
    text.replace("\r\n", "\n")
        .chars()
        .filter(|c| !deceptive(*c) && *c != '\r')
        .collect()
}

/// The bytes as text when a person can read them as they are: UTF-8 with no
/// control characters but line breaks and tabs, and none of the invisible or
/// direction-changing characters that make text read other than it is.
pub fn plain_text(bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    (!text.is_empty() && !text.chars().any(deceptive)).then(|| text.to_owned())
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ACCOUNT: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    fn account() -> Address {
        ACCOUNT.parse().expect("address")
    }

    fn web(origin: &str) -> Origin {
        Origin::Web(origin.into())
    }

    #[test]
    fn hex_and_text_messages_are_the_bytes_signed_and_shown_as_text_when_plain() {
        let hex = personal_sign(
            &json!(["0x68656c6c6f", ACCOUNT]),
            &[account()],
            &web("https://dapp.example"),
            1,
        )
        .expect("hex");
        assert_eq!(hex.bytes, b"hello");
        assert_eq!(hex.review.text.as_deref(), Some("hello"));
        assert_eq!(hex.review.hex, "0x68656c6c6f");
        assert_eq!(hex.review.refusal, None);
        let text = personal_sign(&json!(["hello", ACCOUNT]), &[account()], &Origin::Local, 1)
            .expect("text");
        assert_eq!(text.bytes, b"hello");
    }

    #[test]
    fn bytes_that_are_not_plain_text_are_shown_in_hex_only() {
        for message in ["0xdeadbeef", "0x61e280ae62", "0x610062"] {
            let review = personal_sign(&json!([message, ACCOUNT]), &[account()], &Origin::Local, 1)
                .expect(message)
                .review;
            assert_eq!(review.text, None, "{message}");
            assert_eq!(review.hex, message);
        }
    }

    #[test]
    fn an_address_the_origin_does_not_see_or_bad_params_are_refused() {
        let other = "0x0000000000000000000000000000000000000001";
        let refused = personal_sign(&json!(["0x00", other]), &[account()], &Origin::Local, 1);
        assert_eq!(refused.expect_err("other").code, 4100);
        for params in [json!([]), json!([1, ACCOUNT]), json!(["0xzz", ACCOUNT])] {
            let refused = personal_sign(&params, &[account()], &Origin::Local, 1);
            assert_eq!(refused.expect_err("params").code, -32602, "{params}");
        }
        let huge = format!("0x{}", "00".repeat(MAX_MESSAGE + 1));
        let refused = personal_sign(&json!([huge, ACCOUNT]), &[account()], &Origin::Local, 1);
        assert_eq!(refused.expect_err("huge").code, -32602);
    }

    fn sign_in(domain: &str, address: &str, chain: u64) -> String {
        format!(
            "{domain} wants you to sign in with your Ethereum account:\n{address}\n\nSign in to the demo.\n\nURI: https://{domain}\nVersion: 1\nChain ID: {chain}\nNonce: abcdef1234\nIssued At: 2026-11-25T00:00:00.000Z"
        )
    }

    #[test]
    fn a_sign_in_is_refused_unless_its_domain_address_and_chain_are_the_askers() {
        let origin = web("https://dapp.example");
        let ok = personal_sign(
            &json!([sign_in("dapp.example", ACCOUNT, 31337), ACCOUNT]),
            &[account()],
            &origin,
            31337,
        )
        .expect("sign-in");
        let sign_in_shown = ok.review.sign_in.expect("parsed");
        assert_eq!(sign_in_shown.domain, "dapp.example");
        assert_eq!(ok.review.refusal, None);
        let cases = [
            (sign_in("evil.example", ACCOUNT, 31337), "evil.example"),
            (
                sign_in(
                    "dapp.example",
                    "0x0000000000000000000000000000000000000001",
                    31337,
                ),
                "account",
            ),
            (sign_in("dapp.example", ACCOUNT, 1), "chain"),
        ];
        for (message, why) in cases {
            let review = personal_sign(&json!([message, ACCOUNT]), &[account()], &origin, 31337)
                .expect(why)
                .review;
            let refusal = review.refusal.expect(why);
            assert!(refusal.contains(why), "{refusal} should name {why}");
        }
        // A program on this computer has no domain to sign in to.
        let local = personal_sign(
            &json!([sign_in("dapp.example", ACCOUNT, 31337), ACCOUNT]),
            &[account()],
            &Origin::Local,
            31337,
        )
        .expect("local");
        assert!(local.review.refusal.is_some());
        // A header without the rest is no sign-in.
        let broken = personal_sign(
            &json!([
                "dapp.example wants you to sign in with your Ethereum account:\nnonsense",
                ACCOUNT
            ]),
            &[account()],
            &origin,
            31337,
        )
        .expect("broken");
        assert!(
            broken
                .review
                .refusal
                .expect("refused")
                .contains("not a valid")
        );
    }

    #[test]
    fn a_sign_in_with_invisible_characters_is_still_read_as_one_and_refused() {
        let origin = web("https://dapp.example");
        // A sign-in for another site, made "not text" by one invisible character.
        for hidden in ['\u{200B}', '\u{FEFF}', '\u{000B}', '\u{2062}', '\u{00AD}'] {
            let message = sign_in("victim.example", ACCOUNT, 31337).replace(
                "Sign in to the demo.",
                &format!("Sign in{hidden} to the demo."),
            );
            let review = personal_sign(&json!([message, ACCOUNT]), &[account()], &origin, 31337)
                .expect("read")
                .review;
            assert_eq!(review.text, None, "{hidden:?}: not shown as plain text");
            let shown = review.sign_in.expect("still read as a sign-in");
            assert_eq!(shown.domain, "victim.example");
            let refusal = review.refusal.expect("refused");
            assert!(refusal.contains("invisible"), "{hidden:?}: {refusal}");
        }
        // Even for the asker's own domain: a sign-in is signed only as it reads.
        let own = sign_in("dapp.example", ACCOUNT, 31337).replace("URI:", "URI:\u{200B}");
        let review = personal_sign(&json!([own, ACCOUNT]), &[account()], &origin, 31337)
            .expect("read")
            .review;
        assert!(review.refusal.is_some());
    }

    #[test]
    fn thirty_two_bytes_that_are_not_text_are_warned_as_a_hash() {
        let hash = format!("0x{}", "ab".repeat(32));
        let review = personal_sign(&json!([hash, ACCOUNT]), &[account()], &Origin::Local, 1)
            .expect("read")
            .review;
        assert!(review.looks_like_hash);
        let text = "a".repeat(32);
        let review = personal_sign(&json!([text, ACCOUNT]), &[account()], &Origin::Local, 1)
            .expect("read")
            .review;
        assert!(!review.looks_like_hash, "32 letters are text");
    }
}
