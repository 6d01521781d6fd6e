//! Wallets, their accounts (one per network and address) and token accounts.

use super::wallet_reads::{account_changed, wallet_changed};
use super::{Backend, Db, DbError, DbResult, Signed, SignedChallenge, new_id};
use crate::clock::now;

/// An account to create with a wallet.
#[derive(Debug, Clone)]
pub struct NewAccount {
    pub network: String,
    /// Lowercase hex.
    pub address: String,
    pub address_path: String,
    pub label: String,
    /// Lowercase token contracts this account tracks.
    pub tokens: Vec<String>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AccountRow {
    pub id: String,
    pub wallet_id: String,
    pub network: String,
    pub address: String,
    pub address_path: String,
    pub label: String,
    pub balance: String,
}

/// An account with its owner and token accounts, as they were at its wallet's
/// `accounts_version` (which every write to them moves on).
#[derive(Debug)]
pub struct AccountTokens {
    pub account: AccountRow,
    /// The user who owns it.
    pub owner: String,
    pub tokens: Vec<TokenRow>,
    pub version: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TokenRow {
    pub id: String,
    pub account_id: String,
    pub contract: String,
    pub balance: String,
}

const ACCOUNT_COLUMNS: &str =
    "a.id, a.wallet_id, a.network, a.address, a.address_path, a.label, a.balance";

impl Db {
    /// Creates a wallet with all its accounts and token accounts in one transaction:
    /// either the whole wallet exists afterwards or nothing does.
    pub async fn create_wallet(&self, user_id: &str, accounts: &[NewAccount]) -> DbResult<String> {
        let wallet_id = new_id();
        let mut tx = self.pool().begin().await?;
        insert_wallet(&mut tx, &wallet_id, user_id, accounts).await?;
        tx.commit().await?;
        Ok(wallet_id)
    }

    /// The user a wallet belongs to.
    pub async fn wallet_owner(&self, wallet_id: &str) -> DbResult<Option<String>> {
        Ok(
            sqlx::query_scalar("SELECT user_id FROM wallets WHERE id = $1")
                .bind(wallet_id)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    /// The wallet of a user, if it has one.
    pub async fn user_wallet(&self, user_id: &str) -> DbResult<Option<String>> {
        Ok(
            sqlx::query_scalar("SELECT id FROM wallets WHERE user_id = $1")
                .bind(user_id)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    /// A wallet's accounts in their order, and all their token accounts.
    pub async fn wallet_accounts(
        &self,
        wallet_id: &str,
    ) -> DbResult<(Vec<AccountRow>, Vec<TokenRow>)> {
        let accounts = sqlx::query_as(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.wallet_id = $1 ORDER BY a.position"
        ))
        .bind(wallet_id)
        .fetch_all(self.pool())
        .await?;
        let tokens = sqlx::query_as(
            "SELECT t.id, t.account_id, t.contract, t.balance FROM token_accounts t \
             JOIN accounts a ON a.id = t.account_id \
             WHERE a.wallet_id = $1 ORDER BY a.position, t.position",
        )
        .bind(wallet_id)
        .fetch_all(self.pool())
        .await?;
        Ok((accounts, tokens))
    }

    /// Every distinct account address on a network (for development tools).
    pub async fn network_addresses(&self, network: &str) -> DbResult<Vec<String>> {
        Ok(
            sqlx::query_scalar("SELECT DISTINCT address FROM accounts WHERE network = $1")
                .bind(network)
                .fetch_all(self.pool())
                .await?,
        )
    }

    /// The accounts at `address` on `network` (lowercase hex), any wallet's: the
    /// recipients of a transfer that this service also serves.
    pub async fn accounts_at(&self, network: &str, address: &str) -> DbResult<Vec<AccountRow>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.network = $1 AND a.address = $2 LIMIT 16"
        ))
        .bind(network)
        .bind(address)
        .fetch_all(self.pool())
        .await?)
    }

