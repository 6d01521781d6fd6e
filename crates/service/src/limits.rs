//! Rate limits: how often one account's balance (`GET
//! /v1/accountbalance/{accountId}/balance`), one wallet's NFTs (`GET
//! /v1/nft/refresh`), one address's verification or password-reset e-mail, one
//! wallet's PIN unlock e-mail, one network address's sign-ups and logins, and one
//! user's transaction reads and quotes may be asked for, so a runaway client
//! cannot turn the service into a load generator against a node or a mail
//! server; and the e-mail the service sends, in budgets per recipient, per app
//! and in all, with room kept for account mail (resets, unlocks). Each key gets
//! a `governor` limiter; the limiters live in a `moka` cache bounded by the
//! bytes of their keys, and a limiter idle for a whole minute (back at its full
//! allowance, so nothing is lost) is dropped.
//!
//! On PostgreSQL, which several instances may share, the keys a client could
//! otherwise multiply by the instances (refreshes, e-mails, a network address's
//! sign-ups and logins, the service's mail budget) are counted in the database
//! instead ([`Limits::take`]), one allowance for all instances; a user's reads
//! and relayed calls stay per instance (each request takes one, and the node
//! is protected by each instance's bound). On SQLite there is one instance.

use std::fmt;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

mod shared;

/// Most bytes of keys remembered at once (each key weighs its length and a fixed
/// overhead); past it the least used are forgotten (and start again with a full
/// allowance). Keys are short (ids, a checked e-mail address), so this holds
/// well over 100,000 of them.
const MAX_WEIGHT: u64 = 32 * 1024 * 1024;
/// What a limiter costs beside its key, in bytes.
const ENTRY_OVERHEAD: u32 = 128;

/// What a refresh limit counts.
#[derive(Debug, Clone, Copy)]
pub enum LimitKey<'a> {
    /// Operation 2 (`GET /v1/accountbalance/{accountId}/balance`) on one account.
    Balance { account_id: &'a str },
    /// Operation 4 (`GET /v1/nft/refresh`) on one wallet.
    Nfts { wallet_id: &'a str },
    /// Sending the verification link again to one address of one app.
    VerificationEmail { app_id: &'a str, email: &'a str },
    /// Sending a PIN unlock link for one wallet.
    PinUnlockEmail { wallet_id: &'a str },
    /// Sign-ups from one network address.
    SignUpFrom { address: std::net::IpAddr },
    /// Verification e-mails asked for from one network address.
    ResendFrom { address: std::net::IpAddr },
    /// Password-reset e-mails asked for one address of one app (counted whether
    /// or not the address is registered, so the limit tells nothing).
    PasswordReset { app_id: &'a str, email: &'a str },
    /// Password-reset e-mails asked for from one network address.
    PasswordResetFrom { address: std::net::IpAddr },
    /// OAuth and external-token logins from one network address (each may make
    /// the service call a provider).
    ExternalLoginFrom { address: std::net::IpAddr },
    /// Activity and transaction reads and send quotes of one user (each may make
    /// the service ask a node).
    UserRequests { user_id: &'a str },
    /// JSON-RPC calls one user relays to the nodes.
    RpcCalls { user_id: &'a str },
    /// E-mails to one address, of every kind.
    MailTo { recipient: &'a str },
    /// E-mails to one app's people.
    MailForApp { app_id: &'a str },
}

/// Which share of the service-wide e-mail allowance a message draws on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    /// Verification and registration links: what anyone can ask for by signing
    /// up, so it gets the general share only.
    Verification,
    /// Mail about an account that exists: password resets, PIN unlocks, notices.
    /// It may use the share kept for it, then the general one.
    Account,
}

impl fmt::Display for LimitKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Balance { account_id } => write!(f, "balance:{account_id}"),
            Self::Nfts { wallet_id } => write!(f, "nft:{wallet_id}"),
            Self::VerificationEmail { app_id, email } => write!(f, "resend:{app_id}:{email}"),
            Self::PinUnlockEmail { wallet_id } => write!(f, "pin-unlock:{wallet_id}"),
            Self::SignUpFrom { address } => write!(f, "signup-from:{address}"),
            Self::ResendFrom { address } => write!(f, "resend-from:{address}"),
            Self::PasswordReset { app_id, email } => write!(f, "password-reset:{app_id}:{email}"),
            Self::PasswordResetFrom { address } => write!(f, "password-reset-from:{address}"),
            Self::ExternalLoginFrom { address } => write!(f, "external-login-from:{address}"),
            Self::UserRequests { user_id } => write!(f, "user:{user_id}"),
            Self::RpcCalls { user_id } => write!(f, "rpc:{user_id}"),
            Self::MailTo { recipient } => write!(f, "mail-to:{recipient}"),
            Self::MailForApp { app_id } => write!(f, "mail-for-app:{app_id}"),
        }
    }
}

type Limiter<C> = RateLimiter<NotKeyed, InMemoryState, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// `refresh_per_minute` per key: a burst of that many, then one more each
/// `60 s / refresh_per_minute`.
pub struct Limits<C: Clock = DefaultClock> {
    quota: Quota,
    /// For the keys of one network address (sign-ups, verification e-mails).
    address_quota: Quota,
    user_quota: Quota,
    rpc_quota: Quota,
    recipient_quota: Quota,
    app_mail_quota: Quota,
    clock: C,
    limiters: moka::sync::Cache<String, Arc<Limiter<C>>>,
    /// E-mail the service sends, whoever asks: a flood of sign-ups from many
    /// addresses still cannot make it a spam relay. Three quarters for any
    /// mail...
    mail: Limiter<C>,
    /// ...and a quarter kept for account mail.
    account_mail: Limiter<C>,
    per_minute: PerMinute,
    /// The database the shared keys are counted in, when instances share one.
    shared: Option<crate::db::Db>,
}

/// The limits of [`Limits`], per minute: each at least one.
#[derive(Debug, Clone, Copy)]
pub struct PerMinute {
    /// Balance and NFT refreshes, and e-mails asked for one address, per key.
    pub refresh: u32,
    /// Requests of one network address.
    pub address: u32,
    /// Transaction reads and quotes of one user.
    pub user: u32,
    /// JSON-RPC calls one user relays.
    pub rpc_calls: u32,
    /// E-mails in all.
    pub emails: u32,
    /// E-mails to one app's people.
    pub app_emails: u32,
    /// E-mails to one address.
    pub recipient_emails: u32,
}

impl PerMinute {
    pub fn from_settings(settings: &crate::config::Settings) -> Self {
        Self {
            refresh: settings.refresh_per_minute,
            address: settings.email_requests_per_address,
            user: settings.user_requests_per_minute,
            rpc_calls: settings.rpc_calls_per_minute,
            emails: settings.emails_per_minute,
            app_emails: settings.emails_per_app_per_minute,
            recipient_emails: settings.emails_per_recipient_per_minute,
        }
    }
}

impl<C: Clock> fmt::Debug for Limits<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limits")
            .field("quota", &self.quota)
            .field("keys", &self.limiters.entry_count())
            .finish_non_exhaustive()
    }
}

