//! EIP-5792, a batch of calls on one page: `wallet_getCapabilities` (what
//! Satchel can do with a batch: `atomic` unsupported, said honestly),
//! `wallet_sendCalls` (one page, the calls sent one after another),
//! `wallet_getCallsStatus` and `wallet_showCallsStatus` (the batches a site
//! sent, [`crate::batches`]).

use serde_json::{Value, json};

use super::{Methods, hex};
use crate::batches::{self, SentBatch};
use crate::origin::Origin;
use crate::review::calls;
use crate::rpc::ProviderError;
use crate::wallet::{Answer, Ask, Wallet};

impl<W: Wallet> Methods<W> {
    /// Answers one of the four EIP-5792 methods of `origin`.
    pub(super) async fn eip5792(
        &self,
        origin: &Origin,
        method: &str,
        params: &Value,
    ) -> Result<Value, ProviderError> {
        match method {
            "wallet_getCapabilities" => {
                let (accounts, _) = self.signing_context(origin).await?;
                if let Some(asked) = params.get(0).filter(|a| !a.is_null()) {
                    crate::review::account_param(Some(asked), &accounts)?;
                }
                let served = self.wallet.networks().into_iter().map(|(_, id)| id);
                let wanted: Option<Vec<String>> =
                    params.get(1).and_then(Value::as_array).map(|ids| {
                        ids.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_ascii_lowercase)
                            .collect()
                    });
                Ok(calls::capabilities(served.filter(|id| {
                    wanted.as_ref().is_none_or(|w| w.contains(&hex(*id)))
                })))
            }
            "wallet_sendCalls" => {
                let (accounts, chain_id) = self.signing_context(origin).await?;
                let (network, _) = self.network_of(origin)?;
                let batch = calls::send_calls(params, &accounts, &network, chain_id, |c| {
                    self.wallet.token(&network, c)
                })?;
                if self.batches.knows(origin, &batch.id) {
                    return Err(ProviderError::eip5792(
                        calls::codes::DUPLICATE_ID,
                        format!("a batch {:?} was sent already", batch.id),
                    ));
                }
                let (id, count) = (batch.id.clone(), batch.calls.len());
                match self.ask(origin, Ask::SendCalls(batch)).await? {
                    Answer::SentCalls { hashes, .. } => {
                        self.batches.keep(SentBatch {
                            origin: origin.clone(),
                            id: id.clone(),
                            network,
                            chain_id,
                            calls: count,
                            hashes,
                        });
                        Ok(json!({ "id": id }))
                    }
                    _ => Err(ProviderError::internal("nothing was sent")),
                }
            }
            "wallet_getCallsStatus" => {
                self.require_connected(origin)?;
                let batch = self.batches.get(origin, &batch_id(params)?)?;
                let mut receipts = Vec::with_capacity(batch.hashes.len());
                for hash in &batch.hashes {
                    let receipt = self
                        .wallet
                        .read(&batch.network, "eth_getTransactionReceipt", json!([hash]))
                        .await?;
                    receipts.push(Some(receipt).filter(|r| !r.is_null()));
                }
                Ok(batches::status(&batch, &receipts))
            }
            "wallet_showCallsStatus" => {
                self.require_connected(origin)?;
                self.batches.get(origin, &batch_id(params)?)?;
                self.wallet.show_activity();
                Ok(Value::Null)
            }
            other => Err(ProviderError::method_not_found(other)),
        }
    }
}

/// The batch id `wallet_getCallsStatus` and `wallet_showCallsStatus` name.
fn batch_id(params: &Value) -> Result<String, ProviderError> {
    params
        .get(0)
        .and_then(Value::as_str)
        .filter(|id| id.len() <= calls::MAX_ID)
        .map(str::to_owned)
        .ok_or_else(|| ProviderError::invalid_params("expected [id]"))
}
