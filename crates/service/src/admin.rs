//! Operator actions: create apps, users and wallets and mint access tokens. The
//! `satchel-service admin` command and the tests both go through these.

use base64::Engine as _;
use rand::RngCore;
use satchel_chain::Address;

use crate::auth::app_key_hash;
use crate::config::Settings;
use crate::db::{Db, NewAccount};
use crate::indexer::lower_hex;
use crate::state::AppState;

/// The BIP-44 path of the first Ethereum account; every EVM network uses it.
pub const FIRST_ACCOUNT_PATH: &str = "m/44'/60'/0'/0/0";

/// A created app. The key is shown here once; only its hash is stored.
#[derive(Debug)]
pub struct NewApp {
    pub app_id: String,
    pub app_key: String,
}

pub async fn create_app(db: &Db, name: &str, domains: &[String]) -> anyhow::Result<NewApp> {
    anyhow::ensure!(!domains.is_empty(), "an app needs at least one domain");
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let app_key = format!(
        "sk_{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    );
    let app_id = db
        .create_app(name, &app_key_hash(&app_key), domains)
        .await?;
    Ok(NewApp { app_id, app_key })
}

/// Creates an e-mail login with a verified address and its service user, as if
/// the person had signed up, verified and logged in once. Returns the user id.
pub async fn create_email_account(
    state: &AppState,
    app_id: &str,
    email: &str,
    password: &str,
) -> anyhow::Result<String> {
    let email = satchel_api::rules::normalize_email(email);
    anyhow::ensure!(
        satchel_api::rules::is_email_form(&email),
        "{email} is not an e-mail address"
    );
    anyhow::ensure!(
        satchel_api::rules::is_password_form(password),
        "the password must have {}",
        satchel_api::rules::PASSWORD_RULES
    );
    let hash = crate::identity::hash_password(password.to_owned())
        .await
        .map_err(|e| anyhow::anyhow!(e.message))?;
    let identity = state
        .db
        .create_email_identity(app_id, &email, &hash)
        .await?;
    state.db.mark_email_verified(&identity).await?;
    Ok(state
        .db
        .find_or_create_user(app_id, "email", &identity, &email)
        .await?)
}

/// The accounts a wallet with this address gets: one per configured network, each
/// tracking that network's tokens.
pub fn accounts_for(settings: &Settings, address: &Address) -> Vec<NewAccount> {
    settings
        .networks
        .iter()
        .map(|network| NewAccount {
            network: network.name.clone(),
            address: lower_hex(address),
            address_path: FIRST_ACCOUNT_PATH.to_owned(),
            label: "Account 1".to_owned(),
            tokens: network
                .tokens
                .iter()
                .map(|t| t.contract.to_ascii_lowercase())
                .collect(),
        })
        .collect()
}

/// Creates a user's wallet with accounts on every configured network.
pub async fn create_wallet(
    state: &AppState,
    user_id: &str,
    address: &str,
) -> anyhow::Result<String> {
    let address: Address = address
        .parse()
        .map_err(|_| anyhow::anyhow!("{address} is not an EVM address"))?;
    anyhow::ensure!(
        state.db.user_app(user_id).await?.is_some(),
        "no user {user_id}"
    );
    Ok(state
        .db
        .create_wallet(user_id, &accounts_for(&state.settings, &address))
        .await?)
}

/// Opens a session for the user and mints an access token for it.
pub async fn mint_access_token(
    state: &AppState,
    user_id: &str,
    ttl_secs: i64,
) -> anyhow::Result<String> {
    let app_id = state
        .db
        .user_app(user_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no user {user_id}"))?;
    let session = state
        .db
        .create_session(user_id, None, ttl_secs.max(60))
        .await?;
    state.keys.mint_access(user_id, &app_id, &session, ttl_secs)
}
