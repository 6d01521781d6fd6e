//! Where the local endpoint listens, and what the person is told when it
//! cannot: another program (Frame, a second wallet) may hold the port. The
//! window says so and Settings moves the endpoint to another port, kept for
//! the next start (`endpoint-port` in the app's data folder; the
//! `SATCHEL_PROVIDER_PORT` variable still wins).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use satchel_api::ServiceErrorCode;
use satchel_connect::Provider;
use satchel_sdk::SdkError;
use serde::Serialize;

use super::Dapps;

/// The endpoint as the window shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct EndpointStatus {
    /// The port it listens on, or would.
    pub port: u16,
    pub serving: bool,
    /// Why it does not serve (the port is taken…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

impl EndpointStatus {
    /// Not started (the app serves no endpoint, or not yet).
    pub fn off() -> Self {
        Self {
            port: 0,
            serving: false,
            problem: None,
        }
    }
}

/// The port the person chose in Settings, kept in `file`.
pub fn chosen_port(file: &Path) -> Option<u16> {
    std::fs::read_to_string(file)
        .ok()?
        .trim()
        .parse()
        .ok()
        .filter(|p| *p != 0)
}

impl Dapps {
    /// Keeps the port the person chooses in `file`, for the next start.
    pub fn with_port_file(mut self, file: PathBuf) -> Self {
        self.port_file = Some(file);
        self
    }

    /// The port to serve on at start: `configured` (the settings file's, or
    /// the default), unless the person chose another in Settings. A port set by
    /// the variable (`from_variable`) wins, and 0 keeps the endpoint off.
    pub fn port_at_start(&self, configured: u16, from_variable: bool) -> u16 {
        if configured == 0 || from_variable {
            return configured;
        }
        self.port_file
            .as_deref()
            .and_then(chosen_port)
            .unwrap_or(configured)
    }

    /// Binds `127.0.0.1:port` and serves there, or says why not.
    pub(super) async fn listen(self: &Arc<Self>, port: u16) -> Result<(), String> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AddrInUse => format!(
                    "port {port} is taken by another program (another wallet, such as Frame, uses it too)"
                ),
                _ => format!("127.0.0.1:{port}: {e}"),
            })?;
        let (permissions, extensions) = (self.permissions.clone(), self.extensions.clone());
        let provider = Provider::serve(listener, self.clone(), permissions, extensions)
            .map_err(|e| e.to_string())?;
        *self.provider.lock() = Some(provider);
        Ok(())
    }

    /// Tells the window where the endpoint is, or why it is off.
    pub(super) fn tell_endpoint(&self, port: u16, outcome: &Result<(), String>) {
        self.endpoint.send_replace(EndpointStatus {
            port,
            serving: outcome.is_ok(),
            problem: outcome.as_ref().err().cloned(),
        });
    }

    pub fn watch_endpoint(&self) -> tokio::sync::watch::Receiver<EndpointStatus> {
        self.endpoint.subscribe()
    }

    /// Moves the endpoint to `port` (the person chose it in Settings): the old
    /// one stops once the new one listens, and the choice is kept for the next
    /// start. A port that is taken too leaves the endpoint as it was.
    pub async fn move_endpoint(self: &Arc<Self>, port: u16) -> Result<EndpointStatus, SdkError> {
        let refused = |why: String| SdkError::service(ServiceErrorCode::InvalidParameters, why);
        if port < 1024 {
            return Err(refused(
                "choose a port from 1024 to 65535 (lower ones need the system's permission)".into(),
            ));
        }
        if self.endpoint.borrow().serving && self.endpoint.borrow().port == port {
            return Ok(self.endpoint.borrow().clone());
        }
        let previous = self.provider.lock().take();
        let outcome = self.listen(port).await;
        if let Err(why) = outcome {
            *self.provider.lock() = previous;
            return Err(refused(why));
        }
        drop(previous);
        if let Some(file) = &self.port_file {
            if let Some(dir) = file.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            if let Err(e) = std::fs::write(file, port.to_string()) {
                tracing::warn!("the endpoint's port was not kept for the next start: {e}");
            }
        }
        self.tell_endpoint(port, &Ok(()));
        Ok(self.endpoint.borrow().clone())
    }
}
