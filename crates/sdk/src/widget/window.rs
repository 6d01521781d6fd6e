//! The widget's window as the SDK sees it: whether it may open, closing it,
//! and what an application waits for while it is shown (loginWithUI, register).

use satchel_api::{ServiceErrorCode, ServiceLifeCycle, ServiceUser};
use serde::Serialize;
use tokio::sync::watch;

use super::Widget;
use crate::error::SdkError;

/// The languages the widget's pages speak.
pub const LANGUAGES: &[&str] = &["en", "ko", "ja"];

/// An application's `changeLanguage` (or `init`'s `defaultLanguage`), for the
/// pages to follow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LanguageRequest {
    /// `en`, `ko` or `ja`.
    pub language: String,
    /// Only for a person who has not chosen a language in Settings
    /// (`defaultLanguage`); `changeLanguage` changes it whatever they chose.
    pub as_default: bool,
}

impl Widget {
    /// changeLanguage: the pages speak `language` from now (`InvalidParameters`
    /// for one they do not speak).
    pub fn change_language(&self, language: &str, as_default: bool) -> Result<(), SdkError> {
        if !LANGUAGES.contains(&language) {
            let shown: String = language.chars().take(16).collect();
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                format!("the widget speaks en, ko and ja, not {shown:?}"),
            ));
        }
        self.language.send_replace(Some(LanguageRequest {
            language: language.to_owned(),
            as_default,
        }));
        Ok(())
    }

    /// The language the application asked for, now and at each change.
    pub fn watch_language(&self) -> watch::Receiver<Option<LanguageRequest>> {
        self.language.subscribe()
    }

    /// Whether the widget may open: only for a logged-in, registered user. The
    /// shell shows or hides the window.
    pub fn open_widget(&self) -> bool {
        self.get_status() == ServiceLifeCycle::Login
    }

    /// Closing the widget never logs the user out; a `loginWithUI` waiting for
    /// a login, or an application's `send` waiting for the person, ends with
    /// `UserCancelled`.
    pub fn close_widget(&self) -> bool {
        self.cancel_waiting_send();
        self.closed.send_modify(|n| *n += 1);
        true
    }

    /// The times the widget was closed, now and at each close: its pages go
    /// back to where a new window would start.
    pub fn watch_closed(&self) -> watch::Receiver<u64> {
        self.closed.subscribe()
    }

    /// loginWithUI: the logged-in user at once; with no one logged in, waits
    /// while the widget's login page is shown until someone logs in (the user,
    /// who may still need to register) or the widget is closed
    /// (`UserCancelled`).
    pub async fn login_with_ui(&self) -> Result<ServiceUser, SdkError> {
        self.wait_on_the_widget(
            "the login was cancelled",
            |widget| Ok(widget.current_user()),
        )
        .await
    }

    /// register, as an application calls it: with the widget's registration
    /// page shown (the PIN is the page's to ask, never the application's),
    /// waits until the person has registered (the user, now `login`) or the
    /// widget is closed (`UserCancelled`). Only for someone logged in who has
    /// not registered yet (`login_before_register`).
    pub async fn register_with_ui(&self) -> Result<ServiceUser, SdkError> {
        if self.get_status() != ServiceLifeCycle::LoginBeforeRegister {
            self.require_initialized()?;
            return Err(SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "register is for someone logged in who has not registered yet",
            ));
        }
        self.wait_on_the_widget("the registration was cancelled", |widget| {
            match widget.get_status() {
                ServiceLifeCycle::Login => Ok(widget.current_user()),
                ServiceLifeCycle::LoginBeforeRegister => Ok(None),
                _ => Err(SdkError::service(
                    ServiceErrorCode::InvalidLoginSession,
                    "the person logged out before registering",
                )),
            }
        })
        .await
    }

    /// Waits, while the widget's page is shown, until `done` has the user (or
    /// an error) at a change of the life cycle, or the widget is closed
    /// (`UserCancelled` with `cancelled`).
    async fn wait_on_the_widget(
        &self,
        cancelled: &'static str,
        done: impl Fn(&Self) -> Result<Option<ServiceUser>, SdkError>,
    ) -> Result<ServiceUser, SdkError> {
        self.require_initialized()?;
        let mut changes = self.status_changes.subscribe();
        let mut closed = self.closed.subscribe();
        closed.mark_unchanged();
        let cancelled = || SdkError::service(ServiceErrorCode::UserCancelled, cancelled);
        loop {
            if let Some(user) = done(self)? {
                return Ok(user);
            }
            tokio::select! {
                changed = changes.changed() => changed.map_err(|_| cancelled())?,
                _ = closed.changed() => return Err(cancelled()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::{Login, MemoryStore, Widget};

    #[test]
    fn the_pages_are_told_a_language_they_speak_and_nothing_else() {
        let store = Arc::new(MemoryStore::default());
        let widget = Widget::new(Arc::new(Login::new("app", "key", store.clone())), store);
        let pages = widget.watch_language();
        assert!(pages.borrow().is_none(), "no request before one is made");
        widget.change_language("ja", false).expect("ja is spoken");
        let asked = pages.borrow().clone().expect("a request");
        assert_eq!((asked.language.as_str(), asked.as_default), ("ja", false));
        for unknown in ["fr", "", "ja-JP", "<script>"] {
            let refused = widget.change_language(unknown, false).expect_err(unknown);
            assert!(refused.message.contains("en, ko and ja"), "{refused:?}");
        }
        assert_eq!(
            pages.borrow().as_ref().map(|r| r.language.clone()),
            Some("ja".into())
        );
    }
}
