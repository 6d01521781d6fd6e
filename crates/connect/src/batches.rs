//! The batches of calls sites sent (`wallet_sendCalls`), for
//! `wallet_getCallsStatus`: each site sees only its own, the newest
//! [`MAX_BATCHES`] kept.

use std::collections::VecDeque;
use std::sync::Mutex;

use serde_json::{Value, json};

use crate::origin::Origin;
use crate::review::calls::codes;
use crate::rpc::ProviderError;

/// Batches remembered, from every site; past it the oldest is forgotten.
pub const MAX_BATCHES: usize = 256;

/// A batch that was sent (in part, when it stopped early).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentBatch {
    pub origin: Origin,
    pub id: String,
    pub network: String,
    pub chain_id: u64,
    /// How many calls it held.
    pub calls: usize,
    /// The hashes of the calls sent, in order.
    pub hashes: Vec<String>,
}

#[derive(Default)]
pub struct Batches {
    sent: Mutex<VecDeque<SentBatch>>,
}

impl Batches {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<SentBatch>> {
        self.sent.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `origin` sent a batch `id` already (EIP-5792: ids are unique).
    pub fn knows(&self, origin: &Origin, id: &str) -> bool {
        self.lock()
            .iter()
            .any(|b| b.origin == *origin && b.id == id)
    }

    pub fn keep(&self, batch: SentBatch) {
        let mut sent = self.lock();
        if sent.len() >= MAX_BATCHES {
            sent.pop_front();
        }
        sent.push_back(batch);
    }

    /// `origin`'s batch `id` (5730 for another site's or an unknown one).
    pub fn get(&self, origin: &Origin, id: &str) -> Result<SentBatch, ProviderError> {
        self.lock()
            .iter()
            .find(|b| b.origin == *origin && b.id == id)
            .cloned()
            .ok_or_else(|| {
                ProviderError::eip5792(
                    codes::UNKNOWN_BUNDLE,
                    format!("no batch {id:?} of this site"),
                )
            })
    }
}

/// `wallet_getCallsStatus`' answer for `batch`, given the receipts read of
/// its hashes (`None` where a call is not mined yet): 100 while any is
/// pending, 200 when every call was sent and succeeded, 500 when every call
/// sent reverted, 600 when some did (or the batch stopped early), 400 when
/// nothing was sent.
pub fn status(batch: &SentBatch, receipts: &[Option<Value>]) -> Value {
    let succeeded = |r: &Value| r.get("status").and_then(Value::as_str) == Some("0x1");
    let mined: Vec<&Value> = receipts.iter().flatten().collect();
    let code = if batch.hashes.is_empty() {
        400
    } else if mined.len() < batch.hashes.len() {
        100
    } else if mined.iter().all(|r| succeeded(r)) {
        if batch.hashes.len() == batch.calls {
            200
        } else {
            600
        }
    } else if mined.iter().all(|r| !succeeded(r)) {
        500
    } else {
        600
    };
    let receipts: Vec<Value> = mined
        .iter()
        .map(|r| {
            json!({
                "logs": r.get("logs").cloned().unwrap_or(json!([])),
                "status": r.get("status").cloned().unwrap_or(json!("0x0")),
                "blockHash": r.get("blockHash").cloned().unwrap_or(Value::Null),
                "blockNumber": r.get("blockNumber").cloned().unwrap_or(Value::Null),
                "gasUsed": r.get("gasUsed").cloned().unwrap_or(Value::Null),
                "transactionHash": r.get("transactionHash").cloned().unwrap_or(Value::Null),
            })
        })
        .collect();
    json!({
        "version": "2.0.0",
        "id": batch.id,
        "chainId": format!("{:#x}", batch.chain_id),
        "status": code,
        "atomic": false,
        "receipts": receipts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(calls: usize, sent: usize) -> SentBatch {
        SentBatch {
            origin: Origin::Web("https://a.example".into()),
            id: "b".into(),
            network: "anvil".into(),
            chain_id: 31337,
            calls,
            hashes: (0..sent).map(|n| format!("0x{n:064x}")).collect(),
        }
    }

    fn receipt(ok: bool) -> Option<Value> {
        Some(
            json!({"status": if ok { "0x1" } else { "0x0" }, "logs": [], "blockHash": "0xb", "blockNumber": "0x1", "gasUsed": "0x5208", "transactionHash": "0xt"}),
        )
    }

    #[test]
    fn a_batchs_status_is_what_its_receipts_say() {
        assert_eq!(status(&batch(2, 2), &[receipt(true), None])["status"], 100);
        assert_eq!(
            status(&batch(2, 2), &[receipt(true), receipt(true)])["status"],
            200
        );
        assert_eq!(
            status(&batch(2, 2), &[receipt(false), receipt(false)])["status"],
            500
        );
        assert_eq!(
            status(&batch(2, 2), &[receipt(true), receipt(false)])["status"],
            600
        );
        assert_eq!(
            status(&batch(2, 1), &[receipt(true)])["status"],
            600,
            "stopped early"
        );
        assert_eq!(status(&batch(2, 0), &[])["status"], 400);
        let done = status(&batch(1, 1), &[receipt(true)]);
        assert_eq!(done["atomic"], false);
        assert_eq!(done["chainId"], "0x7a69");
        assert_eq!(done["receipts"][0]["gasUsed"], "0x5208");
    }

    #[test]
    fn a_site_sees_only_its_own_batches_and_they_are_bounded() {
        let batches = Batches::default();
        for n in 0..MAX_BATCHES + 1 {
            batches.keep(SentBatch {
                id: n.to_string(),
                ..batch(1, 1)
            });
        }
        let site = Origin::Web("https://a.example".into());
        assert!(!batches.knows(&site, "0"), "the oldest forgotten");
        assert!(batches.get(&site, &MAX_BATCHES.to_string()).is_ok());
        let other = Origin::Web("https://b.example".into());
        assert_eq!(
            batches.get(&other, "1").expect_err("not its own").code,
            codes::UNKNOWN_BUNDLE
        );
    }
}
