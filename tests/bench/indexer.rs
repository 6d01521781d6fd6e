//! Operation 4 (`GET /v1/nft/refresh`, the NFT indexer) against a busy chain:
//! does the refresh keep up with a chain producing about 1,000 NFT transfer logs
//! a second for a minute?
//!
//! A producer sends DemoMulti `mint(to, id, amount)` transactions to anvil (one
//! TransferSingle log and one new ERC-1155 id each) for 60 s, paced to 1,000 a
//! second and spread over the wallets of 10 users; what was produced is counted
//! from the mined blocks' receipts. Meanwhile one client per wallet calls
//! operation 4 over HTTP in a loop, as the app does, and counts the distinct
//! NFTs each listing holds. At the end it prints, side by side, logs/s and ids/s
//! produced against indexed, the lag when production stopped and how long the
//! indexer took to catch up, the refresh's p50/p99, and whether it kept up.
//!
//! No figure is asserted, but the run fails when a listing holds an NFT that was
//! never minted to that wallet (or with the wrong quantity), or when, once the
//! indexer has scanned past the last mint, a wallet's listing is not exactly what
//! the receipts say was minted to it: the quick run is a real test.
//!
//! `cargo bench -p satchel-tests --bench indexer`; `SATCHEL_BENCH_QUICK=1` runs
//! 5 s at a tenth of the rate (what the test command does).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use alloy::consensus::{SignableTransaction, TxEip1559, TxEnvelope};
use alloy::eips::BlockNumberOrTag;
use alloy::eips::eip2718::Encodable2718;
use alloy::network::TxSignerSync;
use alloy::primitives::{Address, B256, Bytes, TxKind, U64, U256};
use alloy::rpc::client::{ClientBuilder, RpcClient};
use alloy::rpc::types::TransactionReceipt;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::{SolCall, SolEvent};
use satchel_devstack::demo::DemoMulti;
use satchel_devstack::{Anvil, DEPLOYER_KEY, Demo, RunningService};
use satchel_service::{Settings, admin};

/// Wallets the mints are spread over, one refreshing client each. At 1,000 a
/// second for a minute each gets about 6,000 NFTs, within the service's
/// `max_nfts_per_account` (10,000 by default).
const WALLETS: usize = 10;
/// The first token id minted (the demo's ids 1 and 2 are left alone).
const FIRST_ID: u64 = 1_000_000;
/// "Keeps up": everything produced is listed within this long after the
/// chain stops producing.
const GOAL_CATCH_UP: Duration = Duration::from_secs(10);
/// The producer's pace is checked this often.
const TICK: Duration = Duration::from_millis(20);
/// Most transactions in one JSON-RPC batch to anvil.
const MAX_BATCH: u64 = 250;
/// Most blocks' receipts asked for in one JSON-RPC batch.
const RECEIPT_BATCH: u64 = 50;
/// How long mined blocks are looked for after the producer stops.
const DRAIN_LIMIT: Duration = Duration::from_secs(60);
/// Refreshes one wallet may take in the final check before it must have scanned
/// past the last mint.
const FINAL_REFRESHES: usize = 200;
/// Refreshes of a quiet chain timed after the run.
const QUIET_REFRESHES: usize = 5;

const PRIORITY_FEE: u128 = 1_000_000_000;
const MAX_FEE: u128 = 50_000_000_000;
const MINT_GAS: u64 = 120_000;
const BLOCK_GAS_LIMIT: u64 = 1_000_000_000;
/// Anvil mines a block this often while the mints are produced.
const BLOCK_TIME: Duration = Duration::from_secs(1);

struct Plan {
    /// Mints (= logs = ids) a second the producer aims at.
    rate: u64,
    production: Duration,
    /// How long the clients keep refreshing after production stopped.
    catch_up_limit: Duration,
    sample_every: Duration,
    report_every: Duration,
}

