//! The desktop benchmark: Satchel against a minimal Tauri window (one line of
//! bundled text, `tests/perf/minimal-window`) built the same way, side by side in
//! one run, for a wallet holding 10,000 NFTs. It measures
//!
//! - start: from process start until the wallet page shows the balances of a
//!   logged-in user, against the minimal window's page;
//! - memory: proportional set size (PSS, `/proc/<pid>/smaps_rollup`) summed over
//!   the app and its WebKit processes: on the wallet page and on the NFT tab's
//!   first screen against the minimal window's page, and after scrolling through
//!   all the NFTs against the wallet page;
//! - the NFT tab: from the click on it until the first row of thumbnails is
//!   shown (goal under 200 ms);
//! - the approval page: from a program's `eth_sendTransaction` until the page
//!   showing it has painted (median of 20, goal under 150 ms), in one session
//!   after the runs;
//! - the widget embedded in an application (`embed`): the minimal host (the
//!   minimal window with the plugin's one line) started beside the minimal
//!   window, `openWidget` to the widget's balances shown, and the host's PSS
//!   with the widget open beside Satchel's on the same page;
//! - a dapp in Chromium through the extension (`extension`): its `eth_call`
//!   beside the same call sent to the endpoint directly, and its
//!   `eth_sendTransaction` to the approval page shown, after the approval pages.
//!
//! The programs mark "shown" the same way: from the page, once it has painted
//! (two animation frames), through a command that prints `shown <what>` (and a
//! `performance` mark, which the NFT figure reads on the page's own clock).
//! Every run starts with an empty cache (thumbnails, WebKit's); "warm" starts
//! again on the cache the cold start left. One warm-up run of each is left out,
//! and the order of the programs alternates from run to run.
//!
//! Median of 5 runs each. `SATCHEL_BENCH_QUICK=1`: one run of each, no warm-up,
//! no warm start and 1,000 NFTs, to keep it working (scripts/test.sh). Run it
//! with `scripts/perf.sh`, which builds the three in the desktop profile (as
//! packages are) first.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use satchel_devstack::{DEMO_EMAIL, DEMO_PASSWORD, LocalStack, StackOptions};
use satchel_sdk::{KeyringStore, Login, NftFilter, ServiceConfig, TokenStore, Widget};
use satchel_tests::desktop::{self, App, Desktop, in_folders, kill_group, on_display, screenshots};
use tokio::io::AsyncBufReadExt as _;
use tokio::process::Command;

mod embed;
mod extension;
mod memory;
mod report;
mod start;

use memory::{Pss, processes_of, pss_by_process, pss_of_program, settled_pss, wait_gone};
use report::{report, report_sweep};
use start::{Timeline, time_to_shown};

/// The NFTs of the benchmark's wallet (`SATCHEL_BENCH_QUICK=1`: `QUICK_NFTS`).
const NFTS: usize = 10_000;
/// The tiles the NFT tab asks for first (`TILES_PER_ASK` in the page).
const FIRST_TILES: u32 = 60;
const QUICK_NFTS: usize = 1_000;
/// The grid is measured with these many NFTs too: before the runs, and after.
const SWEEP: [usize; 2] = [1_000, 100_000];
/// Cold sessions at each of them.
const SWEEP_SESSIONS: usize = 3;
/// The ERC-1155 ids minted for the benchmark start here (the faucet's are 1 and 2).
const FIRST_ID: usize = 1_000;
/// Ids minted in one `mintBatch` transaction.
const MINT_BATCH: usize = 500;
/// How long a program may take from its start to showing its first page (a
/// cold machine in CI, unoptimised).
const START_PATIENCE: Duration = Duration::from_secs(120);
/// The goal for the NFT tab's first row of thumbnails, in ms.
const FIRST_ROW_GOAL_MS: f64 = 200.0;
/// Approval pages timed after `eth_sendTransaction`, and their goal in ms.
const APPROVALS: usize = 20;
const APPROVAL_GOAL_MS: f64 = 150.0;
/// Opens of the widget in the host after its first, each run; the goals for
/// `openWidget` to its page painted, in ms: the first open in the host's
/// process, and the later ones.
const REOPEN: usize = 5;
const OPEN_WIDGET_GOAL_MS: [f64; 2] = [400.0, 150.0];
/// Blocks of 25 `eth_call`s each way through the extension, alternating.
const EXTENSION_BLOCKS: usize = 8;
/// How long scrolling through every NFT may take.
const SCROLL_PATIENCE: Duration = Duration::from_secs(20 * 60);

