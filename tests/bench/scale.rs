//! Operation 1 at scale: prints, side by side in one run, requests/s, p50 and p99
//! of `GET /v1/account` for a different user on (nearly) every request — the cold
//! path a service with many users mostly runs — beside the same operation for a
//! few users whose answers stay in the read cache, and beside a trivial axum
//! handler, all from 32 keep-alive connections.
//!
//! Operation 1 keeps the body it rendered with the wallet until the wallet
//! changes, so "a new user each request" is measured twice: the first read of
//! each wallet since a change (no body kept: an earlier run's are dropped), and
//! then, after every sampled wallet has been read once (untimed), with new
//! tokens for the same users (no verified signature, session or wallet left in
//! the service's memory): the body kept by that earlier read.
//!
//! The database is seeded by the database itself (`satchel-service admin seed`):
//! 100,000 users with 10 accounts each in SQLite, and 1,000,000 users with 10
//! accounts each (10,000,000 accounts) in PostgreSQL when
//! `SATCHEL_BENCH_POSTGRES_URL` (or `SATCHEL_TEST_POSTGRES_URL`) names a server;
//! the PostgreSQL database `satchel_bench_scale` is kept between runs and seeded
//! only up to what is missing. `SATCHEL_BENCH_QUICK=1`: 2,000 users, 1 s loads.
//!
//! `cargo bench -p satchel-tests --bench scale`

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom as _;
use satchel_devstack::{Anvil, Demo, RunningService};

use satchel_service::{Settings, admin};
use satchel_tests::load::{Load, Target, load, load_spread, ms};
use sqlx::Connection as _;

const ACCOUNTS_PER_USER: u64 = 10;

/// The PostgreSQL database kept for this benchmark on `server`.
async fn postgres_database(server: &str) -> String {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(server)
        .await
        .expect("the PostgreSQL server");
    // Made once; an existing one is kept (with its seeded users).
    let _ = sqlx::query("CREATE DATABASE satchel_bench_scale")
        .execute(&mut conn)
        .await;
    conn.close().await.expect("closed");
    let mut url: url::Url = server.parse().expect("url");
    url.set_path("/satchel_bench_scale");
    url.to_string()
}

struct Engine {
    name: &'static str,
    database_url: String,
    users: u64,
}

