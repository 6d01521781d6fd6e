//! The desktop benchmark: Satchel against a minimal Tauri window (one line of
//! bundled text, `tests/perf/minimal-window`) built the same way, side by side in
//! one run. It measures
//!
//! - start: from process start until the wallet page shows the balances of a
//!   logged-in user, against the minimal window's page load;
//! - memory: proportional set size (PSS, `/proc/<pid>/smaps_rollup`) summed over
//!   the app and its WebKit processes, with the wallet page and 20 NFT thumbnails
//!   loaded, against the minimal window showing its page.
//!
//! Median of 5 runs each (`SATCHEL_BENCH_QUICK=1`: one run, to keep it working).
//! Run it with `scripts/perf.sh`, which builds both in release first.

#[allow(dead_code)] // the UI tests' harness; the benchmark uses part of it
#[path = "../ui/desktop.rs"]
mod desktop;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use satchel_devstack::{DEMO_EMAIL, DEMO_PASSWORD, LocalStack, StackOptions};
use satchel_sdk::{KeyringStore, Login, ServiceConfig, TokenStore, Widget};
use tokio::io::AsyncBufReadExt as _;
use tokio::process::Command;

use crate::desktop::{Desktop, kill_group};

const NFTS: usize = 20;

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
    let runs = if std::env::var("SATCHEL_BENCH_QUICK").as_deref() == Ok("1") {
        1
    } else {
        5
    };
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?
        .block_on(bench(runs))
}

async fn bench(runs: usize) -> anyhow::Result<()> {
    let minimal = minimal_window()?;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    let keychain = format!("dev.satchel.wallet.bench.{}", uuid::Uuid::new_v4().simple());
    logged_in_user_with_nfts(&stack, &keychain).await?;
    let mut env = stack.app_env_vars();
    env.push(("SATCHEL_KEYCHAIN_SERVICE", keychain));

    let Some(desktop) = Desktop::start(&env).await? else {
        bail!("the benchmark needs Xvfb, tauri-driver and WebKitWebDriver (scripts/setup.sh)");
    };
    let display = desktop.display();

    let (mut start_app, mut start_min) = (Vec::new(), Vec::new());
    let (mut pss_app, mut pss_min) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        start_min.push(time_to_shown(&minimal, &display, &env, "page").await?);
        start_app.push(time_to_shown(&satchel(), &display, &env, "balances").await?);
        pss_min.push(memory_of_minimal(&desktop, &minimal).await?);
        pss_app.push(memory_of_wallet(&desktop).await?);
    }
    drop(desktop);
    stack.stop().await?;

    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    let (sa, sm) = (ms(median(&mut start_app)), ms(median(&mut start_min)));
    let (ma, mm) = (mib(median(&mut pss_app)), mib(median(&mut pss_min)));
    println!(
        "\ndesktop benchmark: median of {runs} run(s); {}",
        if cfg!(debug_assertions) {
            "an unoptimised build: figures only show the benchmark works"
        } else {
            "release builds"
        }
    );
    println!(
        "{:<46} {:>10} {:>16} {:>7}  target",
        "", "Satchel", "minimal window", "ratio"
    );
    println!(
        "{:<46} {:>10.0} {:>16.0} {:>6.2}x  <= 2x",
        "start to shown (ms): balances / first page",
        sa,
        sm,
        sa / sm
    );
    println!(
        "{:<46} {:>10.1} {:>16.1} {:>6.2}x  <= 1.3x",
        "PSS (MiB): wallet + 20 NFT thumbnails / page",
        ma,
        mm,
        ma / mm
    );
    println!(
        "runs (ms): Satchel {:?}, minimal {:?}",
        start_app.iter().map(|d| ms(*d).round()).collect::<Vec<_>>(),
        start_min.iter().map(|d| ms(*d).round()).collect::<Vec<_>>()
    );
    Ok(())
}

fn median<T: Ord + Copy>(values: &mut [T]) -> T {
    values.sort();
    values[values.len() / 2]
}

/// The demo user logged in on this "device" (the session and the sealed key in the
/// keychain `keychain`), with a registered wallet holding 20 NFTs whose listing
/// the service has stored.
async fn logged_in_user_with_nfts(stack: &LocalStack, keychain: &str) -> anyhow::Result<()> {
    let store: Arc<dyn TokenStore> = Arc::new(KeyringStore::new(keychain));
    let login = Arc::new(Login::new(&stack.app_id, &stack.app_key, store.clone()));
    let widget = Widget::new(login, store);
    widget
        .init(ServiceConfig::new(
            stack.service.base_url.clone(),
            &stack.domain,
        ))
        .await?;
    widget.login_with_email(DEMO_EMAIL, DEMO_PASSWORD).await?;
    widget.register("246810", false).await?;
    let address = widget
        .get_accounts(None, false)
        .await?
        .first()
        .context("an account")?
        .address
        .parse()?;
    // The faucet gave four; the rest are more Pals.
    for i in 0..NFTS - 4 {
        let colour = format!("#{:02x}{:02x}c0", 40 + i * 10, 200 - i * 8);
        stack
            .demo
            .mint_pal(address, &format!("Pal #{}", i + 3), &colour)
            .await?;
    }
    let nfts = widget.get_nfts(true, None).await?;
    anyhow::ensure!(nfts.len() == NFTS, "{} NFTs listed", nfts.len());
    widget.finalize().await;
    Ok(())
}