struct Plan {
    runs: usize,
    /// How long each program is watched idle (once, in the last run).
    idle: Duration,
    warm_up: bool,
    /// Also start again on the cache the cold start left.
    warm: bool,
    nfts: usize,
    /// The grid is also measured with fewer NFTs (before the runs) and with
    /// more (after them): `sweep_sessions` cold sessions at each, the last at
    /// the larger count scrolling through all of them when `sweep_scroll`.
    sweep: [usize; 2],
    sweep_sessions: usize,
    sweep_scroll: bool,
    /// Approval pages timed (in one session, after the runs).
    approvals: usize,
    /// Times the widget is opened again in the host after its first open.
    reopen: usize,
    /// Blocks of `eth_call`s each way through the extension (`extension`).
    extension_blocks: usize,
}

fn satchel() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_satchel"))
}

fn minimal_window() -> anyhow::Result<PathBuf> {
    let path = satchel().with_file_name("satchel-minimal-window");
    anyhow::ensure!(
        path.exists(),
        "{} is missing: build it as the app is built (scripts/perf.sh does)",
        path.display()
    );
    Ok(path)
}

fn main() -> anyhow::Result<()> {
    let plan = if std::env::var("SATCHEL_BENCH_QUICK").as_deref() == Ok("1") {
        Plan {
            runs: 1,
            idle: Duration::from_secs(5),
            warm_up: false,
            warm: false,
            nfts: QUICK_NFTS,
            sweep: [QUICK_NFTS / 4, QUICK_NFTS * 2],
            sweep_sessions: 1,
            sweep_scroll: false,
            approvals: 3,
            reopen: 2,
            extension_blocks: 1,
        }
    } else {
        // `SATCHEL_BENCH_RUNS=N` measures N runs instead (to try a change).
        let runs = std::env::var("SATCHEL_BENCH_RUNS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(5);
        Plan {
            runs,
            idle: Duration::from_secs(60),
            warm_up: true,
            warm: true,
            nfts: NFTS,
            sweep: SWEEP,
            sweep_sessions: SWEEP_SESSIONS,
            sweep_scroll: true,
            approvals: APPROVALS,
            reopen: REOPEN,
            extension_blocks: EXTENSION_BLOCKS,
        }
    };
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?
        .block_on(bench(plan))
}

/// One run's figures; `None` where it was not measured.
#[derive(Default)]
struct Run {
    start_app: [Option<Duration>; 2],
    start_min: [Option<Duration>; 2],
    /// The minimal host's (the minimal window with the widget's plugin).
    start_host: [Option<Duration>; 2],
    /// The widget opened in the minimal host.
    embedded: Option<embed::Embedded>,
    pss_min: Option<Pss>,
    app: [Option<Session>; 2],
    /// Where the cold start went: the minimal window's, Satchel's, the
    /// minimal host's.
    start_timeline: [Option<Timeline>; 3],
    /// Watched idle with its first page open (the last run only).
    idle_app: Option<Idle>,
    idle_min: Option<Idle>,
}

/// What a program's processes did while nothing asked anything of them.
#[derive(Clone)]
struct Idle {
    /// CPU time (user and system) of all its processes, as a share of one core.
    cpu: f64,
    /// Their threads' context switches a second: waking up to poll shows here.
    wakeups: f64,
    watched: Duration,
    /// The threads that switched most, with their switches a second.
    busiest: Vec<String>,
}

/// What one Satchel session through WebDriver measured.
struct Session {
    wallet: Pss,
    /// The wallet page's PSS per process.
    wallet_by_process: Vec<(String, u64)>,
    first_row: Duration,
    /// Of `first_row`: until the grid's tiles were in the document.
    grid: Duration,
    first_screen: Pss,
    first_screen_by_process: Vec<(String, u64)>,
    scrolled: Option<Scrolled>,
}

struct Scrolled {
    /// PSS (all processes) at a quarter, half and three quarters of the way.
    on_the_way: Vec<Pss>,
    pss: Pss,
    by_process: Vec<(String, u64)>,
    took: Duration,
    /// Thumbnails the page loaded while scrolling.
    thumbnails: u64,
}

const COLD: usize = 0;
const WARM: usize = 1;

async fn bench(plan: Plan) -> anyhow::Result<()> {
    let minimal = minimal_window()?;
    let host = embed::minimal_host(&satchel())?;
    let data = tempfile::tempdir()?;
    // One account holds all the sweep's NFTs, past the service's default limit.
    let stack = LocalStack::start(StackOptions {
        max_nfts_per_account: Some(plan.sweep[1]),
        ..StackOptions::on_free_ports(data.path().join("stack"))
    })
    .await?;
    let keychain = format!("dev.satchel.wallet.bench.{}", uuid::Uuid::new_v4().simple());
    let mut wallet = BenchWallet::new(&stack, &keychain).await?;
    wallet.grow_to(&stack, plan.sweep[0]).await?;
    let mut env = stack.app_env_vars();
    env.push(("SATCHEL_KEYCHAIN_SERVICE", keychain));
    let provider_port = satchel_devstack::free_port()?;
    env.push(("SATCHEL_PROVIDER_PORT", provider_port.to_string()));

    let Some(desktop) = Desktop::start(&env).await? else {
        bail!("the benchmark needs Xvfb, tauri-driver and WebKitWebDriver (scripts/setup.sh)");
    };
    let display = desktop.display();

    eprintln!("bench: the grid with {} NFTs", plan.sweep[0]);
    let fewer = sweep_sessions(&desktop, &plan, plan.sweep[0], false).await?;
    let refresh = wallet.grow_to(&stack, plan.nfts).await?;
    let setup = wallet.figures(&stack, refresh).await?;

    let mut runs = Vec::with_capacity(plan.runs);
    let total = plan.runs + usize::from(plan.warm_up);
    for i in 0..total {
        let warm_up = plan.warm_up && i == 0;
        // Minimal window first in even runs, Satchel first in odd ones.
        let satchel_first = i % 2 == 1;
        eprintln!(
            "bench: run {}{} ({} first)",
            i + usize::from(!plan.warm_up),
            if warm_up { " (warm-up, left out)" } else { "" },
            if satchel_first {
                "Satchel"
            } else {
                "minimal window"
            }
        );
        let mut run = Run::default();
        for program in order(satchel_first) {
            let home = tempfile::tempdir()?;
            let (path, what) = match program {
                Program::Satchel => (satchel(), "balances"),
                Program::Minimal => (minimal.clone(), "page"),
                Program::Host => (host.clone(), "page"),
            };
            let (cold, timeline) = time_to_shown(&path, &display, &env, home.path(), what).await?;
            let warm = if plan.warm {
                Some(
                    time_to_shown(&path, &display, &env, home.path(), what)
                        .await?
                        .0,
                )
            } else {
                None
            };
            let starts = match program {
                Program::Satchel => {
                    run.start_timeline[1] = timeline;
                    &mut run.start_app
                }
                Program::Minimal => {
                    run.start_timeline[0] = timeline;
                    &mut run.start_min
                }
                Program::Host => {
                    run.start_timeline[2] = timeline;
                    &mut run.start_host
                }
            };
            *starts = [Some(cold), warm];
        }
        let last = i == total - 1;
        let idle = last.then_some(plan.idle);
        for program in order(satchel_first) {
            match program {
                Program::Minimal => {
                    let (pss, idle) = memory_of_minimal(&desktop, &minimal, idle).await?;
                    run.pss_min = Some(pss);
                    run.idle_min = idle;
                }
                Program::Host => {
                    clear_cache(&desktop)?;
                    run.embedded =
                        Some(embed::embedded_session(&desktop, &host, plan.reopen, last).await?);
                }
                Program::Satchel => {
                    clear_cache(&desktop)?;
                    let (session, idle) =
                        satchel_session(&desktop, plan.nfts, true, last, idle).await?;
                    run.app[COLD] = Some(session);
                    run.idle_app = idle;
                    if plan.warm {
                        run.app[WARM] = Some(
                            satchel_session(&desktop, plan.nfts, false, false, None)
                                .await?
                                .0,
                        );
                    }
                }
            }
        }
        if !warm_up {
            runs.push(run);
        }
    }
    eprintln!("bench: {} approval pages", plan.approvals);
    let approvals = approval_pages(&desktop, provider_port, plan.approvals).await?;
    eprintln!("bench: a dapp in Chromium through the extension");
    // Its failure is told after the report, which the runs' figures are not lost to.
    let browser = extension::through_the_extension(
        &desktop,
        &stack,
        provider_port,
        plan.extension_blocks,
        plan.approvals,
    )
    .await;
    report(&plan, &setup, &runs, &approvals, browser.as_ref().ok());
    if let Err(e) = browser {
        return Err(e.context("a dapp through the extension"));
    }

    eprintln!("bench: the grid with {} NFTs", plan.sweep[1]);
    let more_refresh = wallet.grow_to(&stack, plan.sweep[1]).await?;
    let more = sweep_sessions(&desktop, &plan, plan.sweep[1], plan.sweep_scroll).await?;
    let sweep = Sweep {
        fewer,
        more,
        more_refresh,
    };
    drop(desktop);
    stack.stop().await?;
    report_sweep(&plan, &runs, &sweep);
    Ok(())
}

/// Satchel opened through WebDriver (once the last one is gone), on the wallet
/// page with its balances shown.
async fn satchel_on_the_wallet_page(desktop: &Desktop) -> anyhow::Result<(PathBuf, App)> {
    let program = satchel();
    wait_gone(&program).await?;
    let app = desktop
        .open(&program, &screenshots(env!("CARGO_TARGET_TMPDIR"), "bench"))
        .await?;
    app.text_when("[data-testid='balance-ETH']", |t| t == "10")
        .await?;
    Ok((program, app))
}

/// One Satchel session in which a program on this computer connects, then asks
/// `count` times for a transaction: for each, the time from the request leaving
/// the program to the approval page's "shown approval" mark (read on the wall
/// clock the two share: the page's `timeOrigin` plus the mark's time). Each is
/// rejected before the next.
async fn approval_pages(
    desktop: &Desktop,
    port: u16,
    count: usize,
) -> anyhow::Result<Vec<Duration>> {
    use serde_json::json;
    let (program, app) = satchel_on_the_wallet_page(desktop).await?;
    let http = reqwest::Client::new();
    let call = move |method: &'static str, params: serde_json::Value| {
        let http = http.clone();
        async move {
            let answer: serde_json::Value = http
                .post(format!("http://127.0.0.1:{port}/"))
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            anyhow::Ok(answer)
        }
    };
    let connecting = tokio::spawn(call("eth_requestAccounts", json!([])));
    app.click("[data-testid='connect-approve']").await?;
    let connected = connecting.await??;
    let address = connected["result"][0]
        .as_str()
        .with_context(|| format!("not connected: {connected}"))?
        .to_owned();

    let mut shown = Vec::with_capacity(count);
    for i in 0..count {
        app.script("performance.clearMarks('shown approval'); return true")
            .await?;
        let sent = std::time::SystemTime::now();
        let asking = tokio::spawn(call(
            "eth_sendTransaction",
            json!([{"from": address, "to": "0x000000000000000000000000000000000000dEaD", "value": "0x1"}]),
        ));
        let at = approval_shown_at(&app).await?;
        let sent_ms = sent.duration_since(std::time::UNIX_EPOCH)?.as_secs_f64() * 1000.0;
        shown.push(Duration::from_secs_f64((at - sent_ms).max(0.0) / 1000.0));
        if i == 0 {
            app.shot("bench-approval").await?;
        }
        app.click("#tx-pin-cancel").await?;
        let answer = asking.await??;
        anyhow::ensure!(
            answer["error"]["code"] == 4001,
            "the rejected request was answered {answer}"
        );
        app.until("the approval page is gone", || async {
            Ok(app.count("[data-testid='connect-request']").await? == 0)
        })
        .await?;
    }
    app.quit().await?;
    wait_gone(&program).await?;
    Ok(shown)
}