async fn run(engine: Engine, demo: &Demo, rpc: &url::Url, quick: bool, trivial: &Load) {
    let load_time = Duration::from_secs(if quick { 1 } else { 5 });
    let dir = tempfile::tempdir().expect("temp dir");
    let settings = Settings {
        database_url: Some(engine.database_url.clone()),
        data_dir: dir.path().to_owned(),
        networks: vec![demo.network_config("anvil")],
        // The PostgreSQL database outlives the run, and its sealed signing keys
        // with it: one secret for every run (a benchmark's, never a real one).
        pin_secret: Some("c2F0Y2hlbCBzY2FsZSBiZW5jaG1hcmsgc2VjcmV0ISE=".into()),
        ..Settings::default()
    };
    let _ = rpc;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let service = RunningService::start_on(listener, settings.clone())
        .await
        .expect("service");
    let state = &service.state;
    let app = admin::create_app(&state.db, "Scale", &["localhost".to_owned()])
        .await
        .expect("app");

    // A PostgreSQL database is kept between runs: its seeded users move to
    // this run's app, and only missing rows are made.
    let started = Instant::now();
    admin::seed(state, &app.app_id, engine.users, ACCOUNTS_PER_USER)
        .await
        .expect("seeded");
    let seeding = started.elapsed();

    // A sample of random users, each asked for once per pass.
    let sample = (if quick { 2_000 } else { 100_000 }).min(engine.users as usize);
    let mut numbers: Vec<u64> = (1..=engine.users).collect();
    numbers.shuffle(&mut rand::thread_rng());
    // A second sample for the two instances, of other users where there are
    // enough (so no page of theirs is in the database's cache yet).
    let second: Vec<u64> = numbers.iter().skip(sample).take(sample).copied().collect();
    numbers.truncate(sample);
    let second = if second.len() == sample {
        second
    } else {
        numbers.clone()
    };
    let tokens = admin::seed_tokens(state, &app.app_id, &numbers, 3600)
        .await
        .expect("tokens");
    let target = |(user, wallet, token): &(String, String, String)| {
        (
            format!("/v1/account?userId={user}&walletId={wallet}"),
            format!("Bearer {token}"),
        )
    };
    let cold: Arc<Vec<Target>> = Arc::new(tokens.iter().map(target).collect());
    let warm: Arc<Vec<Target>> = Arc::new(tokens.iter().take(32).map(target).collect());
    // No body kept for any sampled wallet (an earlier run may have kept some):
    // the first pass reads each as it is read first after a change.
    admin::drop_kept_bodies(state, &numbers)
        .await
        .expect("kept bodies dropped");
    settle_writes();
    let headers = vec![
        ("x-api-key".to_owned(), app.app_key.clone()),
        ("x-api-domain".to_owned(), "localhost".to_owned()),
        ("x-sdk-type".to_owned(), "desktop_rest_api".to_owned()),
    ];
    // What a sampled user gets: their wallet with every seeded account.
    let (path, bearer) = &cold[0];
    let mut request = reqwest::Client::new()
        .get(format!("http://{}{path}", service.address))
        .header("authorization", bearer);
    for (name, value) in &headers {
        request = request.header(name, value);
    }
    let body: serde_json::Value = request
        .send()
        .await
        .expect("operation 1")
        .json()
        .await
        .expect("its JSON");
    let accounts = body["accounts"].as_array().expect("accounts");
    assert_eq!(accounts.len() as u64, ACCOUNTS_PER_USER, "{body}");
    assert_eq!(accounts[0]["label"], "Account 1", "{body}");

    let first_run = load(
        service.address,
        cold.clone(),
        headers.clone(),
        load_time,
        true,
    )
    .await;
    // Then every sampled wallet is read once (untimed), as the wallet of a
    // person who opened it before: its body is kept from then on. The timed
    // pass after it asks with new tokens for the same users, so no verified
    // signature, session or wallet is remembered by the service from before.
    // In slices, each written before the next: the service keeps what it can
    // write and leaves the rest (a bounded queue of 1,024), which a pass as
    // fast as the timed ones overruns; a slice no longer than the queue cannot.
    let mut primed = 0;
    for slice in cold.chunks(1_000) {
        let slice = Arc::new(slice.to_vec());
        primed += load(
            service.address,
            slice,
            headers.clone(),
            Duration::from_secs(60),
            true,
        )
        .await
        .latencies
        .len();
        state.kept_bodies.flush().await;
    }
    assert_eq!(primed, cold.len(), "every wallet read once");
    let kept_count = admin::count_kept_bodies(state, &numbers)
        .await
        .expect("counted");
    let fresh = admin::seed_tokens(state, &app.app_id, &numbers, 3600)
        .await
        .expect("tokens");
    assert_ne!(fresh[0].2, tokens[0].2, "new tokens");
    let token_check = token_check_costs(state, &fresh);
    settle_writes();
    let kept: Arc<Vec<Target>> = Arc::new(fresh.iter().map(target).collect());
    let cold_run = load(service.address, kept, headers.clone(), load_time, true).await;
    let warm_run = load(service.address, warm, headers.clone(), load_time, false).await;
    // The limit a database-backed request can reach here: one primary-key
    // SELECT of one small row (the user's app id) through the service's own
    // pool, for the same users in the same order.
    // And the same with an answer as long as operation 1's, to show the
    // answer's own share (writing it, and the client reading it on the same
    // two cores).
    let answer_bytes = serde_json::to_vec(&body).expect("json").len();
    let by_key = primary_key_server(state.db.clone(), answer_bytes).await;
    let by_key_targets = |route: &str| -> Arc<Vec<Target>> {
        Arc::new(
            tokens
                .iter()
                .map(|(user, _, _)| (format!("/{route}/{user}"), String::new()))
                .collect(),
        )
    };
    let by_key_run = load(by_key, by_key_targets("user"), Vec::new(), load_time, true).await;
    let padded_run = load(
        by_key,
        by_key_targets("padded"),
        Vec::new(),
        load_time,
        true,
    )
    .await;

    println!(
        "\n{}: {} users x {ACCOUNTS_PER_USER} accounts (seeded or topped up in {:.1} s), {} sampled users",
        engine.name,
        engine.users,
        seeding.as_secs_f64(),
        sample
    );
    println!(
        "(a wallet's body is kept by its first read until it changes: {kept_count} of the {sample} sampled wallets had theirs before the timed pass)"
    );
    println!("{:<44}{:>10}{:>12}{:>12}", "", "req/s", "p50", "p99");
    for (name, run) in [
        ("trivial handler", trivial),
        ("one primary-key SELECT, a new user each", &by_key_run),
        ("  the same, as long an answer as op. 1", &padded_run),
        ("GET /v1/account, a new user each request", &cold_run),
        ("  the same, first read since a change", &first_run),
        ("GET /v1/account, 32 users (warm cache)", &warm_run),
    ] {
        println!(
            "{:<44}{:>10.0}{:>12}{:>12}",
            name,
            run.per_second(),
            ms(run.percentile(0.5)),
            ms(run.percentile(0.99))
        );
    }
    let cold_p99 = cold_run.percentile(0.99);
    let by_key_p99 = by_key_run.percentile(0.99);
    println!(
        "cold / primary-key SELECT: {:.0}% (goal >= 80%; first read since a change: {:.0}%), cold / trivial: {:.1}%, cold p99 {} / the SELECT's {}: {:.2}x (goal <= 1.25x); {} cold requests in {:.1} s{}",
        100.0 * cold_run.per_second() / by_key_run.per_second(),
        100.0 * first_run.per_second() / by_key_run.per_second(),
        100.0 * cold_run.per_second() / trivial.per_second(),
        ms(cold_p99),
        ms(by_key_p99),
        cold_p99.as_secs_f64() / by_key_p99.as_secs_f64(),
        cold_run.latencies.len(),
        cold_run.seconds,
        if cold_run.latencies.len() >= cold.len() {
            " (every sampled user asked once: the load ended early)"
        } else {
            ""
        }
    );
    println!(
        "cold / the primary-key SELECT answering {answer_bytes} bytes: {:.0}%",
        100.0 * cold_run.per_second() / padded_run.per_second()
    );
    println!(
        "an access token's check, one core: its MAC {:.1} µs, its ES256 signature {:.1} µs (what an app with the JWKS checks; the service checked it until this round)",
        token_check.0, token_check.1
    );
    if engine.name == "PostgreSQL" {
        // Other users, each read for the first time since a change, as in
        // one instance's first pass.
        admin::drop_kept_bodies(state, &second)
            .await
            .expect("kept bodies dropped");
        let tokens = admin::seed_tokens(state, &app.app_id, &second, 3600)
            .await
            .expect("tokens");
        let targets: Arc<Vec<Target>> = Arc::new(tokens.iter().map(target).collect());
        settle_writes();
        two_instances(&service, settings, targets, &headers, load_time, &first_run).await;
    }
    service.shutdown().await.expect("stopped");
}