/// What the producer sent and the receipts say was mined.
#[derive(Default)]
struct Produced {
    sent: AtomicU64,
    mined: AtomicU64,
    failed: AtomicU64,
    logs: AtomicU64,
    ids: AtomicU64,
    /// Blocks holding at least one mint.
    blocks: AtomicU64,
    sending_done: AtomicBool,
    /// Every sent transaction has its receipt.
    mined_done: AtomicBool,
    /// The highest block with a mint.
    last_block: AtomicU64,
    /// When the first mint's receipt was seen.
    first: Mutex<Option<Instant>>,
    /// When the last receipt was seen: the end of production.
    end: Mutex<Option<Instant>>,
    /// Per wallet, each id minted to it and its quantity, from the receipts.
    minted: Mutex<Vec<BTreeMap<u64, u64>>>,
}

/// The `k`-th mint: its wallet, token id and amount.
fn mint_of(k: u64) -> (usize, u64, u64) {
    ((k % WALLETS as u64) as usize, FIRST_ID + k, 1 + k % 3)
}

/// The mint a token id came from, if it is one of this run's.
fn mint_index(id: u64) -> Option<u64> {
    id.checked_sub(FIRST_ID)
}

struct Wallet {
    user_id: String,
    wallet_id: String,
    account_id: String,
    address: Address,
    token: String,
}

impl Wallet {
    fn refresh_url(&self, base: &url::Url) -> String {
        format!(
            "{base}v1/nft/refresh?userId={}&walletId={}",
            self.user_id, self.wallet_id
        )
    }
}

/// The service's answer to operation 4 for one wallet: each listed NFT's id
/// and quantity. Panics on anything that was never minted to `w` (another
/// contract, an id not sent to this wallet, a wrong quantity).
fn listing(body: &[u8], items: &str, w: usize, sent: u64) -> BTreeMap<u64, u64> {
    let answer: satchel_api::NftsResponse = serde_json::from_slice(body).unwrap_or_else(|e| {
        panic!(
            "operation 4 answered what is not a listing ({e}): {}",
            String::from_utf8_lossy(body)
        )
    });
    let mut listed = BTreeMap::new();
    for nft in answer.nfts {
        assert_eq!(
            nft.contract.address.to_lowercase(),
            items,
            "wallet {w} lists an NFT of a contract that minted it nothing: {nft:?}"
        );
        let id: u64 = nft
            .token_id
            .parse()
            .unwrap_or_else(|_| panic!("wallet {w} lists an id never minted: {nft:?}"));
        let k = mint_index(id)
            .filter(|&k| k < sent)
            .unwrap_or_else(|| panic!("wallet {w} lists id {id}, never minted: {nft:?}"));
        let (to, _, amount) = mint_of(k);
        assert_eq!(to, w, "wallet {w} lists id {id}, minted to wallet {to}");
        assert_eq!(
            nft.quantity, amount as i64,
            "wallet {w} lists id {id} with the wrong quantity"
        );
        assert!(
            listed.insert(id, amount).is_none(),
            "wallet {w} lists id {id} twice"
        );
    }
    listed
}

/// One call of operation 4: the answer's status and body, and how long it took.
async fn refresh(
    http: &reqwest::Client,
    url: &str,
    headers: &[(&str, String)],
    token: &str,
) -> (reqwest::StatusCode, Vec<u8>, Duration) {
    let sent = Instant::now();
    let mut request = http.get(url).bearer_auth(token);
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let response = request.send().await.expect("operation 4 answers");
    let status = response.status();
    let body = response.bytes().await.expect("its body").to_vec();
    (status, body, sent.elapsed())
}

