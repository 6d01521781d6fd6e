//! The desktop app's updates over HTTP: the newest release for a platform (or
//! 204) and the packages themselves (`crate::updates` reads the folder). Like
//! the links in e-mails, these take no app key: updates are public files.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::{Path, Query};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::updates::{self, UpdateRelease};

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct UpdateQuery {
    /// The app's package kind (`deb`, `rpm`, `appimage`, `msi`, `nsis`, `app`):
    /// the manifest's `<target>-<bundle_type>` entry is preferred to `<target>`.
    bundle_type: Option<String>,
}

/// The newest release for a platform, when it is newer than the caller's.
#[utoipa::path(get, path = "/v1/app/updates/{target}/{version}",
    params(
        ("target" = String, Path, description = "the platform as Tauri names it, `<os>-<arch>`: linux-x86_64, windows-x86_64, darwin-aarch64, ..."),
        ("version" = String, Path, description = "the app's version (semver)", pattern = r"^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$"),
        UpdateQuery,
    ),
    responses(
        (status = 200, body = UpdateRelease, description = "a newer release for this platform"),
        (status = 204, description = "no newer release for this platform"),
        (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: the version is not semver, or a path parameter is not UTF-8 once decoded"),
    ))]
pub async fn latest(
    State(state): State<AppState>,
    Path((target, version)): Path<(String, String)>,
    Query(query): Query<UpdateQuery>,
) -> ApiResult<Response> {
    let dir = state.settings.updates_dir();
    let public_url = state.settings.public_url.clone();
    let release = tokio::task::spawn_blocking(move || {
        updates::newest_release(
            &dir,
            &public_url,
            &target,
            query.bundle_type.as_deref(),
            &version,
        )
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(match release {
        Some(release) => axum::Json(release).into_response(),
        None => StatusCode::NO_CONTENT.into_response(),
    })
}

/// A package in the updates folder.
#[utoipa::path(get, path = "/v1/app/updates/files/{name}",
    params(("name" = String, Path, description = "a file name in the updates folder")),
    responses(
        (status = 200, description = "the package", content_type = "application/octet-stream"),
        (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: the name is not UTF-8 once decoded"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such file"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: as many downloads as the service serves at once are going"),
    ))]
pub async fn file(State(state): State<AppState>, Path(name): Path<String>) -> ApiResult<Response> {
    let path = updates::file_in(state.settings.updates_dir(), &name)
        .ok_or_else(|| ApiError::not_found("file"))?;
    // A package is tens of megabytes: it is streamed from the disk, never read
    // into memory, and only so many go out at once.
    let turn = state.downloads.clone().try_acquire_owned().map_err(|_| {
        ApiError::too_many_requests("too many downloads at once; try again in a minute")
    })?;
    let file = match tokio::fs::File::open(&path).await {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ApiError::not_found("file"));
        }
        Err(e) => return Err(ApiError::internal(format!("{name}: {e}"))),
    };
    let length = file
        .metadata()
        .await
        .map_err(|e| ApiError::internal(format!("{name}: {e}")))?
        .len();
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream".to_owned()),
            (header::CONTENT_LENGTH, length.to_string()),
        ],
        axum::body::Body::from_stream(chunks(file, turn)),
    )
        .into_response())
}

