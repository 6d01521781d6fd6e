//! Refreshing a wallet's NFTs with their metadata from the chain on a user's
//! request (operation 4, `GET /v1/nft/refresh`; there is no background indexer;
//! balances are [`super::balances`]). Results are stored, so the listing
//! operation (`GET /v1/nft`) answers from the database without touching a node.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use futures::StreamExt;
use satchel_api::NftScheme;
use satchel_chain::metadata::MediaKind;
use satchel_chain::{Address, B256, NftArrival, NftKind, NftRef, U256};

use crate::assets::views::{self, lower_hex};
use crate::db::{AccountRow, StoredArrival, StoredCollection, StoredNft};
use crate::error::{ApiError, ApiResult};
use crate::state::{AppState, Network};

/// How many metadata documents are read at once.
const METADATA_CONCURRENCY: usize = 8;
/// Log windows one NFT refresh scans; a longer history (a first scan on a
/// public chain) continues on the next refresh, from the saved checkpoint.
const SCAN_WINDOWS_PER_REFRESH: u64 = 10;
/// Metadata documents one refresh reads per account (new NFTs, and ones whose
/// metadata could not be read before); the rest wait for the next refresh.
const METADATA_PER_REFRESH: usize = 100;

pub(crate) fn network_of<'a>(state: &'a AppState, account: &AccountRow) -> ApiResult<&'a Network> {
    state.network(&account.network).ok_or_else(|| {
        ApiError::new(
            axum::http::StatusCode::NOT_FOUND,
            satchel_api::ServiceErrorCode::NotInitializedNetwork,
            format!("network {} is not served by this service", account.network),
        )
    })
}

pub(crate) fn parse_address(hex: &str) -> ApiResult<Address> {
    hex.parse()
        .map_err(|_| ApiError::internal(format!("stored address {hex} does not parse")))
}

/// Operation 4 (`GET /v1/nft/refresh`): finds NFTs sent to each of the wallet's
/// accounts since the last scan, re-checks what each account holds now, re-reads
/// metadata and stores it all, then renders the wallet's listing.
pub async fn refresh_nfts(state: &AppState, wallet_id: &str) -> ApiResult<RenderedListing> {
    let (accounts, _) = state.db.wallet_accounts(wallet_id).await?;
    let scans = accounts
        .iter()
        .filter(|account| state.network(&account.network).is_some())
        .map(|account| refresh_account_nfts(state, account));
    for result in futures::future::join_all(scans).await {
        result?;
    }
    render_nft_listing(state, wallet_id).await
}

/// A wallet's NFT list as operations 3 and 4 answer it, in JSON: in the spec's
/// shape, and grouped by collection ([`satchel_api::NftsGrouped`]).
pub struct RenderedListing {
    pub spec: String,
    pub grouped: String,
}

/// Renders the wallet's NFT list (the body of operation 3, `GET /v1/nft`) from what
/// is stored, and stores the rendering so operation 3 reads one row however many
/// NFTs there are.
pub async fn render_nft_listing(state: &AppState, wallet_id: &str) -> ApiResult<RenderedListing> {
    let rows = state.db.wallet_nfts(wallet_id).await?;
    let listing = satchel_api::NftsResponse {
        nfts: rows.into_iter().map(views::nft).collect(),
    };
    let spec = serde_json::to_string(&listing).map_err(ApiError::internal)?;
    let grouped = satchel_api::NftsGrouped::group(listing);
    let grouped = serde_json::to_string(&grouped).map_err(ApiError::internal)?;
    state
        .db
        .store_nft_listing(wallet_id, &spec, &grouped)
        .await?;
    Ok(RenderedListing { spec, grouped })
}