/// Sends the mints, paced to `plan.rate` a second for `plan.production`, as
/// signed raw transactions in JSON-RPC batches. It never runs more than a
/// two seconds' worth ahead of what is mined, so what is counted is what the chain
/// took, not a queue.
async fn produce(
    rpc: RpcClient,
    items: Address,
    wallets: Arc<Vec<Address>>,
    plan: Arc<Plan>,
    produced: Arc<Produced>,
    first_nonce: u64,
    start: Instant,
) {
    let signer: PrivateKeySigner = DEPLOYER_KEY.parse().expect("key");
    let ahead = 2 * plan.rate.max(100);
    let mut sent = 0u64;
    loop {
        let elapsed = start.elapsed();
        if elapsed >= plan.production {
            break;
        }
        let due = (plan.rate as u128 * elapsed.as_millis() / 1000) as u64 + 1;
        let in_flight = sent - produced.mined.load(Ordering::Acquire);
        let n = due
            .saturating_sub(sent)
            .min(MAX_BATCH)
            .min(ahead.saturating_sub(in_flight));
        if n == 0 {
            tokio::time::sleep(TICK).await;
            continue;
        }
        let mut batch = rpc.new_batch();
        let mut waiters = Vec::with_capacity(n as usize);
        for k in sent..sent + n {
            let (w, id, amount) = mint_of(k);
            let input = DemoMulti::mintCall {
                to: wallets[w],
                id: U256::from(id),
                amount: U256::from(amount),
            }
            .abi_encode();
            let mut tx = TxEip1559 {
                chain_id: satchel_devstack::anvil::CHAIN_ID,
                nonce: first_nonce + k,
                gas_limit: MINT_GAS,
                max_fee_per_gas: MAX_FEE,
                max_priority_fee_per_gas: PRIORITY_FEE,
                to: TxKind::Call(items),
                value: U256::ZERO,
                access_list: Default::default(),
                input: input.into(),
            };
            let signature = signer.sign_transaction_sync(&mut tx).expect("signed");
            let envelope: TxEnvelope = tx.into_signed(signature).into();
            let raw = Bytes::from(envelope.encoded_2718());
            waiters.push(
                batch
                    .add_call::<_, B256>("eth_sendRawTransaction", &(raw,))
                    .expect("a call"),
            );
        }
        batch.send().await.expect("anvil takes the batch");
        for waiter in waiters {
            waiter.await.expect("anvil takes the mint");
        }
        sent += n;
        produced.sent.store(sent, Ordering::Release);
    }
    produced.sending_done.store(true, Ordering::Release);
}

