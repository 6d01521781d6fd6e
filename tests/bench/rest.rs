//! REST benchmark: prints, side by side in one run,
//! - requests/s and p50/p99 latency of operation 1 against a trivial axum handler,
//!   both on loopback, driven by the same client with 32 keep-alive connections;
//! - the time of operation 2 for an account tracking 1, 10 and 100 tokens (the
//!   node is read in one batch, so 100 tokens should cost well under 2x one token),
//!   beside the node's own read of the same balances; a later refresh and an
//!   account's first (nothing remembered of its last node read) each;
//! - the time of operation 3 for a wallet holding 10,000 NFTs.
//!
//! `cargo bench -p satchel-tests --bench rest`; `SATCHEL_BENCH_QUICK=1` for a short
//! smoke run (what the test command does, to keep the benchmark working).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use alloy::primitives::U256;
use satchel_devstack::demo::DemoToken;
use satchel_devstack::{Anvil, Demo, RunningService};
use satchel_service::config::TokenConfig;
use satchel_service::db::{NewAccount, StoredNft};
use satchel_tests::load::{self, CONNECTIONS, Load, ms};
use satchel_tests::{Backend, Stack};

/// `path` with the same headers on every request, for `time`.
async fn load_path(
    addr: SocketAddr,
    path: String,
    headers: Vec<(String, String)>,
    time: Duration,
) -> Load {
    load::load(
        addr,
        Arc::new(vec![(path, String::new())]),
        headers,
        time,
        false,
    )
    .await
}

/// One GET until its answer's last byte (checked to be a 200 with JSON once the
/// clock has stopped, when `json`).
async fn time_get(stack: &Stack, path: &str, token: &str, json: bool) -> Duration {
    let sent = Instant::now();
    let response = stack
        .app_request(path)
        .bearer_auth(token)
        .send()
        .await
        .expect("the service answers");
    let status = response.status();
    let body = response.bytes().await.expect("a body");
    // Until the answer's last byte: reading its JSON is the client's work
    // (a 12 KB answer at 100 tokens), checked once the clock has stopped.
    let time = sent.elapsed();
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    if json {
        serde_json::from_slice::<serde_json::Value>(&body).expect("a JSON answer");
    }
    time
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// The median of `rounds` sequential GETs, each until its answer's last byte.
async fn median_time(stack: &Stack, path: &str, token: &str, rounds: usize) -> Duration {
    let mut times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        times.push(time_get(stack, path, token, true).await);
    }
    median(times)
}