/// The file in chunks of 64 KiB, holding the download's `turn` until the last
/// one is sent (or the client goes away and the body is dropped).
fn chunks(
    file: tokio::fs::File,
    turn: tokio::sync::OwnedSemaphorePermit,
) -> impl futures::Stream<Item = std::io::Result<axum::body::Bytes>> {
    use tokio::io::AsyncReadExt as _;
    futures::stream::unfold(Some((file, turn)), |state| async move {
        let (mut file, turn) = state?;
        let mut buffer = vec![0u8; 64 * 1024];
        match file.read(&mut buffer).await {
            Ok(0) => None,
            Ok(n) => {
                buffer.truncate(n);
                Some((Ok(buffer.into()), Some((file, turn))))
            }
            // The error ends the body; nothing is read after it.
            Err(e) => Some((Err(e), None)),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::updates::{MANIFEST, SEMVER};
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt as _;
    use url::Url;

    #[test]
    fn the_documented_version_pattern_is_the_one_parsed() {
        let doc = serde_json::to_value(super::super::openapi()).expect("json");
        let version = doc["paths"]["/v1/app/updates/{target}/{version}"]["get"]["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .find(|p| p["name"] == "version")
            .expect("the version parameter")
            .clone();
        assert_eq!(version["schema"]["pattern"], SEMVER, "{version}");
    }

    async fn get(state: &AppState, uri: &str) -> (StatusCode, Vec<u8>) {
        let response = crate::app(state.clone())
            .oneshot(Request::get(uri).body(Body::empty()).expect("request"))
            .await
            .expect("answered");
        let status = response.status();
        let body = http_body_util::BodyExt::collect(response.into_body())
            .await
            .expect("body")
            .to_bytes();
        (status, body.to_vec())
    }

    #[tokio::test]
    async fn the_newest_release_for_the_platform_when_newer_else_204() {
        let data = tempfile::tempdir().expect("temp dir");
        let state = AppState::new(crate::Settings {
            data_dir: data.path().to_owned(),
            ..crate::Settings::default()
        })
        .await
        .expect("a service on SQLite");
        // No manifest: no update.
        let (status, _) = get(&state, "/v1/app/updates/linux-x86_64/0.1.0").await;
        assert_eq!(status, StatusCode::NO_CONTENT);

        let dir = data.path().join("updates");
        std::fs::create_dir_all(&dir).expect("folder");
        std::fs::write(dir.join("Satchel_0.2.0_amd64.deb"), b"package").expect("package");
        std::fs::write(
            dir.join(MANIFEST),
            serde_json::json!({
                "version": "0.2.0",
                "notes": "Faster",
                "pub_date": "2026-11-23T10:00:00Z",
                "platforms": {
                    "linux-x86_64": {"url": "https://cdn.example.com/Satchel.AppImage", "signature": "sig-appimage"},
                    "linux-x86_64-deb": {"url": "Satchel_0.2.0_amd64.deb", "signature": "sig-deb"},
                }
            })
            .to_string(),
        )
        .expect("manifest");

        let (status, body) =
            get(&state, "/v1/app/updates/linux-x86_64/0.1.0?bundle_type=deb").await;
        assert_eq!(status, StatusCode::OK);
        let release: UpdateRelease = serde_json::from_slice(&body).expect("a release");
        assert_eq!(release.version, "0.2.0");
        assert_eq!(release.signature, "sig-deb");
        assert_eq!(release.notes.as_deref(), Some("Faster"));
        let path = Url::parse(&release.url).expect("url").path().to_owned();
        let (status, body) = get(&state, &path).await;
        assert_eq!((status, body.as_slice()), (StatusCode::OK, &b"package"[..]));

        let (_, body) = get(&state, "/v1/app/updates/linux-x86_64/0.1.0").await;
        let release: UpdateRelease = serde_json::from_slice(&body).expect("a release");
        assert_eq!(
            release.signature, "sig-appimage",
            "no bundle type: the plain entry"
        );

        for (uri, expected) in [
            ("/v1/app/updates/linux-x86_64/0.2.0", StatusCode::NO_CONTENT),
            (
                "/v1/app/updates/linux-x86_64/0.3.0-beta.1",
                StatusCode::NO_CONTENT,
            ),
            (
                "/v1/app/updates/windows-x86_64/0.1.0",
                StatusCode::NO_CONTENT,
            ),
            (
                "/v1/app/updates/linux-x86_64/latest",
                StatusCode::BAD_REQUEST,
            ),
            ("/v1/app/updates/files/latest.json", StatusCode::NOT_FOUND),
            (
                "/v1/app/updates/files/..%2Fsatchel.db",
                StatusCode::NOT_FOUND,
            ),
            ("/v1/app/updates/files/missing.deb", StatusCode::NOT_FOUND),
        ] {
            assert_eq!(get(&state, uri).await.0, expected, "{uri}");
        }
    }

    #[tokio::test]
    async fn packages_stream_and_only_so_many_at_once() {
        let data = tempfile::tempdir().expect("temp dir");
        let state = AppState::new(crate::Settings {
            data_dir: data.path().to_owned(),
            ..crate::Settings::default()
        })
        .await
        .expect("a service on SQLite");
        let dir = data.path().join("updates");
        std::fs::create_dir_all(&dir).expect("folder");
        let package: Vec<u8> = (0..3 * 64 * 1024 + 17).map(|i| (i % 251) as u8).collect();
        std::fs::write(dir.join("big.deb"), &package).expect("package");
        let (status, body) = get(&state, "/v1/app/updates/files/big.deb").await;
        assert_eq!(status, StatusCode::OK);
        assert!(body == package, "every byte, in order");
        // Every turn taken (slow clients): the next one is told to come back.
        let taken = state
            .downloads
            .clone()
            .acquire_many_owned(crate::state::MAX_DOWNLOADS as u32)
            .await
            .expect("turns");
        let (status, _) = get(&state, "/v1/app/updates/files/big.deb").await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        drop(taken);
        let (status, _) = get(&state, "/v1/app/updates/files/big.deb").await;
        assert_eq!(status, StatusCode::OK);
    }
}
