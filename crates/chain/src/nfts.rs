//! NFT discovery: ERC-721 and ERC-1155 transfer logs into an address, then the
//! current holdings and metadata URIs of what was found, each as one batch.

use std::collections::BTreeMap;

use alloy::eips::BlockNumberOrTag;
use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::rpc::types::{Filter, Log, TransactionRequest};
use alloy::sol_types::{SolCall, SolEvent};
use futures::StreamExt as _;

use crate::abi::{ICollection, IERC721, IERC1155};
use crate::balances::decode_or_none;
use crate::{Chain, ChainError, Result, rpc_error};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NftKind {
    Erc721,
    Erc1155,
}

/// One token of one NFT contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NftRef {
    pub contract: Address,
    pub token_id: U256,
    pub kind: NftKind,
}

/// How an NFT last came to an address: the transfer's sender (the zero address
/// for a mint) and the transaction that carried it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NftArrival {
    pub nft: NftRef,
    pub from: Address,
    pub tx_hash: B256,
}

/// What a collection says of itself on chain.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Collection {
    pub name: Option<String>,
    pub contract_uri: Option<String>,
}

/// The most calls sent in one JSON-RPC batch.
pub const BATCH_CALLS: usize = 100;
/// The most batches sent to one node at once: a wallet of 10,000 NFTs is 100
/// batches, which one after another would take 100 round trips.
pub const BATCHES_IN_FLIGHT: usize = 4;

impl Chain {
    /// Every NFT transferred to `owner` in blocks `from..=to`, once each, with
    /// its latest arrival in the range. The range is read in windows of
    /// `window` blocks, as public nodes limit it.
    pub async fn nft_transfers_to(
        &self,
        owner: Address,
        from: u64,
        to: u64,
        window: u64,
    ) -> Result<Vec<NftArrival>> {
        let window = window.max(1);
        let owner_topic: B256 = owner.into_word();
        // Logs come in chain order, so a later arrival replaces an earlier one.
        let mut found: BTreeMap<NftRef, (Address, B256)> = BTreeMap::new();
        let mut arrived = |nft: NftRef, from: Address, log: &Log| {
            if let Some(tx_hash) = log.transaction_hash {
                found.insert(nft, (from, tx_hash));
            }
        };
        let mut start = from;
        while start <= to {
            let end = to.min(start.saturating_add(window - 1));
            let erc721 = Filter::new()
                .from_block(start)
                .to_block(end)
                .event_signature(IERC721::Transfer::SIGNATURE_HASH)
                .topic2(owner_topic);
            let erc1155 = Filter::new()
                .from_block(start)
                .to_block(end)
                .event_signature(vec![
                    IERC1155::TransferSingle::SIGNATURE_HASH,
                    IERC1155::TransferBatch::SIGNATURE_HASH,
                ])
                .topic3(owner_topic);
            let mut batch = self.client().new_batch();
            let logs_721 = batch
                .add_call::<_, Vec<Log>>("eth_getLogs", &(erc721,))
                .map_err(|e| ChainError::Node(e.to_string()))?;
            let logs_1155 = batch
                .add_call::<_, Vec<Log>>("eth_getLogs", &(erc1155,))
                .map_err(|e| ChainError::Node(e.to_string()))?;
            batch.send().await.map_err(rpc_error)?;
            for log in logs_721.await.map_err(rpc_error)? {
                // ERC-20 shares the Transfer signature; its amount is not indexed.
                if let [_, from, _, id] = log.topics() {
                    let nft = NftRef {
                        contract: log.address(),
                        token_id: U256::from_be_bytes(id.0),
                        kind: NftKind::Erc721,
                    };
                    arrived(nft, Address::from_word(*from), &log);
                }
            }
            for log in logs_1155.await.map_err(rpc_error)? {
                let contract = log.address();
                let (from, ids) = if let Ok(single) = log.log_decode::<IERC1155::TransferSingle>() {
                    (single.inner.data.from, vec![single.inner.data.id])
                } else if let Ok(batch) = log.log_decode::<IERC1155::TransferBatch>() {
                    (batch.inner.data.from, batch.inner.data.ids.clone())
                } else {
                    continue;
                };
                for token_id in ids {
                    let nft = NftRef {
                        contract,
                        token_id,
                        kind: NftKind::Erc1155,
                    };
                    arrived(nft, from, &log);
                }
            }
            start = match end.checked_add(1) {
                Some(next) => next,
                None => break,
            };
        }
        Ok(found
            .into_iter()
            .map(|(nft, (from, tx_hash))| NftArrival { nft, from, tx_hash })
            .collect())
    }

    /// The sender of each transaction (`None` for one the node does not know),
    /// asked in JSON-RPC batches.
    pub async fn transaction_senders(&self, hashes: &[B256]) -> Result<Vec<Option<Address>>> {
        self.batched::<_, _, Option<SenderOnly>>(
            "eth_getTransactionByHash",
            hashes,
            |hash| (*hash,),
        )
        .await?
        .into_iter()
        .map(|answer| Ok(answer.map_err(rpc_error)?.map(|tx| tx.from)))
        .collect()
    }

