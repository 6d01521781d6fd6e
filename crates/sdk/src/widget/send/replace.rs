//! Replacements of a pending transaction: a speed-up or a cancel, quoted at the
//! same nonce with fees the node takes as a replacement.

use alloy::consensus::Transaction as _;

use super::signed::{Signed, read_signed};
use super::*;

impl Widget {
    /// Quotes a speed-up or cancel of one of the wallet's pending transactions:
    /// the same nonce, fees the node accepts as a replacement.
    pub async fn prepare_replacement(
        &self,
        tx_hash: &str,
        action: ReplaceAction,
    ) -> Result<SendQuote, SdkError> {
        let record: TransactionRecord = self
            .login
            .authed(
                Caller::Rest,
                Method::GET,
                &format!("v1/transactions/{tx_hash}"),
                None,
            )
            .await?;
        if record.status != TransactionStatus::Pending
            || record.direction != TransactionDirection::Sent
        {
            return Err(invalid(
                "only a pending transaction you sent can be replaced",
            ));
        }
        // What is replaced is what this device signed, never the service's record
        // of it: a service that rewrote the recipient or amount gets nothing.
        let (user_id, _) = self.require_login()?;
        let signed = self.vault.signed(&user_id, tx_hash).await?.ok_or_else(|| {
            invalid("this device did not sign that transaction, so it cannot replace it")
        })?;
        // A token transfer is (recipient, amount) of the contract it calls; a
        // coin transfer is (recipient, value). Anything else (a contract call,
        // a deployment) can be cancelled, which needs only its nonce, but not
        // sped up: the device would have to sign the call again unread.
        let (original, signed) = read_signed(&signed.raw)?;
        let (signed_to, signed_amount, signed_contract) = match (action, signed) {
            (
                _,
                Signed::Transfer {
                    to,
                    amount,
                    contract,
                },
            ) => (to, amount, contract),
            (ReplaceAction::Cancel, _) => (Address::ZERO, U256::ZERO, None),
            (ReplaceAction::SpeedUp, _) => {
                return Err(invalid(
                    "only a transfer can be sped up; a contract call or a deployment can be cancelled",
                ));
            }
        };
        let entry = self
            .accounts()
            .await?
            .accounts
            .into_iter()
            .find(|a| {
                a.account_id == record.account_id
                    && a.contract.as_deref().map(str::to_lowercase)
                        == signed_contract.map(|c| format!("{c:#x}"))
            })
            .ok_or_else(|| invalid("not one of your accounts"))?;
        let coin = self.coin_of(&entry).await?;
        let from: Address = entry
            .address
            .parse()
            .map_err(|_| invalid("not one of your accounts"))?;
        // A cancel sends nothing to itself; a speed-up the same transfer again.
        let (to, amount, contract) = match action {
            ReplaceAction::Cancel => (from, U256::ZERO, None),
            ReplaceAction::SpeedUp => (signed_to, signed_amount, signed_contract),
        };
        let (tx_to, value, input) = transfer_parts(to, amount, contract);
        let (entry, coin) = match action {
            ReplaceAction::Cancel => (coin.clone(), coin),
            ReplaceAction::SpeedUp => (entry, coin),
        };
        let prepared = self
            .prepare(&PrepareRequest {
                account_id: entry.account_id.clone(),
                contract: entry.contract.clone(),
                to: to.to_checksum(None),
                amount: amount.to_string(),
                replaces: Some(record.tx_hash.clone()),
            })
            .await?;
        if prepared.nonce != original.nonce() {
            return Err(invalid(
                "the service quoted another nonce than the transaction's: a replacement must reuse it",
            ));
        }
        let (max_fee, priority) = fee_caps(&prepared.fees.fast)?;
        self.quote(
            &prepared,
            QuoteParts {
                entry: &entry,
                coin: &coin,
                to,
                amount,
                tx_to: TxKind::Call(tx_to),
                value,
                input,
                fees: vec![(FeeSpeed::Fast, max_fee, priority)],
                replaces: Some(Replacement {
                    tx_hash: record.tx_hash,
                    action,
                }),
            },
        )
        .await
    }
}