async fn refresh_account_nfts(state: &AppState, account: &AccountRow) -> ApiResult<()> {
    let network = network_of(state, account)?;
    let config = &network.config;
    let chain = &network.chain;
    let upstream = |e| ApiError::upstream(&config.name, e);
    let owner = parse_address(&account.address)?;

    let latest = chain.block_number().await.map_err(upstream)?;
    let from = match state.db.nft_checkpoint(&account.id).await? {
        Some(next) => u64::try_from(next).unwrap_or(0),
        None => config.nft_start_block,
    };
    let window = config.log_window.max(1);
    let scan_to =
        latest.min(from.saturating_add(window.saturating_mul(SCAN_WINDOWS_PER_REFRESH)) - 1);
    let found: BTreeMap<NftRef, NftArrival> = if from <= scan_to {
        chain
            .nft_transfers_to(owner, from, scan_to, window)
            .await
            .map_err(upstream)?
            .into_iter()
            .map(|arrival| (arrival.nft, arrival))
            .collect()
    } else {
        BTreeMap::new()
    };
    // What was stored before: candidates to re-check, and the metadata to keep for
    // any NFT whose metadata cannot be read this time.
    let known: HashMap<(String, String), StoredNft> = state
        .db
        .account_nfts(&account.id)
        .await?
        .into_iter()
        .map(|nft| ((nft.contract.clone(), nft.token_id.clone()), nft))
        .collect();
    // What was held before comes first; new finds fill the rest of the
    // account's allowance (a spam TransferBatch of thousands of ids cannot push
    // out what the person holds, nor grow the list without bound).
    let max_nfts = state.settings.max_nfts_per_account;
    let mut candidates: BTreeSet<NftRef> = known
        .values()
        .filter_map(|nft| {
            Some(NftRef {
                contract: nft.contract.parse().ok()?,
                token_id: U256::from_str_radix(&nft.token_id, 10).ok()?,
                kind: if nft.scheme == NftScheme::Erc1155 as i64 {
                    NftKind::Erc1155
                } else {
                    NftKind::Erc721
                },
            })
        })
        .take(max_nfts)
        .collect();
    for nft in found.keys().copied() {
        if candidates.len() >= max_nfts {
            tracing::info!(account = %account.id, max_nfts, "NFT allowance full; new finds skipped");
            break;
        }
        candidates.insert(nft);
    }
    let candidates: Vec<NftRef> = candidates.into_iter().collect();

    let quantities = chain
        .nft_quantities(owner, &candidates)
        .await
        .map_err(upstream)?;
    let held: Vec<(NftRef, i64)> = candidates
        .iter()
        .zip(&quantities)
        .filter(|(_, q)| !q.is_zero())
        .map(|(nft, q)| (*nft, i64::try_from(*q).unwrap_or(i64::MAX)))
        .collect();
    let held_refs: Vec<NftRef> = held.iter().map(|(nft, _)| *nft).collect();
    let key_of = |nft: &NftRef| (lower_hex(&nft.contract), nft.token_id.to_string());
    // Metadata is read for new NFTs and for ones whose metadata could not be read
    // before, at most METADATA_PER_REFRESH of them (their URIs too); the others
    // keep what was read.
    let to_describe: Vec<NftRef> = held_refs
        .iter()
        .filter(|nft| known.get(&key_of(nft)).is_none_or(|k| k.state != 1))
        .take(METADATA_PER_REFRESH)
        .copied()
        .collect();
    let uris = chain
        .nft_metadata_uris(&to_describe)
        .await
        .map_err(upstream)?;
    let read: Vec<_> = futures::stream::iter(uris.into_iter().map(|uri| {
        let fetcher = state.metadata.clone();
        async move {
            match fetcher.fetch(&uri?).await {
                Ok(meta) => Some(meta),
                Err(e) => {
                    tracing::info!(error = %e, "NFT metadata could not be read");
                    None
                }
            }
        }
    }))
    .buffered(METADATA_CONCURRENCY)
    .collect()
    .await;
    let mut described: HashMap<NftRef, _> = to_describe.into_iter().zip(read).collect();
    let mut arrivals = arrivals_of(chain, &found, &held_refs)
        .await
        .map_err(upstream)?;

    // Only what changed is written: new NFTs, new quantities, new metadata.
    let mut stored: Vec<StoredNft> = held
        .iter()
        .filter_map(|(nft, quantity)| {
            let key = key_of(nft);
            let arrival = arrivals.remove(nft).unwrap_or_default();
            let (meta, state) = match (described.remove(nft).flatten(), known.get(&key)) {
                (Some(meta), _) => (meta, 1),
                (None, Some(before))
                    if before.quantity == *quantity && arrival.received_from.is_none() =>
                {
                    return None;
                }
                (None, Some(before)) => {
                    return Some(StoredNft {
                        quantity: *quantity,
                        arrival,
                        ..before.clone()
                    });
                }
                (None, None) => (untitled(nft), 2),
            };
            Some(StoredNft {
                network: config.name.clone(),
                contract: key.0,
                token_id: key.1,
                scheme: scheme_of(nft.kind),
                quantity: *quantity,
                name: meta.name,
                description: meta.description,
                external_link: meta.external_link,
                image_url: meta.image_url,
                content_url: meta.content_url,
                content_type: if meta.media == MediaKind::Video { 2 } else { 1 },
                state,
                arrival,
            })
        })
        .collect();
    // What the account no longer holds is stored with quantity 0, which drops it.
    stored.extend(
        candidates
            .iter()
            .zip(&quantities)
            .filter(|(nft, q)| q.is_zero() && known.contains_key(&key_of(nft)))
            .map(|(nft, _)| StoredNft {
                network: config.name.clone(),
                contract: lower_hex(&nft.contract),
                token_id: nft.token_id.to_string(),
                scheme: scheme_of(nft.kind),
                quantity: 0,
                name: String::new(),
                description: String::new(),
                external_link: String::new(),
                image_url: String::new(),
                content_url: None,
                content_type: 1,
                state: 1,
                arrival: StoredArrival::default(),
            }),
    );

    let collections = describe_collections(state, network, &held_refs).await?;
    let next_block = i64::try_from(scan_to.max(from.saturating_sub(1)).saturating_add(1)).ok();
    state
        .db
        .store_account_nfts(&account.id, &stored, &collections, next_block)
        .await?;
    Ok(())
}

