//! The service's grouped NFT listing judged as it is parsed (see
//! [`JudgedNfts::judge`]): a serde `DeserializeSeed` over its JSON that reads
//! the collections, then turns each NFT into a [`JudgedNft`] the moment it is
//! parsed, so the service's form of thousands of NFTs is never held whole.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io;

use alloy::primitives::Address;
use satchel_api::{Account, GroupedNft, NftContract, ServiceErrorCode};
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};

use super::{JudgedNft, JudgedNfts, hidden, mapping, position};
use crate::client::unexpected_answer;
use crate::error::SdkError;
use crate::widget::picture_urls::PictureUrls;

/// See [`JudgedNfts::judge`].
pub(super) fn judge(
    json: impl io::Read,
    accounts: &[Account],
    networks: Option<&[String]>,
    known: &HashSet<Address>,
    vouched: impl Fn(&str, &str) -> bool,
    pictures: &PictureUrls,
) -> Result<JudgedNfts, SdkError> {
    let mut judging = Judging {
        accounts,
        networks,
        known,
        vouched,
        pictures,
        unkept: None,
        kinds: Vec::new(),
        holders: HashMap::new(),
        seen: HashSet::new(),
        judged: JudgedNfts::default(),
    };
    let mut reader = serde_json::Deserializer::from_reader(json);
    let read = serde::de::DeserializeSeed::deserialize(&mut judging, &mut reader)
        .and_then(|()| reader.end());
    if let Some(e) = judging.unkept {
        return Err(SdkError::service(
            ServiceErrorCode::UnknownError,
            format!("the NFTs' pictures cannot be kept on this device: {e}"),
        ));
    }
    read.map_err(unexpected_answer)?;
    // Some were left out: the listing is kept, its room is not.
    judging.judged.nfts.shrink_to_fit();
    Ok(judging.judged)
}

/// A listing being judged as it is read (see [`JudgedNfts::judge`]).
struct Judging<'a, F> {
    accounts: &'a [Account],
    networks: Option<&'a [String]>,
    known: &'a HashSet<Address>,
    vouched: F,
    pictures: &'a PictureUrls,
    /// Why a picture could not be kept, which ended the reading.
    unkept: Option<io::Error>,
    /// Each collection read: whether it is asked for, whether it is vouched for.
    kinds: Vec<(bool, bool)>,
    /// The service's account ids: their position in the judged holders, `None`
    /// for an account that is not one of the person's.
    holders: HashMap<String, Option<u32>>,
    seen: HashSet<String>,
    judged: JudgedNfts,
}

impl<F: Fn(&str, &str) -> bool> Judging<'_, F> {
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

    fn nft(&mut self, nft: GroupedNft) -> Result<(), &'static str> {
        let (selected, vouched) = usize::try_from(nft.collection)
            .ok()
            .and_then(|i| self.kinds.get(i))
            .copied()
            .ok_or("the service listed an NFT of a collection it did not list before it")?;
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
            url => match self.pictures.keep(url) {
                Ok(handle) => Some(handle),
                Err(e) => {
                    self.unkept = Some(e);
                    return Err("a picture could not be kept");
                }
            },
        };
        self.judged
            .nfts
            .push(JudgedNft::of(nft, holder, likely_spam, picture));
        Ok(())
    }
}

/// The listing's object: its collections, then its NFTs, each judged as read;
/// any other member is skipped.
impl<'de, F: Fn(&str, &str) -> bool> DeserializeSeed<'de> for &mut Judging<'_, F> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, F: Fn(&str, &str) -> bool> Visitor<'de> for &mut Judging<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an NFT listing grouped by collection")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(member) = map.next_key::<Cow<'de, str>>()? {
            match &*member {
                "collections" => {
                    let collections = map.next_value()?;
                    self.collections(collections).map_err(A::Error::custom)?;
                }
                "nfts" => map.next_value_seed(EachNft(&mut *self))?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// The listing's NFTs, each judged as it is read.
struct EachNft<'j, 'a, F>(&'j mut Judging<'a, F>);

impl<'de, F: Fn(&str, &str) -> bool> DeserializeSeed<'de> for EachNft<'_, '_, F> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, F: Fn(&str, &str) -> bool> Visitor<'de> for EachNft<'_, '_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of NFTs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(nft) = seq.next_element::<GroupedNft>()? {
            self.0.nft(nft).map_err(A::Error::custom)?;
        }
        Ok(())
    }
}