/// What checking one access token costs on one core, in µs: by its MAC (the
/// service) and by its signature (anyone with the JWKS), over the same tokens.
fn token_check_costs(
    state: &satchel_service::AppState,
    tokens: &[(String, String, String)],
) -> (f64, f64) {
    let sample = &tokens[..tokens.len().min(2_000)];
    let per_token = |check: &dyn Fn(&str) -> bool| {
        let started = Instant::now();
        for (_, _, token) in sample {
            assert!(check(token), "a seeded token checks");
        }
        started.elapsed().as_secs_f64() * 1e6 / sample.len() as f64
    };
    (
        per_token(&|t| state.keys.verify_access(t).is_ok()),
        per_token(&|t| state.keys.verify_access_signature(t).is_ok()),
    )
}

/// Puts what setting a pass up wrote (sessions, tokens, kept bodies) on the
/// disk before the pass, so that the pass is not timed against the kernel
/// writing it back (this VM's disk writes about 10 MB/s).
fn settle_writes() {
    let _ = std::process::Command::new("sync").status();
}

/// A server of one route, `GET /user/{id}`: one primary-key `SELECT` of the
/// user's app id through `db`'s pool (the service's own), answered as text;
/// `GET /padded/{id}` answers the same padded to `answer_bytes`.
async fn primary_key_server(
    db: satchel_service::db::Db,
    answer_bytes: usize,
) -> std::net::SocketAddr {
    use axum::extract::{Path, State};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("addr");
    // The user's app id, padded with spaces to `len` bytes.
    let answer = |len: usize| {
        move |State(db): State<satchel_service::db::Db>, Path(id): Path<String>| async move {
            match db.user_app(&id).await {
                Ok(Some(mut app)) => {
                    let padding = len.saturating_sub(app.len());
                    app.extend(std::iter::repeat_n(' ', padding));
                    (axum::http::StatusCode::OK, app)
                }
                _ => (axum::http::StatusCode::NOT_FOUND, String::new()),
            }
        }
    };
    let app = axum::Router::new()
        .route("/user/{id}", axum::routing::get(answer(0)))
        .route("/padded/{id}", axum::routing::get(answer(answer_bytes)))
        .with_state(db);
    tokio::spawn(async move { axum::serve(listener, app).await.expect("served") });
    address
}

