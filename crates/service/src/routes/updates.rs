//! The desktop app's updates, as its Tauri updater asks for them: the newest
//! release in the configured folder (`updates_dir`) for the app's platform when
//! it is newer than the app's version, else 204. The folder holds Tauri's
//! `latest.json` (as `tauri-action` publishes it: version, notes, date, and a
//! download URL and signature per platform) and, when its URLs are bare file
//! names, the packages themselves, served from `/v1/app/updates/files/{name}`.
//! Like the links in e-mails, these take no app key: updates are public files.
//! The service only passes the signatures on; the app checks them against the
//! key baked into it.

use std::collections::HashMap;
use std::path::PathBuf;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use url::Url;

use super::{Path, Query};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// The manifest's name in the updates folder.
pub const MANIFEST: &str = "latest.json";

/// Tauri's static update manifest (`latest.json`).
#[derive(Debug, Deserialize)]
struct Manifest {
    version: String,
    #[serde(default)]
    notes: Option<String>,
    #[serde(default)]
    pub_date: Option<String>,
    platforms: HashMap<String, Platform>,
}

#[derive(Debug, Deserialize)]
struct Platform {
    url: String,
    signature: String,
}

/// One release for one platform: the updater's "dynamic" answer.
#[derive(Debug, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct UpdateRelease {
    /// The release's version (semver).
    pub version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// RFC 3339.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pub_date: Option<String>,
    /// Where the package is.
    pub url: String,
    /// The package's minisign signature (`tauri signer sign`), base64.
    pub signature: String,
}

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
    let current = Version::parse(&version)
        .ok_or_else(|| ApiError::bad_request(format!("version {version:?} is not semver")))?;
    let dir = state.settings.updates_dir();
    let text = match tokio::fs::read_to_string(dir.join(MANIFEST)).await {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(StatusCode::NO_CONTENT.into_response());
        }
        Err(e) => return Err(ApiError::internal(format!("{MANIFEST}: {e}"))),
    };
    let manifest: Manifest =
        serde_json::from_str(&text).map_err(|e| ApiError::internal(format!("{MANIFEST}: {e}")))?;
    let newest = Version::parse(&manifest.version)
        .ok_or_else(|| ApiError::internal(format!("{MANIFEST}: version is not semver")))?;
    let bundled = query
        .bundle_type
        .filter(|b| !b.is_empty())
        .map(|b| format!("{target}-{b}"));
    let platform = bundled
        .and_then(|key| manifest.platforms.get(&key))
        .or_else(|| manifest.platforms.get(&target));
    let Some(platform) = platform.filter(|_| newest > current) else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    let release = UpdateRelease {
        version: manifest.version.clone(),
        notes: manifest.notes.clone(),
        pub_date: manifest.pub_date.clone(),
        url: download_url(&state.settings.public_url, &platform.url)?,
        signature: platform.signature.clone(),
    };
    Ok(axum::Json(release).into_response())
}

/// A package in the updates folder.
#[utoipa::path(get, path = "/v1/app/updates/files/{name}",
    params(("name" = String, Path, description = "a file name in the updates folder")),
    responses(
        (status = 200, description = "the package", content_type = "application/octet-stream"),
        (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: the name is not UTF-8 once decoded"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such file"),
    ))]
pub async fn file(State(state): State<AppState>, Path(name): Path<String>) -> ApiResult<Response> {
    let path =
        file_in(state.settings.updates_dir(), &name).ok_or_else(|| ApiError::not_found("file"))?;
    match tokio::fs::read(&path).await {
        Ok(bytes) => {
            Ok(([(header::CONTENT_TYPE, "application/octet-stream")], bytes).into_response())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(ApiError::not_found("file")),
        Err(e) => Err(ApiError::internal(format!("{name}: {e}"))),
    }
}

/// `name` in `dir`, when it is a plain file name: no folders, nothing hidden.
fn file_in(dir: PathBuf, name: &str) -> Option<PathBuf> {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\', '\0'])
        && name != MANIFEST;
    plain.then(|| dir.join(name))
}

/// The manifest's URL as it is, or a bare file name as the service's own URL.
fn download_url(public_url: &Url, url: &str) -> ApiResult<String> {
    if Url::parse(url).is_ok() {
        return Ok(url.to_owned());
    }
    file_in(PathBuf::new(), url)
        .and_then(|_| {
            let encoded =
                percent_encoding::utf8_percent_encode(url, percent_encoding::NON_ALPHANUMERIC);
            public_url
                .join(&format!("v1/app/updates/files/{encoded}"))
                .ok()
        })
        .map(String::from)
        .ok_or_else(|| {
            ApiError::internal(format!(
                "{MANIFEST}: {url:?} is neither a URL nor a file name"
            ))
        })
}

/// The versions [`Version::parse`] takes, as the OpenAPI document states them
/// (the `pattern` of `latest`'s `version`; a test checks they are the same).
#[cfg(test)]
const SEMVER: &str = r"^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$";

/// A semver version, compared as semver orders them (build metadata ignored,
/// a pre-release before its release).
#[derive(Debug, PartialEq, Eq)]
struct Version {
    /// Major, minor and patch, as digits: semver sets no limit on their size.
    core: [String; 3],
    pre: Vec<String>,
}

/// Orders two strings of ASCII digits as the numbers they write, whatever their
/// size.
fn cmp_numbers(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.trim_start_matches('0'), b.trim_start_matches('0'));
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn is_number(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())
}

