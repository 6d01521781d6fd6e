//! chromedriver, started on a port the system picks, and stopped with the
//! Chromium it started.

use std::path::Path;
use std::process::Stdio;

use anyhow::Context as _;
use tokio::process::{Child, Command};

use super::PATIENCE;
use crate::startup::{Startup, wait_until_ready};

/// How many times chromedriver is started before its start counts as failed.
const DRIVER_TRIES: usize = 3;

/// chromedriver on a port the system picks. With `--port=0` it takes a free
/// IPv4 port and then the same number on IPv6; when another program holds that
/// one ("IPv6 port not available. Exiting...") it exits, which tests running
/// side by side meet now and then. Each try gets a fresh port.
pub(super) async fn start_driver(binary: &Path) -> anyhow::Result<(Child, u16)> {
    let mut last_words = String::new();
    for attempt in 1..=DRIVER_TRIES {
        let mut driver = Command::new(binary)
            .arg("--port=0")
            // Chromium needs no session bus; with one it starts desktop portals
            // that only fill the test log.
            .env("DBUS_SESSION_BUS_ADDRESS", "disabled:")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            // Its own process group, so Chromium goes with it.
            .process_group(0)
            .spawn()
            .with_context(|| format!("cannot start {}", binary.display()))?;
        let output = driver.stdout.take().context("chromedriver's output")?;
        let startup = wait_until_ready(output, PATIENCE, |line| {
            // "ChromeDriver was started successfully on port N."
            match line.split("on port ").nth(1) {
                Some(port) if line.contains("started successfully") => {
                    Ok(Some(port.trim().trim_end_matches('.').parse::<u16>()?))
                }
                _ => Ok(None),
            }
        })
        .await;
        match startup {
            Ok(Startup::Ready(port)) => return Ok((driver, port)),
            Ok(Startup::Ended(said)) => {
                kill_group(&driver);
                // Each retry said, and why: a flaky start is seen in the log.
                eprintln!(
                    "chromedriver: exited before it listened (start {attempt} of {DRIVER_TRIES}); it said: {}",
                    said.trim()
                );
                last_words = said;
            }
            Ok(Startup::TimedOut) => {
                kill_group(&driver);
                anyhow::bail!("chromedriver did not start within {PATIENCE:?}");
            }
            Err(error) => {
                kill_group(&driver);
                return Err(error);
            }
        }
    }
    anyhow::bail!(
        "chromedriver exited before it listened, {DRIVER_TRIES} times; the last time it said: {last_words}"
    )
}

/// Kills chromedriver's process group: chromedriver and the Chromium it started.
pub(super) fn kill_group(driver: &Child) {
    if let Some(pid) = driver.id().filter(|pid| *pid > 1) {
        // `kill -s KILL -- -PGID`: without `--`, `-PGID` would read as an option.
        let _ = std::process::Command::new("kill")
            .args(["-s", "KILL", "--", &format!("-{pid}")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use std::path::PathBuf;

    use super::*;

    /// A stand-in for chromedriver that exits the way the real one does when
    /// its IPv6 port is taken, `failures` times, then starts.
    fn driver_failing(dir: &Path, failures: usize) -> PathBuf {
        let script = dir.join("chromedriver");
        let tries = dir.join("tries");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\n\
                 echo x >> '{tries}'\n\
                 echo 'Starting ChromeDriver on port 0'\n\
                 if [ \"$(wc -l < '{tries}')\" -le {failures} ]; then\n\
                 echo 'IPv6 port not available. Exiting...'; exit 1; fi\n\
                 echo 'ChromeDriver was started successfully on port 4444.'\n\
                 exec sleep 30\n",
                tries = tries.display()
            ),
        )
        .expect("write the stand-in driver");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
            .expect("make it executable");
        script
    }

    #[tokio::test]
    async fn a_driver_that_exits_before_it_listens_is_started_again() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let script = driver_failing(dir.path(), DRIVER_TRIES - 1);
        let (driver, port) = start_driver(&script)
            .await
            .expect("started on the last try");
        assert_eq!(port, 4444);
        kill_group(&driver);
        let tries = std::fs::read_to_string(dir.path().join("tries")).expect("its tries");
        assert_eq!(tries.lines().count(), DRIVER_TRIES);
    }

    #[tokio::test]
    async fn a_driver_that_never_listens_fails_with_what_it_said() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let script = driver_failing(dir.path(), DRIVER_TRIES);
        let error = start_driver(&script)
            .await
            .expect_err("it never listens")
            .to_string();
        assert!(error.contains("IPv6 port not available"), "{error}");
        let tries = std::fs::read_to_string(dir.path().join("tries")).expect("its tries");
        assert_eq!(tries.lines().count(), DRIVER_TRIES);
    }
}