/// Once the approval page has painted (its `shown approval` mark, cleared
/// before the request): when, on the wall clock (ms since 1970: the page's
/// `timeOrigin` plus the mark).
async fn approval_shown_at(app: &App) -> anyhow::Result<f64> {
    let read = "const mark = performance.getEntriesByName('shown approval')[0];
                return mark ? performance.timeOrigin + mark.startTime : null";
    app.until("the approval page is shown", || async {
        Ok(app.script(read).await?.as_f64().is_some())
    })
    .await?;
    app.script(read).await?.as_f64().context("no mark")
}

/// The grid measured at the sweep's other counts.
struct Sweep {
    fewer: Vec<Session>,
    more: Vec<Session>,
    /// The refresh that read all of the larger count from the chain.
    more_refresh: Duration,
}

/// `plan.sweep_sessions` cold Satchel sessions with `count` NFTs; the last
/// scrolls through all of them when `scroll`.
async fn sweep_sessions(
    desktop: &Desktop,
    plan: &Plan,
    count: usize,
    scroll: bool,
) -> anyhow::Result<Vec<Session>> {
    let mut sessions = Vec::with_capacity(plan.sweep_sessions);
    for i in 0..plan.sweep_sessions {
        clear_cache(desktop)?;
        let last = i + 1 == plan.sweep_sessions;
        let (session, _) = satchel_session(desktop, count, scroll && last, false, None).await?;
        sessions.push(session);
    }
    Ok(sessions)
}