/// Starts `program` and waits until it prints `shown <what>`; the time since
/// the start. The program and its WebKit processes are stopped after.
async fn time_to_shown(
    program: &Path,
    display: &str,
    env: &[(&str, String)],
    what: &str,
) -> anyhow::Result<Duration> {
    let home = tempfile::tempdir()?;
    let mut command = Command::new(program);
    command
        .env("DISPLAY", display)
        .env("WEBKIT_DISABLE_COMPOSITING_MODE", "1")
        .env("SATCHEL_PERF_MARKS", "1")
        .env("XDG_CACHE_HOME", home.path().join("cache"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .process_group(0);
    for (name, value) in env {
        command.env(name, value);
    }
    let started = Instant::now();
    let mut child = command.spawn()?;
    let pid = child.id().context("a pid")?;
    let stdout = child.stdout.take().context("stdout")?;
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let wanted = format!("shown {what}");
    let shown = tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(line) = lines.next_line().await? {
            if line.trim() == wanted {
                return Ok::<_, anyhow::Error>(started.elapsed());
            }
        }
        bail!("{} exited before it showed {what}", program.display())
    })
    .await
    .with_context(|| format!("{} did not show {what} within 60 s", program.display()))??;
    stop_group(pid).await;
    Ok(shown)
}

/// Kills a process group and waits until it is gone.
async fn stop_group(pid: u32) {
    kill_group(pid, "KILL");
    for _ in 0..200 {
        if !kill_group(pid, "0") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

async fn memory_of_minimal(desktop: &Desktop, minimal: &Path) -> anyhow::Result<u64> {
    let app = desktop.open(minimal, &screenshots()).await?;
    app.find("p").await?;
    let pss = settled_pss(minimal).await?;
    app.quit().await?;
    Ok(pss)
}

async fn memory_of_wallet(desktop: &Desktop) -> anyhow::Result<u64> {
    let app = desktop.open(&satchel(), &screenshots()).await?;
    app.text_when("[data-testid='balance-ETH']", |t| t == "10")
        .await?;
    app.click("#nav-nfts").await?;
    app.until("20 thumbnails are drawn", || async {
        let drawn = app
            .script(
                // The grid loads pictures as they scroll into view: show each.
                "const imgs = [...document.querySelectorAll('.tile img')];
                 imgs.forEach(i => { if (!i.complete) i.scrollIntoView({ block: 'nearest' }); });
                 return imgs.length === 20 && imgs.every(i => i.complete && i.naturalWidth > 0)",
            )
            .await?;
        Ok(drawn == serde_json::Value::Bool(true))
    })
    .await?;
    app.shot("bench-nfts").await?;
    let pss = settled_pss(&satchel()).await?;
    app.quit().await?;
    Ok(pss)
}

fn screenshots() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("ui-screenshots")
}

/// The PSS of the running `program` and its descendants, once two readings a
/// quarter second apart agree within 1% (the page has settled).
async fn settled_pss(program: &Path) -> anyhow::Result<u64> {
    let mut last = 0u64;
    for _ in 0..40 {
        let now = pss_of_program(program)?;
        if last > 0 && now.abs_diff(last) * 100 <= last {
            return Ok(now);
        }
        last = now;
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    Ok(last)
}

/// Sums `Pss:` over every process running `program` and all their descendants.
fn pss_of_program(program: &Path) -> anyhow::Result<u64> {
    let program = std::fs::canonicalize(program)?;
    let mut parents = Vec::new();
    for entry in std::fs::read_dir("/proc")?.filter_map(Result::ok) {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let ppid = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                // The command name may hold spaces; fields after it are plain.
                let after = stat.rsplit_once(')')?.1;
                after.split_whitespace().nth(1)?.parse::<u32>().ok()
            });
        let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
        parents.push((pid, ppid.unwrap_or(0), exe));
    }
    let mut selected: Vec<u32> = parents
        .iter()
        .filter(|(_, _, exe)| exe.as_deref() == Some(program.as_path()))
        .map(|(pid, _, _)| *pid)
        .collect();
    anyhow::ensure!(!selected.is_empty(), "{} is not running", program.display());
    let mut i = 0;
    while i < selected.len() {
        let parent = selected[i];
        selected.extend(
            parents
                .iter()
                .filter(|(_, ppid, _)| *ppid == parent)
                .map(|(pid, _, _)| *pid),
        );
        i += 1;
    }
    Ok(selected.iter().filter_map(|pid| pss_kib(*pid)).sum::<u64>() * 1024)
}

fn pss_kib(pid: u32) -> Option<u64> {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    rollup
        .lines()
        .find_map(|line| line.strip_prefix("Pss:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}
