//! Satchel as the wallet of dapps and other programs: hosts `satchel-connect`'s local provider
//! on `127.0.0.1:<provider_port>`, answers what it needs from the widget, and
//! puts each ask in front of the person as a page in the widget's window,
//! one at a time (the page shows how many more wait). Closing the window
//! rejects them all.

use std::collections::VecDeque;
use std::sync::Arc;

use parking_lot::Mutex;
use satchel_api::ServiceErrorCode;
use satchel_connect::{
    Answer, Ask, Extensions, LinkedExtension, Origin, Permissions, Provider, ProviderError,
};
use satchel_sdk::{ConfirmSend, SdkError, Widget};
use serde::Serialize;
use tokio::sync::{oneshot, watch};

use crate::embedded::Embedded;

mod batch;
mod endpoint;
mod prompts;
mod wallet;

pub use endpoint::{EndpointStatus, chosen_port};
use prompts::Prepared;
pub use prompts::{
    CallsPrompt, ConnectAsk, ConnectPrompt, PromptRequest, SendChoice, SiteSwitched,
    TransactionPrompt, UseWidgetPrompt, WatchAssetPrompt,
};

/// Prompts waiting at once, from every origin; past it a request gets -32002.
const MAX_WAITING: usize = 16;

/// A prompt waiting for the person: what the page shows, what the request
/// derived (and the key would sign), where the answer goes.
struct Waiting {
    prompt: ConnectPrompt,
    ask: Ask,
    answer: oneshot::Sender<Result<Answer, ProviderError>>,
}

/// Forgets a prompt whose request was dropped before it was answered.
struct Abandoned<'a> {
    dapps: &'a Dapps,
    id: u64,
}

impl Drop for Abandoned<'_> {
    fn drop(&mut self) {
        // Answered prompts are off the queue already: then nothing happens.
        self.dapps.forget(self.id);
    }
}

/// A connected application, for Settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ConnectedSite {
    /// What Disconnect names it by.
    pub key: String,
    pub origin: String,
    pub local: bool,
    /// Seconds since 1970.
    pub connected_at: u64,
    /// Connected through Satchel's browser extension (the page named by what
    /// the browser says), not straight to the endpoint.
    pub through_extension: bool,
}

/// The provider's side of the widget.
pub struct Dapps {
    widget: Arc<Widget>,
    permissions: Arc<Permissions>,
    /// The browser extensions the person linked, which speak for pages.
    extensions: Arc<Extensions>,
    queue: Mutex<VecDeque<Waiting>>,
    next_id: Mutex<u64>,
    prompts: watch::Sender<Option<ConnectPrompt>>,
    /// The newest network switch of a site, for the window's notice.
    switches: watch::Sender<Option<SiteSwitched>>,
    /// Brings the window forward for a prompt.
    show: Box<dyn Fn() + Send + Sync>,
    provider: Mutex<Option<Provider>>,
    /// Where the endpoint listens, or why it cannot, for the window.
    endpoint: watch::Sender<EndpointStatus>,
    /// Where the port the person chose is kept.
    port_file: Option<std::path::PathBuf>,
    /// Bumped when the widget's life cycle changes (a login, a logout): the
    /// accounts applications see may have changed.
    logins: watch::Sender<u64>,
    /// The widget's methods for programs that embed it (`satchel_*`), when
    /// the host offers them (the Satchel app does).
    embedded: Option<Embedded>,
}

impl Dapps {
    pub fn new(
        widget: Arc<Widget>,
        permissions: Arc<Permissions>,
        extensions: Arc<Extensions>,
        show: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        Self {
            widget,
            permissions,
            extensions,
            queue: Mutex::new(VecDeque::new()),
            next_id: Mutex::new(0),
            prompts: watch::Sender::new(None),
            switches: watch::Sender::new(None),
            show: Box::new(show),
            provider: Mutex::new(None),
            endpoint: watch::Sender::new(EndpointStatus::off()),
            port_file: None,
            logins: watch::Sender::new(0),
            embedded: None,
        }
    }

    /// Offers programs the widget's methods (`satchel_*`) on the endpoint.
    pub fn with_embedding(mut self, embedded: Embedded) -> Self {
        self.embedded = Some(embedded);
        self
    }

    /// Serves the provider on `127.0.0.1:port` until the app ends; a port in
    /// use is told to the window (Settings moves it) and the app goes on
    /// without it.
    pub async fn serve(self: &Arc<Self>, port: u16) {
        let outcome = self.listen(port).await;
        if let Err(why) = &outcome {
            tracing::warn!("the provider for applications is off: {why}");
        }
        self.tell_endpoint(port, &outcome);
        let mut status = self.widget.watch_status();
        let dapps = Arc::downgrade(self);
        tokio::spawn(async move {
            while status.changed().await.is_ok() {
                let Some(dapps) = dapps.upgrade() else { break };
                dapps.logins.send_modify(|n| *n = n.wrapping_add(1));
            }
        });
    }

