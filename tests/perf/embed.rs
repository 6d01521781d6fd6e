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
//!   window (warm: the window kept hidden, its page back on the wallet, shown
//!   and painted again), each on the wall clock the host's page and the
//!   widget's share;
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

/// The host's window and the widget's, by label.
const HOST_WINDOW: &str = "main";
const WIDGET_WINDOW: &str = "satchel-widget";

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

    let (cold, cold_steps) = open_widget(&app, Open::First).await?;
    let pss = settled_pss(host).await?;
    let by_process = pss_by_process(host)?;
    if screenshots_too {
        app.shot("bench-embedded-widget").await?;
    }
    let mut warm = Vec::with_capacity(reopen);
    for _ in 0..reopen {
        // The person closes the widget's window; the host opens it again.
        close_window(&app, WIDGET_WINDOW).await?;
        app.switch_to_window_titled(WIDGET_TITLE).await?;
        app.until_hidden_showing("[data-testid='balance-ETH']")
            .await?;
        warm.push(open_widget(&app, Open::Again).await?.0);
    }
    // The person closes the widget, then the host's own window: the host quits
    // as it would without the widget (its hidden window goes with the host's).
    close_window(&app, WIDGET_WINDOW).await?;
    app.switch_to_window_titled(HOST_TITLE).await?;
    // Asked after the script answers; its answer can still be lost as the
    // window goes (it is, in the desktop profile). What counts is that the
    // host quits.
    let _ = app
        .script(&format!(
            "setTimeout(() => window.__TAURI_INTERNALS__.invoke('plugin:window|close', {{ label: {HOST_WINDOW:?} }}));
             return true"
        ))
        .await;
    wait_gone(host).await?;
    // The session of an app that quit ends with an error, or none.
    let _ = app.quit().await;
    Ok(Embedded {
        cold,
        warm,
        cold_steps,
        pss,
        by_process,
    })
}

/// Closes a window of the host (its own, or the widget's) as its close button
/// does: Tauri's `close`, which asks first (`CloseRequested`) as a person's
/// click does. (WebDriver's own close takes the page out of the window and
/// leaves the window, which no person can do.)
async fn close_window(app: &App, label: &str) -> anyhow::Result<()> {
    app.switch_to_window_titled(HOST_TITLE).await?;
    let closed = app
        .invoke_command("plugin:window|close", serde_json::json!({ "label": label }))
        .await?;
    if let Err(refused) = closed {
        bail!("the window {label} could not be closed: {refused}");
    }
    Ok(())
}

/// Which open of the widget: its first (the window and its page made), or one
/// after the person closed it (the window kept hidden, shown again).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    First,
    Again,
}

impl Open {
    /// The widget page's mark of that open painted: its wallet's balances the
    /// first time, the page shown again after.
    fn mark(self) -> &'static str {
        match self {
            Open::First => "shown balances",
            Open::Again => "shown again",
        }
    }
}

/// From the host's page: `openWidget`, as `SatchelWidget.openWidget` calls it;
/// then, in the widget's window, the open's mark (`Open::mark`) made after the
/// call: the time between on the wall clock both pages share (each page's
/// `timeOrigin` plus its clock), and the widget page's start steps in ms from
/// the call.
async fn open_widget(app: &App, open: Open) -> anyhow::Result<(Duration, Vec<(String, f64)>)> {
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
            .script(&format!(
                "const mark = performance.getEntriesByName({mark:?})
                   .find((m) => performance.timeOrigin + m.startTime >= {opened});
                 if (!mark) return null;
                 const steps = performance.getEntriesByType('mark')
                   .filter((m) => m.name.startsWith('start '))
                   .map((m) => [m.name.slice('start '.length), performance.timeOrigin + m.startTime]);
                 return {{ shown: performance.timeOrigin + mark.startTime, origin: performance.timeOrigin, steps }}",
                mark = open.mark(),
            ))
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
