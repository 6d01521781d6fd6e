//! Satchel's widget embedded in an application, against the same application
//! without it. The host is the minimal host (`tests/perf/minimal-host`): the
//! minimal window with the plugin's one line added, so the two programs differ
//! by the plugin alone. The desktop benchmark measures
//!
//! - the host's start to its page shown, beside the minimal window's in the
//!   same run (the plugin costs a host nothing until the widget is used);
//! - `openWidget` to the widget's wallet page with its balances painted: the
//!   first open in the host's process (cold: the window, its webview and its
//!   page made for the first time), then opens after the person closed the
//!   window (warm: made again in a process that has made one), each on the
//!   wall clock the host's page and the widget's share;
//! - the host's PSS (every process, its WebKit ones too) with the widget's
//!   wallet page open, beside Satchel's own on the same page.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::bail;
use satchel_tests::desktop::{self, App, Desktop, screenshots};

use crate::memory::{Pss, pss_by_process, settled_pss, wait_gone};

/// The minimal host's title (its page is the minimal window's) and the widget
/// window's.
const HOST_TITLE: &str = "Minimal";
const WIDGET_TITLE: &str = "Satchel";

/// The host, built beside the app (scripts/perf.sh, scripts/test.sh).
pub fn minimal_host(satchel: &Path) -> anyhow::Result<PathBuf> {
    let path = satchel.with_file_name("satchel-minimal-host");
    anyhow::ensure!(
        path.exists(),
        "{} is missing: build it as the app is built (scripts/perf.sh does)",
        path.display()
    );
    Ok(path)
}

/// What one host session through WebDriver measured.
pub struct Embedded {
    /// `openWidget` to the wallet page's balances painted, the first time in
    /// the host's process.
    pub cold: Duration,
    /// The same after the person closed the widget's window, each time.
    pub warm: Vec<Duration>,
    /// Of the cold open, the widget page's own steps (its `start` marks), in
    /// ms from the `openWidget` call.
    pub cold_steps: Vec<(String, f64)>,
    /// The host's PSS with the widget's wallet page open, and per process.
    pub pss: Pss,
    pub by_process: Vec<(String, u64)>,
}

/// One session of the host: it starts as an application does (`getAppInfo`,
/// the widget's `init`, until the person is logged in), then opens the widget
/// `reopen + 1` times, the person closing its window in between.
pub async fn embedded_session(
    desktop: &Desktop,
    host: &Path,
    reopen: usize,
    screenshots_too: bool,
) -> anyhow::Result<Embedded> {
    wait_gone(host).await?;
    let app = desktop
        .open(host, &screenshots(env!("CARGO_TARGET_TMPDIR"), "bench"))
        .await?;
    app.find("p").await?;
    if let Err(refused) = app.invoke("getAppInfo", serde_json::json!({})).await? {
        bail!("the host's getAppInfo was refused: {refused}");
    }
    app.until("the widget has the person logged in", || async {
        Ok(app.invoke("getStatus", serde_json::json!({})).await? == Ok(serde_json::json!("login")))
    })
    .await?;

    let (cold, cold_steps) = open_widget(&app).await?;
    let pss = settled_pss(host).await?;
    let by_process = pss_by_process(host)?;
    if screenshots_too {
        app.shot("bench-embedded-widget").await?;
    }
    let mut warm = Vec::with_capacity(reopen);
    for _ in 0..reopen {
        // The person closes the widget's window; the host opens it again.
        close_widget_window(&app).await?;
        app.until("the widget's window is gone", || async {
            Ok(app.window_count().await? == 1)
        })
        .await?;
        warm.push(open_widget(&app).await?.0);
    }
    app.quit().await?;
    wait_gone(host).await?;
    Ok(Embedded {
        cold,
        warm,
        cold_steps,
        pss,
        by_process,
    })
}

/// Closes the widget's window as its close button does: Tauri's `close`, which
/// asks first (`CloseRequested`) as a person's click does, then destroys it.
/// (WebDriver's own close takes the page out of the window and leaves the
/// window, which no person can do.)
async fn close_widget_window(app: &App) -> anyhow::Result<()> {
    app.switch_to_window_titled(HOST_TITLE).await?;
    let closed = app
        .invoke_command(
            "plugin:window|close",
            serde_json::json!({ "label": "satchel-widget" }),
        )
        .await?;
    if let Err(refused) = closed {
        bail!("the widget's window could not be closed: {refused}");
    }
    Ok(())
}

/// From the host's page: `openWidget`, as `SatchelWidget.openWidget` calls it;
/// then, in the widget's window, its `shown balances` mark: the time between on
/// the wall clock both pages share (each page's `timeOrigin` plus its clock),
/// and the widget page's start steps in ms from the call.
async fn open_widget(app: &App) -> anyhow::Result<(Duration, Vec<(String, f64)>)> {
    app.switch_to_window_titled(HOST_TITLE).await?;
    let opened = app
        .script(
            "window.__benchOpenFailed = null;
             const opened = performance.timeOrigin + performance.now();
             window.__TAURI_INTERNALS__.invoke('plugin:satchel|openWidget')
               .then((shown) => { if (shown !== true) window.__benchOpenFailed = 'not opened: ' + shown; },
                     (e) => { window.__benchOpenFailed = String(e); });
             return opened",
        )
        .await?
        .as_f64()
        .ok_or_else(|| anyhow::anyhow!("the host's page did not tell when it called openWidget"))?;
    let deadline = Instant::now() + desktop::PATIENCE;
    let mut in_widget = false;
    while Instant::now() < deadline {
        if !in_widget {
            let failed = app.script("return window.__benchOpenFailed").await?;
            if let Some(failed) = failed.as_str() {
                bail!("openWidget failed: {failed}");
            }
            // The host's window and, once made, the widget's.
            if app.window_count().await? == 2 {
                app.switch_to_window_titled(WIDGET_TITLE).await?;
                in_widget = true;
            } else {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            continue;
        }
        let shown = app
            .script(
                "const mark = performance.getEntriesByName('shown balances')[0];
                 if (!mark) return null;
                 const steps = performance.getEntriesByType('mark')
                   .filter((m) => m.name.startsWith('start '))
                   .map((m) => [m.name.slice('start '.length), performance.timeOrigin + m.startTime]);
                 return { shown: performance.timeOrigin + mark.startTime, origin: performance.timeOrigin, steps }",
            )
            .await?;
        if let Some(at) = shown["shown"].as_f64() {
            let since = |ms: f64| ms - opened;
            let mut steps = vec![(
                "page".to_owned(),
                since(shown["origin"].as_f64().unwrap_or(opened)),
            )];
            for step in shown["steps"].as_array().into_iter().flatten() {
                if let (Some(name), Some(ms)) = (step[0].as_str(), step[1].as_f64()) {
                    steps.push((name.to_owned(), since(ms)));
                }
            }
            anyhow::ensure!(
                at >= opened,
                "the widget's page was shown before openWidget was called"
            );
            return Ok((Duration::from_secs_f64(since(at) / 1000.0), steps));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    bail!(
        "the widget's wallet page was not shown within {:?} of openWidget",
        desktop::PATIENCE
    )
}
