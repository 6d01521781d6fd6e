//! Operator actions: create apps, users and wallets and mint access tokens. The
//! `satchel-service admin` command and the tests both go through these.

use base64::Engine as _;
use rand::RngCore;
use satchel_api::EmailCredentials;

use crate::crypto::app_key_hash;
use crate::crypto::passwords::hash_password;
use crate::db::Db;
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

/// An OAuth provider for an app: its client at the provider, and the
/// provider's endpoints. Endpoints left out are the real provider's
/// ([`oauth_preset`]); a local stand-in gives them all.
#[derive(Debug, Clone)]
pub struct OAuthProviderSetup {
    pub provider: satchel_api::Provider,
    pub client_id: String,
    pub client_secret: String,
    pub authorize_url: Option<String>,
    pub token_url: Option<String>,
    pub issuer: Option<String>,
    pub jwks_url: Option<String>,
    pub userinfo_url: Option<String>,
    pub scopes: Option<String>,
}

/// The published endpoints of the real providers: (authorize, token, issuer,
/// JWKS, userinfo, scopes).
pub fn oauth_preset(provider: satchel_api::Provider) -> Option<[&'static str; 6]> {
    use satchel_api::Provider::*;
    Some(match provider {
        Google => [
            "https://accounts.google.com/o/oauth2/v2/auth",
            "https://oauth2.googleapis.com/token",
            "https://accounts.google.com",
            "https://www.googleapis.com/oauth2/v3/certs",
            "",
            "openid email",
        ],
        Apple => [
            "https://appleid.apple.com/auth/authorize",
            "https://appleid.apple.com/auth/token",
            "https://appleid.apple.com",
            "https://appleid.apple.com/auth/keys",
            "",
            "openid email",
        ],
        Line => [
            "https://access.line.me/oauth2/v2.1/authorize",
            "https://api.line.me/oauth2/v2.1/token",
            "https://access.line.me",
            "https://api.line.me/oauth2/v2.1/certs",
            "",
            "openid email",
        ],
        Naver => [
            "https://nid.naver.com/oauth2.0/authorize",
            "https://nid.naver.com/oauth2.0/token",
            "",
            "",
            "https://openapi.naver.com/v1/nid/me",
            "",
        ],
        Discord => [
            "https://discord.com/oauth2/authorize",
            "https://discord.com/api/oauth2/token",
            "",
            "",
            "https://discord.com/api/users/@me",
            "identify email",
        ],
        Facebook => [
            "https://www.facebook.com/v19.0/dialog/oauth",
            "https://graph.facebook.com/v19.0/oauth/access_token",
            "",
            "",
            "https://graph.facebook.com/me?fields=id,email",
            "email",
        ],
        Email | ExternalToken => return None,
    })
}

