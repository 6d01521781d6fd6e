//! Updates: the Tauri updater asks the service (`GET /v1/app/updates/{target}/
//! {version}`) whether a newer version is out, downloads it and checks its
//! signature against the public key baked into this build, and keeps it until
//! the person restarts from Settings. A build without a key never looks.

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_updater::{Update, UpdaterExt};
use url::Url;

/// How often a running app asks again.
const EVERY: Duration = Duration::from_secs(6 * 60 * 60);

/// The downloaded, verified update waiting for a restart.
#[derive(Default)]
pub struct Updates {
    ready: Mutex<Option<(Update, Vec<u8>)>>,
}

impl Updates {
    fn ready(&self) -> MutexGuard<'_, Option<(Update, Vec<u8>)>> {
        self.ready.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The version ready to install, if one is.
    pub fn ready_version(&self) -> Option<String> {
        self.ready().as_ref().map(|(u, _)| u.version.clone())
    }

    /// Installs the ready update (the platform's installer; on Linux `pkexec`
    /// for a .deb or .rpm) and restarts the app. `Ok(false)`: nothing was ready.
    pub fn install_and_restart<R: Runtime>(&self, app: &AppHandle<R>) -> Result<bool, String> {
        let Some((update, bytes)) = self.ready().take() else {
            return Ok(false);
        };
        update.install(&bytes).map_err(|e| e.to_string())?;
        app.restart()
    }
}

/// The update endpoint of the service at `service_url`, with the updater's
/// placeholders: `{target}` is `<os>-<arch>` (`linux-x86_64`), as in the
/// platform keys of Tauri's `latest.json`, and `bundle_type` the kind of
/// package this app came in (`deb`, `rpm`, `appimage`, `msi`, `nsis`, `app`), so
/// a .deb is updated by a .deb.
pub fn endpoint(service_url: &Url) -> Result<Url, url::ParseError> {
    service_url
        .join("v1/app/updates/{{target}}-{{arch}}/{{current_version}}?bundle_type={{bundle_type}}")
}

/// Looks for an update now and then every [`EVERY`], for as long as the app runs.
pub fn watch<R: Runtime>(app: AppHandle<R>, service_url: Url, pubkey: String) {
    tauri::async_runtime::spawn(async move {
        loop {
            match check(&app, &service_url, &pubkey).await {
                Ok(Some(version)) => {
                    tracing::info!(%version, "an update is ready");
                    return; // one waiting update is enough
                }
                Ok(None) => {}
                Err(e) => tracing::warn!(error = %e, "no update check"),
            }
            tokio::time::sleep(EVERY).await;
        }
    });
}

/// Asks the service; a newer version is downloaded and its signature checked.
async fn check<R: Runtime>(
    app: &AppHandle<R>,
    service_url: &Url,
    pubkey: &str,
) -> Result<Option<String>, String> {
    let endpoint = endpoint(service_url).map_err(|e| e.to_string())?;
    let updater = app
        .updater_builder()
        .pubkey(pubkey)
        .endpoints(vec![endpoint])
        .and_then(|b| b.timeout(Duration::from_secs(60)).build())
        .map_err(|e| e.to_string())?;
    let Some(update) = updater.check().await.map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    // `download` checks the signature before answering the bytes.
    let bytes = update
        .download(|_, _| {}, || {})
        .await
        .map_err(|e| format!("update {}: {e}", update.version))?;
    let version = update.version.clone();
    *app.state::<Updates>().ready() = Some((update, bytes));
    Ok(Some(version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_is_the_services_with_the_updaters_placeholders() {
        let url: Url = "https://wallet.example.com/base/".parse().expect("url");
        assert_eq!(
            endpoint(&url).expect("joined").as_str(),
            "https://wallet.example.com/base/v1/app/updates/%7B%7Btarget%7D%7D-%7B%7Barch%7D%7D/%7B%7Bcurrent_version%7D%7D?bundle_type={{bundle_type}}"
        );
    }
}