/// The programs each run starts and measures.
#[derive(Clone, Copy)]
enum Program {
    /// The baseline: a Tauri window with one line of bundled text.
    Minimal,
    /// The minimal window with Satchel's widget plugin (`embed`).
    Host,
    Satchel,
}

/// A run's order: the minimal window first and Satchel last, or the other way
/// round; the host between them, after the minimal window in one run and
/// before it in the next.
fn order(satchel_first: bool) -> [Program; 3] {
    if satchel_first {
        [Program::Satchel, Program::Host, Program::Minimal]
    } else {
        [Program::Minimal, Program::Host, Program::Satchel]
    }
}

/// Empties the folder the app's cache is in (thumbnails and WebKit's): the next
/// session starts as on a new device.
fn clear_cache(desktop: &Desktop) -> anyhow::Result<()> {
    let cache = desktop.home().join("cache");
    if cache.exists() {
        std::fs::remove_dir_all(&cache)?;
    }
    Ok(())
}

/// The session of run `r` with a cold or warm cache, if there was one.
fn session(r: &Run, cache: usize) -> Option<&Session> {
    r.app[cache].as_ref()
}

/// What the setup made and how long the service's refresh of it took.
struct Setup {
    /// The NFTs the faucet gave.
    faucet: usize,
    refresh: Duration,
    /// The SDK's `get_nft_grid` of the stored listing and its first tiles, as
    /// the NFT tab asks for them.
    sdk_listing: Duration,
    /// What the page receives of them, in bytes of JSON.
    grid_bytes: usize,
    /// The listing in `getNFTs`' shape (the spec's), in bytes of JSON.
    listing_bytes: usize,
    /// The service's answer to the SDK (grouped by collection) and in the
    /// spec's shape (`GET /v1/nft`), in bytes.
    service_bytes: [usize; 2],
}

