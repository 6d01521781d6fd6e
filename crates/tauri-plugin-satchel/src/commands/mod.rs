//! The commands the widget's pages call, named as the spec's widget SDK and login
//! library methods, one file per concern. Each is a thin call into `satchel-sdk`;
//! errors reach the page as `{code, message}`. No command returns a token or a key.
//! The list of them is written once, in the plugin's `build.rs` (`COMMANDS`).

use std::sync::Arc;

use satchel_desktop::Connection;
use satchel_desktop::application::WidgetWindow;
use satchel_sdk::{SdkError, Widget};
use tauri::ipc::{Channel, CommandArg, CommandItem, InvokeError, IpcResponse};
use tauri::{AppHandle, Manager as _, Runtime};

use crate::Hosted;
use tokio::sync::watch;

mod address_book;
mod assets;
mod dapps;
mod keys;
mod life_cycle;
mod login;
mod page;
mod provider;
mod send;

pub use address_book::*;
pub use assets::*;
pub use dapps::*;
pub use keys::*;
pub use life_cycle::*;
pub use login::*;
pub use page::*;
pub use provider::*;
pub use send::*;

type Result<T> = std::result::Result<T, SdkError>;

/// The widget a command reaches: the one whose window the calling page is in
/// (a program's widget in its window), the host's own for every other page.
pub struct Page(Arc<Hosted>);

impl Page {
    pub(crate) fn connection(&self) -> &Connection {
        &self.0.connection
    }

    /// Its window, as the application methods show and hide it.
    pub(crate) fn window<R: Runtime>(&self, app: &AppHandle<R>) -> impl WidgetWindow + use<R> {
        self.0.window(app)
    }

    /// Whether this is the host's own widget (not a program's).
    pub(crate) fn is_own(&self) -> bool {
        self.0.label == crate::WIDGET_WINDOW
    }
}

impl std::ops::Deref for Page {
    type Target = Widget;
    fn deref(&self) -> &Widget {
        &self.0.widget
    }
}

impl<'de, R: Runtime> CommandArg<'de, R> for Page {
    fn from_command(command: CommandItem<'de, R>) -> std::result::Result<Self, InvokeError> {
        let webview = command.message.webview_ref();
        let satchel = webview
            .try_state::<crate::Satchel<R>>()
            .ok_or_else(|| InvokeError::from("the satchel plugin is not set up"))?;
        Ok(Self(satchel.hosted_for(webview.label())))
    }
}

/// Where a watch starts for the page.
enum Start {
    /// The value now, then each change.
    Now,
    /// The first change after the page asked.
    NextChange,
}

/// Forwards a watched value to the page's channel, each value `message` turns
/// into one (`None`: nothing to say), until the page or the widget goes away.
/// The three `watch*` commands are this.
fn forward_watch<T, M>(
    mut changes: watch::Receiver<T>,
    channel: Channel<M>,
    start: Start,
    message: impl Fn(&T) -> Option<M> + Send + 'static,
) where
    T: Send + Sync + 'static,
    M: IpcResponse + Send + 'static,
{
    // Before the task starts, so a change made meanwhile is not taken for the current value.
    changes.mark_unchanged();
    tauri::async_runtime::spawn(async move {
        if let Start::NextChange = start
            && changes.changed().await.is_err()
        {
            return; // the widget is gone
        }
        loop {
            let value = message(&changes.borrow_and_update());
            if let Some(value) = value
                && channel.send(value).is_err()
            {
                return; // the page is gone
            }
            if changes.changed().await.is_err() {
                return; // the widget is gone
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use tauri::ipc::InvokeResponseBody;
    use tokio::sync::mpsc;

    use super::*;

    /// A channel as the page would hold one: what it is sent comes out of `rx`.
    fn page_channel() -> (Channel<u32>, mpsc::UnboundedReceiver<String>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let channel = Channel::new(move |body| {
            if let InvokeResponseBody::Json(json) = body {
                let _ = tx.send(json);
            }
            Ok(())
        });
        (channel, rx)
    }

    #[tokio::test]
    async fn a_watch_sends_the_value_now_then_each_change_it_has_a_message_for() {
        let (changes, watched) = watch::channel(1u32);
        let (channel, mut page) = page_channel();
        forward_watch(watched, channel, Start::Now, |v| (*v != 2).then_some(*v));
        assert_eq!(page.recv().await.as_deref(), Some("1"));
        changes.send(2).expect("watched");
        changes.send(3).expect("watched");
        assert_eq!(page.recv().await.as_deref(), Some("3"), "2 has no message");
        drop(changes);
        assert_eq!(
            page.recv().await,
            None,
            "the forwarding ends with the watch"
        );
    }

    #[tokio::test]
    async fn a_watch_from_the_next_change_leaves_the_current_value_out() {
        let (changes, watched) = watch::channel(7u32);
        let (channel, mut page) = page_channel();
        forward_watch(watched, channel, Start::NextChange, |v| Some(*v));
        changes.send(8).expect("watched");
        assert_eq!(page.recv().await.as_deref(), Some("8"));
        drop(changes);
        assert_eq!(page.recv().await, None);
    }
}