impl Limits {
    pub fn new(per_minute: PerMinute) -> Self {
        Self::with_clock(per_minute, DefaultClock::default())
    }
}

/// The service's e-mail budget split: (any mail, kept for account mail), a
/// quarter kept.
fn mail_shares(emails: u32) -> (u32, u32) {
    let account = emails.div_ceil(4);
    (emails.saturating_sub(account), account)
}

impl<C> Limits<C>
where
    C: Clock + Clone + Send + Sync + 'static,
    C::Instant: Send + Sync,
{
    pub fn with_clock(per_minute: PerMinute, clock: C) -> Self {
        let per = |n: u32| Quota::per_minute(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN));
        let (general_share, account_share) = mail_shares(per_minute.emails);
        Self {
            quota: per(per_minute.refresh),
            address_quota: per(per_minute.address),
            user_quota: per(per_minute.user),
            rpc_quota: per(per_minute.rpc_calls),
            recipient_quota: per(per_minute.recipient_emails),
            app_mail_quota: per(per_minute.app_emails),
            mail: RateLimiter::direct_with_clock(per(general_share), clock.clone()),
            account_mail: RateLimiter::direct_with_clock(per(account_share), clock.clone()),
            clock,
            per_minute,
            shared: None,
            limiters: moka::sync::Cache::builder()
                .weigher(|key: &String, _| {
                    u32::try_from(key.len())
                        .unwrap_or(u32::MAX)
                        .saturating_add(ENTRY_OVERHEAD)
                })
                .max_capacity(MAX_WEIGHT)
                .time_to_idle(Duration::from_secs(60))
                .build(),
        }
    }

    /// Counts a refresh of `key` here if it is allowed; `Err` carries how long
    /// until the next one is.
    pub fn check(&self, key: LimitKey<'_>) -> Result<(), Duration> {
        let quota = match key {
            LimitKey::SignUpFrom { .. }
            | LimitKey::ResendFrom { .. }
            | LimitKey::PasswordResetFrom { .. }
            | LimitKey::ExternalLoginFrom { .. } => self.address_quota,
            LimitKey::UserRequests { .. } => self.user_quota,
            LimitKey::RpcCalls { .. } => self.rpc_quota,
            LimitKey::MailTo { .. } => self.recipient_quota,
            LimitKey::MailForApp { .. } => self.app_mail_quota,
            LimitKey::Balance { .. }
            | LimitKey::Nfts { .. }
            | LimitKey::VerificationEmail { .. }
            | LimitKey::PinUnlockEmail { .. }
            | LimitKey::PasswordReset { .. } => self.quota,
        };
        let limiter = self.limiters.get_with(key.to_string(), || {
            Arc::new(RateLimiter::direct_with_clock(quota, self.clock.clone()))
        });
        limiter
            .check()
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}

