//! Requests as the logged-in user, with the access token renewed a minute before
//! it ends and once more after a 401. Renewals are serialised: two racing with the
//! same refresh token would look like token theft to the service.

use reqwest::Method;
use satchel_api::{RefreshRequest, ServiceErrorCode, ServiceToken};

use super::Login;
use crate::client::{Answer, Caller, JSON_ANSWER, Wanted, erased, parse_answer};
use crate::error::SdkError;
use crate::keychain::session::{StoredSession, jwt_expiry, now};

/// An access token this close to its end is renewed before it is used.
const RENEW_BEFORE_SECS: i64 = 60;

impl Login {
    /// Sends a request as the logged-in user. The access token is renewed first when
    /// it ends within a minute, and once more after a 401.
    pub async fn authed<T: serde::de::DeserializeOwned>(
        &self,
        caller: Caller,
        method: Method,
        path: &str,
        body: Option<&(dyn erased::Body + Sync)>,
    ) -> Result<T, SdkError> {
        let answer = self
            .authed_for_answer(caller, method, path, body, JSON_ANSWER)
            .await?
            .whole()
            .await?;
        parse_answer(&answer)
    }

    /// Like [`authed`](Self::authed), asking for the answer as `wanted` says;
    /// its body as it comes (see [`Answer`]), for a caller that parses it its
    /// own way.
    pub async fn authed_for_answer(
        &self,
        caller: Caller,
        method: Method,
        path: &str,
        body: Option<&(dyn erased::Body + Sync)>,
        wanted: Wanted,
    ) -> Result<Answer, SdkError> {
        let client = self.client().await?;
        let mut session = self.require_session().await?;
        if jwt_expiry(&session.service.access_token)
            .is_none_or(|exp| exp - now() < RENEW_BEFORE_SECS)
        {
            session = self.renew(&session).await?;
        }
        let send = |token: String| {
            let (client, method) = (client.clone(), method.clone());
            async move {
                client
                    .send_for_answer(caller, method, path, body, Some(&token), wanted)
                    .await
            }
        };
        match send(session.service.access_token.clone()).await {
            Err(e) if e.is(ServiceErrorCode::InvalidToken) => {
                let session = self.renew(&session).await?;
                send(session.service.access_token).await
            }
            other => other,
        }
    }

    /// Exchanges the service refresh token for new tokens and keeps them.
    async fn renew(&self, stale: &StoredSession) -> Result<StoredSession, SdkError> {
        let client = self.client().await?;
        let _renewing = self.renewing.lock().await;
        let mut current = self.require_session().await?;
        if current.service.refresh_token != stale.service.refresh_token {
            return Ok(current); // another request renewed it meanwhile
        }
        let request = RefreshRequest {
            refresh_token: current.service.refresh_token.clone(),
        };
        match client
            .send::<ServiceToken>(
                Caller::Login,
                Method::POST,
                "v1/auth/service/refresh",
                Some(&request),
                None,
            )
            .await
        {
            Ok(token) => {
                current.service = token;
                self.save(Some(current.clone())).await?;
                Ok(current)
            }
            Err(e) if is_session_over(&e) => {
                self.save(None).await?;
                Err(SdkError::session_ended())
            }
            Err(e) => Err(e),
        }
    }
}

/// The service refused the session's tokens: it has ended (logout, expiry, reuse).
pub(super) fn is_session_over(e: &SdkError) -> bool {
    e.is(ServiceErrorCode::InvalidToken) || e.is(ServiceErrorCode::InvalidLoginSession)
}