/// A widget on the keychain `keychain`, initialised against the stack's service.
async fn widget(stack: &LocalStack, keychain: &str) -> anyhow::Result<Widget> {
    let store: Arc<dyn TokenStore> = Arc::new(KeyringStore::new(keychain));
    let login = Arc::new(Login::new(&stack.app_id, &stack.app_key, store.clone()));
    let widget = Widget::new(login, store).with_networks(stack.service.network_table());
    widget
        .init(ServiceConfig::new(
            stack.service.base_url.clone(),
            &stack.domain,
        ))
        .await?;
    Ok(widget)
}

/// The benchmark's wallet: the demo user logged in on this "device" (the
/// session and the sealed key in the keychain `keychain`), with a registered
/// wallet holding the faucet's NFTs and ERC-1155 ids minted on the chain in
/// batches, grown in steps ([`grow_to`](Self::grow_to)).
struct BenchWallet {
    keychain: String,
    address: alloy::primitives::Address,
    wallet_id: String,
    account_id: String,
    /// The faucet's Satchel Items as stored: what the minted ones are made of.
    template: satchel_service::db::StoredNft,
    /// The NFTs the faucet gave.
    faucet: usize,
    /// The NFTs it holds.
    held: usize,
}

impl BenchWallet {
    async fn new(stack: &LocalStack, keychain: &str) -> anyhow::Result<Self> {
        let first = widget(stack, keychain).await?;
        first.login_with_email(DEMO_EMAIL, DEMO_PASSWORD).await?;
        first.register("246810", false).await?;
        let address = first
            .get_accounts(None, false)
            .await?
            .first()
            .context("an account")?
            .address
            .parse()?;
        // What the faucet gave, stored by a first refresh.
        let faucet = first.get_nfts(true, None).await?.len();
        first.finalize().await;

        let db = &stack.service.state.db;
        let wallet_id = db
            .user_wallet(&stack.demo_user_id)
            .await?
            .context("the demo user's wallet")?;
        let (accounts, _) = db.wallet_accounts(&wallet_id).await?;
        let account_id = accounts.first().context("an account")?.id.clone();
        let items = format!("{:#x}", stack.demo.items).to_lowercase();
        let template = db
            .account_nfts(&account_id)
            .await?
            .into_iter()
            .find(|n| n.contract.to_lowercase() == items)
            .context("the faucet's Satchel Items")?;
        Ok(Self {
            keychain: keychain.to_owned(),
            address,
            wallet_id,
            account_id,
            template,
            faucet,
            held: faucet,
        })
    }

