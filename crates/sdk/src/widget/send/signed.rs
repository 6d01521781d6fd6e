//! What a transaction this device signed does, read from the bytes it kept:
//! never from the service's record of it.

use alloy::consensus::Transaction as _;
use alloy::eips::eip2718::Decodable2718;

use super::*;

/// A kept signed transaction, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Signed {
    /// The coin to `to` (`contract` none), or `amount` of the ERC-20 at
    /// `contract` by its `transfer`.
    Transfer {
        to: Address,
        amount: U256,
        contract: Option<Address>,
    },
    /// `amount` of NFT `id` of the collection at `contract` to `to`, by its
    /// standard's `safeTransferFrom` (an ERC-721's amount is 1).
    Nft {
        to: Address,
        contract: Address,
        id: U256,
        amount: U256,
    },
    /// Any other call of a contract.
    Call { to: Address },
    /// A new contract, made at `address` (the signer's, at the nonce signed).
    Deployment { address: Address },
}

/// The transaction kept as `raw` (EIP-2718 hex) decoded, with what it does.
pub(super) fn read_signed(raw: &str) -> Result<(TxEnvelope, Signed), SdkError> {
    let bytes = hex::decode(raw.trim_start_matches("0x"))
        .map_err(|_| invalid("the kept transaction does not decode"))?;
    let envelope = TxEnvelope::decode_2718(&mut bytes.as_slice())
        .map_err(|_| invalid("the kept transaction does not decode"))?;
    let signed = match envelope.kind() {
        TxKind::Create => {
            // The device signs EIP-1559 transactions only.
            let signer = envelope
                .as_eip1559()
                .and_then(|tx| {
                    tx.signature()
                        .recover_address_from_prehash(&tx.signature_hash())
                        .ok()
                })
                .ok_or_else(|| invalid("the kept transaction's signature does not recover"))?;
            Signed::Deployment {
                address: signer.create(envelope.nonce()),
            }
        }
        TxKind::Call(to) => read_call(to, envelope.value(), envelope.input()),
    };
    Ok((envelope, signed))
}

/// What a call of `to` with `value` and `input` does.
fn read_call(to: Address, value: U256, input: &[u8]) -> Signed {
    use super::call::nft;
    if input.is_empty() {
        return Signed::Transfer {
            to,
            amount: value,
            contract: None,
        };
    }
    if !value.is_zero() {
        return Signed::Call { to };
    }
    if let Ok(call) = transferCall::abi_decode(input) {
        Signed::Transfer {
            to: call.to,
            amount: call.amount,
            contract: Some(to),
        }
    } else if let Ok(call) = nft::safeTransferFromCall::abi_decode(input) {
        Signed::Nft {
            to: call.to,
            contract: to,
            id: call.tokenId,
            amount: U256::from(1),
        }
    } else if let Ok(call) = nft::erc1155::safeTransferFromCall::abi_decode(input) {
        Signed::Nft {
            to: call.to,
            contract: to,
            id: call.id,
            amount: call.amount,
        }
    } else {
        Signed::Call { to }
    }
}
