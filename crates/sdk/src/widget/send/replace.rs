//! Replacements of a pending transaction: a speed-up or a cancel, quoted at the
//! same nonce with fees the node takes as a replacement.

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
        let entry = self
            .accounts()
            .await?
            .accounts
            .into_iter()
            .find(|a| {
                a.account_id == record.account_id
                    && a.contract.as_deref().map(str::to_lowercase)
                        == record.contract.as_deref().map(str::to_lowercase)
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
            ReplaceAction::SpeedUp => (
                check_address(&record.counterparty)?,
                wei(&record.amount, "amount")?,
                entry
                    .contract
                    .as_deref()
                    .map(str::parse::<Address>)
                    .transpose()
                    .map_err(|_| invalid("the token's contract does not parse"))?,
            ),
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
        let (max_fee, priority) = fee_caps(&prepared.fees.fast)?;
        self.quote(
            &prepared,
            QuoteParts {
                entry: &entry,
                coin: &coin,
                to,
                amount,
                tx_to,
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
