//! The counts several instances on one PostgreSQL database share: taken in
//! the database ([`crate::db::Db::take_turn`]) for the keys a client could
//! otherwise multiply by the instances; the rest, and every count when the
//! database cannot be asked, stay with this instance.

use std::time::Duration;

use governor::clock::{Clock, DefaultClock};

use super::{LimitKey, Limits, MailKind, mail_shares};

impl Limits<DefaultClock> {
    /// Counts the shared keys in `db` when it is one several instances may
    /// share (PostgreSQL).
    pub fn shared_through(mut self, db: &crate::db::Db) -> Self {
        self.shared = db.is_shared().then(|| db.clone());
        self
    }
}

impl LimitKey<'_> {
    /// Whether instances sharing a database count this key together: all but a
    /// user's reads and relayed calls, which every request takes.
    pub fn is_shared(&self) -> bool {
        !matches!(self, Self::UserRequests { .. } | Self::RpcCalls { .. })
    }
}

impl<C> Limits<C>
where
    C: Clock + Clone + Send + Sync + 'static,
    C::Instant: Send + Sync,
{
    /// Counts `key` where instances share their counts (the database, on
    /// PostgreSQL, for [`LimitKey::is_shared`] keys), else here. A database
    /// that cannot be asked leaves the count to this instance.
    pub async fn take(&self, key: LimitKey<'_>) -> Result<(), Duration> {
        if key.is_shared()
            && let Some(taken) = self
                .take_shared(&key.to_string(), self.per_minute_of(key))
                .await
        {
            return taken;
        }
        self.check(key)
    }

    /// One turn of `key` from the database's count; `None` without one.
    async fn take_shared(&self, key: &str, per_minute: u32) -> Option<Result<(), Duration>> {
        let db = self.shared.as_ref()?;
        match db.take_turn(key, per_minute, crate::clock::now_ms()).await {
            Ok(taken) => Some(taken),
            Err(e) => {
                tracing::warn!("shared rate limit not read, counted by this instance: {e}");
                None
            }
        }
    }

    /// [`Limits::check_mail`], counted where instances share their counts.
    pub async fn take_mail(
        &self,
        app_id: &str,
        recipient: &str,
        kind: MailKind,
    ) -> Result<(), Duration> {
        if self.shared.is_none() {
            return self.check_mail(app_id, recipient, kind);
        }
        self.take(LimitKey::MailTo { recipient }).await?;
        self.take(LimitKey::MailForApp { app_id }).await?;
        let (general, account) = mail_shares(self.per_minute.emails);
        if kind == MailKind::Account
            && let Some(Ok(())) = self.take_shared("mail:account", account).await
        {
            return Ok(());
        }
        match self.take_shared("mail:general", general).await {
            Some(taken) => taken,
            // The database failed: this instance's own budget (the recipient's
            // and the app's were counted above).
            None => self
                .mail
                .check()
                .map_err(|not_until| not_until.wait_time_from(self.clock.now())),
        }
    }

    /// The allowance per minute of `key`'s kind.
    fn per_minute_of(&self, key: LimitKey<'_>) -> u32 {
        let per = &self.per_minute;
        match key {
            LimitKey::SignUpFrom { .. }
            | LimitKey::ResendFrom { .. }
            | LimitKey::PasswordResetFrom { .. }
            | LimitKey::ExternalLoginFrom { .. } => per.address,
            LimitKey::UserRequests { .. } => per.user,
            LimitKey::RpcCalls { .. } => per.rpc_calls,
            LimitKey::MailTo { .. } => per.recipient_emails,
            LimitKey::MailForApp { .. } => per.app_emails,
            LimitKey::Balance { .. }
            | LimitKey::Nfts { .. }
            | LimitKey::VerificationEmail { .. }
            | LimitKey::PinUnlockEmail { .. }
            | LimitKey::PasswordReset { .. } => per.refresh,
        }
    }
}
