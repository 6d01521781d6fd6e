//! The wallet's activity as the page shows it: what it sent (with status) and
//! the token transfers it received.

use std::collections::{HashMap, HashSet};

use super::signed::{Signed, read_signed};
use super::*;

impl Widget {
    /// The wallet's activity, newest first: what it sent (with status) and the
    /// token transfers it received.
    pub async fn get_activity(&self) -> Result<Vec<ActivityEntry>, SdkError> {
        let (user_id, wallet_id) = self.require_login()?;
        let list: TransactionList = self
            .login
            .authed(
                Caller::Rest,
                Method::GET,
                &format!("v1/transactions?userId={user_id}&walletId={wallet_id}"),
                None,
            )
            .await?;
        let accounts = self.accounts().await?.accounts;
        // What this device signed, read from its own bytes: only what the list
        // names is decoded (the page reads the list every 3 s while one is
        // pending; a deployment's read recovers its signer).
        let listed: HashSet<String> = list
            .transactions
            .iter()
            .filter(|r| r.direction == TransactionDirection::Sent)
            .map(|r| r.tx_hash.to_lowercase())
            .collect();
        let signed: HashMap<String, Signed> = self
            .vault
            .all_signed(&user_id)
            .await?
            .into_iter()
            .filter_map(|kept| {
                let hash = kept.hash.to_lowercase();
                if !listed.contains(&hash) {
                    return None;
                }
                let (_, signed) = read_signed(&kept.raw).ok()?;
                Some((hash, signed))
            })
            .collect();
        list.transactions
            .into_iter()
            .filter_map(|record| {
                let signed = signed.get(&record.tx_hash.to_lowercase());
                self.activity_entry(record, &accounts, signed).transpose()
            })
            .collect()
    }

    /// One entry of the activity list, its amounts scaled by the decimals of
    /// this app's network table; `None` for an asset the table does not know (the
    /// service's decimals could make a dust transfer read as a fortune).
    /// `signed`: what this device signed under its hash, if it did: a contract
    /// call or deployment is named from that, not from the service's record.
    pub(super) fn activity_entry(
        &self,
        record: TransactionRecord,
        accounts: &[Account],
        signed: Option<&Signed>,
    ) -> Result<Option<ActivityEntry>, SdkError> {
        let Some((symbol, decimals)) = self
            .networks
            .asset(&record.network, record.contract.as_deref())
        else {
            return Ok(None);
        };
        let (symbol, decimals) = (symbol.to_owned(), decimals);
        let coin = accounts
            .iter()
            .find(|a| a.account_id == record.account_id && a.contract.is_none());
        let address = coin.map(|c| c.address.clone()).unwrap_or_default();
        let coin_decimals = coin.map_or(18, |c| c.decimals);
        let is_cancel = record.direction == TransactionDirection::Sent
            && record.contract.is_none()
            && record.amount == "0"
            && record.counterparty.eq_ignore_ascii_case(&address);
        let sent = record.direction == TransactionDirection::Sent;
        let mut nft = None;
        let (kind, counterparty) = match signed.filter(|_| sent) {
            Some(&Signed::Deployment { address }) => {
                (ActivityKind::Deployment, address.to_checksum(None))
            }
            Some(&Signed::Nft {
                to,
                contract,
                id,
                amount,
            }) => {
                nft = Some(NftSent {
                    contract: contract.to_checksum(None),
                    token_id: id.to_string(),
                    amount: amount.to_string(),
                });
                (ActivityKind::NftTransfer, to.to_checksum(None))
            }
            Some(&Signed::Call { to }) => (ActivityKind::ContractCall, to.to_checksum(None)),
            _ => (ActivityKind::Transfer, record.counterparty),
        };
        Ok(Some(ActivityEntry {
            amount: format_units(&record.amount, decimals)?,
            fee: record
                .fee
                .as_deref()
                .map(|f| format_units(f, coin_decimals))
                .transpose()?,
            coin_symbol: coin.map(|c| c.symbol.clone()).unwrap_or_default(),
            tx_hash: record.tx_hash,
            network: record.network,
            address,
            direction: record.direction,
            status: record.status,
            counterparty,
            contract: record.contract,
            symbol,
            nonce: record.nonce,
            block_number: record.block_number,
            created_at: record.created_at,
            replaced_by: record.replaced_by,
            is_cancel,
            kind,
            nft,
        }))
    }
}
