//! What the local provider needs from the widget ([`Wallet`]): its accounts,
//! networks and tokens, reads relayed through the service, and each ask
//! put in the queue for the person (a transaction prepared, a suggested token
//! read, before its page shows).

use alloy::primitives::Address;
use satchel_connect::review::transaction::TransactionToSend;
use satchel_connect::{Answer, Ask, Origin, ProviderError, TokenFacts, Wallet};
use satchel_sdk::{CallQuote, SdkError};
use serde_json::Value;
use tokio::sync::{oneshot, watch};

use super::prompts::{ConnectPrompt, Prepared, PromptRequest};
use super::{Abandoned, Dapps, MAX_WAITING, Waiting};

impl Dapps {
    pub(super) async fn prepare(&self, tx: &TransactionToSend) -> Result<CallQuote, SdkError> {
        self.widget
            .prepare_call_with_gas(
                &tx.network,
                tx.from,
                tx.to,
                tx.value,
                tx.data.clone(),
                tx.gas,
            )
            .await
    }
}

impl Wallet for Dapps {
    async fn accounts(&self) -> Vec<String> {
        self.widget.connected_addresses().await
    }

    fn networks(&self) -> Vec<(String, u64)> {
        self.widget
            .network_table()
            .networks
            .iter()
            .map(|n| (n.name.clone(), n.chain_id))
            .collect()
    }

    fn changes(&self) -> watch::Receiver<u64> {
        self.logins.subscribe()
    }

    fn show_activity(&self) {
        (self.show)();
    }

    fn switched(&self, origin: &Origin, network: &str, chain_id: u64) {
        self.tell_switch(origin, network, chain_id);
    }

    fn token(&self, network: &str, contract: Address) -> Option<TokenFacts> {
        let (symbol, decimals) = self
            .widget
            .known_asset(network, Some(&contract.to_string()))?;
        Some(TokenFacts { symbol, decimals })
    }

    async fn read(
        &self,
        network: &str,
        method: &str,
        params: Value,
    ) -> Result<Value, ProviderError> {
        self.widget
            .relay_read(network, method, params)
            .await
            .map_err(|refusal| match refusal.code {
                -32602 => ProviderError::invalid_params(refusal.message),
                // A revert, with its bytes: the dapp decodes its contract's error.
                3 => ProviderError::reverted(refusal.message, refusal.data.as_ref()),
                _ => ProviderError::internal(refusal.message),
            })
    }

    async fn next_head(&self, network: &str, after: Option<u64>) -> Result<Value, ProviderError> {
        self.widget
            .next_head(network, after)
            .await
            .map_err(|refusal| ProviderError::internal(refusal.message))
    }

    async fn ask(&self, origin: &Origin, ask: Ask) -> Result<Answer, ProviderError> {
        // A transaction is prepared (fees, simulation) before its page shows; one
        // that would fail shows why, with only Reject.
        let prepared = match &ask {
            Ask::SendTransaction(tx) => Prepared::Call(Box::new(self.prepare(tx).await)),
            Ask::SendCalls(batch) => {
                let mut quotes = Vec::with_capacity(batch.calls.len());
                for call in &batch.calls {
                    quotes.push(self.prepare(call).await);
                }
                Prepared::Calls(quotes)
            }
            Ask::WatchAsset(asset) => {
                let token = self
                    .widget
                    .preview_token(&asset.network, &asset.contract.to_string(), None)
                    .await
                    .map_err(|e| ProviderError::invalid_params(e.message))?;
                // Listed already: nothing to ask.
                if token.tracked || token.configured {
                    return Ok(Answer::Watched);
                }
                Prepared::Token(token)
            }
            _ => Prepared::Nothing,
        };
        let (answer, answered) = oneshot::channel();
        let id = {
            let mut queue = self.queue.lock();
            if queue.len() >= MAX_WAITING {
                return Err(ProviderError::pending());
            }
            let id = {
                let mut next = self.next_id.lock();
                *next += 1;
                *next
            };
            let prompt = ConnectPrompt {
                id,
                origin: origin.to_string(),
                local: *origin == Origin::Local,
                waiting: 0,
                request: PromptRequest::of(&ask, prepared),
            };
            queue.push_back(Waiting {
                prompt,
                ask,
                answer,
            });
            self.publish(&queue);
            id
        };
        // The application may go away while the person reads the page (an
        // aborted fetch, a closed socket): its request is then dropped here,
        // and its prompt leaves the queue with it.
        let _abandoned = Abandoned { dapps: self, id };
        (self.show)();
        answered
            .await
            .unwrap_or_else(|_| Err(ProviderError::rejected()))
    }

    async fn widget_method(
        &self,
        origin: &Origin,
        method: &str,
        params: Value,
    ) -> Result<Value, ProviderError> {
        match &self.embedded {
            Some(embedded) => embedded.call(self, origin, method, &params).await,
            None => Err(ProviderError::method_not_found(&format!(
                "satchel_{method}"
            ))),
        }
    }
}