impl Version {
    /// `text` when it is semver (a leading `v` allowed), exactly what
    /// [`SEMVER`] matches.
    fn parse(text: &str) -> Option<Self> {
        let text = text.strip_prefix('v').unwrap_or(text);
        let (text, build) = match text.split_once('+') {
            Some((text, build)) => (text, Some(build)),
            None => (text, None),
        };
        let (core, pre) = match text.split_once('-') {
            Some((core, pre)) => (core, Some(pre)),
            None => (text, None),
        };
        let identifiers = |part: &str| {
            part.split('.').all(|id| {
                !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
        };
        if !build.is_none_or(identifiers) || !pre.is_none_or(identifiers) {
            return None;
        }
        let mut numbers = core.split('.').map(|n| {
            let leading_zero = n.len() > 1 && n.starts_with('0');
            (is_number(n) && !leading_zero).then(|| n.to_owned())
        });
        let core = [numbers.next()??, numbers.next()??, numbers.next()??];
        if numbers.next().is_some() {
            return None;
        }
        let pre = pre
            .map(|pre| pre.split('.').map(str::to_owned).collect())
            .unwrap_or_default();
        Some(Self { core, pre })
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let core = self
            .core
            .iter()
            .zip(&other.core)
            .map(|(a, b)| cmp_numbers(a, b))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal);
        core.then_with(|| match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => {
                for (a, b) in self.pre.iter().zip(&other.pre) {
                    let order = match (is_number(a), is_number(b)) {
                        (true, true) => cmp_numbers(a, b),
                        (true, false) => Ordering::Less,
                        (false, true) => Ordering::Greater,
                        (false, false) => a.cmp(b),
                    };
                    if order != Ordering::Equal {
                        return order;
                    }
                }
                self.pre.len().cmp(&other.pre.len())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt as _;

    fn v(text: &str) -> Version {
        Version::parse(text).unwrap_or_else(|| panic!("{text} parses"))
    }

    #[test]
    fn versions_are_ordered_as_semver_orders_them() {
        let ordered = [
            "0.1.0",
            "0.2.0-alpha",
            "0.2.0-alpha.1",
            "0.2.0-alpha.beta",
            "0.2.0-beta.2",
            "0.2.0-beta.11",
            "0.2.0-rc.1",
            "0.2.0",
            "0.10.0",
            "1.0.0",
        ];
        for pair in ordered.windows(2) {
            assert!(v(pair[0]) < v(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        assert_eq!(v("v1.2.3+build.7"), v("1.2.3"));
        assert_eq!(v("1.2.3-rc.1+001"), v("1.2.3-rc.1"));
        // Numbers of any size, as semver allows.
        assert!(v("1.99999999999999999999999.0") > v("1.18446744073709551615.0"));
        assert!(v("1.0.0-99999999999999999999999") > v("1.0.0-2"));
        for bad in [
            "1.2",
            "1.2.3.4",
            "a.b.c",
            "1.2.3-",
            "1.2.3-a..b",
            "",
            "01x.2.3",
        ] {
            assert!(Version::parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn the_documented_version_pattern_is_the_one_parsed() {
        let doc = serde_json::to_value(<super::super::ApiDoc as utoipa::OpenApi>::openapi())
            .expect("json");
        let version = doc["paths"]["/v1/app/updates/{target}/{version}"]["get"]["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .find(|p| p["name"] == "version")
            .expect("the version parameter")
            .clone();
        assert_eq!(version["schema"]["pattern"], SEMVER, "{version}");
    }

    #[test]
    fn a_bare_file_name_is_served_by_the_service_and_nothing_outside_the_folder() {
        let public: Url = "https://wallet.example.com/".parse().expect("url");
        assert_eq!(
            download_url(&public, "Satchel_0.2.0_amd64.deb").expect("a file"),
            "https://wallet.example.com/v1/app/updates/files/Satchel%5F0%2E2%2E0%5Famd64%2Edeb"
        );
        assert_eq!(
            download_url(&public, "https://cdn.example.com/x.deb").expect("a URL"),
            "https://cdn.example.com/x.deb"
        );
        assert!(download_url(&public, "../secret").is_err());
        for name in ["../x", "a/b", ".hidden", "", MANIFEST] {
            assert!(
                file_in(PathBuf::from("/srv/updates"), name).is_none(),
                "{name:?}"
            );
        }
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
}
