//! An application's `send` (the SDK's, as the spec names it): the page opens
//! the form for it, and the application's call waits until the person confirms
//! (the transaction hash) or closes the page (`UserCancelled`).

use tokio::sync::oneshot;

use super::quotes::Sends;
use super::{SendRequest, SendResult, TxData};
use crate::error::SdkError;
use crate::widget::{AccountRef, Widget};
use satchel_api::ServiceErrorCode;

pub(super) fn cancelled() -> SdkError {
    SdkError::service(ServiceErrorCode::UserCancelled, "the send was cancelled")
}

impl Sends {
    /// Ends the waiting `send` `id` (if it is the one waiting) with `result`.
    pub(super) fn settle(&mut self, id: u64, result: Result<SendResult, SdkError>) {
        if self
            .waiting
            .as_ref()
            .is_some_and(|(waiting, _)| *waiting == id)
            && let Some((_, sender)) = self.waiting.take()
        {
            let _ = sender.send(result);
        }
    }
}

impl Widget {
    /// An application's `send`: checks the account, hands the page what to open
    /// with, and gives the receiver that resolves when the page confirms (the
    /// transaction hash) or cancels (`UserCancelled`). A newer `send` cancels
    /// the one waiting.
    pub async fn begin_send(
        &self,
        account: &AccountRef,
        tx_data: Option<TxData>,
    ) -> Result<(SendRequest, oneshot::Receiver<Result<SendResult, SdkError>>), SdkError> {
        let entry = self.own_account(account).await?;
        let tx_data = tx_data.unwrap_or_default();
        let (sender, receiver) = oneshot::channel();
        let mut state = self.state.lock();
        let sends = &mut state.sends;
        sends.next_request += 1;
        let id = sends.next_request;
        if let Some((_, earlier)) = sends.waiting.replace((id, sender)) {
            let _ = earlier.send(Err(cancelled()));
        }
        let request = SendRequest {
            id,
            account: crate::widget::mapping::service_account(&entry),
            to: tx_data.to.or(tx_data.to_address).filter(|t| !t.is_empty()),
            amount: tx_data.amount.filter(|a| !a.is_empty()),
        };
        drop(state);
        self.send_requests.send_replace(Some(request.clone()));
        Ok((request, receiver))
    }

    /// Each application `send` as it comes, for the page to open the form.
    pub fn watch_send_requests(&self) -> tokio::sync::watch::Receiver<Option<SendRequest>> {
        self.send_requests.subscribe()
    }

    /// The person closed the send page: the application's `send` gets
    /// `UserCancelled`.
    pub fn cancel_send(&self, request_id: u64) {
        self.state.lock().sends.settle(request_id, Err(cancelled()));
    }

    /// The widget's window closed: the application's `send` waiting, whatever
    /// page shows, gets `UserCancelled`.
    pub(crate) fn cancel_waiting_send(&self) {
        let waiting = self.state.lock().sends.waiting.take();
        if let Some((_, sender)) = waiting {
            let _ = sender.send(Err(cancelled()));
        }
    }
}
