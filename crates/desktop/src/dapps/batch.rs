//! A batch of calls (`wallet_sendCalls`) sent as the person approved it: one
//! after another, each prepared again when its turn comes (the calls before it
//! mined, so its simulation sees what they did) and signed with the PIN given
//! on the batch's page. The batch stops at the first call that would fail or
//! is not mined in time; what was sent stays sent (a batch is not atomic, and
//! `wallet_getCapabilities` says so).

use std::time::Duration;

use satchel_connect::Answer;
use satchel_connect::Wallet as _;
use satchel_connect::review::calls::CallsToSend;
use satchel_sdk::{ConfirmSend, SdkError};
use serde_json::{Value, json};

use super::{Dapps, SendChoice};

/// How long a call may take to be mined before the batch stops.
const MINED_WITHIN: Duration = Duration::from_secs(120);
/// How often its receipt is asked for meanwhile.
const RECEIPT_POLL: Duration = Duration::from_millis(500);

impl Dapps {
    pub(super) async fn send_batch(
        &self,
        batch: &CallsToSend,
        pin: &str,
        send: SendChoice,
    ) -> Result<Answer, SdkError> {
        let mut hashes = Vec::with_capacity(batch.calls.len());
        let mut stopped = None;
        for (n, call) in batch.calls.iter().enumerate() {
            let sent = match self.prepare(call).await {
                Ok(quote) => {
                    self.widget
                        .confirm_send(ConfirmSend {
                            quote_id: quote.quote.quote_id,
                            speed: send.speed,
                            pin: pin.to_owned(),
                            request_id: None,
                            accept_high_fee: send.accept_high_fee,
                        })
                        .await
                }
                Err(e) => Err(e),
            };
            let hash = match sent {
                Ok(sent) => sent.tx_hash,
                // Nothing sent yet: the page shows why (a wrong PIN leaves it waiting).
                Err(e) if n == 0 => return Err(e),
                Err(e) => {
                    stopped = Some(format!("call {} was not sent: {}", n + 1, e.message));
                    break;
                }
            };
            hashes.push(hash.clone());
            if n + 1 < batch.calls.len() && !self.mined(&call.network, &hash).await {
                stopped = Some(format!(
                    "call {} was not mined within {} s; the rest were not sent",
                    n + 1,
                    MINED_WITHIN.as_secs()
                ));
                break;
            }
        }
        if let Some(why) = &stopped {
            tracing::warn!("a batch of calls stopped early: {why}");
        }
        Ok(Answer::SentCalls { hashes, stopped })
    }

    /// Whether `hash` is mined on `network` within [`MINED_WITHIN`].
    async fn mined(&self, network: &str, hash: &str) -> bool {
        let deadline = tokio::time::Instant::now() + MINED_WITHIN;
        while tokio::time::Instant::now() < deadline {
            let receipt = self
                .read(network, "eth_getTransactionReceipt", json!([hash]))
                .await;
            if matches!(receipt, Ok(Value::Object(_))) {
                return true;
            }
            tokio::time::sleep(RECEIPT_POLL).await;
        }
        false
    }
}
