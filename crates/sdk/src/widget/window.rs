//! The widget's window as the SDK sees it: whether it may open, closing it,
//! and what an application waits for while it is shown (loginWithUI, register).

use satchel_api::{ServiceErrorCode, ServiceLifeCycle, ServiceUser};

use super::Widget;
use crate::error::SdkError;

impl Widget {
    /// Whether the widget may open: only for a logged-in, registered user. The
    /// shell shows or hides the window.
    pub fn open_widget(&self) -> bool {
        self.get_status() == ServiceLifeCycle::Login
    }

    /// Closing the widget never logs the user out; a `loginWithUI` waiting for
    /// a login ends with `UserCancelled`.
    pub fn close_widget(&self) -> bool {
        self.closed.send_modify(|n| *n += 1);
        true
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