/// Two instances of the service on one PostgreSQL behind the bench's client:
/// the throughput of both beside one's, and a logout on one refused on the
/// other within `read_cache_ms`.
async fn two_instances(
    first: &RunningService,
    settings: Settings,
    targets: Arc<Vec<Target>>,
    headers: &[(String, String)],
    load_time: Duration,
    one: &Load,
) {
    let read_cache = Duration::from_millis(settings.read_cache_ms);
    let refresh_per_minute = settings.refresh_per_minute;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let second = RunningService::start_on(listener, settings)
        .await
        .expect("a second instance");
    // Whatever the first instance read of these users has left its cache.
    tokio::time::sleep(read_cache).await;
    let both = load_spread(
        &[first.address, second.address],
        targets.clone(),
        headers.to_vec(),
        load_time,
        true,
    )
    .await;

    // A user both instances have seen live logs out on the first.
    let ask = |address: std::net::SocketAddr, method: reqwest::Method, path: String| {
        let mut request = reqwest::Client::new()
            .request(method, format!("http://{address}{path}"))
            .header("authorization", targets[0].1.clone());
        for (name, value) in headers {
            request = request.header(name, value);
        }
        async move { request.send().await.expect("an answer").status() }
    };
    let accounts = targets[0].0.clone();
    for address in [first.address, second.address] {
        assert!(
            ask(address, reqwest::Method::GET, accounts.clone())
                .await
                .is_success()
        );
    }
    let logout = ask(
        first.address,
        reqwest::Method::POST,
        "/v1/auth/logout".into(),
    )
    .await;
    assert!(logout.is_success(), "logout: {logout}");
    let logged_out = Instant::now();
    assert_eq!(
        ask(first.address, reqwest::Method::GET, accounts.clone()).await,
        reqwest::StatusCode::UNAUTHORIZED,
        "the instance that logged out refuses the token at once"
    );
    let refused_after = loop {
        let status = ask(second.address, reqwest::Method::GET, accounts.clone()).await;
        if status == reqwest::StatusCode::UNAUTHORIZED {
            break logged_out.elapsed();
        }
        assert!(status.is_success(), "the other instance: {status}");
        assert!(
            logged_out.elapsed() < read_cache + Duration::from_secs(1),
            "the other instance still answers {:?} after the logout",
            logged_out.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    // One allowance across the instances: a client alternating between them
    // refreshes a wallet's NFTs until it is refused.
    let nfts = targets[1].0.replace("/v1/account?", "/v1/nft/refresh?");
    let ask_other = |address: std::net::SocketAddr| {
        let mut request = reqwest::Client::new()
            .get(format!("http://{address}{nfts}"))
            .header("authorization", targets[1].1.clone());
        for (name, value) in headers {
            request = request.header(name, value);
        }
        async move { request.send().await.expect("an answer").status() }
    };
    let mut allowed = 0;
    let refused_at = loop {
        let instance = [first.address, second.address][allowed % 2];
        let status = ask_other(instance).await;
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            break allowed % 2 + 1;
        }
        assert!(status.is_success(), "an NFT refresh: {status}");
        allowed += 1;
        assert!(
            allowed <= 2 * refresh_per_minute as usize,
            "no limit across instances"
        );
    };
    assert_eq!(
        allowed, refresh_per_minute as usize,
        "one allowance for both"
    );

    println!(
        "\ntwo instances on this PostgreSQL, the 32 connections spread over both (one machine's cores serve both):"
    );
    println!(
        "{:<44}{:>10.0}{:>12}{:>12}   one instance: {:.0} req/s, two / one: {:.2}x",
        "GET /v1/account, first reads, 2 instances",
        both.per_second(),
        ms(both.percentile(0.5)),
        ms(both.percentile(0.99)),
        one.per_second(),
        both.per_second() / one.per_second()
    );
    println!(
        "a logout on instance 1: refused there at once, on instance 2 after {} (goal: within read_cache_ms = {} ms; asked every 10 ms)",
        ms(refused_after),
        read_cache.as_millis()
    );
    println!(
        "one allowance across instances: NFT refreshes of one wallet, asked of instance 1 and 2 in turn: {allowed} answered, the next refused (429, by instance {refused_at}); one instance's allowance: {refresh_per_minute} a minute"
    );
    second.shutdown().await.expect("stopped");
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let quick = std::env::var("SATCHEL_BENCH_QUICK").is_ok_and(|v| v == "1");
    let anvil = Anvil::spawn().await.expect("anvil");
    let demo = Demo::deploy(&anvil.url).await.expect("demo contracts");

    let trivial_listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let trivial_addr = trivial_listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let app = axum::Router::new().route("/", axum::routing::get(|| async { "ok" }));
        axum::serve(trivial_listener, app)
            .await
            .expect("trivial server");
    });
    let trivial = load(
        trivial_addr,
        Arc::new(vec![("/".to_owned(), String::new())]),
        Vec::new(),
        Duration::from_secs(if quick { 1 } else { 5 }),
        false,
    )
    .await;

    let dir = tempfile::tempdir().expect("temp dir");
    let mut engines = vec![Engine {
        name: "SQLite",
        database_url: format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("scale.db").display()
        ),
        users: if quick { 2_000 } else { 100_000 },
    }];
    let postgres = std::env::var("SATCHEL_BENCH_POSTGRES_URL")
        .or_else(|_| std::env::var("SATCHEL_TEST_POSTGRES_URL"))
        .ok()
        .filter(|u| !u.is_empty());
    match postgres {
        Some(server) => engines.push(Engine {
            name: "PostgreSQL",
            database_url: postgres_database(&server).await,
            users: if quick { 2_000 } else { 1_000_000 },
        }),
        None => {
            println!("(PostgreSQL not measured: set SATCHEL_BENCH_POSTGRES_URL to a server's URL)")
        }
    }
    for engine in engines {
        run(engine, &demo, &anvil.url, quick, &trivial).await;
    }
}
