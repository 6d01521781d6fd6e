//! The PIN's unlock link (e-mailed after the tenth wrong proof, opened to lift
//! the lock) and the notices the wallet's owner gets by e-mail.

use super::*;

/// `POST /v1/wallets/{walletId}/pin/unlock-email`: e-mails the user a link that
/// lifts the lock. Only while locked.
pub async fn send_unlock_email(
    state: &AppState,
    user: &AuthUser,
    wallet_id: &str,
) -> ApiResult<()> {
    own_wallet(state, user, wallet_id).await?;
    let row = state.db.wallet_key(wallet_id).await?.ok_or_else(no_pin)?;
    if row.email_locked == 0 {
        return Err(ApiError::bad_request(
            "the PIN is not locked; only a locked PIN is unlocked by e-mail",
        ));
    }
    if row.wrong_total >= i64::from(PIN_TRIES_BEFORE_RECOVERY) {
        return Err(recovery_required());
    }
    state
        .limits
        .take(LimitKey::PinUnlockEmail { wallet_id })
        .await
        .map_err(|wait| ApiError::rate_limited("asked a moment ago", wait))?;
    let (email, _) = state
        .db
        .user_profile(&user.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("user"))?;
    if email.is_empty() {
        return Err(ApiError::bad_request(
            "this user has no e-mail address; reset the PIN with the recovery phrase",
        ));
    }
    let app_name = state
        .db
        .app(&user.app_id)
        .await?
        .map_or_else(|| "Satchel".to_owned(), |app| app.name);
    let token = random_secret();
    crate::identity::check_mail(state, &user.app_id, &email, MailKind::Account).await?;
    state
        .db
        .create_pin_unlock(wallet_id, &secret_hash(&token), UNLOCK_LINK_LIFETIME_SECS)
        .await?;
    let mut link = state
        .settings
        .public_url
        .join("v1/wallets/pin/unlock")
        .map_err(ApiError::internal)?;
    link.query_pairs_mut().append_pair("token", &token);
    state
        .mailer
        .send_pin_unlock(&email, &app_name, link.as_str())
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                ServiceErrorCode::FailedSendEmail,
                "the unlock e-mail could not be sent; try again later",
            )
            .with_cause(format_args!("unlock e-mail not sent: {e}"))
        })
}

/// The unlock page's button: lifts the lock when the link works and fewer than
/// [`PIN_TRIES_BEFORE_RECOVERY`] wrong PINs were made since the last right one,
/// and tells the wallet's owner by e-mail that it was lifted.
pub async fn use_unlock_link(state: &AppState, token: &str) -> ApiResult<Unlock> {
    let outcome = state
        .db
        .use_pin_unlock(&secret_hash(token), i64::from(PIN_TRIES_BEFORE_RECOVERY))
        .await?;
    if let Unlock::Lifted { wallet_id } = &outcome
        && let Err(e) = tell_owner(state, wallet_id, Notice::Unlocked).await
    {
        tracing::warn!(status = e.status.as_u16(), "unlock notice not sent: {e}");
    }
    Ok(outcome)
}

/// What a wallet's owner is told of, whoever did it.
pub(super) enum Notice {
    /// The PIN lock was lifted by the e-mailed link.
    Unlocked,
    /// The backup was released to a right PIN: a restore on another device.
    Restored,
}

/// E-mails a wallet's owner what just happened to the wallet.
pub(super) async fn tell_owner(state: &AppState, wallet_id: &str, notice: Notice) -> ApiResult<()> {
    let owner = state
        .db
        .wallet_owner(wallet_id)
        .await?
        .ok_or_else(|| ApiError::not_found("wallet"))?;
    let (email, _) = state
        .db
        .user_profile(&owner)
        .await?
        .ok_or_else(|| ApiError::not_found("user"))?;
    let app_id = state.db.user_app(&owner).await?.unwrap_or_default();
    let app_name = state
        .db
        .app(&app_id)
        .await?
        .map_or_else(|| "Satchel".to_owned(), |app| app.name);
    if email.is_empty() {
        return Ok(());
    }
    crate::identity::check_mail(state, &app_id, &email, MailKind::Account).await?;
    let sent = match notice {
        Notice::Unlocked => state.mailer.send_pin_unlocked(&email, &app_name).await,
        Notice::Restored => state.mailer.send_restored(&email, &app_name).await,
    };
    sent.map_err(|e| ApiError::internal(format_args!("notice: {e}")))
}
