//! The login session as this device keeps it: read from the keychain once, then
//! remembered; every change is written to the keychain first.

use satchel_api::ServiceErrorCode;

use super::Login;
use crate::error::SdkError;
use crate::keychain::session::StoredSession;
use crate::keychain::{load_json, save_json};

/// What the library knows of the stored session.
#[derive(Debug, Clone, Default)]
pub(super) enum Cached {
    /// The keychain has not been read yet.
    #[default]
    Unread,
    /// As last read or written: `None` when no one is logged in.
    Read(Option<StoredSession>),
}

impl Login {
    /// The stored session, read from the keychain once and then remembered.
    pub async fn session(&self) -> Result<Option<StoredSession>, SdkError> {
        let key = {
            let connection = self.connection.lock().await;
            let connection = connection
                .as_ref()
                .ok_or_else(|| SdkError::not_initialized("login library"))?;
            if let Cached::Read(session) = &connection.session {
                return Ok(session.clone());
            }
            connection.key.clone()
        };
        let session: Option<StoredSession> = load_json(&self.store, &key).await?;
        if let Some(connection) = self.connection.lock().await.as_mut() {
            connection.session = Cached::Read(session.clone());
        }
        Ok(session)
    }

    /// Keeps (or, with `None`, forgets) the session in the keychain and in memory.
    pub(super) async fn save(&self, session: Option<StoredSession>) -> Result<(), SdkError> {
        let key = self.session_key().await?;
        save_json(&self.store, &key, session.as_ref()).await?;
        if let Some(connection) = self.connection.lock().await.as_mut() {
            connection.session = Cached::Read(session);
        }
        Ok(())
    }

    /// The keychain entry of this app's session at this service.
    pub(super) async fn session_key(&self) -> Result<String, SdkError> {
        self.connection
            .lock()
            .await
            .as_ref()
            .map(|c| c.key.clone())
            .ok_or_else(|| SdkError::not_initialized("login library"))
    }

    /// The stored session, or `InvalidLoginSession` when no one is logged in.
    pub(super) async fn require_session(&self) -> Result<StoredSession, SdkError> {
        self.session().await?.ok_or_else(|| {
            SdkError::service(ServiceErrorCode::InvalidLoginSession, "no one is logged in")
        })
    }
}