/// Lets the app's people log in through `provider` (adds it to the app's list).
async fn allow_provider(
    state: &AppState,
    app_id: &str,
    provider: satchel_api::Provider,
) -> anyhow::Result<()> {
    let app = state
        .db
        .app(app_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no app {app_id}"))?;
    let mut providers = app.providers();
    if !providers.contains(&provider) {
        providers.push(provider);
    }
    state
        .db
        .set_app_policy(
            app_id,
            &providers,
            app.requires_email_verification(),
            &app.email_domains(),
        )
        .await?;
    Ok(())
}

fn absolute_url(name: &str, value: &str) -> anyhow::Result<String> {
    let url = url::Url::parse(value).map_err(|e| anyhow::anyhow!("{name} {value:?}: {e}"))?;
    anyhow::ensure!(
        matches!(url.scheme(), "https" | "http"),
        "{name} must be an http(s) URL"
    );
    Ok(url.to_string())
}

/// Registers an OAuth provider for an app (its client secret sealed) and allows
/// logins through it.
pub async fn set_oauth_provider(
    state: &AppState,
    app_id: &str,
    setup: OAuthProviderSetup,
) -> anyhow::Result<()> {
    let preset = oauth_preset(setup.provider)
        .ok_or_else(|| anyhow::anyhow!("{} is not an OAuth provider", setup.provider.as_str()))?;
    let pick =
        |given: &Option<String>, i: usize| given.clone().unwrap_or_else(|| preset[i].to_owned());
    anyhow::ensure!(
        !setup.client_id.is_empty() && !setup.client_secret.is_empty(),
        "a client id and secret are needed"
    );
    let oidc = satchel_api::is_oidc_provider(setup.provider);
    let (issuer, jwks_url, userinfo_url) = (
        pick(&setup.issuer, 2),
        pick(&setup.jwks_url, 3),
        pick(&setup.userinfo_url, 4),
    );
    if oidc {
        anyhow::ensure!(
            !issuer.is_empty() && !jwks_url.is_empty(),
            "an OpenID provider needs its issuer and JWKS URL"
        );
    } else {
        anyhow::ensure!(
            !userinfo_url.is_empty(),
            "this provider needs its userinfo URL"
        );
    }
    let provider = setup.provider.as_str();
    let row = crate::db::OAuthProviderRow {
        app_id: app_id.to_owned(),
        provider: provider.to_owned(),
        client_id: setup.client_id,
        client_secret_sealed: state.pin_keys.seal_client_secret(
            app_id,
            provider,
            &setup.client_secret,
        ),
        authorize_url: absolute_url("authorize URL", &pick(&setup.authorize_url, 0))?,
        token_url: absolute_url("token URL", &pick(&setup.token_url, 1))?,
        issuer,
        jwks_url: if jwks_url.is_empty() {
            jwks_url
        } else {
            absolute_url("JWKS URL", &jwks_url)?
        },
        userinfo_url: if userinfo_url.is_empty() {
            userinfo_url
        } else {
            absolute_url("userinfo URL", &userinfo_url)?
        },
        scopes: pick(&setup.scopes, 5),
    };
    state.db.set_oauth_provider(&row).await?;
    allow_provider(state, app_id, setup.provider).await
}

/// External tokens for an app: the public key of its authentication key (the
/// `sign` of `getSignForLogin`), and the issuer, audience (empty: the app id)
/// and JWKS URL of the id tokens its backend issues.
#[derive(Debug, Clone)]
pub struct ExternalTokenSetup {
    pub public_key: String,
    pub issuer: String,
    pub audience: String,
    pub jwks_url: String,
}

/// Sets up external tokens for an app and allows `external_token` logins.
pub async fn set_external_token(
    state: &AppState,
    app_id: &str,
    setup: ExternalTokenSetup,
) -> anyhow::Result<()> {
    satchel_api::login_sign::parse_public_key(&setup.public_key)
        .map_err(|e| anyhow::anyhow!("public key: {e}"))?;
    anyhow::ensure!(!setup.issuer.is_empty(), "an issuer is needed");
    let jwks_url = absolute_url("JWKS URL", &setup.jwks_url)?;
    state
        .db
        .set_external_token(
            app_id,
            setup.public_key.trim(),
            &setup.issuer,
            &setup.audience,
            &jwks_url,
        )
        .await?;
    allow_provider(state, app_id, satchel_api::Provider::ExternalToken).await
}

/// Seeds users `1..=users` of `app_id` (`seed-u-<n>`) for benchmarks, each with
/// a wallet of `accounts_per_user` accounts over the configured networks.
/// Seeding again adds only what is missing.
pub async fn seed(
    state: &AppState,
    app_id: &str,
    users: u64,
    accounts_per_user: u64,
) -> anyhow::Result<()> {
    anyhow::ensure!(state.db.app(app_id).await?.is_some(), "no app {app_id}");
    let mut networks: Vec<String> = state.networks.keys().cloned().collect();
    networks.sort();
    anyhow::ensure!(!networks.is_empty(), "no network is configured");
    state
        .db
        .seed_users(app_id, 1, users, accounts_per_user, &networks)
        .await?;
    Ok(())
}

/// Drops what operation 1 kept of seeded users' wallets (for benchmarks: the
/// first read of each since a change).
pub async fn drop_kept_bodies(state: &AppState, users: &[u64]) -> anyhow::Result<()> {
    Ok(state.db.seed_drop_kept_bodies(users).await?)
}

/// How many seeded users' wallets have their operation 1 body kept, once the
/// bodies rendered so far are written (for benchmarks).
pub async fn count_kept_bodies(state: &AppState, users: &[u64]) -> anyhow::Result<u64> {
    state.kept_bodies.flush().await;
    Ok(state.db.seed_count_kept_bodies(users).await?)
}

/// Opens a session for each seeded user numbered in `users` and mints its access
/// token (for benchmarks): `(user id, wallet id, token)`.
pub async fn seed_tokens(
    state: &AppState,
    app_id: &str,
    users: &[u64],
    ttl_secs: i64,
) -> anyhow::Result<Vec<(String, String, String)>> {
    state.db.seed_sessions(users, ttl_secs.max(60)).await?;
    users
        .iter()
        .map(|n| {
            let user = format!("seed-u-{n}");
            let token = state
                .keys
                .mint_access(&user, app_id, &format!("seed-s-{n}"), ttl_secs)?;
            Ok((user, format!("seed-w-{n}"), token))
        })
        .collect()
}