    /// Mints ids until the wallet holds `count` NFTs, their metadata written
    /// into the service's database as a refresh writes it (a refresh reads at
    /// most 100 NFTs' metadata); then a real refresh reads the chain for all of
    /// them and renders the listing: how long it took.
    async fn grow_to(&mut self, stack: &LocalStack, count: usize) -> anyhow::Result<Duration> {
        anyhow::ensure!(self.held < count, "the wallet holds {} NFTs", self.held);
        let next = FIRST_ID + self.held - self.faucet;
        let ids: Vec<usize> = (next..next + count - self.held).collect();
        let quantity = |id: usize| if id.is_multiple_of(10) { 3 } else { 1 };
        let mut described = Vec::with_capacity(ids.len());
        for &id in &ids {
            let mut nft = self.template.clone();
            nft.token_id = id.to_string();
            nft.quantity = quantity(id);
            nft.name = format!("Item #{id}");
            nft.description = "A Satchel Item from the desktop benchmark.".into();
            nft.image_url = picture(id);
            nft.content_url = None;
            nft.content_type = 1;
            nft.state = 1;
            described.push(nft);
        }
        let db = &stack.service.state.db;
        db.store_account_nfts(&self.account_id, &described, &[], None)
            .await?;
        for batch in ids.chunks(MINT_BATCH) {
            let items: Vec<(u64, u64)> = batch
                .iter()
                .map(|&id| (id as u64, quantity(id) as u64))
                .collect();
            stack.demo.mint_items(self.address, &items).await?;
        }
        // The service's refresh, in this process: its own time, apart from
        // the listing's way to the SDK.
        let started = Instant::now();
        satchel_service::assets::refresh::refresh_nfts(&stack.service.state, &self.wallet_id)
            .await
            .map_err(|e| anyhow::anyhow!("the refresh failed: {e:?}"))?;
        let refresh = started.elapsed();
        let reading = widget(stack, &self.keychain).await?;
        let listed = reading.get_nft_grid(false).await?.count as usize;
        reading.finalize().await;
        anyhow::ensure!(listed == count, "{listed} NFTs listed, not {count}");
        self.held = count;
        Ok(refresh)
    }

    /// What the SDK and the service make of the listing, as the NFT tab and
    /// applications ask for it.
    async fn figures(&self, stack: &LocalStack, refresh: Duration) -> anyhow::Result<Setup> {
        let reading = widget(stack, &self.keychain).await?;
        let nfts = reading.get_nfts(false, None).await?;
        anyhow::ensure!(nfts.len() == self.held, "{} NFTs listed", nfts.len());
        anyhow::ensure!(
            nfts.iter().any(|n| n.name == format!("Item #{FIRST_ID}")),
            "the minted items are listed with their metadata"
        );
        // What the NFT tab asks for: the stored listing as the grid's, read
        // through the SDK (the service's answer, parsed and judged), and its
        // first tiles.
        let mut reads = Vec::new();
        let mut grid_bytes = 0;
        for _ in 0..5 {
            let started = Instant::now();
            let grid = reading.get_nft_grid(false).await?;
            let tiles = reading.nft_tiles(&NftFilter::default(), 0, FIRST_TILES)?;
            reads.push(started.elapsed());
            anyhow::ensure!(
                grid.count as usize == self.held && tiles.tiles.len() == FIRST_TILES as usize
            );
            grid_bytes = serde_json::to_string(&grid)?.len() + serde_json::to_string(&tiles)?.len();
        }
        reads.sort_unstable();
        let listing_bytes = serde_json::to_string(&nfts)?.len();
        reading.finalize().await;
        let db = &stack.service.state.db;
        let service_bytes = [
            db.grouped_nft_listing(&self.wallet_id).await?.flatten(),
            db.nft_listing(&self.wallet_id).await?,
        ]
        .map(|body| body.map_or(0, |b| b.len()));
        Ok(Setup {
            faucet: self.faucet,
            refresh,
            sdk_listing: reads[reads.len() / 2],
            grid_bytes,
            listing_bytes,
            service_bytes,
        })
    }
}

/// An NFT's picture: a small SVG (a colour and its number) as a `data:` URI, as
/// on-chain NFTs carry theirs; the app draws its thumbnail like any other.
fn picture(id: usize) -> String {
    const DATA: &AsciiSet = &CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'#')
        .add(b'%')
        .add(b'<')
        .add(b'>');
    let hue = (id * 47) % 360;
    let svg = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'>\
         <rect width='64' height='64' fill='hsl({hue},55%,52%)'/>\
         <circle cx='32' cy='26' r='13' fill='white' fill-opacity='0.85'/>\
         <text x='32' y='56' font-family='sans-serif' font-size='10' text-anchor='middle' fill='white'>#{id}</text></svg>"
    );
    format!("data:image/svg+xml,{}", utf8_percent_encode(&svg, DATA))
}

/// The minimal window's PSS once settled, and (`idle`) what it does idle.
async fn memory_of_minimal(
    desktop: &Desktop,
    minimal: &Path,
    idle: Option<Duration>,
) -> anyhow::Result<(Pss, Option<Idle>)> {
    wait_gone(minimal).await?;
    let app = desktop
        .open(minimal, &screenshots(env!("CARGO_TARGET_TMPDIR"), "bench"))
        .await?;
    app.find("p").await?;
    let pss = settled_pss(minimal).await?;
    let idle = match idle {
        Some(window) => Some(idle_cost(minimal, window).await?),
        None => None,
    };
    app.quit().await?;
    wait_gone(minimal).await?;
    Ok((pss, idle))
}

