//! A program's start, timed: from its process's start until its page prints
//! `shown <what>` (`time_to_shown`), with where the time went: the page's
//! steps and the SDK's (`Timeline`).

use super::*;

/// Starts `program` with its folders in `home` and waits until it prints
/// `shown <what>`; the time since the start. The program and its WebKit
/// processes are stopped after.
pub(super) async fn time_to_shown(
    program: &Path,
    display: &str,
    env: &[(&str, String)],
    home: &Path,
    what: &str,
) -> anyhow::Result<(Duration, Option<Timeline>)> {
    // The app's log, read when it does not show what it should.
    let log_path = home.join(format!("{}.log", what));
    let log = std::fs::File::create(&log_path)?;
    let mut command = Command::new(program);
    on_display(&mut command, display);
    in_folders(&mut command, home);
    command
        .env("SATCHEL_PERF_MARKS", "1")
        // The SDK's start steps too (`satchel::timing`), for the start's breakdown.
        .env("RUST_LOG", "info,satchel::timing=debug")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log)
        .kill_on_drop(true)
        .process_group(0);
    for (name, value) in env {
        command.env(name, value);
    }
    let started = Instant::now();
    let started_at = std::time::SystemTime::now();
    let mut child = command.spawn()?;
    let pid = child.id().context("a pid")?;
    let stdout = child.stdout.take().context("stdout")?;
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let wanted = format!("shown {what}");
    // What it printed on the way (the app's log, with the SDK's timing events).
    let mut told = Vec::new();
    let shown = tokio::time::timeout(START_PATIENCE, async {
        while let Some(line) = lines.next_line().await? {
            if line.trim() == wanted {
                return Ok::<_, anyhow::Error>(started.elapsed());
            }
            told.push(line);
        }
        bail!("it exited")
    })
    .await
    .map_err(|_| anyhow::anyhow!("it did not within {START_PATIENCE:?}"))
    .and_then(|shown| shown);
    let shown = match shown {
        Ok(shown) => shown,
        Err(e) => {
            let shot = screenshots(env!("CARGO_TARGET_TMPDIR"), "bench")
                .join(format!("not-shown-{what}.png"));
            let _ = std::fs::create_dir_all(shot.parent().unwrap_or(home));
            let _ = std::process::Command::new("import")
                .args(["-display", display, "-window", "root"])
                .arg(&shot)
                .status();
            stop_group(pid).await;
            let mut log = std::fs::read_to_string(&log_path).unwrap_or_default();
            // Its own log is on its standard output.
            log.extend(told.iter().flat_map(|line| ["\n", line.as_str()]));
            let tail: Vec<&str> = log.lines().rev().take(40).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            bail!(
                "{} was to show {what}, but {e:#} (the display: {}); the last of its log:\n{}",
                program.display(),
                shot.display(),
                tail.join("\n")
            )
        }
    };
    // Satchel's page tells its start's steps right after (see `Timeline`).
    let timeline = tokio::time::timeout(Duration::from_secs(2), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(steps) = line.trim().strip_prefix("shown timeline ") {
                return Timeline::of(steps, started_at);
            }
            told.push(line);
        }
        None
    })
    .await
    .ok()
    .flatten();
    stop_group(pid).await;
    let timeline = timeline.map(|mut timeline| {
        timeline.app = app_steps(&told, started_at);
        timeline
    });
    Ok((shown, timeline))
}

/// Where a start's time went: each step the page marked (`markStartStep`), in ms
/// from the process's start (the page's `timeOrigin` on the wall clock the
/// benchmark shares), beginning with the page's own start.
#[derive(Clone)]
pub(super) struct Timeline {
    pub(super) page: Vec<(String, f64)>,
    /// The SDK's start steps (`satchel::timing` events of the app's log): name,
    /// start and end.
    pub(super) app: Vec<(String, f64, f64)>,
}

impl Timeline {
    /// `steps` as the page sends them: `origin=<ms since 1970> <step>=<ms> …`.
    fn of(steps: &str, process_started: std::time::SystemTime) -> Option<Self> {
        let started = process_started
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_secs_f64()
            * 1000.0;
        let mut origin = None;
        let mut timeline = Vec::new();
        for step in steps.split_whitespace() {
            let (name, ms) = step.split_once('=')?;
            let ms: f64 = ms.parse().ok()?;
            match name {
                "origin" => {
                    origin = Some(ms - started);
                    timeline.push(("page".to_owned(), ms - started));
                }
                _ => timeline.push((name.to_owned(), origin? + ms)),
            }
        }
        Some(Self {
            page: timeline,
            app: Vec::new(),
        })
    }
}

/// The steps the SDK told in the app's log before the page was shown (on its standard output:
/// `step="…" micros=… ended_ms=…`, perhaps with the terminal's colour codes),
/// in ms from the process's start. A step told again (each balance read's
/// `accounts` steps) is listed the first time only: the start's.
fn app_steps(log: &[String], process_started: std::time::SystemTime) -> Vec<(String, f64, f64)> {
    let Ok(started) = process_started.duration_since(std::time::UNIX_EPOCH) else {
        return Vec::new();
    };
    let started = started.as_secs_f64() * 1000.0;
    let mut seen = std::collections::HashSet::new();
    log.iter()
        .filter(|line| line.contains("satchel::timing"))
        .filter_map(|line| {
            let plain = without_colour(line);
            let field = |name: &str| {
                let at = plain.find(&format!("{name}="))? + name.len() + 1;
                let rest = &plain[at..];
                Some(match rest.strip_prefix('"') {
                    Some(quoted) => quoted[..quoted.find('"')?].to_owned(),
                    None => rest.split_whitespace().next()?.to_owned(),
                })
            };
            let step = field("step")?;
            let step = step.strip_prefix("start: ").unwrap_or(&step).to_owned();
            let micros: f64 = field("micros")?.parse().ok()?;
            let ended: f64 = field("ended_ms")?.parse().ok()?;
            let end = ended - started;
            Some((step, end - micros / 1000.0, end))
        })
        .filter(|(step, _, _)| seen.insert(step.clone()))
        .collect()
}

/// `line` without ANSI escape sequences.
fn without_colour(line: &str) -> String {
    let mut plain = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // ESC [ parameters final-letter
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
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