/// Reads the receipts of every block after `from_block` as it is mined and
/// counts the NFT logs and ids minted to the wallets, until every sent
/// transaction has its receipt.
async fn watch_receipts(
    rpc: RpcClient,
    items: Address,
    wallets: Arc<Vec<Address>>,
    produced: Arc<Produced>,
    from_block: u64,
    deadline: Instant,
) {
    let index: HashMap<Address, usize> = wallets.iter().enumerate().map(|(i, a)| (*a, i)).collect();
    let mut next = from_block;
    loop {
        let head: U64 = rpc
            .request_noparams("eth_blockNumber")
            .await
            .expect("block number");
        let head = head.to::<u64>();
        while next <= head {
            let last = head.min(next + RECEIPT_BATCH - 1);
            let mut batch = rpc.new_batch();
            let waiters = (next..=last)
                .map(|n| {
                    batch
                        .add_call::<_, Option<Vec<TransactionReceipt>>>(
                            "eth_getBlockReceipts",
                            &(BlockNumberOrTag::Number(n),),
                        )
                        .expect("a call")
                })
                .collect::<Vec<_>>();
            batch.send().await.expect("receipts");
            let mut complete = true;
            for (n, waiter) in (next..=last).zip(waiters) {
                let receipts = waiter.await.expect("a block's receipts");
                // A block just mined may not have its receipts yet: it is
                // asked for again, and the blocks after it with it.
                match receipts {
                    Some(receipts) if complete => {
                        count_receipts(&receipts, n, items, &index, &produced);
                        next = n + 1;
                    }
                    _ => complete = false,
                }
            }
            if !complete {
                break;
            }
        }
        let done = produced.sending_done.load(Ordering::Acquire)
            && produced.mined.load(Ordering::Acquire) >= produced.sent.load(Ordering::Acquire);
        if done {
            *produced.end.lock().expect("lock") = Some(Instant::now());
            produced.mined_done.store(true, Ordering::Release);
            return;
        }
        if Instant::now() >= deadline {
            let pool: serde_json::Value = rpc
                .request_noparams("txpool_status")
                .await
                .unwrap_or_default();
            let block: serde_json::Value = rpc
                .request("eth_getBlockByNumber", ("latest", false))
                .await
                .unwrap_or_default();
            panic!(
                "anvil mined {} of {} mints within {} s after they were sent; its pool: {pool}, \
                 its last block: number {}, {} transactions, gas used {}, base fee {}",
                produced.mined.load(Ordering::Acquire),
                produced.sent.load(Ordering::Acquire),
                DRAIN_LIMIT.as_secs(),
                block["number"],
                block["transactions"].as_array().map_or(0, Vec::len),
                block["gasUsed"],
                block["baseFeePerGas"],
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn count_receipts(
    receipts: &[TransactionReceipt],
    block: u64,
    items: Address,
    index: &HashMap<Address, usize>,
    produced: &Produced,
) {
    let (mut logs, mut ids) = (0, 0);
    let mut minted = produced.minted.lock().expect("lock");
    for receipt in receipts {
        if !receipt.status() {
            produced.failed.fetch_add(1, Ordering::Relaxed);
        }
        for log in receipt.inner.logs() {
            if log.address() != items {
                continue;
            }
            let topic = log.topics().first().copied();
            if topic == Some(DemoMulti::TransferSingle::SIGNATURE_HASH) {
                let event = log
                    .log_decode::<DemoMulti::TransferSingle>()
                    .expect("a TransferSingle");
                let e = event.inner.data;
                let Some(&w) = index.get(&e.to) else { continue };
                *minted[w].entry(e.id.to::<u64>()).or_default() += e.value.to::<u64>();
                logs += 1;
                ids += 1;
            } else if topic == Some(DemoMulti::TransferBatch::SIGNATURE_HASH) {
                let event = log
                    .log_decode::<DemoMulti::TransferBatch>()
                    .expect("a TransferBatch");
                let e = event.inner.data;
                let Some(&w) = index.get(&e.to) else { continue };
                for (id, value) in e.ids.iter().zip(&e.values) {
                    *minted[w].entry(id.to::<u64>()).or_default() += value.to::<u64>();
                }
                logs += 1;
                ids += e.ids.len() as u64;
            }
        }
    }
    drop(minted);
    if logs > 0 {
        produced.last_block.fetch_max(block, Ordering::AcqRel);
        produced.blocks.fetch_add(1, Ordering::AcqRel);
        produced
            .first
            .lock()
            .expect("lock")
            .get_or_insert_with(Instant::now);
    }
    // Counts first, then the mined total the producer and the watcher go by.
    produced.logs.fetch_add(logs, Ordering::AcqRel);
    produced.ids.fetch_add(ids, Ordering::AcqRel);
    produced
        .mined
        .fetch_add(receipts.len() as u64, Ordering::AcqRel);
}

/// What one wallet's client saw.
#[derive(Default)]
struct ClientRun {
    /// When each refresh was asked for, and how long it took.
    latencies: Vec<(Instant, Duration)>,
    errors: u64,
    first_error: Option<String>,
    /// When its listing first held exactly what was minted to it, once
    /// production had ended.
    caught_up: Option<Instant>,
}

/// One wallet's client: operation 4 in a loop until its listing holds exactly
/// what the receipts say was minted to it, or the catch-up limit passes.
#[allow(clippy::too_many_arguments)]
async fn refresh_loop(
    w: usize,
    http: reqwest::Client,
    url: String,
    headers: Arc<Vec<(&'static str, String)>>,
    token: String,
    items: String,
    produced: Arc<Produced>,
    indexed: Arc<Vec<AtomicU64>>,
    plan: Arc<Plan>,
    hard_deadline: Instant,
) -> ClientRun {
    let mut run = ClientRun::default();
    loop {
        let now = Instant::now();
        let ended = *produced.end.lock().expect("lock");
        if now >= hard_deadline || ended.is_some_and(|end| now >= end + plan.catch_up_limit) {
            return run;
        }
        // Only an answer asked for once the last mint was mined can be complete.
        let done_before = produced.mined_done.load(Ordering::Acquire);
        let asked = Instant::now();
        let (status, body, latency) = refresh(&http, &url, &headers, &token).await;
        run.latencies.push((asked, latency));
        if !status.is_success() {
            run.errors += 1;
            run.first_error
                .get_or_insert_with(|| format!("{status}: {}", String::from_utf8_lossy(&body)));
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        }
        let listed = listing(&body, &items, w, produced.sent.load(Ordering::Acquire));
        indexed[w].store(listed.len() as u64, Ordering::Release);
        if done_before && listed == produced.minted.lock().expect("lock")[w] {
            run.caught_up = Some(Instant::now());
            return run;
        }
    }
}

/// A moment of the run: produced logs and ids, and the NFTs listed.
#[derive(Clone, Copy)]
struct Sample {
    at: Duration,
    logs: u64,
    ids: u64,
    indexed: u64,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted
        .get(((sorted.len() as f64 - 1.0) * p).round() as usize)
        .copied()
        .unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// After the run: each wallet is refreshed until the indexer has scanned past
/// the last mint, and its listing must then be exactly what was minted to it.
async fn final_check(
    service: &RunningService,
    http: &reqwest::Client,
    headers: &[(&str, String)],
    wallets: &[Wallet],
    items: &str,
    produced: &Produced,
) -> usize {
    let last_block = produced.last_block.load(Ordering::Acquire);
    let sent = produced.sent.load(Ordering::Acquire);
    let minted = produced.minted.lock().expect("lock").clone();
    let mut refreshes = 0;
    for (w, wallet) in wallets.iter().enumerate() {
        let url = wallet.refresh_url(&service.base_url);
        let mut verified = false;
        for _ in 0..FINAL_REFRESHES {
            let (status, body, _) = refresh(http, &url, headers, &wallet.token).await;
            refreshes += 1;
            assert!(
                status.is_success(),
                "operation 4 for wallet {w}: {status}: {}",
                String::from_utf8_lossy(&body)
            );
            let listed = listing(&body, items, w, sent);
            let next = service
                .state
                .db
                .nft_checkpoint(&wallet.account_id)
                .await
                .expect("checkpoint")
                .unwrap_or(0);
            if u64::try_from(next).unwrap_or(0) > last_block {
                let missing: Vec<_> = minted[w]
                    .keys()
                    .filter(|id| !listed.contains_key(id))
                    .take(10)
                    .collect();
                assert!(
                    listed == minted[w],
                    "wallet {w} ({}): scanned to block {next} past the last mint (block {last_block}) \
                     but lists {} NFTs of the {} minted to it; missing (first 10): {missing:?}",
                    wallet.address,
                    listed.len(),
                    minted[w].len()
                );
                verified = true;
                break;
            }
        }
        assert!(
            verified,
            "wallet {w}: {FINAL_REFRESHES} refreshes did not scan past block {last_block}"
        );
    }
    refreshes
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let quick = std::env::var("SATCHEL_BENCH_QUICK").is_ok_and(|v| v == "1");
    let plan = Arc::new(if quick {
        Plan {
            rate: 100,
            production: Duration::from_secs(5),
            catch_up_limit: Duration::from_secs(30),
            sample_every: Duration::from_millis(100),
            report_every: Duration::from_secs(1),
        }
    } else {
        Plan {
            rate: 1_000,
            production: Duration::from_secs(60),
            catch_up_limit: Duration::from_secs(120),
            sample_every: Duration::from_millis(250),
            report_every: Duration::from_secs(10),
        }
    });

    let anvil = Anvil::spawn().await.expect("anvil");
    let demo = Demo::deploy(&anvil.url).await.expect("demo contracts");
    let items = demo.items;
    let items_hex = format!("{items:#x}");

    let dir = tempfile::tempdir().expect("temp dir");
    let default_refreshes = Settings::default().refresh_per_minute;
    let settings = Settings {
        database_url: Some(format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("indexer.db").display()
        )),
        data_dir: dir.path().to_owned(),
        networks: vec![demo.network_config("anvil")],
        // Each client refreshes its wallet as often as the service answers.
        refresh_per_minute: 1_000_000,
        ..Settings::default()
    };
    let max_nfts = settings.max_nfts_per_account;
    let log_window = settings.networks[0].log_window;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let service = RunningService::start_on(listener, settings)
        .await
        .expect("service");
    let state = &service.state;
    let app = admin::create_app(&state.db, "Indexer", &["localhost".to_owned()])
        .await
        .expect("app");
    let headers: Arc<Vec<(&'static str, String)>> = Arc::new(vec![
        ("x-api-key", app.app_key.clone()),
        ("x-api-domain", "localhost".to_owned()),
        ("x-sdk-type", "desktop_rest_api".to_owned()),
    ]);

    let mut wallets = Vec::with_capacity(WALLETS);
    for w in 0..WALLETS {
        let user_id = admin::create_email_account(
            state,
            &app.app_id,
            &format!("indexer{w}@example.com"),
            "correct1horse",
        )
        .await
        .expect("user");
        let address = PrivateKeySigner::random().address();
        let wallet_id = admin::create_wallet(state, &user_id, &address.to_string())
            .await
            .expect("wallet");
        let (accounts, _) = state
            .db
            .wallet_accounts(&wallet_id)
            .await
            .expect("accounts");
        assert_eq!(accounts.len(), 1, "one network, one account");
        assert_eq!(accounts[0].address.parse::<Address>().ok(), Some(address));
        let token = admin::mint_access_token(state, &user_id, 3600)
            .await
            .expect("token");
        wallets.push(Wallet {
            user_id,
            wallet_id,
            account_id: accounts[0].id.clone(),
            address,
            token,
        });
    }
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .expect("client");
    // A first refresh each: nothing held, the scan checkpoint at the chain's head.
    for (w, wallet) in wallets.iter().enumerate() {
        let url = wallet.refresh_url(&service.base_url);
        let (status, body, _) = refresh(&http, &url, &headers, &wallet.token).await;
        assert!(status.is_success(), "{status}");
        assert!(listing(&body, &items_hex, w, 0).is_empty());
    }

    let rpc = ClientBuilder::default().http(anvil.url.clone());
    let deployer = PrivateKeySigner::from_bytes(&DEPLOYER_KEY.parse().expect("key"))
        .expect("key")
        .address();
    let nonce: U64 = rpc
        .request("eth_getTransactionCount", (deployer, "pending"))
        .await
        .expect("nonce");
    let head: U64 = rpc.request_noparams("eth_blockNumber").await.expect("head");
    // A block a second, as a busy chain makes them: anvil's automine (a block
    // per arrival) stalled under this load, 1,000 ready mints in its pool after
    // an empty block and nothing mined after. A second's mints (50M gas) would
    // fill anvil's default 30M-gas block and push the base fee up block after
    // block; a block gas limit of a billion keeps every block under the target.
    let _: bool = rpc
        .request("evm_setBlockGasLimit", (U64::from(BLOCK_GAS_LIMIT),))
        .await
        .expect("block gas limit");
    let _: serde_json::Value = rpc
        .request("evm_setAutomine", (false,))
        .await
        .expect("automine off");
    let _: serde_json::Value = rpc
        .request("evm_setIntervalMining", (BLOCK_TIME.as_secs(),))
        .await
        .expect("interval mining");

    let addresses: Arc<Vec<Address>> = Arc::new(wallets.iter().map(|w| w.address).collect());
    let produced = Arc::new(Produced {
        minted: Mutex::new(vec![BTreeMap::new(); WALLETS]),
        ..Produced::default()
    });
    let indexed: Arc<Vec<AtomicU64>> = Arc::new((0..WALLETS).map(|_| AtomicU64::new(0)).collect());

    let start = Instant::now();
    let hard_deadline = start + plan.production + DRAIN_LIMIT + plan.catch_up_limit;
    let producer = tokio::spawn(produce(
        rpc.clone(),
        items,
        addresses.clone(),
        plan.clone(),
        produced.clone(),
        nonce.to::<u64>(),
        start,
    ));
    let watcher = tokio::spawn(watch_receipts(
        rpc.clone(),
        items,
        addresses.clone(),
        produced.clone(),
        head.to::<u64>() + 1,
        start + plan.production + DRAIN_LIMIT,
    ));
    let clients: Vec<_> = wallets
        .iter()
        .enumerate()
        .map(|(w, wallet)| {
            tokio::spawn(refresh_loop(
                w,
                http.clone(),
                wallet.refresh_url(&service.base_url),
                headers.clone(),
                wallet.token.clone(),
                items_hex.clone(),
                produced.clone(),
                indexed.clone(),
                plan.clone(),
                hard_deadline,
            ))
        })
        .collect();

    // The run's timeline, until every client has stopped.
    let mut samples = Vec::new();
    let mut next_progress = plan.report_every;
    loop {
        samples.push(Sample {
            at: start.elapsed(),
            logs: produced.logs.load(Ordering::Acquire),
            ids: produced.ids.load(Ordering::Acquire),
            indexed: indexed.iter().map(|i| i.load(Ordering::Acquire)).sum(),
        });
        let s = samples[samples.len() - 1];
        if s.at >= next_progress {
            eprintln!(
                "bench: {:.0} s: {} logs, {} ids produced; {} listed",
                s.at.as_secs_f64(),
                s.logs,
                s.ids,
                s.indexed
            );
            next_progress += plan.report_every;
        }
        let stopped = clients.iter().all(|c| c.is_finished())
            || Instant::now() >= hard_deadline
            // The receipts watcher gave up (it panicked; awaited below).
            || (watcher.is_finished() && !produced.mined_done.load(Ordering::Acquire));
        if stopped {
            break;
        }
        tokio::time::sleep(plan.sample_every).await;
    }
    producer.await.expect("producer");
    watcher.await.expect("receipts");
    let mut runs = Vec::with_capacity(WALLETS);
    for client in clients {
        runs.push(client.await.expect("client"));
    }
    let end = produced
        .end
        .lock()
        .expect("lock")
        .expect("production ended");
    let production = end - start;

    let checks = final_check(&service, &http, &headers, &wallets, &items_hex, &produced).await;
    // What a refresh costs once the chain is quiet: nothing new to find, the
    // wallet's whole holding re-checked (the median of a few, one at a time).
    let held = produced.minted.lock().expect("lock")[0].len();
    let quiet_url = wallets[0].refresh_url(&service.base_url);
    let mut quiet = Vec::with_capacity(QUIET_REFRESHES);
    for _ in 0..QUIET_REFRESHES {
        let (status, _, latency) = refresh(&http, &quiet_url, &headers, &wallets[0].token).await;
        assert!(status.is_success(), "{status}");
        quiet.push(latency);
    }
    quiet.sort_unstable();

    // The figures.
    let logs = produced.logs.load(Ordering::Acquire);
    let ids = produced.ids.load(Ordering::Acquire);
    let sent = produced.sent.load(Ordering::Acquire);
    let failed = produced.failed.load(Ordering::Acquire);
    let blocks = produced.blocks.load(Ordering::Acquire);
    let at_end = samples
        .iter()
        .rev()
        .find(|s| s.at <= production)
        .copied()
        .unwrap_or(samples[0]);
    let last = *samples.last().expect("a sample");
    let caught_up = runs
        .iter()
        .map(|r| r.caught_up)
        .collect::<Option<Vec<_>>>()
        .and_then(|times| times.into_iter().max());
    let catch_up = caught_up.map(|t| t.saturating_duration_since(end));
    // Refreshes of still-empty wallets before the first block of mints are
    // left out: they say nothing about keeping up.
    let first = produced.first.lock().expect("lock").expect("a mint");
    let early = runs
        .iter()
        .flat_map(|r| r.latencies.iter())
        .filter(|(asked, _)| *asked < first)
        .count();
    let mut latencies: Vec<Duration> = runs
        .iter()
        .flat_map(|r| r.latencies.iter())
        .filter(|(asked, _)| *asked >= first)
        .map(|(_, l)| *l)
        .collect();
    latencies.sort_unstable();
    // The refreshes asked for in the last tenth of the production, when the
    // wallets hold the most.
    let late_from = end - production / 10;
    let mut late: Vec<Duration> = runs
        .iter()
        .flat_map(|r| r.latencies.iter())
        .filter(|(asked, _)| (late_from..end).contains(asked))
        .map(|(_, l)| *l)
        .collect();
    late.sort_unstable();
    let errors: u64 = runs.iter().map(|r| r.errors).sum();
    let first_error = runs.iter().find_map(|r| r.first_error.clone());
    let secs = production.as_secs_f64();
    let per_s = |n: u64, s: f64| n as f64 / s;

    println!(
        "\nNFT indexer (operation 4, GET /v1/nft/refresh) against anvil producing {} NFT mints/s for {} s{}",
        plan.rate,
        plan.production.as_secs(),
        if cfg!(debug_assertions) {
            " (an unoptimised build: figures only show the benchmark works)"
        } else {
            ""
        }
    );
    println!(
        "producer: DemoMulti mint(to, id, amount) transactions from one key, each one TransferSingle log and one new ERC-1155 id (no metadata URI), \
         spread over {WALLETS} wallets; counted from the mined blocks' receipts"
    );
    println!(
        "service: in-process, SQLite; refresh_per_minute raised from {default_refreshes} to 1,000,000 so the bench's clients are not throttled; \
         log_window {log_window} blocks, max_nfts_per_account {max_nfts}; {WALLETS} clients, one per wallet, each calling operation 4 in a loop"
    );
    println!(
        "\n{:>8}{:>16}{:>16}{:>16}{:>12}",
        "t", "logs produced", "ids produced", "ids indexed", "lag"
    );
    let mut next_report = plan.report_every;
    for s in &samples {
        if s.at >= next_report {
            println!(
                "{:>7.0}s{:>16}{:>16}{:>16}{:>12}",
                s.at.as_secs_f64(),
                s.logs,
                s.ids,
                s.indexed,
                s.ids.saturating_sub(s.indexed)
            );
            while next_report <= s.at {
                next_report += plan.report_every;
            }
        }
    }
    println!(
        "{:>7.1}s{:>16}{:>16}{:>16}{:>12}  (last)",
        last.at.as_secs_f64(),
        last.logs,
        last.ids,
        last.indexed,
        last.ids.saturating_sub(last.indexed)
    );

    println!(
        "\n{:<44}{:>14}{:>14}",
        "over the production (first mint to last receipt)", "produced", "indexed"
    );
    println!(
        "{:<44}{:>14.0}{:>14.0}",
        "NFT logs/s",
        per_s(logs, secs),
        per_s(at_end.indexed, secs)
    );
    println!(
        "{:<44}{:>14.0}{:>14.0}",
        "NFT ids/s",
        per_s(ids, secs),
        per_s(at_end.indexed, secs)
    );
    println!(
        "production: {sent} transactions sent, {failed} failed; {logs} NFT logs and {ids} ids mined in {blocks} blocks in {secs:.1} s (aim: {} a second; anvil mining a block every {} s, block gas limit raised to {BLOCK_GAS_LIMIT})",
        plan.rate,
        BLOCK_TIME.as_secs()
    );
    println!(
        "lag when production stopped: {} ids ({} logs) produced but not yet listed, of {ids}",
        ids.saturating_sub(at_end.indexed),
        logs.saturating_sub(at_end.indexed)
    );
    match catch_up {
        Some(t) => println!(
            "caught up: every minted NFT listed {:.1} s after production stopped ({:.0} ids/s over production and catch-up)",
            t.as_secs_f64(),
            per_s(ids, secs + t.as_secs_f64())
        ),
        None => println!(
            "caught up: not within {} s after production stopped: {} of {ids} ids listed then",
            plan.catch_up_limit.as_secs(),
            last.indexed
        ),
    }
    println!(
        "refresh latency: p50 {}, p99 {}, max {} over {} refreshes from the first mined block on ({early} of empty wallets before it left out); in the last {:.0} s of production p50 {}, p99 {} over {} ({errors} errors{})",
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.99)),
        ms(latencies.last().copied().unwrap_or_default()),
        latencies.len(),
        (production / 10).as_secs_f64(),
        ms(percentile(&late, 0.5)),
        ms(percentile(&late, 0.99)),
        late.len(),
        first_error
            .map(|e| format!(", the first: {e}"))
            .unwrap_or_default()
    );
    println!(
        "correctness: after {checks} more refreshes, each of the {WALLETS} wallets, scanned past the last mint, lists exactly the {ids} ids minted to it (quantities too) and nothing else"
    );
    println!(
        "a refresh on a quiet chain (nothing new), one wallet holding {held} NFTs, alone: median {}",
        ms(percentile(&quiet, 0.5))
    );
    let met = catch_up.is_some_and(|t| t <= GOAL_CATCH_UP);
    println!(
        "goal: the refresh keeps up (indexed rate >= produced rate, everything listed within {} s after the chain stops): {}",
        GOAL_CATCH_UP.as_secs(),
        if met { "MET" } else { "MISSED" }
    );
    service.shutdown().await.expect("stopped");
    drop(anvil);
}