    /// One account with the user who owns it.
    pub async fn account_with_owner(
        &self,
        account_id: &str,
    ) -> DbResult<Option<(AccountRow, String)>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            account: AccountRow,
            user_id: String,
        }
        let row: Option<Row> = sqlx::query_as(&format!(
            "SELECT {ACCOUNT_COLUMNS}, w.user_id FROM accounts a \
             JOIN wallets w ON w.id = a.wallet_id WHERE a.id = $1"
        ))
        .bind(account_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| (r.account, r.user_id)))
    }

    /// One account with the user who owns it and its token accounts in their
    /// order, in one row (the database builds the tokens as one JSON array), at
    /// its wallet's `accounts_version`.
    pub async fn account_with_tokens(&self, account_id: &str) -> DbResult<Option<AccountTokens>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            account: AccountRow,
            user_id: String,
            accounts_version: i64,
            tokens: Option<String>,
        }
        let tokens = match self.backend {
            Backend::Sqlite => {
                "(SELECT json_group_array(json_array(t.id, t.contract, t.balance) \
                 ORDER BY t.position) FROM token_accounts t WHERE t.account_id = a.id)"
            }
            Backend::Postgres => {
                "(SELECT COALESCE(json_agg(json_build_array(t.id, t.contract, t.balance) \
                 ORDER BY t.position), '[]')::TEXT FROM token_accounts t WHERE t.account_id = a.id)"
            }
        };
        let row: Option<Row> = sqlx::query_as(&format!(
            "SELECT {ACCOUNT_COLUMNS}, w.user_id, w.accounts_version, {tokens} AS tokens \
             FROM accounts a JOIN wallets w ON w.id = a.wallet_id WHERE a.id = $1"
        ))
        .bind(account_id)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let tokens: Vec<(String, String, String)> =
            serde_json::from_str(row.tokens.as_deref().unwrap_or("[]"))
                .map_err(|e| DbError::Sqlx(sqlx::Error::Decode(e.into())))?;
        let tokens = tokens
            .into_iter()
            .map(|(id, contract, balance)| TokenRow {
                id,
                account_id: row.account.id.clone(),
                contract,
                balance,
            })
            .collect();
        Ok(Some(AccountTokens {
            account: row.account,
            owner: row.user_id,
            tokens,
            version: row.accounts_version,
        }))
    }

    /// The `accounts_version` of the wallet that holds `account_id` (`None`: no
    /// such account): one small row by key, to tell whether what
    /// [`Db::account_with_tokens`] read before is still what it would read.
    pub async fn account_version(&self, account_id: &str) -> DbResult<Option<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT w.accounts_version FROM accounts a JOIN wallets w ON w.id = a.wallet_id \
             WHERE a.id = $1",
        )
        .bind(account_id)
        .fetch_optional(self.pool())
        .await?)
    }

    /// Stores freshly read balances: the native one, and each token's by contract.
    pub async fn store_balances(
        &self,
        account_id: &str,
        native: &str,
        tokens: &[(String, String)],
    ) -> DbResult<()> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("UPDATE accounts SET balance = $2, balance_at = $3 WHERE id = $1")
            .bind(account_id)
            .bind(native)
            .bind(now())
            .execute(&mut *tx)
            .await?;
        // All token balances in one statement: a CASE over the contracts.
        for chunk in tokens.chunks(200) {
            let mut sql = String::from("UPDATE token_accounts SET balance = CASE contract");
            for i in 0..chunk.len() {
                sql.push_str(&format!(" WHEN ${} THEN ${}", 2 + 2 * i, 3 + 2 * i));
            }
            sql.push_str(" ELSE balance END WHERE account_id = $1");
            let mut query = sqlx::query(&sql).bind(account_id);
            for (contract, balance) in chunk {
                query = query.bind(contract).bind(balance);
            }
            query.execute(&mut *tx).await?;
        }
        account_changed(&mut tx, account_id).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// What became of adding an account to a wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountAdded {
    Done,
    /// The challenge was refused or signed by another key; nothing was added.
    Refused(Signed),
    /// The wallet has this many accounts: the one asked for is not the next.
    NotNext(u32),
}