/// How each NFT of `held` found in this scan came: the transfer's sender and
/// transaction from its log, and the transaction's sender from the node (one
/// batched read per distinct transaction; `held` is bounded by the account's
/// allowance).
async fn arrivals_of(
    chain: &satchel_chain::Chain,
    found: &BTreeMap<NftRef, NftArrival>,
    held: &[NftRef],
) -> satchel_chain::Result<HashMap<NftRef, StoredArrival>> {
    let arrived: Vec<&NftArrival> = held.iter().filter_map(|nft| found.get(nft)).collect();
    let hashes: Vec<B256> = arrived
        .iter()
        .map(|a| a.tx_hash)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let senders: HashMap<B256, Option<Address>> = hashes
        .iter()
        .copied()
        .zip(chain.transaction_senders(&hashes).await?)
        .collect();
    Ok(arrived
        .into_iter()
        .map(|a| {
            let arrival = StoredArrival {
                received_from: Some(lower_hex(&a.from)),
                received_by: senders
                    .get(&a.tx_hash)
                    .copied()
                    .flatten()
                    .map(|by| lower_hex(&by)),
                received_tx: Some(format!("{:#x}", a.tx_hash)),
            };
            (a.nft, arrival)
        })
        .collect())
}

/// The collection facts of each contract the account holds something of.
async fn describe_collections(
    state: &AppState,
    network: &Network,
    held: &[NftRef],
) -> ApiResult<Vec<StoredCollection>> {
    let contracts: BTreeMap<Address, NftKind> = held.iter().map(|n| (n.contract, n.kind)).collect();
    let addresses: Vec<Address> = contracts.keys().copied().collect();
    let facts = network
        .chain
        .nft_collections(&addresses)
        .await
        .map_err(|e| ApiError::upstream(&network.config.name, e))?;
    let mut out = Vec::with_capacity(addresses.len());
    for ((address, kind), facts) in contracts.into_iter().zip(facts) {
        let meta = match facts.contract_uri.as_deref() {
            Some(uri) => state.metadata.fetch(uri).await.ok(),
            None => None,
        };
        let name = facts
            .name
            .or_else(|| meta.as_ref().map(|m| m.name.clone()))
            .unwrap_or_default();
        out.push(StoredCollection {
            network: network.config.name.clone(),
            address: lower_hex(&address),
            scheme: scheme_of(kind),
            description: meta
                .as_ref()
                .map(|m| m.description.clone())
                .filter(|d| !d.is_empty())
                .unwrap_or_else(|| name.clone()),
            name,
            external_link: meta
                .as_ref()
                .map(|m| m.external_link.clone())
                .unwrap_or_default(),
            image_url: meta.map(|m| m.image_url).unwrap_or_default(),
        });
    }
    Ok(out)
}

/// What an NFT whose metadata cannot be read is shown as.
fn untitled(nft: &NftRef) -> satchel_chain::NftMetadata {
    satchel_chain::NftMetadata {
        name: format!("#{}", nft.token_id),
        description: String::new(),
        image_url: String::new(),
        external_link: String::new(),
        content_url: None,
        media: MediaKind::Image,
    }
}

fn scheme_of(kind: NftKind) -> i64 {
    match kind {
        NftKind::Erc721 => NftScheme::Erc721 as i64,
        NftKind::Erc1155 => NftScheme::Erc1155 as i64,
    }
}
