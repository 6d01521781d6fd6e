//! Which origins the person connected (EIP-2255: the `eth_accounts` permission),
//! and when: kept in a JSON file in the app's data folder, written whole on each
//! change (a temporary file renamed over it), bounded in count.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::origin::Origin;

/// The most origins kept connected; connecting one more forgets the oldest.
pub const MAX_CONNECTED: usize = 256;

/// One connected origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Connection {
    /// Seconds since 1970 when the person connected it.
    pub connected_at: u64,
    /// The network it is on (`wallet_switchEthereumChain`), by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<String>,
    /// The wallet's accounts the person let it see, the first its selected one
    /// (none kept: a connection made before accounts were chosen sees all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accounts: Option<Vec<String>>,
    /// Connected through Satchel's browser extension, which names the page by
    /// what the browser says; otherwise by the request's `Origin` header, which
    /// a program on this computer can also send.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub through_extension: bool,
}

/// The most accounts one connection keeps (a wallet's bound).
pub const MAX_ACCOUNTS_SHOWN: usize = 20;

/// The permissions file and what it says.
pub struct Permissions {
    path: PathBuf,
    connected: Mutex<BTreeMap<String, Connection>>,
    /// Bumped at every change: what the WebSocket's events are recomputed on.
    changes: tokio::sync::watch::Sender<u64>,
}

impl Permissions {
    /// Reads `path` (none yet: nobody connected). A damaged file is set aside
    /// (renamed `.damaged`) and nobody is connected: asking again is safe, and
    /// believing a damaged list is not.
    pub fn open(path: &Path) -> Self {
        let connected = match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice::<BTreeMap<String, Connection>>(&bytes)
                .map(|all| {
                    all.into_iter()
                        .filter(|(key, _)| Origin::from_key(key).is_some())
                        .take(MAX_CONNECTED)
                        .collect()
                })
                .unwrap_or_else(|e| {
                    tracing::warn!("the connected sites file is damaged ({e}); set aside");
                    let _ = std::fs::rename(path, path.with_extension("damaged"));
                    BTreeMap::new()
                }),
            Err(_) => BTreeMap::new(),
        };
        Self {
            path: path.to_owned(),
            connected: Mutex::new(connected),
            changes: tokio::sync::watch::Sender::new(0),
        }
    }

    /// Changes with every connect, disconnect and network switch.
    pub fn watch(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changes.subscribe()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Connection>> {
        self.connected.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, origin: &Origin) -> Option<Connection> {
        self.lock().get(origin.key()).cloned()
    }

    pub fn is_connected(&self, origin: &Origin) -> bool {
        self.lock().contains_key(origin.key())
    }

    /// Every connected origin, for Settings → Connected sites.
    pub fn list(&self) -> Vec<(Origin, Connection)> {
        self.lock()
            .iter()
            .filter_map(|(key, c)| Some((Origin::from_key(key)?, c.clone())))
            .collect()
    }

    /// Connects `origin` now (the person said yes), showing it `accounts`.
    pub fn connect(&self, origin: &Origin, now: u64, accounts: &[String]) -> std::io::Result<()> {
        self.connect_through(origin, now, accounts, false)
    }

    /// The same, saying whether the request came through Satchel's browser
    /// extension.
    pub fn connect_through(
        &self,
        origin: &Origin,
        now: u64,
        accounts: &[String],
        through_extension: bool,
    ) -> std::io::Result<()> {
        let accounts: Vec<String> = accounts.iter().take(MAX_ACCOUNTS_SHOWN).cloned().collect();
        self.change(|all| {
            if !all.contains_key(origin.key()) && all.len() >= MAX_CONNECTED {
                let oldest = all
                    .iter()
                    .min_by_key(|(_, c)| c.connected_at)
                    .map(|(key, _)| key.clone());
                if let Some(oldest) = oldest {
                    all.remove(&oldest);
                }
            }
            all.insert(
                origin.key().to_owned(),
                Connection {
                    connected_at: now,
                    network: None,
                    accounts: Some(accounts),
                    through_extension,
                },
            );
        })
    }

    /// The network `origin` is on from now.
    pub fn set_network(&self, origin: &Origin, network: &str) -> std::io::Result<()> {
        self.change(|all| {
            if let Some(connection) = all.get_mut(origin.key()) {
                connection.network = Some(network.to_owned());
            }
        })
    }

    /// Disconnects `origin`; whether it was connected.
    pub fn disconnect(&self, origin: &Origin) -> std::io::Result<bool> {
        let mut was = false;
        self.change(|all| was = all.remove(origin.key()).is_some())?;
        Ok(was)
    }

    /// Applies `change` and writes the file; on a write error the change is not
    /// kept, so memory and disk never disagree.
    fn change(
        &self,
        change: impl FnOnce(&mut BTreeMap<String, Connection>),
    ) -> std::io::Result<()> {
        let mut all = self.lock();
        let mut next = all.clone();
        change(&mut next);
        if next == *all {
            return Ok(());
        }
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let partial = self.path.with_extension("partial");
        std::fs::write(&partial, serde_json::to_vec_pretty(&next)?)?;
        std::fs::rename(&partial, &self.path)?;
        *all = next;
        drop(all);
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn web(origin: &str) -> Origin {
        Origin::Web(origin.into())
    }

    #[test]
    fn a_connection_is_kept_across_a_restart_and_disconnect_forgets_it() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("connected.json");
        let permissions = Permissions::open(&path);
        assert!(!permissions.is_connected(&web("https://a.example")));
        permissions
            .connect(&web("https://a.example"), 100, &[])
            .expect("kept");
        permissions.connect(&Origin::Local, 200, &[]).expect("kept");
        permissions
            .set_network(&web("https://a.example"), "anvil")
            .expect("kept");

        let again = Permissions::open(&path);
        let a = again.get(&web("https://a.example")).expect("connected");
        assert_eq!(a.connected_at, 100);
        assert_eq!(a.network.as_deref(), Some("anvil"));
        assert!(again.is_connected(&Origin::Local));
        assert_eq!(again.list().len(), 2);
        assert!(
            again
                .disconnect(&web("https://a.example"))
                .expect("written")
        );
        assert!(
            !again
                .disconnect(&web("https://a.example"))
                .expect("written")
        );
        assert!(!Permissions::open(&path).is_connected(&web("https://a.example")));
    }

    #[test]
    fn connections_are_bounded_and_the_oldest_goes_first() {
        let dir = tempfile::tempdir().expect("dir");
        let permissions = Permissions::open(&dir.path().join("connected.json"));
        for i in 0..=MAX_CONNECTED as u64 {
            permissions
                .connect(&web(&format!("https://a{i}.example")), 1_000 + i, &[])
                .expect("kept");
        }
        assert_eq!(permissions.list().len(), MAX_CONNECTED);
        assert!(
            !permissions.is_connected(&web("https://a0.example")),
            "the oldest"
        );
        assert!(permissions.is_connected(&web(&format!("https://a{MAX_CONNECTED}.example"))));
    }

    #[test]
    fn a_damaged_file_connects_nobody_and_is_set_aside() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("connected.json");
        std::fs::write(&path, b"{not json").expect("written");
        let permissions = Permissions::open(&path);
        assert!(permissions.list().is_empty());
        assert!(path.with_extension("damaged").exists());
        std::fs::write(&path, br#"{"not an origin": {"connectedAt": 1}}"#).expect("written");
        assert!(
            Permissions::open(&path).list().is_empty(),
            "entries that are not origins"
        );
    }
}