impl<C> Limits<C>
where
    C: Clock + Clone + Send + Sync + 'static,
    C::Instant: Send + Sync,
{
    /// Counts an e-mail of `kind` to `recipient` of `app_id`'s people if every
    /// budget it draws on has room: the recipient's, the app's, and the
    /// service's (for account mail its kept share first).
    pub fn check_mail(
        &self,
        app_id: &str,
        recipient: &str,
        kind: MailKind,
    ) -> Result<(), Duration> {
        self.check(LimitKey::MailTo { recipient })?;
        self.check(LimitKey::MailForApp { app_id })?;
        let wait =
            |not_until: governor::NotUntil<C::Instant>| not_until.wait_time_from(self.clock.now());
        match kind {
            MailKind::Account if self.account_mail.check().is_ok() => Ok(()),
            _ => self.mail.check().map_err(wait),
        }
    }
}

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

    use super::*;

    const BALANCE: LimitKey<'static> = LimitKey::Balance { account_id: "a" };

    fn per_minute(refresh: u32, rest: u32) -> PerMinute {
        PerMinute {
            refresh,
            address: rest,
            user: rest,
            rpc_calls: rest,
            emails: rest,
            app_emails: rest,
            recipient_emails: rest,
        }
    }

    #[test]
    fn account_mail_has_room_that_sign_up_floods_cannot_take() {
        let limits = Limits::with_clock(
            PerMinute {
                emails: 8,
                app_emails: 100,
                recipient_emails: 100,
                ..per_minute(1, 100)
            },
            FakeRelativeClock::default(),
        );
        let verification = |n: u32| {
            limits.check_mail(
                "app",
                &format!("new{n}@example.com"),
                MailKind::Verification,
            )
        };
        // Three quarters of 8 for anyone; then sign-ups wait...
        assert!((0..6).all(|n| verification(n).is_ok()));
        assert!(verification(6).is_err());
        // ...and resets still go out, from the quarter kept for them.
        let reset =
            |n: u32| limits.check_mail("app", &format!("ada{n}@example.com"), MailKind::Account);
        assert!(reset(0).is_ok() && reset(1).is_ok());
        assert!(reset(2).is_err(), "then account mail is out of room too");
    }

    #[test]
    fn one_app_or_one_recipient_cannot_use_up_the_mail() {
        let limits = Limits::with_clock(
            PerMinute {
                emails: 100,
                app_emails: 3,
                recipient_emails: 2,
                ..per_minute(1, 100)
            },
            FakeRelativeClock::default(),
        );
        let to = |app: &str, who: &str| limits.check_mail(app, who, MailKind::Account);
        assert!(to("a", "x@example.com").is_ok() && to("a", "x@example.com").is_ok());
        assert!(to("a", "x@example.com").is_err(), "the recipient's budget");
        assert!(to("a", "y@example.com").is_ok());
        assert!(to("a", "z@example.com").is_err(), "the app's budget");
        assert!(to("b", "z@example.com").is_ok(), "another app's people");
    }

    #[test]
    fn the_limit_holds_per_key_and_frees_up_over_the_minute() {
        let clock = FakeRelativeClock::default();
        let limits = Limits::with_clock(per_minute(2, 100), clock.clone());
        assert_eq!(limits.check(BALANCE), Ok(()));
        assert_eq!(limits.check(BALANCE), Ok(()));
        assert_eq!(limits.check(BALANCE), Err(Duration::from_secs(30)));
        assert_eq!(limits.check(LimitKey::Nfts { wallet_id: "a" }), Ok(()));
        clock.advance(Duration::from_secs(10));
        assert_eq!(limits.check(BALANCE), Err(Duration::from_secs(20)));
        clock.advance(Duration::from_secs(20));
        assert_eq!(limits.check(BALANCE), Ok(()));
        assert!(limits.check(BALANCE).is_err());
        clock.advance(Duration::from_secs(60));
        assert_eq!(limits.check(BALANCE), Ok(()));
        assert_eq!(limits.check(BALANCE), Ok(()));
    }

    #[test]
    fn keys_say_what_they_count() {
        let resend = LimitKey::VerificationEmail {
            app_id: "app",
            email: "a@b.co",
        };
        assert_eq!(resend.to_string(), "resend:app:a@b.co");
        let reset = LimitKey::PasswordReset {
            app_id: "app",
            email: "a@b.co",
        };
        assert_eq!(reset.to_string(), "password-reset:app:a@b.co");
        assert_eq!(BALANCE.to_string(), "balance:a");
    }

    #[test]
    fn a_flood_of_long_distinct_keys_stays_within_the_byte_bound() {
        let limits = Limits::new(per_minute(1, 1));
        let long = "x".repeat(100_000);
        for n in 0..2_000 {
            let email = format!("{n}{long}@example.com");
            let _ = limits.check(LimitKey::VerificationEmail {
                app_id: "app",
                email: &email,
            });
        }
        limits.limiters.run_pending_tasks();
        assert!(
            limits.limiters.weighted_size() <= MAX_WEIGHT,
            "{} bytes held",
            limits.limiters.weighted_size()
        );
    }

    #[test]
    fn a_zero_limit_still_allows_one() {
        let limits = Limits::with_clock(per_minute(0, 100), FakeRelativeClock::default());
        assert_eq!(limits.check(BALANCE), Ok(()));
        assert!(limits.check(BALANCE).is_err());
    }
}
