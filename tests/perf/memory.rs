//! What a program holds in memory: the proportional set size (PSS,
//! `/proc/<pid>/smaps_rollup`) summed over a program's processes and all their
//! descendants (its WebKit processes), as the desktop benchmark reads it.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context as _, bail};

/// A PSS reading: its bytes, summed over this many processes.
#[derive(Clone, Copy)]
pub struct Pss {
    pub bytes: u64,
    pub processes: usize,
}

/// Waits until no process runs `program` (the last session's app has quit), so
/// no PSS reading counts two.
pub async fn wait_gone(program: &Path) -> anyhow::Result<()> {
    for _ in 0..400 {
        if pss_of_program(program).is_err() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    bail!(
        "{} still runs 10 s after its session ended",
        program.display()
    )
}

/// The PSS of the running `program` and its descendants, once two readings a
/// quarter second apart agree within 1% (the page has settled).
pub async fn settled_pss(program: &Path) -> anyhow::Result<Pss> {
    let mut last: Option<Pss> = None;
    for _ in 0..40 {
        let now = pss_of_program(program)?;
        if let Some(before) = last
            && before.processes == now.processes
            && now.bytes.abs_diff(before.bytes) * 100 <= before.bytes
        {
            return Ok(now);
        }
        last = Some(now);
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    last.context("no reading")
}

/// Sums `Pss:` over every process running `program` and all their descendants.
pub fn pss_of_program(program: &Path) -> anyhow::Result<Pss> {
    let readings: Vec<u64> = processes_of(program)?
        .iter()
        .filter_map(|pid| pss_kib(*pid))
        .collect();
    Ok(Pss {
        bytes: readings.iter().sum::<u64>() * 1024,
        processes: readings.len(),
    })
}

/// The PSS of each process of `program` (as [`pss_of_program`] counts them), by
/// its name, largest first.
pub fn pss_by_process(program: &Path) -> anyhow::Result<Vec<(String, u64)>> {
    let mut by: Vec<(String, u64)> = processes_of(program)?
        .iter()
        .filter_map(|pid| {
            let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
            Some((name.trim().to_owned(), pss_kib(*pid)? * 1024))
        })
        .collect();
    by.sort_by_key(|(_, bytes)| std::cmp::Reverse(*bytes));
    Ok(by)
}

/// Every process running `program`, and all their descendants.
pub fn processes_of(program: &Path) -> anyhow::Result<Vec<u32>> {
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
    Ok(selected)
}

pub fn pss_kib(pid: u32) -> Option<u64> {
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
