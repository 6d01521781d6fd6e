//! Single-use links sent by e-mail, one table per kind (`password_resets`,
//! `pin_unlocks`, `email_verifications`, `email_registrations`), issued and
//! claimed the same way: the link's secret is stored only as its hash, works
//! once, and stops working at its expiry. What a claimed link then changes is
//! the business of the file of its kind.

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, FromRow};

use super::DbResult;

/// A kind of single-use link: its table and the column naming what it is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LinkKind {
    /// Sets a new password of an e-mail identity.
    PasswordReset,
    /// Lifts a wallet's PIN lock.
    PinUnlock,
    /// Verifies an e-mail identity's address.
    EmailVerification,
    /// Gives an external identity the e-mail it lacked (with the address).
    EmailRegistration,
}

impl LinkKind {
    fn table(self) -> &'static str {
        match self {
            Self::PasswordReset => "password_resets",
            Self::PinUnlock => "pin_unlocks",
            Self::EmailVerification => "email_verifications",
            Self::EmailRegistration => "email_registrations",
        }
    }

    /// The identity or wallet the link is for.
    fn owner(self) -> &'static str {
        match self {
            Self::PinUnlock => "wallet_id",
            _ => "identity_id",
        }
    }

    /// What a claim returns: the owner, and for a registration its address.
    fn returning(self) -> &'static str {
        match self {
            Self::EmailRegistration => "identity_id, email",
            Self::PinUnlock => "wallet_id",
            _ => "identity_id",
        }
    }
}

/// Stores a new link of `owner` (its secret's hash, its expiry, and for a
/// registration the address it will set); the owner's used and expired links of
/// this kind go.
pub(super) async fn issue(
    conn: &mut AnyConnection,
    kind: LinkKind,
    owner: &str,
    token_hash: &str,
    email: Option<&str>,
    at: i64,
    lifetime_secs: i64,
) -> DbResult<()> {
    let (table, owner_column) = (kind.table(), kind.owner());
    sqlx::query(&format!(
        "DELETE FROM {table} WHERE {owner_column} = $1 AND (used_at IS NOT NULL OR expires_at <= $2)"
    ))
    .bind(owner)
    .bind(at)
    .execute(&mut *conn)
    .await?;
    let insert = match email {
        Some(email) => sqlx::query(&format!(
            "INSERT INTO {table} (token_hash, {owner_column}, expires_at, email) VALUES ($1, $2, $3, $4)"
        ))
        .bind(token_hash)
        .bind(owner)
        .bind(at + lifetime_secs)
        .bind(email)
        .execute(&mut *conn)
        .await,
        None => sqlx::query(&format!(
            "INSERT INTO {table} (token_hash, {owner_column}, expires_at) VALUES ($1, $2, $3)"
        ))
        .bind(token_hash)
        .bind(owner)
        .bind(at + lifetime_secs)
        .execute(&mut *conn)
        .await,
    };
    insert?;
    Ok(())
}

/// Marks the link used when it is unused and unexpired, returning what it is
/// for (`T` as [`LinkKind::returning`] names it: `(owner,)`, or `(owner, email)`
/// for a registration); `None` when the link does not work.
pub(super) async fn claim<T>(
    conn: &mut AnyConnection,
    kind: LinkKind,
    token_hash: &str,
    at: i64,
) -> DbResult<Option<T>>
where
    T: for<'r> FromRow<'r, AnyRow> + Send + Unpin,
{
    let sql = format!(
        "UPDATE {} SET used_at = $2 \
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING {}",
        kind.table(),
        kind.returning()
    );
    Ok(sqlx::query_as(&sql)
        .bind(token_hash)
        .bind(at)
        .fetch_optional(&mut *conn)
        .await?)
}

/// Whether a link is unused and unexpired; changes nothing.
pub(super) async fn usable(
    conn: &mut AnyConnection,
    kind: LinkKind,
    token_hash: &str,
    at: i64,
) -> DbResult<bool> {
    let sql = format!(
        "SELECT {} FROM {} WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
        kind.owner(),
        kind.table()
    );
    let found: Option<String> = sqlx::query_scalar(&sql)
        .bind(token_hash)
        .bind(at)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(found.is_some())
}

/// Every other link of `owner` of this kind stops working (one was just used).
pub(super) async fn drop_others(
    conn: &mut AnyConnection,
    kind: LinkKind,
    owner: &str,
    used_token_hash: &str,
) -> DbResult<()> {
    sqlx::query(&format!(
        "DELETE FROM {} WHERE {} = $1 AND token_hash <> $2",
        kind.table(),
        kind.owner()
    ))
    .bind(owner)
    .bind(used_token_hash)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
