//! The service's grouped NFT listing judged as it comes: its chunks are
//! scanned for its parts ([`scan`](super::scan)), and each NFT is parsed and
//! judged into a [`JudgedNft`] the moment it is whole, so neither the answer's
//! text nor the service's form of thousands of NFTs is ever held whole.

use std::collections::{HashMap, HashSet};

use alloy::primitives::Address;
use satchel_api::{Account, GroupedNft, NftContract, ServiceErrorCode};

use super::scan::{Part, Scan};
use super::{JudgedNft, JudgedNfts, hidden, mapping, position};
use crate::client::unexpected_answer;
use crate::error::SdkError;
use crate::widget::picture_urls::PictureUrls;

/// A listing (a [`satchel_api::NftsGrouped`]) being judged as it comes: what
/// `networks` selects (all when `None`), held by one of `accounts`, spam unless
/// one of `known` sent it or the app vouches for its collection (`vouched`);
/// each NFT's picture allowed as it is read (kept in `pictures`). A listing
/// naming a collection it has not listed before it is the service's error,
/// refused whole.
pub(in crate::widget) struct Judging<'a, F> {
    accounts: &'a [Account],
    networks: Option<&'a [String]>,
    known: &'a HashSet<Address>,
    vouched: F,
    pictures: &'a PictureUrls,
    scan: Scan,
    /// Each collection read: whether it is asked for, whether it is vouched for.
    kinds: Vec<(bool, bool)>,
    /// The service's account ids: their position in the judged holders, `None`
    /// for an account that is not one of the person's.
    holders: HashMap<String, Option<u32>>,
    seen: HashSet<String>,
    judged: JudgedNfts,
}

impl<'a, F: Fn(&str, &str) -> bool> Judging<'a, F> {
    pub(super) fn new(
        accounts: &'a [Account],
        networks: Option<&'a [String]>,
        known: &'a HashSet<Address>,
        vouched: F,
        pictures: &'a PictureUrls,
    ) -> Self {
        Self {
            accounts,
            networks,
            known,
            vouched,
            pictures,
            scan: Scan::default(),
            kinds: Vec::new(),
            holders: HashMap::new(),
            seen: HashSet::new(),
            judged: JudgedNfts::default(),
        }
    }

    /// Takes in the listing's next chunk, judging each NFT it completes.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), SdkError> {
        let mut scan = std::mem::take(&mut self.scan);
        let fed = scan.feed(chunk, |part| self.part(part), unexpected_answer);
        self.scan = scan;
        fed
    }

    /// The judged listing, once all of it came.
    pub fn finish(mut self) -> Result<JudgedNfts, SdkError> {
        self.scan.finish().map_err(unexpected_answer)?;
        // Some were left out: the listing is kept, its room is not.
        self.judged.nfts.shrink_to_fit();
        Ok(self.judged)
    }

    fn part(&mut self, part: Part<'_>) -> Result<(), SdkError> {
        match part {
            Part::Collections(json) => {
                let collections = serde_json::from_slice(json).map_err(unexpected_answer)?;
                self.collections(collections).map_err(unexpected_answer)
            }
            Part::Nft(json) => self.nft(serde_json::from_slice(json).map_err(unexpected_answer)?),
        }
    }

    fn collections(&mut self, collections: Vec<NftContract>) -> Result<(), &'static str> {
        if !self.kinds.is_empty() || !self.judged.nfts.is_empty() {
            return Err("the service listed the collections after NFTs or twice");
        }
        for c in &collections {
            self.kinds.push((
                mapping::network_selected(self.networks, &c.network),
                (self.vouched)(&c.network, &c.address),
            ));
            self.judged
                .collections
                .push(mapping::service_nft_contract(c));
        }
        Ok(())
    }

    fn nft(&mut self, nft: GroupedNft) -> Result<(), SdkError> {
        let (selected, vouched) = usize::try_from(nft.collection)
            .ok()
            .and_then(|i| self.kinds.get(i))
            .copied()
            .ok_or_else(|| {
                unexpected_answer(
                    "the service listed an NFT of a collection it did not list before it",
                )
            })?;
        if !selected {
            return Ok(());
        }
        let (accounts, holders) = (self.accounts, &mut self.judged.holders);
        let holder = *self
            .holders
            .entry(nft.account_id.clone())
            .or_insert_with(|| {
                holders.push(mapping::nft_holder(&nft.account_id, accounts)?);
                Some(position(holders.len() - 1))
            });
        // Not one of the person's accounts; an id seen before (an id names
        // one NFT: the first).
        let Some(holder) = holder else { return Ok(()) };
        if !self.seen.insert(nft.id.clone()) {
            return Ok(());
        }
        let likely_spam = hidden::likely_spam(nft.received.as_ref(), vouched, self.known);
        // Allowed as it is read: were the listing refused further on, its NFTs
        // read so far are still the person's, listed by the service.
        let picture = match &*nft.image_url {
            "" => None,
            url => Some(self.pictures.keep(url).map_err(|e| {
                SdkError::service(
                    ServiceErrorCode::UnknownError,
                    format!("the NFTs' pictures cannot be kept on this device: {e}"),
                )
            })?),
        };
        self.judged
            .nfts
            .push(JudgedNft::of(nft, holder, likely_spam, picture));
        Ok(())
    }
}
