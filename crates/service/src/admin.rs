//! Operator actions: create apps, users and wallets and mint access tokens. The
//! `satchel-service admin` command and the tests both go through these.

use base64::Engine as _;
use rand::RngCore;
use satchel_api::EmailCredentials;

use crate::auth::app_key_hash;
use crate::db::Db;
use crate::identity::passwords::hash_password;
use crate::state::AppState;

/// The path of the first account (defined once, in `satchel_api::rules`); kept
/// here for the local stack and tests, which create wallets through this module.
pub use satchel_api::rules::FIRST_ACCOUNT_PATH;

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
    let EmailCredentials { email, password } =
        satchel_api::rules::check_credentials(email, password)
            .map_err(|violation| anyhow::anyhow!("{email}: {}", violation.message))?;
    let hash = hash_password(password).await?;
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

/// Creates a user's wallet with accounts on every configured network.
pub async fn create_wallet(
    state: &AppState,
    user_id: &str,
    address: &str,
) -> anyhow::Result<String> {
    anyhow::ensure!(
        state.db.user_app(user_id).await?.is_some(),
        "no user {user_id}"
    );
    Ok(crate::wallets::create(state, user_id, address, FIRST_ACCOUNT_PATH).await?)
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
