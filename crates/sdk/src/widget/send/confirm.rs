//! Confirming a quote: the PIN opens the key, the device signs exactly what
//! was quoted, keeps the signed bytes, and has the service broadcast them.

use super::*;

impl Widget {
    /// Whether quote `id` can still be confirmed: kept (the newest few are),
    /// and younger than a quote may be.
    pub fn quote_is_fresh(&self, id: &str) -> bool {
        self.state
            .lock()
            .sends
            .quotes
            .iter()
            .any(|q| q.id == id && q.made.elapsed() < QUOTE_LIFETIME)
    }

    /// Signs a quote with the key the PIN opens and has the service broadcast
    /// it. The key lives only inside this call (its memory is wiped on drop).
    /// Settles the application's `send` `request_id` with the hash.
    pub async fn confirm_send(&self, confirm: ConfirmSend) -> Result<ActivityEntry, SdkError> {
        let quote = self
            .state
            .lock()
            .sends
            .quotes
            .iter()
            .find(|q| q.id == confirm.quote_id)
            .cloned()
            .filter(|q| q.made.elapsed() < QUOTE_LIFETIME)
            .ok_or_else(|| invalid("this quote has expired: review the send again"))?;
        let &(_, max_fee, priority) = quote
            .fees
            .iter()
            .find(|(speed, _, _)| *speed == confirm.speed)
            .ok_or_else(|| invalid("no such fee option"))?;
        if quote.high_fees.contains(&confirm.speed) && !confirm.accept_high_fee {
            return Err(invalid(
                "this fee is unusually high: confirm it on the review page, or choose another",
            ));
        }
        let is_cancel =
            quote.to == TxKind::Call(quote.from) && quote.value.is_zero() && quote.input.is_empty();
        if quote.value.is_zero() && quote.input.is_empty() && !is_cancel {
            return Err(invalid("enter an amount to send"));
        }
        let signer = self.unlock(&confirm.pin, quote.from).await?;
        let _one_at_a_time = self.confirming.lock().await;
        let nonce = self.state.lock().sends.nonce_for(&quote);
        if quote.to == TxKind::Create && nonce != quote.nonce {
            // The page named the address the nonce gives; another nonce would
            // put the contract elsewhere.
            return Err(invalid(
                "another transaction was sent from this account since this page was made, so the new contract's address would not be the one shown: reject it and deploy again",
            ));
        }
        let mut tx = TxEip1559 {
            chain_id: quote.chain_id,
            nonce,
            gas_limit: quote.gas_limit,
            max_fee_per_gas: max_fee,
            max_priority_fee_per_gas: priority,
            to: quote.to,
            value: quote.value,
            access_list: Default::default(),
            input: quote.input.clone(),
        };
        let signing = Step::start("sign");
        let (raw, hash) = blocking(move || {
            let signature = signer
                .sign_transaction_sync(&mut tx)
                .map_err(SdkError::unknown)?;
            drop(signer);
            let envelope: TxEnvelope = tx.into_signed(signature).into();
            Ok((envelope.encoded_2718(), *envelope.tx_hash()))
        })
        .await?;
        drop(signing);
        let raw_hex = format!("0x{}", hex::encode(&raw));
        // Kept before it is sent: a lost answer still leaves the device what it
        // signed, which any speed-up or cancel is built from.
        let (user_id, _) = self.require_login()?;
        let keeping = Step::start("keep what was signed");
        self.vault
            .remember_signed(
                &user_id,
                crate::keychain::SignedTransaction {
                    hash: format!("{hash:#x}"),
                    raw: raw_hex.clone(),
                },
            )
            .await?;
        drop(keeping);
        let record: TransactionRecord = {
            let _broadcast = Step::start("broadcast");
            self.login
                .authed(
                    Caller::Rest,
                    Method::POST,
                    "v1/transactions",
                    Some(&BroadcastRequest {
                        account_id: quote.account_id.clone(),
                        raw: raw_hex.clone(),
                    }),
                )
                .await?
        };
        {
            let sends = &mut self.state.lock().sends;
            sends.sent(quote.chain_id, quote.from, nonce);
            sends.take(&confirm.quote_id);
        }
        if let Some(id) = confirm.request_id {
            self.state.lock().sends.settle(
                id,
                Ok(SendResult {
                    tx_id: record.tx_hash.clone(),
                }),
            );
        }
        let signed = super::signed::read_signed(&raw_hex)
            .ok()
            .map(|(_, signed)| signed);
        self.activity_entry(record, &self.accounts().await?.accounts, signed.as_ref())?
            .ok_or_else(|| {
                SdkError::service(
                    ServiceErrorCode::ApiRequestError,
                    "the service recorded the transaction on an asset this app does not know",
                )
            })
    }
}
