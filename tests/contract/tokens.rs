//! The service's token signing keys: sealed in the database (a copy of it alone
//! mints nothing), moved there sealed from the earlier clear-text table, and
//! rotated with a `kid` without logging anyone out.

use satchel_service::identity::tokens::SigningKeys;
use satchel_tests::{Backend, Stack};
use sqlx::Connection as _;

fn kid_of(token: &str) -> String {
    use base64::Engine as _;
    let header = token.split('.').next().expect("a header");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(header)
        .expect("base64url");
    let header: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
    header["kid"].as_str().expect("a kid").to_owned()
}

pub async fn signing_keys_are_sealed_and_rotate_without_logging_anyone_out(backend: Backend) {
    let stack = Stack::start(backend).await;
    let state = &stack.service.state;
    let user = stack.user("ada@example.com").await;
    let (status, body) = stack.get("/v1/auth/service/user", &user.token).await;
    assert_eq!(status, 200, "{body}");
    let first_kid = kid_of(&user.token);

    // At rest: sealed, no PEM anywhere in the database.
    let url = state.settings.database_url();
    let mut db = sqlx::AnyConnection::connect(&url).await.expect("db");
    let sealed: Vec<String> = sqlx::query_scalar("SELECT sealed FROM token_keys")
        .fetch_all(&mut db)
        .await
        .expect("rows");
    assert_eq!(sealed.len(), 1);
    assert!(!sealed[0].contains("PRIVATE KEY"));
    let clear: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM signing_keys")
        .fetch_one(&mut db)
        .await
        .expect("count");
    assert_eq!(clear, 0, "no clear-text key left");

    // Rotation: the new key is published at once and signs later.
    let second_kid = SigningKeys::rotate(&state.db, &state.pin_keys)
        .await
        .expect("rotated");
    let lifetime = state.settings.token_lifetime_secs();
    state
        .keys
        .reload(&state.db, &state.pin_keys, lifetime)
        .await
        .expect("reloaded");
    let (_, jwks) = satchel_tests::send(stack.http.get(stack.url("/.well-known/jwks.json"))).await;
    let kids: Vec<&str> = jwks["keys"]
        .as_array()
        .expect("keys")
        .iter()
        .filter_map(|k| k["kid"].as_str())
        .collect();
    assert!(
        kids.contains(&first_kid.as_str()) && kids.contains(&second_kid.as_str()),
        "{jwks}"
    );
    let still_first = satchel_service::admin::mint_access_token(state, &user.user_id, 600)
        .await
        .expect("token");
    assert_eq!(
        kid_of(&still_first),
        first_kid,
        "not signing before its time"
    );

    // Its time comes: new tokens carry the new kid, the old ones still work.
    sqlx::query("UPDATE token_keys SET activated_at = activated_at - 3600 WHERE kid = $1")
        .bind(&second_kid)
        .execute(&mut db)
        .await
        .expect("activated");
    sqlx::query("UPDATE token_keys SET retired_at = retired_at - 3600 WHERE kid = $1")
        .bind(&first_kid)
        .execute(&mut db)
        .await
        .expect("retired");
    state
        .keys
        .reload(&state.db, &state.pin_keys, lifetime)
        .await
        .expect("reloaded");
    let fresh = satchel_service::admin::mint_access_token(state, &user.user_id, 600)
        .await
        .expect("token");
    assert_eq!(kid_of(&fresh), second_kid);
    for token in [&user.token, &fresh] {
        let (status, body) = stack.get("/v1/auth/service/user", token).await;
        assert_eq!(status, 200, "{body}");
    }

    // Past the longest token lifetime, the retired key verifies nothing.
    sqlx::query("UPDATE token_keys SET retired_at = retired_at - $2 WHERE kid = $1")
        .bind(&first_kid)
        .bind(lifetime + 60)
        .execute(&mut db)
        .await
        .expect("long retired");
    state
        .keys
        .reload(&state.db, &state.pin_keys, lifetime)
        .await
        .expect("reloaded");
    assert!(
        state.keys.verify_access(&user.token).is_err(),
        "its key is gone"
    );

    // The database with another pin_secret: the keys do not open.
    let mut other = state.settings.as_ref().clone();
    other.pin_secret = Some("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=".into());
    let e = satchel_service::AppState::new(other)
        .await
        .expect_err("sealed");
    assert!(e.to_string().contains("does not open"), "{e}");
}

pub async fn a_clear_text_key_of_an_earlier_version_is_sealed_at_start(backend: Backend) {
    let stack = Stack::start(backend).await;
    let state = &stack.service.state;
    let url = state.settings.database_url();
    let mut db = sqlx::AnyConnection::connect(&url).await.expect("db");
    // As an earlier version left it: one key, in clear.
    let pem = {
        use p256::pkcs8::{EncodePrivateKey as _, LineEnding};
        p256::SecretKey::random(&mut rand::rngs::OsRng)
            .to_pkcs8_pem(LineEnding::LF)
            .expect("pem")
            .to_string()
    };
    sqlx::query("INSERT INTO signing_keys (kid, private_pem, created_at) VALUES ('legacy', $1, 1)")
        .bind(&pem)
        .execute(&mut db)
        .await
        .expect("inserted");
    let restarted = satchel_service::AppState::new(state.settings.as_ref().clone())
        .await
        .expect("starts");
    let clear: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM signing_keys")
        .fetch_one(&mut db)
        .await
        .expect("count");
    assert_eq!(clear, 0, "moved");
    let sealed: String = sqlx::query_scalar("SELECT sealed FROM token_keys WHERE kid = 'legacy'")
        .fetch_one(&mut db)
        .await
        .expect("sealed copy");
    assert!(!sealed.contains("PRIVATE KEY"));
    assert!(
        restarted.keys.jwks().to_string().contains("legacy"),
        "it still verifies"
    );
}