    /// How many of each NFT `owner` holds now (0 for one sent away or burned).
    pub async fn nft_quantities(&self, owner: Address, nfts: &[NftRef]) -> Result<Vec<U256>> {
        let calls = nfts
            .iter()
            .map(|nft| match nft.kind {
                NftKind::Erc721 => (
                    nft.contract,
                    IERC721::ownerOfCall {
                        tokenId: nft.token_id,
                    }
                    .abi_encode(),
                ),
                NftKind::Erc1155 => (
                    nft.contract,
                    IERC1155::balanceOfCall {
                        owner,
                        id: nft.token_id,
                    }
                    .abi_encode(),
                ),
            })
            .collect::<Vec<_>>();
        let answers = self.eth_calls(&calls).await?;
        nfts.iter()
            .zip(answers)
            .map(|(nft, answer)| {
                let quantity = decode_or_none(answer, |b| match nft.kind {
                    NftKind::Erc721 => IERC721::ownerOfCall::abi_decode_returns(b)
                        .ok()
                        .map(|holder| U256::from(u8::from(holder == owner))),
                    NftKind::Erc1155 => IERC1155::balanceOfCall::abi_decode_returns(b).ok(),
                })?;
                Ok(quantity.unwrap_or(U256::ZERO))
            })
            .collect()
    }

    /// The metadata URI of each NFT (`tokenURI` or `uri`, with ERC-1155's `{id}`
    /// filled in); `None` where the contract has none.
    pub async fn nft_metadata_uris(&self, nfts: &[NftRef]) -> Result<Vec<Option<String>>> {
        let calls = nfts
            .iter()
            .map(|nft| match nft.kind {
                NftKind::Erc721 => (
                    nft.contract,
                    IERC721::tokenURICall {
                        tokenId: nft.token_id,
                    }
                    .abi_encode(),
                ),
                NftKind::Erc1155 => (
                    nft.contract,
                    IERC1155::uriCall { id: nft.token_id }.abi_encode(),
                ),
            })
            .collect::<Vec<_>>();
        let answers = self.eth_calls(&calls).await?;
        nfts.iter()
            .zip(answers)
            .map(|(nft, answer)| {
                decode_or_none(answer, |b| match nft.kind {
                    NftKind::Erc721 => IERC721::tokenURICall::abi_decode_returns(b).ok(),
                    NftKind::Erc1155 => IERC1155::uriCall::abi_decode_returns(b)
                        .ok()
                        .map(|uri| erc1155_uri(&uri, nft.token_id)),
                })
                .map(|uri| uri.filter(|u| !u.is_empty()))
            })
            .collect()
    }

    /// The collection name and `contractURI` of each contract, where it has them.
    pub async fn nft_collections(&self, contracts: &[Address]) -> Result<Vec<Collection>> {
        let calls = contracts
            .iter()
            .flat_map(|c| {
                [
                    (*c, ICollection::nameCall {}.abi_encode()),
                    (*c, ICollection::contractURICall {}.abi_encode()),
                ]
            })
            .collect::<Vec<_>>();
        let mut answers = self.eth_calls(&calls).await?.into_iter();
        let mut out = Vec::with_capacity(contracts.len());
        while let (Some(name), Some(uri)) = (answers.next(), answers.next()) {
            let text = |b: &[u8]| {
                ICollection::nameCall::abi_decode_returns(b)
                    .ok()
                    .filter(|s| !s.is_empty())
            };
            out.push(Collection {
                name: decode_or_none(name, text)?,
                contract_uri: decode_or_none(uri, text)?,
            });
        }
        Ok(out)
    }

    /// Sends many `eth_call`s as JSON-RPC batches and hands back each raw
    /// answer, in order.
    async fn eth_calls(
        &self,
        calls: &[(Address, Vec<u8>)],
    ) -> Result<Vec<alloy::transports::TransportResult<Bytes>>> {
        let latest = BlockNumberOrTag::Latest;
        self.batched("eth_call", calls, |(to, data)| {
            let call = TransactionRequest::default()
                .to(*to)
                .input(Bytes::from(data.clone()).into());
            (call, latest)
        })
        .await
    }

    /// Sends `method` once per item, with the item's `params`, as JSON-RPC
    /// batches of at most [`BATCH_CALLS`] (public nodes refuse larger ones),
    /// [`BATCHES_IN_FLIGHT`] at a time; each raw answer, in order.
    async fn batched<T, P, R>(
        &self,
        method: &'static str,
        items: &[T],
        params: impl Fn(&T) -> P + Copy,
    ) -> Result<Vec<alloy::transports::TransportResult<R>>>
    where
        P: alloy::rpc::json_rpc::RpcSend,
        R: alloy::rpc::json_rpc::RpcRecv,
    {
        let batches: Vec<_> = items
            .chunks(BATCH_CALLS)
            .map(|chunk| async move {
                let mut batch = self.client().new_batch();
                let waiters = chunk
                    .iter()
                    .map(|item| batch.add_call::<P, R>(method, &params(item)))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| ChainError::Node(e.to_string()))?;
                batch.send().await.map_err(rpc_error)?;
                Ok::<_, ChainError>(futures::future::join_all(waiters).await)
            })
            .collect();
        let mut answers = Vec::with_capacity(items.len());
        let mut answered = futures::stream::iter(batches).buffered(BATCHES_IN_FLIGHT);
        while let Some(batch) = answered.next().await {
            answers.extend(batch?);
        }
        Ok(answers)
    }
}

/// Of a transaction, only who sent it (the rest of it is not needed, nor
/// trusted to parse on every network).
#[derive(Debug, serde::Deserialize)]
struct SenderOnly {
    from: Address,
}

/// ERC-1155 clients replace `{id}` with the id as 64 lowercase hex digits.
fn erc1155_uri(template: &str, id: U256) -> String {
    template.replace("{id}", &format!("{id:064x}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erc1155_uri_fills_the_id_as_64_hex_digits() {
        assert_eq!(
            erc1155_uri("https://x/{id}.json", U256::from(314)),
            format!("https://x/{}13a.json", "0".repeat(61))
        );
        assert_eq!(
            erc1155_uri("ipfs://cid/1.json", U256::from(1)),
            "ipfs://cid/1.json"
        );
    }
}