/// CPU ticks (user and system) and context switches of every thread of
/// `program`'s processes so far, by thread name.
fn cpu_and_switches(program: &Path) -> anyhow::Result<ByThread> {
    let mut by = ByThread::new();
    for pid in processes_of(program)? {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.filter_map(Result::ok) {
            let path = task.path();
            let name = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
            let entry = by.entry(name.trim().to_owned()).or_default();
            if let Ok(stat) = std::fs::read_to_string(path.join("stat"))
                && let Some((_, after)) = stat.rsplit_once(')')
            {
                // Fields 14 and 15 (utime, stime); `after` starts at field 3.
                let fields: Vec<&str> = after.split_whitespace().collect();
                for field in fields.iter().skip(11).take(2) {
                    entry.0 += field.parse::<u64>().unwrap_or(0);
                }
            }
            let status = std::fs::read_to_string(path.join("status")).unwrap_or_default();
            entry.1 += status
                .lines()
                .filter(|l| l.contains("ctxt_switches:"))
                .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                .sum::<u64>();
        }
    }
    Ok(by)
}

/// Waits for the wallet page's refresh button to stop counting down (at most a
/// minute after the balances were read).
async fn countdown_over(app: &App) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(90);
    while Instant::now() < deadline {
        let label = app
            .script("return document.getElementById('wallet-refresh')?.textContent ?? null")
            .await?;
        if label == "Refresh" {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    bail!("the wallet page's refresh button still counts down after 90 s")
}

/// Ticks and context switches by thread name.
type ByThread = std::collections::BTreeMap<String, (u64, u64)>;

/// What `program` costs while nothing asks anything of it, over `window`
/// (WebDriver holds its session but sends nothing).
async fn idle_cost(program: &Path, window: Duration) -> anyhow::Result<Idle> {
    // Linux counts process CPU time in USER_HZ ticks, 100 a second.
    const TICKS_PER_SECOND: f64 = 100.0;
    let before = cpu_and_switches(program)?;
    let started = Instant::now();
    tokio::time::sleep(window).await;
    let watched = started.elapsed();
    let after = cpu_and_switches(program)?;
    let seconds = watched.as_secs_f64();
    // A thread that ended in the window takes its counts with it.
    let mut busiest: Vec<(String, u64, u64)> = after
        .iter()
        .map(|(name, (ticks, switches))| {
            let (t0, s0) = before.get(name).copied().unwrap_or_default();
            (
                name.clone(),
                ticks.saturating_sub(t0),
                switches.saturating_sub(s0),
            )
        })
        .collect();
    busiest.sort_by_key(|(_, ticks, switches)| std::cmp::Reverse((*switches, *ticks)));
    let ticks: u64 = busiest.iter().map(|(_, t, _)| t).sum();
    let switches: u64 = busiest.iter().map(|(_, _, s)| s).sum();
    Ok(Idle {
        cpu: ticks as f64 / TICKS_PER_SECOND / seconds,
        wakeups: switches as f64 / seconds,
        watched,
        busiest: busiest
            .into_iter()
            .take(4)
            .map(|(name, _, switches)| format!("{name} {:.1}/s", switches as f64 / seconds))
            .collect(),
    })
}

/// One Satchel session: the wallet page's PSS, then the NFT tab: the time to its
/// first row of thumbnails and the PSS of its first screen; `scroll`: then
/// through every NFT, a screen at a time, each screen's thumbnails drawn before
/// the next, and the PSS at the end.
async fn satchel_session(
    desktop: &Desktop,
    nfts: usize,
    scroll: bool,
    screenshots_too: bool,
    idle: Option<Duration>,
) -> anyhow::Result<(Session, Option<Idle>)> {
    let (program, app) = satchel_on_the_wallet_page(desktop).await?;
    let wallet = settled_pss(&program).await?;
    let wallet_by_process = pss_by_process(&program)?;
    // The wallet page open and the provider serving (nothing connected), once
    // the page has nothing left to count down: the refresh button's minute
    // after the balances were read (a countdown the person sees, not idling).
    let idle = match idle {
        Some(window) => {
            countdown_over(&app).await?;
            Some(idle_cost(&program, window).await?)
        }
        None => None,
    };

    let (first_row, grid) = nft_tab_to_first_row(&app).await?;
    let count = app
        .script(
            "return document.querySelector('.grid [role=listitem]')?.getAttribute('aria-setsize')",
        )
        .await?;
    anyhow::ensure!(
        count == serde_json::Value::String(nfts.to_string()),
        "the grid lists {count} NFTs, not {nfts}"
    );
    if screenshots_too {
        app.shot("bench-nfts-first-screen").await?;
    }
    let first_screen = settled_pss(&program).await?;
    let first_screen_by_process = pss_by_process(&program)?;

    let scrolled = if scroll {
        let (took, thumbnails, on_the_way) = scroll_through(&app, &program).await?;
        if screenshots_too {
            app.shot("bench-nfts-last-screen").await?;
        }
        Some(Scrolled {
            on_the_way,
            pss: settled_pss(&program).await?,
            by_process: pss_by_process(&program)?,
            took,
            thumbnails,
        })
    } else {
        None
    };
    app.quit().await?;
    wait_gone(&program).await?;
    Ok((
        Session {
            wallet,
            wallet_by_process,
            first_row,
            grid,
            first_screen,
            first_screen_by_process,
            scrolled,
        },
        idle,
    ))
}

/// Clicks the NFT tab and waits for the page's `shown nfts` mark (the first row's
/// thumbnails loaded and painted); the time between, on the page's clock, and of
/// it the time until the grid's tiles were in the document.
async fn nft_tab_to_first_row(app: &App) -> anyhow::Result<(Duration, Duration)> {
    app.script(
        "performance.clearMarks('shown nfts');
         window.__benchGrid = null;
         const grid = new MutationObserver(() => {
           if (document.querySelector('.grid .tile')) {
             window.__benchGrid = performance.now();
             grid.disconnect();
           }
         });
         grid.observe(document.body, { childList: true, subtree: true });
         window.__benchNftTab = performance.now();
         document.getElementById('nav-nfts').click();
         return true",
    )
    .await?;
    let deadline = Instant::now() + desktop::PATIENCE;
    let ms = |v: &serde_json::Value| v.as_f64().map(|ms| Duration::from_secs_f64(ms / 1000.0));
    while Instant::now() < deadline {
        let times = app
            .script(
                "const mark = performance.getEntriesByName('shown nfts')[0];
                 const opened = window.__benchNftTab;
                 return mark ? [mark.startTime - opened, window.__benchGrid - opened] : null",
            )
            .await?;
        if let (Some(shown), Some(grid)) = (ms(&times[0]), ms(&times[1])) {
            return Ok((shown, grid));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    bail!(
        "the NFT tab's first row was not shown within {:?}",
        desktop::PATIENCE
    )
}

/// Scrolls the NFT grid from top to bottom a screen at a time, waiting at each
/// for the thumbnails in view to be drawn (or to fail); the time it took, how
/// many thumbnails loaded on the way, and the PSS of `program` at a quarter,
/// half and three quarters of the way.
async fn scroll_through(app: &App, program: &Path) -> anyhow::Result<(Duration, u64, Vec<Pss>)> {
    let started = Instant::now();
    app.script(
        "const page = document.querySelector('main.page');
         const state = { done: false, error: null, loaded: 0, screens: 0, of: Math.ceil(page.scrollHeight / page.clientHeight) };
         window.__benchScroll = state;
         document.addEventListener('load', (e) => {
           if (e.target instanceof HTMLImageElement) state.loaded += 1;
         }, true);
         const frame = () => new Promise((go) => requestAnimationFrame(() => go()));
         const pause = (ms) => new Promise((go) => setTimeout(go, ms));
         const inView = () => {
           const view = page.getBoundingClientRect();
           return [...page.querySelectorAll('.tile img')].filter((img) => {
             const box = img.getBoundingClientRect();
             return box.bottom > view.top && box.top < view.bottom;
           });
         };
         (async () => {
           for (;;) {
             await frame();
             await frame();
             const since = performance.now();
             // Each tile in view asked of the app and its picture drawn.
             const waiting = () => page.querySelector('.grid .skeleton') !== null || !inView().every((img) => img.complete);
             while (waiting() && performance.now() - since < 30000) await pause(5);
             state.screens += 1;
             if (page.scrollTop + page.clientHeight >= page.scrollHeight - 1) break;
             page.scrollTop += page.clientHeight;
           }
           state.done = true;
         })().catch((e) => { state.error = String(e); });
         return true",
    )
    .await?;
    let mut on_the_way = Vec::new();
    while started.elapsed() < SCROLL_PATIENCE {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let state = app.script("return window.__benchScroll").await?;
        let (screens, of) = (
            state["screens"].as_u64().unwrap_or(0),
            state["of"].as_u64().unwrap_or(1).max(1),
        );
        if on_the_way.len() < 3 && screens * 4 >= of * (on_the_way.len() as u64 + 1) {
            on_the_way.push(pss_of_program(program)?);
        }
        if let Some(error) = state["error"].as_str() {
            bail!("scrolling the grid failed: {error}");
        }
        if state["done"] == serde_json::Value::Bool(true) {
            let loaded = state["loaded"].as_u64().unwrap_or(0);
            return Ok((started.elapsed(), loaded, on_the_way));
        }
    }
    bail!("scrolling through the grid took over {SCROLL_PATIENCE:?}")
}