impl Db {
    /// Adds one account (`accounts`: its row on every network) after the
    /// wallet's last, using up the challenge, in one transaction, when `index`
    /// is the number of accounts the wallet has (counted under the wallet's
    /// row lock, so two adds at once cannot both take an index). An address
    /// the wallet has already is a [`DbError::Conflict`].
    pub async fn add_account(
        &self,
        wallet_id: &str,
        index: u32,
        accounts: &[NewAccount],
        challenge: SignedChallenge<'_>,
    ) -> DbResult<AccountAdded> {
        let mut tx = match self.begin_signed(challenge).await? {
            Ok(tx) => tx,
            Err(outcome) => return Ok(AccountAdded::Refused(outcome)),
        };
        // A write to the wallet's row first: PostgreSQL holds its lock to the
        // end of this transaction; SQLite writes one transaction at a time anyway.
        wallet_changed(&mut tx, wallet_id).await?;
        let (count, last): (i64, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(DISTINCT address), MAX(position) FROM accounts WHERE wallet_id = $1",
        )
        .bind(wallet_id)
        .fetch_one(&mut *tx)
        .await?;
        let count = u32::try_from(count).unwrap_or(u32::MAX);
        if count != index {
            return Ok(AccountAdded::NotNext(count));
        }
        insert_accounts(&mut tx, wallet_id, accounts, last.map_or(0, |p| p + 1)).await?;
        tx.commit().await?;
        Ok(AccountAdded::Done)
    }

    /// Names a wallet's account (its row on every network); how many rows
    /// changed (0: the wallet has no such address).
    pub async fn rename_account(
        &self,
        wallet_id: &str,
        address: &str,
        label: &str,
    ) -> DbResult<u64> {
        let mut tx = self.pool().begin().await?;
        let renamed =
            sqlx::query("UPDATE accounts SET label = $3 WHERE wallet_id = $1 AND address = $2")
                .bind(wallet_id)
                .bind(address)
                .bind(label)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        if renamed > 0 {
            wallet_changed(&mut tx, wallet_id).await?;
        }
        tx.commit().await?;
        Ok(renamed)
    }
}

/// Inserts a wallet, its accounts and their token accounts on `conn` (a
/// transaction of the caller's). A user with a wallet already is a
/// [`DbError::Conflict`].
pub(super) async fn insert_wallet(
    conn: &mut sqlx::AnyConnection,
    wallet_id: &str,
    user_id: &str,
    accounts: &[NewAccount],
) -> DbResult<()> {
    sqlx::query("INSERT INTO wallets (id, user_id, created_at) VALUES ($1, $2, $3)")
        .bind(wallet_id)
        .bind(user_id)
        .bind(now())
        .execute(&mut *conn)
        .await
        .map_err(DbError::from_write)?;
    insert_accounts(conn, wallet_id, accounts, 0).await
}

/// Inserts accounts (and their token accounts) into a wallet on `conn`, the
/// first at `first_position`.
async fn insert_accounts(
    conn: &mut sqlx::AnyConnection,
    wallet_id: &str,
    accounts: &[NewAccount],
    first_position: i64,
) -> DbResult<()> {
    for (offset, account) in accounts.iter().enumerate() {
        let position = first_position + offset as i64;
        let account_id = new_id();
        sqlx::query(
            "INSERT INTO accounts (id, wallet_id, network, address, address_path, label, position) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&account_id)
        .bind(wallet_id)
        .bind(&account.network)
        .bind(&account.address)
        .bind(&account.address_path)
        .bind(&account.label)
        .bind(position)
        .execute(&mut *conn)
        .await
        .map_err(DbError::from_write)?;
        for (position, contract) in account.tokens.iter().enumerate() {
            sqlx::query(
                "INSERT INTO token_accounts (id, account_id, contract, position) VALUES ($1, $2, $3, $4)",
            )
            .bind(new_id())
            .bind(&account_id)
            .bind(contract)
            .bind(position as i64)
            .execute(&mut *conn)
            .await
            .map_err(DbError::from_write)?;
        }
    }
    Ok(())
}
