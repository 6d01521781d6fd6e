//! Reading what a program the stack starts prints until it says it is ready.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt as _, AsyncRead, BufReader};

/// How many of its last lines are kept to explain an end before it was ready.
const KEPT_LINES: usize = 8;

/// What a starting program's output came to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Startup<T> {
    /// The line `ready` looked for, read into `T`; its output is drained from
    /// then on, so the pipe never fills.
    Ready(T),
    /// Its output ended first (it exited); its last lines, as one.
    Ended(String),
    /// `patience` ran out first.
    TimedOut,
}

/// Reads `output` a line at a time until `ready` finds in one what it looks
/// for (`Ok(Some)`), the output ends, or `patience` runs out. An error from
/// `ready` (a ready line it cannot read) ends the wait with it.
pub(crate) async fn wait_until_ready<T>(
    output: impl AsyncRead + Unpin + Send + 'static,
    patience: Duration,
    mut ready: impl FnMut(&str) -> anyhow::Result<Option<T>>,
) -> anyhow::Result<Startup<T>> {
    let mut lines = BufReader::new(output).lines();
    let waited = tokio::time::timeout(patience, async {
        let mut said = VecDeque::with_capacity(KEPT_LINES);
        while let Some(line) = lines.next_line().await? {
            if let Some(found) = ready(&line)? {
                return Ok::<_, anyhow::Error>(Startup::Ready(found));
            }
            if said.len() == KEPT_LINES {
                said.pop_front();
            }
            said.push_back(line);
        }
        Ok(Startup::Ended(Vec::from(said).join(" / ")))
    })
    .await;
    let Ok(startup) = waited else {
        return Ok(Startup::TimedOut);
    };
    let startup = startup?;
    if matches!(startup, Startup::Ready(_)) {
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    }
    Ok(startup)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listening(line: &str) -> anyhow::Result<Option<u16>> {
        line.strip_prefix("listening on ")
            .map(|port| Ok(port.parse()?))
            .transpose()
    }

    async fn startup(output: &'static [u8]) -> anyhow::Result<Startup<u16>> {
        wait_until_ready(output, Duration::from_secs(5), listening).await
    }

    #[tokio::test]
    async fn the_ready_line_is_read_and_an_end_keeps_the_last_lines() {
        assert_eq!(
            startup(b"starting\nlistening on 4444\nmore\n").await.ok(),
            Some(Startup::Ready(4444))
        );
        let many: &'static [u8] = b"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\nport taken. Exiting...\n";
        assert_eq!(
            startup(many).await.ok(),
            Some(Startup::Ended(
                "4 / 5 / 6 / 7 / 8 / 9 / 10 / port taken. Exiting...".into()
            ))
        );
        assert!(startup(b"listening on many\n").await.is_err());
    }

    #[tokio::test]
    async fn a_program_that_says_nothing_times_out() {
        let (_writer, silent) = tokio::io::duplex(64);
        let waited = wait_until_ready(silent, Duration::from_millis(10), listening).await;
        assert_eq!(waited.ok(), Some(Startup::TimedOut));
    }
}
