//! Seaport orders (OpenSea's and most NFT markets' `OrderComponents`) said in
//! words: what the signer gives, what comes back to the signer, and what goes to
//! anyone else (fees, royalties, a buyer). An order that gives something and
//! brings the signer nothing back is the shape of a listing-phishing page, and
//! is shown in red.

use alloy::dyn_abi::{DynSolValue, TypedData};
use alloy::primitives::{Address, U256};
use serde::Serialize;

use super::permit::{TokenFacts, address_of, deadline, prop, uint_of};

/// What an item of an order is: Seaport's `ItemType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum OrderItemKind {
    /// The network's coin.
    Coin,
    Erc20,
    Erc721,
    Erc1155,
    /// Any ERC-721 of the collection (or of a list the order commits to).
    AnyErc721,
    /// Any ERC-1155 of the collection (or of a list).
    AnyErc1155,
}

/// One item an order moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OrderItem {
    pub kind: OrderItemKind,
    /// The token's contract (checksummed; the zero address for the coin).
    pub token: String,
    /// The NFT's id, for one NFT.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub token_id: Option<String>,
    /// In the token's smallest unit; the larger of the order's start and end
    /// amounts (a falling or rising price moves at most that).
    pub amount: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub symbol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub decimals: Option<u32>,
    /// Who receives it (for what others receive).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub recipient: Option<String>,
}

/// A Seaport order, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SeaportOrder {
    /// Whose assets the order offers (checksummed).
    pub offerer: String,
    /// What the signer gives.
    pub gives: Vec<OrderItem>,
    /// What comes back to the signer.
    pub receives: Vec<OrderItem>,
    /// What goes to anyone else: fees, royalties, a buyer.
    pub others_receive: Vec<OrderItem>,
    /// Seconds since 1970 until which it can be filled; none: for ever.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub until: Option<u64>,
    /// It gives something and brings the signer nothing back (red).
    pub gives_for_nothing: bool,
}

const MAX_ITEMS: usize = 64;

fn item(
    value: &DynSolValue,
    token: &impl Fn(Address) -> Option<TokenFacts>,
) -> Option<(OrderItem, Option<Address>)> {
    let kind = match uint_of(value, "itemType")?.0.to::<u64>() {
        0 => OrderItemKind::Coin,
        1 => OrderItemKind::Erc20,
        2 => OrderItemKind::Erc721,
        3 => OrderItemKind::Erc1155,
        4 => OrderItemKind::AnyErc721,
        5 => OrderItemKind::AnyErc1155,
        _ => return None,
    };
    let contract = address_of(value, "token")?;
    let id = uint_of(value, "identifierOrCriteria")?.0;
    let start = uint_of(value, "startAmount")?.0;
    let end = uint_of(value, "endAmount")?.0;
    let facts = match kind {
        OrderItemKind::Erc20 => token(contract),
        _ => None,
    };
    let one_nft = matches!(kind, OrderItemKind::Erc721 | OrderItemKind::Erc1155);
    let recipient = address_of(value, "recipient");
    Some((
        OrderItem {
            kind,
            token: contract.to_checksum(None),
            token_id: one_nft.then(|| id.to_string()),
            amount: start.max(end).to_string(),
            symbol: match kind {
                OrderItemKind::Coin => None,
                _ => facts.as_ref().map(|f| f.symbol.clone()),
            },
            decimals: match kind {
                OrderItemKind::Coin => Some(18),
                _ => facts.map(|f| f.decimals),
            },
            recipient: recipient.map(|r| r.to_checksum(None)),
        },
        recipient,
    ))
}

fn items<'a>(message: &'a DynSolValue, name: &str) -> Option<Vec<&'a DynSolValue>> {
    match prop(message, name)? {
        DynSolValue::Array(items) if items.len() <= MAX_ITEMS => Some(items.iter().collect()),
        _ => None,
    }
}

/// The Seaport order this typed data is, with its offerer; `None` for any
/// other typed data (or an order too malformed to read, shown as a tree).
pub(super) fn order_of(
    data: &TypedData,
    message: &DynSolValue,
    token: &impl Fn(Address) -> Option<TokenFacts>,
) -> Option<(SeaportOrder, Address)> {
    if data.domain.name.as_deref() != Some("Seaport") || data.primary_type != "OrderComponents" {
        return None;
    }
    let offerer = address_of(message, "offerer")?;
    let gives = items(message, "offer")?
        .into_iter()
        .map(|i| {
            item(i, token).map(|(item, _)| OrderItem {
                recipient: None,
                ..item
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let mut receives = Vec::new();
    let mut others_receive = Vec::new();
    for value in items(message, "consideration")? {
        let (item, recipient) = item(value, token)?;
        if recipient == Some(offerer) {
            receives.push(OrderItem {
                recipient: None,
                ..item
            });
        } else {
            others_receive.push(item);
        }
    }
    let until = deadline(uint_of(message, "endTime")?.0);
    let worth = |items: &[OrderItem]| {
        items
            .iter()
            .any(|i| i.amount.parse::<U256>().is_ok_and(|a| !a.is_zero()))
    };
    Some((
        SeaportOrder {
            offerer: offerer.to_checksum(None),
            gives_for_nothing: worth(&gives) && !worth(&receives),
            gives,
            receives,
            others_receive,
            until,
        },
        offerer,
    ))
}