    pub fn watch_prompts(&self) -> watch::Receiver<Option<ConnectPrompt>> {
        self.prompts.subscribe()
    }

    /// The newest network switch of a site, and each one after.
    pub fn watch_switches(&self) -> watch::Receiver<Option<SiteSwitched>> {
        self.switches.subscribe()
    }

    /// Tells the window that `origin` switched to `network`.
    fn tell_switch(&self, origin: &Origin, network: &str, chain_id: u64) {
        self.switches.send_modify(|newest| {
            let id = newest.as_ref().map_or(1, |s| s.id + 1);
            *newest = Some(SiteSwitched {
                id,
                origin: origin.to_string(),
                local: *origin == Origin::Local,
                network: network.to_owned(),
                chain_id,
            });
        });
    }

    /// Shows the head of the queue (and how many more wait), or nothing.
    fn publish(&self, queue: &VecDeque<Waiting>) {
        let head = queue.front().map(|waiting| ConnectPrompt {
            waiting: u32::try_from(queue.len() - 1).unwrap_or(u32::MAX),
            ..waiting.prompt.clone()
        });
        self.prompts.send_replace(head);
    }

    /// Takes prompt `id` off the queue (and shows the next), if it waits.
    fn take(&self, id: u64) -> Option<Waiting> {
        let mut queue = self.queue.lock();
        let at = queue.iter().position(|w| w.prompt.id == id)?;
        let waiting = queue.remove(at);
        self.publish(&queue);
        waiting
    }

    /// Takes prompt `id` off the queue unanswered: nobody waits for it any
    /// more (the application went away), so nothing is signed or sent for it.
    fn forget(&self, id: u64) {
        self.take(id);
    }

    /// Takes prompt `id` off the queue and answers it.
    fn settle(&self, id: u64, outcome: Result<Answer, ProviderError>) {
        if let Some(waiting) = self.take(id) {
            let _ = waiting.answer.send(outcome);
        }
    }

    /// Rejects (4001) every waiting prompt `which` picks.
    fn reject_where(&self, which: impl Fn(&Waiting) -> bool) {
        let mut queue = self.queue.lock();
        let (rejected, kept): (VecDeque<Waiting>, VecDeque<Waiting>) =
            queue.drain(..).partition(|w| which(w));
        *queue = kept;
        for waiting in rejected {
            let _ = waiting.answer.send(Err(ProviderError::rejected()));
        }
        self.publish(&queue);
    }

    /// The accounts the person ticked on a connect page, each one of the
    /// wallet's (checksummed, in the wallet's order, the first the selected
    /// one); none ticked, or one that is not the wallet's, is refused. No list
    /// at all: the wallet's first account.
    async fn chosen_accounts(&self, ticked: Option<Vec<String>>) -> Result<Vec<String>, SdkError> {
        let all = self.widget.connected_addresses().await;
        let refused = |why: &str| SdkError::service(ServiceErrorCode::InvalidParameters, why);
        let Some(ticked) = ticked else {
            return Ok(all.into_iter().take(1).collect());
        };
        if ticked.is_empty() {
            return Err(refused("choose at least one account for it to see"));
        }
        if let Some(stranger) = ticked
            .iter()
            .find(|t| !all.iter().any(|a| a.eq_ignore_ascii_case(t)))
        {
            return Err(refused(&format!(
                "{stranger} is not one of this wallet's accounts"
            )));
        }
        Ok(all
            .into_iter()
            .filter(|a| ticked.iter().any(|t| t.eq_ignore_ascii_case(a)))
            .collect())
    }