/// Deploys `count` ERC-20s with 18 decimals and returns their lowercase addresses.
async fn deploy_tokens(rpc: &url::Url, count: usize) -> Vec<String> {
    let signer: alloy::signers::local::PrivateKeySigner =
        satchel_devstack::DEPLOYER_KEY.parse().expect("key");
    let provider = alloy::providers::ProviderBuilder::new()
        .wallet(alloy::network::EthereumWallet::from(signer))
        .connect_http(rpc.clone());
    let mut contracts = Vec::with_capacity(count);
    for i in 0..count {
        let supply = U256::from(10u64).pow(U256::from(30));
        let token = DemoToken::deploy(&provider, format!("Bench {i}"), format!("B{i}"), 18, supply)
            .await
            .expect("deployed");
        contracts.push(format!("{:#x}", token.address()));
    }
    contracts
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let quick = std::env::var("SATCHEL_BENCH_QUICK").is_ok_and(|v| v == "1");
    let load_time = Duration::from_secs(if quick { 1 } else { 5 });
    let rounds = if quick { 5 } else { 25 };
    let token_counts: &[usize] = if quick { &[1, 10] } else { &[1, 10, 100] };
    let nft_count = if quick { 1_000 } else { 10_000 };

    let anvil = Anvil::spawn().await.expect("anvil");
    let demo = Demo::deploy(&anvil.url).await.expect("demo contracts");
    let max_tokens = token_counts.iter().copied().max().unwrap_or(1);
    let contracts = deploy_tokens(&anvil.url, max_tokens).await;
    let stack = Stack::start_on(anvil, demo, Backend::Sqlite, |s| {
        s.refresh_per_minute = 1_000_000;
        s.networks[0]
            .tokens
            .extend(
                contracts
                    .iter()
                    .enumerate()
                    .map(|(i, contract)| TokenConfig {
                        contract: contract.clone(),
                        name: format!("Bench {i}"),
                        symbol: format!("B{i}"),
                        decimals: 18,
                        icon_url: String::new(),
                        ids: String::new(),
                        dust_below: None,
                        price_feeds: Default::default(),
                    }),
            );
    })
    .await
    .expect("stack");
    let user = stack.user("bench@example.com").await;

    // 1. Operation 1 against a trivial handler, same client, same machine.
    let trivial = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let trivial_addr = trivial.local_addr().expect("addr");
    tokio::spawn(async move {
        let app = axum::Router::new().route("/", axum::routing::get(|| async { "ok" }));
        axum::serve(trivial, app).await.expect("trivial server");
    });
    let headers = vec![
        ("x-api-key".to_owned(), stack.app_key.clone()),
        ("x-api-domain".to_owned(), stack.domain.clone()),
        ("x-sdk-type".to_owned(), "desktop_rest_api".to_owned()),
        ("content-type".to_owned(), "application/json".to_owned()),
        ("authorization".to_owned(), format!("Bearer {}", user.token)),
    ];
    // Operation 1 of a wallet as a person has it: the native coin and two tokens.
    let typical = stack.user("typical@example.com").await;
    let state = &stack.service.state;
    let typical_wallet = typical_wallet(&stack, &typical.user_id).await;
    let mut op1_headers = headers.clone();
    op1_headers[4].1 = format!("Bearer {}", typical.token);
    let baseline = load_path(trivial_addr, "/".into(), headers.clone(), load_time).await;
    let op1_path = format!(
        "/v1/account?userId={}&walletId={typical_wallet}",
        typical.user_id
    );
    let op1 = load_path(
        stack.service.address,
        op1_path.clone(),
        op1_headers.clone(),
        load_time,
    )
    .await;
    // The same operation on a second instance over the same database that keeps
    // nothing in memory: what every request costs when the caches miss.
    let mut uncached_settings = (*state.settings).clone();
    uncached_settings.read_cache_ms = 0;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let uncached = RunningService::start_on(listener, uncached_settings)
        .await
        .expect("second instance");
    let op1_uncached = load_path(uncached.address, op1_path, op1_headers, load_time).await;
    println!(
        "\nOperation 1 vs a trivial axum handler ({CONNECTIONS} connections, {} s each)",
        load_time.as_secs()
    );
    println!("{:<34}{:>12}{:>12}{:>12}", "", "req/s", "p50", "p99");
    for (name, run) in [
        ("trivial handler", &baseline),
        ("GET /v1/account", &op1),
        ("GET /v1/account, caches off", &op1_uncached),
    ] {
        println!(
            "{:<34}{:>12.0}{:>12}{:>12}",
            name,
            run.per_second(),
            ms(run.percentile(0.5)),
            ms(run.percentile(0.99))
        );
    }
    println!(
        "operation 1 / trivial handler: {:.0}% (target >= 40%)",
        100.0 * op1.per_second() / baseline.per_second()
    );

    // 2. Operation 2 for accounts tracking 1, 10 and 100 tokens.
    let app_id = stack.app_id().await;
    println!("\nOperation 2 by tracked tokens (median of {rounds}, one node round trip each)");
    let mut one_token = None;
    for &count in token_counts {
        let holder = alloy::signers::local::PrivateKeySigner::random().address();
        let account = NewAccount {
            network: "anvil".into(),
            address: format!("{holder:#x}"),
            address_path: satchel_service::admin::FIRST_ACCOUNT_PATH.into(),
            label: "Account 1".into(),
            tokens: contracts[..count].to_vec(),
        };
        let other = state
            .db
            .find_or_create_user(&app_id, "email", &format!("tokens{count}"), "")
            .await
            .expect("user");
        let wallet = state
            .db
            .create_wallet(&other, std::slice::from_ref(&account))
            .await
            .expect("wallet");
        let token = satchel_service::admin::mint_access_token(state, &other, 600)
            .await
            .expect("token");
        let (accounts, _) = state.db.wallet_accounts(&wallet).await.expect("accounts");
        let path = format!("/v1/accountbalance/{}/balance", accounts[0].id);
        let (_, body) = stack.get(&path, &token).await;
        assert_eq!(
            body["tokens"].as_array().map(Vec::len),
            Some(count),
            "{body}"
        );
        let chain = &state.network("anvil").expect("network").chain;
        let addresses: Vec<_> = contracts[..count]
            .iter()
            .map(|c| c.parse().expect("address"))
            .collect();
        // Interleaved, round by round, so they share the machine's moods:
        // operation 2 as a later refresh makes it (the node read started beside
        // the account's read, from what the last refresh read), as the first
        // refresh makes it (nothing remembered: the account's read, then the
        // node), the node's own batched read of the same balances, and an HTTP
        // exchange with the service that does nothing (`GET /health`).
        let (mut times, mut first_times, mut node_times, mut empty_times) =
            (vec![], vec![], vec![], vec![]);
        for _ in 0..rounds {
            times.push(time_get(&stack, &path, &token, true).await);
            state.forget_last_refresh(&accounts[0].id);
            first_times.push(time_get(&stack, &path, &token, true).await);
            let started = Instant::now();
            chain.balances(holder, &addresses).await.expect("balances");
            node_times.push(started.elapsed());
            empty_times.push(time_get(&stack, "/health", &token, false).await);
        }
        let (time, first, node, empty) = (
            median(times),
            median(first_times),
            median(node_times),
            median(empty_times),
        );
        let own = time.saturating_sub(node);
        let (base, base_node, base_own) = *one_token.get_or_insert((time, node, own));
        println!(
            "{count:>5} tokens {:>12}   the node's batched read of them alone {} -> operation 2 / node read {:.2}x{}; of 1 token: {:.2}x (node {:.2}x, the rest {} = {:.2}x)",
            ms(time),
            ms(node),
            time.as_secs_f64() / node.as_secs_f64(),
            if count == 100 {
                " (a later refresh; goal <= 1.1x at 100)"
            } else {
                ""
            },
            time.as_secs_f64() / base.as_secs_f64(),
            node.as_secs_f64() / base_node.as_secs_f64(),
            ms(own),
            own.as_secs_f64() / base_own.as_secs_f64().max(1e-9)
        );
        println!(
            "{:>18}the rest: an empty HTTP exchange with the service {} + the service's own work {}; node + empty exchange = {:.2}x the node read",
            "",
            ms(empty),
            ms(own.saturating_sub(empty)),
            (node + empty).as_secs_f64() / node.as_secs_f64()
        );
        println!(
            "{:>18}an account's first refresh (nothing remembered: its read from the database, then the node) {} = {:.2}x the node read{}",
            "",
            ms(first),
            first.as_secs_f64() / node.as_secs_f64(),
            if count == 100 {
                " (goal <= 1.3x at 100)"
            } else {
                ""
            }
        );
    }

    // 3. Operation 3 for a wallet holding many NFTs.
    let collector = stack.user("collector@example.com").await;
    let (accounts, _) = state
        .db
        .wallet_accounts(&collector.wallet_id)
        .await
        .expect("accounts");
    let nfts: Vec<StoredNft> = (0..nft_count)
        .map(|i| StoredNft {
            network: "anvil".into(),
            contract: format!("{:#x}", stack.demo.pals),
            token_id: i.to_string(),
            scheme: 1,
            quantity: 1,
            name: format!("Pal #{i}"),
            description: "A Satchel Pal from the benchmark.".into(),
            external_link: "https://satchel.dev/demo".into(),
            image_url: format!("https://images.example/pals/{i}.png"),
            content_url: None,
            content_type: 1,
            state: 1,
            arrival: Default::default(),
        })
        .collect();
    state
        .db
        .store_account_nfts(&accounts[0].id, &nfts, &[], None)
        .await
        .expect("stored");
    satchel_service::assets::refresh::render_nft_listing(state, &collector.wallet_id)
        .await
        .expect("rendered");
    let path = format!("/v1/nft?{}", collector.wallet_query());
    let (_, body) = stack.get(&path, &collector.token).await;
    assert_eq!(body["nfts"].as_array().map(Vec::len), Some(nft_count));
    let over_http = median_time(&stack, &path, &collector.token, rounds).await;
    let mut server = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let started = Instant::now();
        let body = state
            .db
            .nft_listing(&collector.wallet_id)
            .await
            .expect("db")
            .expect("a listing");
        server.push(started.elapsed());
        assert!(body.len() > nft_count);
    }
    let started = Instant::now();
    satchel_service::assets::refresh::render_nft_listing(state, &collector.wallet_id)
        .await
        .expect("rendered");
    let render = started.elapsed();
    println!("\nOperation 3 with {nft_count} NFTs (median of {rounds})");
    println!(
        "  server time (read listing)  {:>12}   (target < 50 ms at 10,000)",
        ms(median(server))
    );
    println!(
        "  rendering at refresh        {:>12}   (once per operation 4)",
        ms(render)
    );
    println!("  over loopback HTTP          {:>12}", ms(over_http));
}

/// The wallet id of a user the harness created.
async fn typical_wallet(stack: &Stack, user_id: &str) -> String {
    stack
        .service
        .state
        .db
        .user_wallet(user_id)
        .await
        .expect("db")
        .expect("a wallet")
}
