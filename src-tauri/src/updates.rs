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

/// The updater as the app configures it (`tauri.conf.json`: `requireSignedVersion`,
/// no downgrades), against a server that offers crafted updates: only a package
/// signed by the key baked in, for the version the manifest announces, is taken.
#[cfg(test)]
mod refusals {
    use std::io::Cursor;

    use base64::Engine as _;
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    use super::*;

    fn b64(text: String) -> String {
        base64::engine::general_purpose::STANDARD.encode(text)
    }

    /// Serves `manifest` for every update question and `package` at `/package`.
    async fn update_server(manifest: serde_json::Value, package: Vec<u8>) -> Url {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url: Url = format!("http://{}/", listener.local_addr().expect("addr"))
            .parse()
            .expect("url");
        let package_url = url.join("package").expect("url");
        let mut manifest = manifest;
        manifest["url"] = package_url.as_str().into();
        tokio::spawn(async move {
            loop {
                let Ok((mut stream, _)) = listener.accept().await else {
                    return;
                };
                let mut head = vec![0u8; 4096];
                let n = stream.read(&mut head).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&head[..n]).into_owned();
                let body = if head.starts_with("GET /package") {
                    package.clone()
                } else {
                    manifest.to_string().into_bytes()
                };
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-length: {}\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(answer.as_bytes()).await;
                let _ = stream.write_all(&body).await;
            }
        });
        url
    }

    #[tokio::test]
    async fn only_a_package_signed_for_the_announced_version_is_taken() {
        let keys = minisign::KeyPair::generate_unencrypted_keypair().expect("keys");
        let pubkey = b64(keys.pk.to_box().expect("box").to_string());
        let sign = |data: &[u8], version: &str| {
            let comment = format!("timestamp:1700000000\tfile:satchel.deb\tversion:{version}");
            b64(minisign::sign(
                Some(&keys.pk),
                &keys.sk,
                Cursor::new(data),
                Some(&comment),
                None,
            )
            .expect("signed")
            .to_string())
        };
        let app = tauri::test::mock_builder()
            .plugin(tauri_plugin_updater::Builder::new().build())
            .manage(Updates::default())
            .build(tauri::generate_context!())
            .expect("the app builds");
        let handle = app.handle().clone();
        let offer = |version: &str, signature: String, package: &[u8]| {
            let manifest = serde_json::json!({
                "version": version, "notes": "test", "pub_date": "2026-11-24T00:00:00Z",
                "signature": signature,
            });
            let (package, handle, pubkey) = (package.to_vec(), handle.clone(), pubkey.clone());
            async move {
                let url = update_server(manifest, package).await;
                check(&handle, &url, &pubkey).await
            }
        };

        let new = b"Satchel 0.2.0".to_vec();
        let old = b"Satchel 0.0.9".to_vec();
        // A good update: downloaded, its signature and version checked.
        let taken = offer("0.2.0", sign(&new, "0.2.0"), &new).await;
        assert_eq!(taken, Ok(Some("0.2.0".to_owned())));
        // Bytes that are not the ones signed.
        let tampered = offer("0.2.0", sign(&new, "0.2.0"), b"Satchel 0.2.0, altered").await;
        assert!(tampered.is_err(), "{tampered:?}");
        // An older signed release announced as newer: its signature names 0.0.9.
        let downgrade = offer("0.3.0", sign(&old, "0.0.9"), &old).await;
        assert!(
            downgrade
                .as_ref()
                .is_err_and(|e| e.contains("0.0.9") || e.to_lowercase().contains("version")),
            "{downgrade:?}"
        );
        // An older release signed before versions were signed in: refused too
        // (requireSignedVersion), or it could be announced as anything.
        let unversioned = b64(minisign::sign(
            Some(&keys.pk),
            &keys.sk,
            Cursor::new(&old),
            Some("timestamp:1600000000\tfile:satchel.deb"),
            None,
        )
        .expect("signed")
        .to_string());
        let unbound = offer("0.2.0", unversioned, &old).await;
        assert!(unbound.is_err(), "{unbound:?}");
        // Signed by another key.
        let stranger = minisign::KeyPair::generate_unencrypted_keypair().expect("keys");
        let foreign = b64(minisign::sign(
            Some(&stranger.pk),
            &stranger.sk,
            Cursor::new(&new),
            None,
            None,
        )
        .expect("signed")
        .to_string());
        assert!(offer("0.2.0", foreign, &new).await.is_err());
    }
}

/// The version of a downloaded, verified update waiting for a restart, or `null`.
#[tauri::command]
#[allow(non_snake_case)] // the page's command names
pub fn getUpdate(updates: tauri::State<'_, Updates>) -> Option<String> {
    updates.ready_version()
}

/// Installs the waiting update and restarts the app; `false` when none waits.
#[tauri::command]
#[allow(non_snake_case)] // the page's command names
pub fn installUpdate<R: Runtime>(
    app: AppHandle<R>,
    updates: tauri::State<'_, Updates>,
) -> Result<bool, satchel_sdk::SdkError> {
    updates
        .install_and_restart(&app)
        .map_err(|e| satchel_sdk::SdkError::service(satchel_api::ServiceErrorCode::UnknownError, e))
}