    /// The person's answer to prompt `id`: a rejection, or a yes (with
    /// the PIN where the key signs, and the fee for a transaction). A signature is made of what the request
    /// derived, never of a review that carries a refusal; a wrong PIN leaves
    /// the prompt waiting, for the page to say so.
    pub async fn answer(
        &self,
        id: u64,
        approve: bool,
        pin: Option<String>,
        send: Option<SendChoice>,
        accounts: Option<Vec<String>>,
    ) -> Result<(), SdkError> {
        if !approve {
            self.settle(id, Err(ProviderError::rejected()));
            return Ok(());
        }
        let (ask, quote_id) = {
            let queue = self.queue.lock();
            match queue.iter().find(|w| w.prompt.id == id) {
                // Nobody waits for the answer: nothing is signed or sent for it.
                Some(waiting) if waiting.answer.is_closed() => return Ok(()),
                Some(waiting) => (waiting.ask.clone(), waiting.prompt.request.quote_id()),
                // Already answered, or the window closed.
                None => return Ok(()),
            }
        };
        let refused = |why: &str| SdkError::service(ServiceErrorCode::InvalidParameters, why);
        let pin = || pin.clone().ok_or_else(|| refused("enter your PIN to sign"));
        let approved = match ask {
            Ask::Connect { .. } => Answer::Connected(self.chosen_accounts(accounts).await?),
            Ask::SignMessage(message) => {
                if let Some(why) = &message.review.refusal {
                    return Err(refused(why));
                }
                let signature = self
                    .widget
                    .sign_message(&pin()?, message.account, message.bytes)
                    .await?;
                Answer::Signed(signature)
            }
            Ask::SignTypedData(typed) => {
                if let Some(why) = &typed.review.refusal {
                    return Err(refused(why));
                }
                let signature = self
                    .widget
                    .sign_typed_data(&pin()?, typed.account, typed.data)
                    .await?;
                Answer::Signed(signature)
            }
            Ask::SendTransaction(tx) => {
                let quote_id = quote_id.ok_or_else(|| {
                    refused("Satchel will not send this transaction: see why on the page")
                })?;
                let send = send.ok_or_else(|| refused("choose the fee to send with"))?;
                // The fees went stale while the page waited: prepared again, the
                // page shows the new ones, and the person confirms those.
                if !self.widget.quote_is_fresh(&quote_id) {
                    let fresh = self.prepare(&tx).await;
                    self.replace_request(
                        id,
                        PromptRequest::of(
                            &Ask::SendTransaction(tx),
                            Prepared::Call(Box::new(fresh)),
                        ),
                    );
                    return Err(refused(
                        "the fees changed while this waited: check the new ones and send again",
                    ));
                }
                let sent = self
                    .widget
                    .confirm_send(ConfirmSend {
                        quote_id,
                        speed: send.speed,
                        pin: pin()?,
                        request_id: None,
                        accept_high_fee: send.accept_high_fee,
                    })
                    .await?;
                Answer::Sent(sent.tx_hash)
            }
            Ask::SendCalls(batch) => {
                // The first call is sendable now (else only Reject is shown).
                quote_id.ok_or_else(|| {
                    refused("Satchel will not send this batch: see why on the page")
                })?;
                let send = send.ok_or_else(|| refused("choose the fee to send with"))?;
                self.send_batch(&batch, &pin()?, send).await?
            }
            Ask::WatchAsset(asset) => {
                let token = match &self.queue.lock().iter().find(|w| w.prompt.id == id) {
                    Some(Waiting {
                        prompt:
                            ConnectPrompt {
                                request: PromptRequest::WatchAsset(prompt),
                                ..
                            },
                        ..
                    }) if prompt.refusal.is_none() => prompt.token.clone(),
                    _ => {
                        return Err(refused(
                            "Satchel will not list this token: see why on the page",
                        ));
                    }
                };
                self.widget
                    .add_token(
                        &asset.network,
                        &token.contract,
                        &token.symbol,
                        token.decimals,
                        None,
                    )
                    .await?;
                Answer::Watched
            }
            Ask::UseWidget(_) => Answer::WidgetAllowed,
        };
        self.settle(id, Ok(approved));
        Ok(())
    }

    /// Shows prompt `id` with `request` from now (a transaction prepared again).
    fn replace_request(&self, id: u64, request: PromptRequest) {
        let mut queue = self.queue.lock();
        if let Some(waiting) = queue.iter_mut().find(|w| w.prompt.id == id) {
            waiting.prompt.request = request;
            self.publish(&queue);
        }
    }

    /// The window closed: every waiting prompt is rejected.
    pub fn reject_all(&self) {
        self.reject_where(|_| true);
    }

    pub fn connected(&self) -> Vec<ConnectedSite> {
        self.permissions
            .list()
            .into_iter()
            .map(|(origin, connection)| ConnectedSite {
                key: origin.key().to_owned(),
                origin: origin.to_string(),
                local: origin == Origin::Local,
                connected_at: connection.connected_at,
                through_extension: connection.through_extension,
            })
            .collect()
    }

    /// Disconnects the app `key` names; whether it was connected.
    /// Its prompts waiting are rejected with it: nothing it asked before is
    /// signed after.
    pub fn disconnect(&self, key: &str) -> bool {
        let Some(origin) = Origin::from_key(key) else {
            return false;
        };
        self.reject_from(&origin);
        self.permissions.disconnect(&origin).unwrap_or(false)
    }

    /// A one-time code for the person to type into Satchel's browser
    /// extension, which links it (see `satchel_connect::extension`).
    pub fn extension_code(&self) -> String {
        self.extensions.new_code()
    }

    /// The linked browser extensions, for Settings.
    pub fn linked_extensions(&self) -> Vec<LinkedExtension> {
        self.extensions.list()
    }

    /// Unlinks a browser extension: it speaks for no page from now.
    pub fn unlink_extension(&self, extension: &str) -> bool {
        self.extensions.unlink(extension).unwrap_or(false)
    }

    /// Rejects (4001) every prompt of `origin` waiting.
    fn reject_from(&self, origin: &Origin) {
        let shown = origin.to_string();
        self.reject_where(|w| w.prompt.origin == shown);
    }
}

#[cfg(test)]
mod tests;
