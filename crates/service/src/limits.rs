//! Refresh limits: how often one account's balance (`GET
//! /v1/accountbalance/{accountId}/balance`), one wallet's NFTs (`GET
//! /v1/nft/refresh`), one address's verification or password-reset e-mail or one
//! wallet's PIN unlock e-mail may be asked for, so a runaway client cannot turn the service
//! into a load generator against a node or a mail server. Each key gets a
//! `governor` limiter of `refresh_per_minute`; the limiters live in a `moka` cache
//! bounded by count, and a limiter idle for a whole minute (back at its full
//! allowance, so nothing is lost) is dropped.

use std::fmt;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

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
    clock: C,
    limiters: moka::sync::Cache<String, Arc<Limiter<C>>>,
    /// Every e-mail the service sends, whoever asks: a flood of sign-ups from
    /// many addresses still cannot make it a spam relay.
    mail: Limiter<C>,
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
    /// Allows `per_minute` refreshes per key (at least one),
    /// `per_address_per_minute` e-mail requests per network address, and
    /// `emails_per_minute` e-mails in all.
    pub fn new(per_minute: u32, per_address_per_minute: u32, emails_per_minute: u32) -> Self {
        Self::with_clock(
            per_minute,
            per_address_per_minute,
            emails_per_minute,
            DefaultClock::default(),
        )
    }
}

impl<C> Limits<C>
where
    C: Clock + Clone + Send + Sync + 'static,
    C::Instant: Send + Sync,
{
    pub fn with_clock(
        per_minute: u32,
        per_address_per_minute: u32,
        emails_per_minute: u32,
        clock: C,
    ) -> Self {
        let per = |n: u32| Quota::per_minute(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN));
        let quota = per(per_minute);
        Self {
            quota,
            address_quota: per(per_address_per_minute),
            mail: RateLimiter::direct_with_clock(per(emails_per_minute), clock.clone()),
            clock,
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

    /// Counts a refresh of `key` if it is allowed; `Err` carries how long until the
    /// next one is.
    pub fn check(&self, key: LimitKey<'_>) -> Result<(), Duration> {
        let quota = match key {
            LimitKey::SignUpFrom { .. }
            | LimitKey::ResendFrom { .. }
            | LimitKey::PasswordResetFrom { .. }
            | LimitKey::ExternalLoginFrom { .. } => self.address_quota,
            _ => self.quota,
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
    C: Clock,
{
    /// Counts an e-mail to send if the service-wide allowance has room.
    pub fn check_mail(&self) -> Result<(), Duration> {
        self.mail
            .check()
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

    use super::*;

    const BALANCE: LimitKey<'static> = LimitKey::Balance { account_id: "a" };

    #[test]
    fn the_limit_holds_per_key_and_frees_up_over_the_minute() {
        let clock = FakeRelativeClock::default();
        let limits = Limits::with_clock(2, 100, 100, clock.clone());
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
        let limits = Limits::new(1, 1, 1);
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
        let limits = Limits::with_clock(0, 100, 100, FakeRelativeClock::default());
        assert_eq!(limits.check(BALANCE), Ok(()));
        assert!(limits.check(BALANCE).is_err());
    }
}
