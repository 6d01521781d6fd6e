//! Several instances on one PostgreSQL database behave as one: a client
//! alternating between them gets one allowance, not one per instance.

use satchel_tests::{Backend, Stack, send};

use crate::first_account_id;

/// Two instances of the service on one PostgreSQL database: a balance refresh
/// allowance of 3 a minute is 3 in all, whichever instance is asked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_postgres_count_one_allowance() {
    let Some(backend) = Backend::postgres() else {
        return;
    };
    let stack = Stack::start_with(backend, |s| s.refresh_per_minute = 3).await;
    let second = stack.second_instance().await;
    let ada = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &ada).await;
    let path = format!("v1/accountbalance/{account_id}/balance");
    let refresh = |base: &url::Url| {
        let request = stack
            .http
            .get(format!("{base}{path}"))
            .header("X-API-KEY", &stack.app_key)
            .header("X-API-DOMAIN", &stack.domain)
            .header("X-SDK-TYPE", "desktop_rest_api")
            .header("Content-Type", "application/json")
            .bearer_auth(&ada.token);
        send(request)
    };
    let (first, other) = (&stack.service.base_url, &second.base_url);
    for (n, base) in [first, other, first].into_iter().enumerate() {
        let (status, body) = refresh(base).await;
        assert_eq!(status, 200, "refresh {n}: {body}");
    }
    // The allowance is spent on both instances alike.
    for base in [other, first] {
        let (status, body) = refresh(base).await;
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["code"], "TooManyRequests", "{body}");
    }
    second.shutdown().await.expect("stopped");
}

/// Failed password logins are counted once for all instances on one
/// PostgreSQL database: a guesser alternating between them gets no more tries.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_postgres_count_one_allowance_of_password_guesses() {
    let Some(backend) = Backend::postgres() else {
        return;
    };
    let stack = Stack::start_with(backend, |s| s.login_failures_per_account = 3).await;
    let second = stack.second_instance().await;
    drop(stack.user("ada@example.com").await);
    let login = |base: &url::Url, password: &str| {
        let body = serde_json::json!({"email": "ada@example.com", "password": password});
        send(stack.email_login_to(base, body))
    };
    let (first, other) = (&stack.service.base_url, &second.base_url);
    for (n, base) in [first, other, first].into_iter().enumerate() {
        let (status, body) = login(base, "wrong1password").await;
        assert_eq!(status, 401, "guess {n}: {body}");
    }
    // Three guesses in all: even the right password waits, on both.
    for base in [other, first] {
        let (status, body) = login(base, satchel_tests::PASSWORD).await;
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["code"], "TooManyRequests", "{body}");
    }
    second.shutdown().await.expect("stopped");
}

/// The database's count keeps only the keys still counting: a flood of keys
/// never seen again (a login per made-up e-mail address) is swept as it comes.
#[tokio::test]
async fn the_shared_counts_keep_only_the_keys_still_counting() {
    use sqlx::Connection as _;
    let Some(backend) = Backend::postgres() else {
        return;
    };
    let stack = Stack::start(backend).await;
    let db = &stack.service.state.db;
    let flood = 2 * satchel_service::db::RATE_LIMIT_SWEEP_EVERY;
    for n in 0..flood {
        // One turn of three a second each, ten seconds apart: each key is back
        // at its full allowance long before the next one comes.
        let now_ms = i64::try_from(n).expect("small") * 10_000;
        let taken = db
            .take_turn_in(&format!("flood:{n}"), 3, 1_000, now_ms)
            .await
            .expect("counted");
        assert!(taken.is_ok());
    }
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&stack.service.state.settings.database_url())
        .await
        .expect("the service's database");
    let (kept,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM rate_limits WHERE key LIKE 'flood:%'")
            .fetch_one(&mut conn)
            .await
            .expect("counted");
    let bound = i64::try_from(satchel_service::db::RATE_LIMIT_SWEEP_EVERY).expect("small");
    assert!(kept <= bound, "{kept} keys kept of {flood}");
}
