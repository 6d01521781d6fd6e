//! The desktop benchmark's report: each figure beside its yardstick (the
//! minimal window, Satchel's own page, the endpoint called directly) and its
//! goal, once the runs are done (`report`), and the NFT tab at the sweep's
//! counts (`report_sweep`).

use super::*;

/// Every figure of the runs, the approval pages and the dapp through the
/// extension (`None`: that session failed, and the error follows the report).
pub(super) fn report(
    plan: &Plan,
    setup: &Setup,
    runs: &[Run],
    approvals: &[Duration],
    browser: Option<&extension::ThroughExtension>,
) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mib = |p: Pss| p.bytes as f64 / (1024.0 * 1024.0);
    let n = plan.nfts;
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!(
        "\ndesktop benchmark: {}; {cores} cores; median of {} run(s){}, the order of the programs alternating",
        if cfg!(debug_assertions) {
            "an unoptimised build: figures only show the benchmark works"
        } else {
            "optimised builds (the desktop profile: release with smaller code)"
        },
        plan.runs,
        if plan.warm_up {
            " after one warm-up run of each"
        } else {
            ", no warm-up"
        },
    );
    println!(
        "every run starts with an empty cache (thumbnails, WebKit's); warm: started again on the cache the cold start left"
    );
    println!(
        "the wallet: {n} NFTs: the faucet's {} and {} ERC-1155 ids minted on the local chain, whose metadata (an SVG picture as a data: URI) is stored in the service's database as a refresh stores it; a refresh of all {n} took {:.1} s",
        setup.faucet,
        n - setup.faucet,
        setup.refresh.as_secs_f64()
    );
    println!(
        "the SDK's grid of the stored listing and its first {FIRST_TILES} tiles (what the NFT tab asks for), in this process: {:.0} ms; the page receives {:.1} KB of JSON (the same for any count), where getNFTs' shape is {:.1} MB",
        ms(setup.sdk_listing),
        setup.grid_bytes as f64 / 1e3,
        setup.listing_bytes as f64 / 1e6
    );
    println!(
        "the service sends the SDK that listing grouped by collection: {:.2} MB (the spec's shape, GET /v1/nft: {:.1} MB)",
        setup.service_bytes[0] as f64 / 1e6,
        setup.service_bytes[1] as f64 / 1e6,
    );
    println!(
        "\n{:<48} {:>16} {:>17} {:>15}  target",
        "", "Satchel", "anchor", "ratio"
    );
    println!(
        "{:<48} {:>8}{:>8} {:>9}{:>8} {:>8}{:>7}",
        "", "cold", "warm", "cold", "warm", "cold", "warm"
    );
    let median_of = |values: Vec<f64>| -> Option<f64> {
        if values.is_empty() {
            return None;
        }
        let mut values = values;
        values.sort_by(f64::total_cmp);
        Some(values[values.len() / 2])
    };
    let cell = |v: Option<f64>, width: usize, digits: usize| match v {
        Some(v) => format!("{v:>width$.digits$}"),
        None => format!("{:>width$}", "–"),
    };
    let ratio = |a: Option<f64>, b: Option<f64>, width: usize| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:>width$.2}x", a / b),
        _ => format!("{:>width$} ", "–"),
    };
    let row = |label: &str,
               app: [Option<f64>; 2],
               anchor: [Option<f64>; 2],
               digits: usize,
               target: &str| {
        println!(
            "{label:<48} {}{} {}{} {}{}  {target}",
            cell(app[COLD], 8, digits),
            cell(app[WARM], 8, digits),
            cell(anchor[COLD], 9, digits),
            cell(anchor[WARM], 8, digits),
            ratio(app[COLD], anchor[COLD], 7),
            ratio(app[WARM], anchor[WARM], 6),
        );
    };
    // A time against its goal (below it is met).
    let verdict = |v: Option<f64>, goal: f64| match v {
        Some(v) if v < goal => "met".to_owned(),
        Some(v) => format!("missed by {:.0} ms", v - goal),
        None => "not measured".to_owned(),
    };
    let per = |f: &dyn Fn(&Run, usize) -> Option<f64>| -> [Option<f64>; 2] {
        [COLD, WARM].map(|c| median_of(runs.iter().filter_map(|r| f(r, c)).collect()))
    };
    row(
        "start to shown (ms): balances / minimal page",
        per(&|r, c| r.start_app[c].map(ms)),
        per(&|r, c| r.start_min[c].map(ms)),
        0,
        "<= 1.15x",
    );
    row(
        "PSS (MiB): wallet page / minimal page",
        per(&|r, c| session(r, c).map(|s| mib(s.wallet))),
        per(&|r, _| r.pss_min.map(mib)),
        1,
        "<= 1.10x",
    );
    row(
        "PSS (MiB): NFT tab, first screen / minimal page",
        per(&|r, c| session(r, c).map(|s| mib(s.first_screen))),
        per(&|r, _| r.pss_min.map(mib)),
        1,
        "<= 1.15x",
    );
    row(
        &format!("PSS (MiB): after scrolling all {n} / wallet page"),
        per(&|r, c| {
            session(r, c)
                .and_then(|s| s.scrolled.as_ref())
                .map(|s| mib(s.pss))
        }),
        per(&|r, c| {
            session(r, c)
                .filter(|s| s.scrolled.is_some())
                .map(|s| mib(s.wallet))
        }),
        1,
        "<= 1.3x",
    );
    let first_row = per(&|r, c| session(r, c).map(|s| ms(s.first_row)));
    println!(
        "{:<48} {}{}   goal < {FIRST_ROW_GOAL_MS} ms: {} (cold)",
        "NFT tab to first row of thumbnails shown (ms)",
        cell(first_row[COLD], 8, 0),
        cell(first_row[WARM], 8, 0),
        verdict(first_row[COLD], FIRST_ROW_GOAL_MS)
    );
    let grid = per(&|r, c| session(r, c).map(|s| ms(s.grid)));
    println!(
        "{:<48} {}{}",
        "  of which until the grid's tiles are in the page",
        cell(grid[COLD], 8, 0),
        cell(grid[WARM], 8, 0),
    );
    let mut approval: Vec<f64> = approvals.iter().map(|d| ms(*d)).collect();
    approval.sort_by(f64::total_cmp);
    let approval_median = approval.get(approval.len() / 2).copied();
    println!(
        "{:<48} {}   goal < {APPROVAL_GOAL_MS} ms (median of {}): {}; slowest {}",
        "eth_sendTransaction to approval page shown (ms)",
        cell(approval_median, 8, 0),
        approval.len(),
        verdict(approval_median, APPROVAL_GOAL_MS),
        cell(approval.last().copied(), 0, 0),
    );
    // A dapp in the browser, through the extension.
    let median_ms = |values: &[Duration]| median_of(values.iter().map(|d| ms(*d)).collect());
    let through = |f: fn(&extension::ThroughExtension) -> &Vec<Duration>| {
        browser.map_or(&[][..], |b| f(b).as_slice())
    };
    let (page, direct) = (
        median_ms(through(|b| &b.page_calls)),
        median_ms(through(|b| &b.direct_calls)),
    );
    println!(
        "{:<48} {}{} {}{} {}{}  <= 1.2x (median of {} each)",
        "eth_call (ms): page via extension / endpoint",
        cell(page, 8, 2),
        cell(None, 8, 0),
        cell(direct, 9, 2),
        cell(None, 8, 0),
        ratio(page, direct, 7),
        ratio(None, None, 6),
        through(|b| &b.page_calls).len(),
    );
    // Where the extension's time goes: each hop's median, in the same blocks.
    let (bridge, page_chain_id, direct_chain_id) = (
        median_ms(through(|b| &b.bridge_trips)),
        median_ms(through(|b| &b.page_chain_ids)),
        median_ms(through(|b| &b.direct_chain_ids)),
    );
    let part = |ms: Option<f64>| ms.map_or_else(|| "–".to_owned(), |ms| format!("{ms:.2}"));
    let less = |a: Option<f64>, b: Option<f64>| a.zip(b).map(|(a, b)| a - b);
    println!(
        "  of which (ms): page to content script and back {}; eth_chainId (the endpoint answers it) via extension {}, directly {}; so the worker and its socket {}, the node's part of eth_call {}",
        part(bridge),
        part(page_chain_id),
        part(direct_chain_id),
        part(less(less(page_chain_id, bridge), direct_chain_id)),
        part(less(direct, direct_chain_id)),
    );
    let page_approval = median_ms(through(|b| &b.approvals));
    println!(
        "{:<48} {}   goal < {APPROVAL_GOAL_MS} ms (median of {}): {}",
        "page's eth_sendTransaction to approval shown (ms)",
        cell(page_approval, 8, 0),
        through(|b| &b.approvals).len(),
        verdict(page_approval, APPROVAL_GOAL_MS),
    );
    // The widget embedded in an application: the minimal host.
    row(
        "start (ms): host with the plugin / minimal page",
        per(&|r, c| r.start_host[c].map(ms)),
        per(&|r, c| r.start_min[c].map(ms)),
        0,
        "<= 1.05x",
    );
    fn embedded(r: &Run) -> Option<&embed::Embedded> {
        r.embedded.as_ref()
    }
    let open_widget = [
        median_of(
            runs.iter()
                .filter_map(embedded)
                .map(|e| ms(e.cold))
                .collect(),
        ),
        median_of(
            runs.iter()
                .filter_map(embedded)
                .flat_map(|e| e.warm.iter().map(|d| ms(*d)))
                .collect(),
        ),
    ];
    println!(
        "{:<48} {}{}   goal < {} ms first, < {} ms after: {}, {} (first: median of {} runs; after: of {} opens)",
        "openWidget to the wallet page painted (ms)",
        cell(open_widget[COLD], 8, 0),
        cell(open_widget[WARM], 8, 0),
        OPEN_WIDGET_GOAL_MS[COLD],
        OPEN_WIDGET_GOAL_MS[WARM],
        verdict(open_widget[COLD], OPEN_WIDGET_GOAL_MS[COLD]),
        verdict(open_widget[WARM], OPEN_WIDGET_GOAL_MS[WARM]),
        runs.iter().filter_map(embedded).count(),
        runs.iter()
            .filter_map(embedded)
            .map(|e| e.warm.len())
            .sum::<usize>(),
    );
    row(
        "PSS (MiB): host + widget / Satchel's wallet page",
        [
            median_of(
                runs.iter()
                    .filter_map(embedded)
                    .map(|e| mib(e.pss))
                    .collect(),
            ),
            None,
        ],
        per(&|r, c| {
            (c == COLD)
                .then(|| session(r, COLD).map(|s| mib(s.wallet)))
                .flatten()
        }),
        1,
        "<= 1.05x",
    );
    let scroll = per(&|r, c| {
        session(r, c)
            .and_then(|s| s.scrolled.as_ref())
            .map(|s| s.took.as_secs_f64())
    });
    let thumbnails = per(&|r, c| {
        session(r, c)
            .and_then(|s| s.scrolled.as_ref())
            .map(|s| s.thumbnails as f64)
    });
    println!(
        "{:<48} {}{}   ({} thumbnails loaded on the way)",
        format!("scrolling through all {n}, a screen at a time (s)"),
        cell(scroll[COLD], 8, 1),
        cell(scroll[WARM], 8, 1),
        cell(thumbnails[COLD], 0, 0),
    );
    let processes = |f: &dyn Fn(&Run) -> Option<usize>| {
        let mut counts: Vec<usize> = runs.iter().filter_map(f).collect();
        counts.sort_unstable();
        counts.dedup();
        counts
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("/")
    };
    println!(
        "processes counted in PSS: Satchel {} (wallet page), {} (after scrolling); minimal window {}; host with the widget open {}",
        processes(&|r| session(r, COLD).map(|s| s.wallet.processes)),
        processes(&|r| {
            session(r, COLD)
                .and_then(|s| s.scrolled.as_ref())
                .map(|s| s.pss.processes)
        }),
        processes(&|r| r.pss_min.map(|p| p.processes)),
        processes(&|r| r.embedded.as_ref().map(|e| e.pss.processes)),
    );
    let breakdown = |by: &[(String, u64)]| {
        by.iter()
            .map(|(name, bytes)| format!("{name} {:.1}", *bytes as f64 / (1024.0 * 1024.0)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(last) = runs.last().and_then(|r| session(r, COLD)) {
        println!(
            "PSS by process (MiB), last run: wallet page: {}",
            breakdown(&last.wallet_by_process)
        );
        println!(
            "                                NFT tab, first screen: {}",
            breakdown(&last.first_screen_by_process)
        );
        if let Some(scrolled) = &last.scrolled {
            println!(
                "                                on the way (1/4, 1/2, 3/4, all): {}",
                scrolled
                    .on_the_way
                    .iter()
                    .chain([&scrolled.pss])
                    .map(|p| format!("{:.1}", mib(*p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            println!(
                "                                after scrolling: {}",
                breakdown(&scrolled.by_process)
            );
        }
    }
    if let Some(last) = runs.last().and_then(|r| r.embedded.as_ref()) {
        println!(
            "PSS by process (MiB), last run: host with the widget open: {}",
            breakdown(&last.by_process)
        );
        println!(
            "openWidget in the host, first open, last run, ms from the call: {}",
            last.cold_steps
                .iter()
                .map(|(step, ms)| format!("{step} {ms:.0}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let list = |f: &dyn Fn(&Run) -> Option<Duration>| {
        runs.iter()
            .filter_map(f)
            .map(|d| ms(d).round())
            .collect::<Vec<_>>()
    };
    if let (Some(app), Some(min)) = (
        runs.iter().find_map(|r| r.idle_app.clone()),
        runs.iter().find_map(|r| r.idle_min.clone()),
    ) {
        println!(
            "idle, first page open (Satchel's: after its refresh countdown), nothing asked of it, over {:.0} s (last run): Satchel {:.2}% of one core, {:.1} context switches/s (the provider serving); minimal window {:.2}%, {:.1}/s; goal < 0.5% and no polling",
            app.watched.as_secs_f64(),
            100.0 * app.cpu,
            app.wakeups,
            100.0 * min.cpu,
            min.wakeups
        );
        println!(
            "  threads that woke most, idle: Satchel {}; minimal window {}",
            app.busiest.join(", "),
            min.busiest.join(", ")
        );
    }
    for (program, name) in [(1, "Satchel"), (0, "minimal window"), (2, "minimal host")] {
        if let Some(timeline) = runs
            .iter()
            .rev()
            .find_map(|r| r.start_timeline[program].clone())
        {
            println!(
                "cold start, last run, ms from the process's start: {name}: {}",
                timeline
                    .page
                    .iter()
                    .map(|(step, ms)| format!("{step} {ms:.0}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            if !timeline.app.is_empty() {
                println!(
                    "  the app's side of it (the SDK's steps, from-to): {}",
                    timeline
                        .app
                        .iter()
                        .map(|(step, from, to)| format!("{step} {from:.0}-{to:.0}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
    }
    println!(
        "runs, start to shown, cold (ms): Satchel {:?}, minimal {:?}, minimal host {:?}",
        list(&|r| r.start_app[COLD]),
        list(&|r| r.start_min[COLD]),
        list(&|r| r.start_host[COLD])
    );
    println!(
        "runs, NFT tab to first row (ms): cold {:?}, warm {:?}",
        list(&|r| session(r, COLD).map(|s| s.first_row)),
        list(&|r| session(r, WARM).map(|s| s.first_row))
    );
}

/// The grid's figures at each count, beside the minimal window's PSS of the
/// runs (the same process, the same machine).
pub(super) fn report_sweep(plan: &Plan, runs: &[Run], sweep: &Sweep) {
    let mib = |p: Pss| p.bytes as f64 / (1024.0 * 1024.0);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = |mut values: Vec<f64>| -> f64 {
        values.sort_by(f64::total_cmp);
        values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let minimal = median(runs.iter().filter_map(|r| r.pss_min.map(mib)).collect());
    let at_runs: Vec<&Session> = runs.iter().filter_map(|r| session(r, COLD)).collect();
    println!(
        "\nthe NFT tab with {}, {} and {} NFTs (cold; the median of {} sessions, of the runs at {}; the minimal page's PSS {minimal:.1} MiB in the runs; the service's refresh of all {} took {:.1} s, in this process):",
        plan.sweep[0],
        plan.nfts,
        plan.sweep[1],
        plan.sweep_sessions,
        plan.nfts,
        plan.sweep[1],
        sweep.more_refresh.as_secs_f64(),
    );
    println!(
        "{:>8} {:>12} {:>11} {:>11} {:>14} {:>12}",
        "NFTs", "first screen", "/ minimal", "first row", "after all", "/ wallet"
    );
    // Each count with its sessions, listed once.
    let counts: [(usize, Vec<&Session>); 3] = [
        (plan.sweep[0], sweep.fewer.iter().collect()),
        (plan.nfts, at_runs),
        (plan.sweep[1], sweep.more.iter().collect()),
    ];
    let mut first_screens = Vec::with_capacity(counts.len());
    for (count, sessions) in &counts {
        let first_screen = median(sessions.iter().map(|s| mib(s.first_screen)).collect());
        first_screens.push(first_screen);
        let first_row = median(sessions.iter().map(|s| ms(s.first_row)).collect());
        let scrolled = sessions.iter().find_map(|s| {
            s.scrolled
                .as_ref()
                .map(|scrolled| (mib(scrolled.pss), mib(s.wallet)))
        });
        let (after, ratio) = match scrolled {
            Some((after, wallet)) => (format!("{after:.1} MiB"), format!("{:.2}x", after / wallet)),
            None => ("–".to_owned(), "–".to_owned()),
        };
        println!(
            "{count:>8} {first_screen:>8.1} MiB {:>10.2}x {first_row:>8.0} ms {after:>14} {ratio:>12}",
            first_screen / minimal
        );
    }
    let spread = first_screens.iter().copied().fold(f64::MIN, f64::max)
        / first_screens.iter().copied().fold(f64::MAX, f64::min);
    println!(
        "first screen: the largest {:.1}% over the smallest (goal: within 5%, each <= 1.15x the minimal page); first row at {}: goal < 100 ms cold; after scrolling all: goal <= 1.3x the wallet page",
        (spread - 1.0) * 100.0,
        plan.sweep[1]
    );
}
