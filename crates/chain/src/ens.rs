//! ENS names (EIP-137, EIP-181): which names Satchel takes, their namehash, and
//! the calls that resolve them on a network's registry. No I/O here: the device
//! sends these calls through the service's read relay and decodes the answers,
//! each of which may be hostile (any bytes, any length).
//!
//! Names are taken in the form ENSIP-15 gives plain ASCII names: labels of
//! `a`–`z`, `0`–`9` and `-`, upper case folded to lower. Anything else (other
//! scripts, emoji, look-alike characters) is refused rather than normalized,
//! so no two names a person could confuse reach the registry as one.

use alloy::primitives::{Address, B256, Bytes, keccak256};
use alloy::sol;
use alloy::sol_types::SolCall;

/// The longest name taken (DNS's limit).
pub const MAX_NAME_LENGTH: usize = 253;
/// The longest label taken (DNS's limit).
pub const MAX_LABEL_LENGTH: usize = 63;

sol! {
    interface EnsRegistry {
        function resolver(bytes32 node) external view returns (address);
    }
    interface EnsResolver {
        function addr(bytes32 node) external view returns (address);
        function name(bytes32 node) external view returns (string);
    }
}

/// Why a typed name is not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("a name is labels of a to z, 0 to 9 and hyphens, joined by dots (alice.eth)")]
    Malformed,
    #[error("the name is longer than {MAX_NAME_LENGTH} characters")]
    TooLong,
}

/// Whether `text` is meant as a name rather than an address: it has a dot and
/// does not start with `0x`.
pub fn looks_like_name(text: &str) -> bool {
    let text = text.trim();
    text.contains('.') && !text.starts_with("0x")
}

/// `name` in the one form resolved (lower case), or why it is not taken.
pub fn normalize(name: &str) -> Result<String, NameError> {
    let name = name.trim();
    if name.len() > MAX_NAME_LENGTH {
        return Err(NameError::TooLong);
    }
    let name = name.to_ascii_lowercase();
    let labels: Vec<&str> = name.split('.').collect();
    let well_formed = labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && label.len() <= MAX_LABEL_LENGTH
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        });
    if !well_formed {
        return Err(NameError::Malformed);
    }
    Ok(name)
}

/// EIP-137's namehash of a normalized name.
pub fn namehash(name: &str) -> B256 {
    let mut node = B256::ZERO;
    if name.is_empty() {
        return node;
    }
    for label in name.rsplit('.') {
        node = keccak256([node.as_slice(), keccak256(label).as_slice()].concat());
    }
    node
}

/// The node of `address`'s reverse record: `<hex>.addr.reverse` (EIP-181).
pub fn reverse_node(address: Address) -> B256 {
    namehash(&format!("{}.addr.reverse", alloy::hex::encode(address)))
}

/// The registry's `resolver(node)` call.
pub fn resolver_call(node: B256) -> Bytes {
    EnsRegistry::resolverCall { node }.abi_encode().into()
}

/// A resolver's `addr(node)` call.
pub fn addr_call(node: B256) -> Bytes {
    EnsResolver::addrCall { node }.abi_encode().into()
}

/// A resolver's `name(node)` call.
pub fn name_call(node: B256) -> Bytes {
    EnsResolver::nameCall { node }.abi_encode().into()
}

/// An address answer (`resolver` or `addr`); `None` for the zero address
/// (no record) or an answer that is not one address.
pub fn decode_address(answer: &[u8]) -> Option<Address> {
    let address = EnsResolver::addrCall::abi_decode_returns(answer).ok()?;
    (!address.is_zero()).then_some(address)
}

/// A `name` answer, normalized; `None` when empty, too long or not a name
/// Satchel takes (it is shown to the person, so it must be one they could type).
pub fn decode_name(answer: &[u8]) -> Option<String> {
    let name = EnsResolver::nameCall::abi_decode_returns(answer).ok()?;
    // `normalize` refuses an empty or overlong name before reading it.
    normalize(&name).ok().filter(|normal| *normal == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::b256;
    use alloy::sol_types::SolValue;

    #[test]
    fn namehash_matches_eip_137() {
        assert_eq!(namehash(""), B256::ZERO);
        assert_eq!(
            namehash("eth"),
            b256!("0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae")
        );
        assert_eq!(
            namehash("foo.eth"),
            b256!("0xde9b09fd7c5f901e23a3f19fecc54828e9c848539801e86591bd9801b019f84f")
        );
        assert_eq!(
            namehash("addr.reverse"),
            b256!("0x91d1777781884d03a6757a803996e38de2a42967fb37eeaca72729271025a9e2")
        );
    }

    #[test]
    fn only_plain_ascii_names_are_taken() {
        assert_eq!(normalize(" Alice.ETH ").as_deref(), Ok("alice.eth"));
        assert_eq!(
            normalize("my-shop.alice.eth").as_deref(),
            Ok("my-shop.alice.eth")
        );
        for bad in [
            "alice",
            "alice..eth",
            ".eth",
            "alice.eth.",
            "al ice.eth",
            "аlice.eth", // a Cyrillic "а"
            "alice😀.eth",
            "alice_1.eth",
        ] {
            assert_eq!(normalize(bad), Err(NameError::Malformed), "{bad}");
        }
        let long_label = format!("{}.eth", "a".repeat(MAX_LABEL_LENGTH + 1));
        assert_eq!(normalize(&long_label), Err(NameError::Malformed));
        let long = format!("{}eth", "abc.".repeat(70));
        assert_eq!(normalize(&long), Err(NameError::TooLong));
        assert!(looks_like_name("alice.eth"));
        assert!(!looks_like_name("0x12.34"));
        assert!(!looks_like_name("alice"));
    }

    #[test]
    fn hostile_answers_name_nothing() {
        let alice = Address::repeat_byte(0xa1);
        assert_eq!(decode_address(&alice.abi_encode()), Some(alice));
        assert_eq!(decode_address(&Address::ZERO.abi_encode()), None);
        assert_eq!(decode_address(b"short"), None);
        assert_eq!(decode_address(&[]), None);
        let named = |name: &str| decode_name(&name.to_owned().abi_encode());
        assert_eq!(named("alice.eth").as_deref(), Some("alice.eth"));
        assert_eq!(named(""), None);
        assert_eq!(named("Alice.eth"), None, "not in the form resolved");
        assert_eq!(named("аlice.eth"), None, "a look-alike");
        assert_eq!(named(&format!("{}.eth", "a".repeat(400))), None);
        assert_eq!(decode_name(&[0xff; 40]), None);
    }

    #[test]
    fn the_reverse_node_is_the_lower_case_hex_under_addr_reverse() {
        let address: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
            .parse()
            .expect("an address");
        assert_eq!(
            reverse_node(address),
            namehash("70997970c51812dc3a010c7d01b50e0d17dc79c8.addr.reverse")
        );
    }
}
