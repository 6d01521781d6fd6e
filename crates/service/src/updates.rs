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

use serde::{Deserialize, Serialize};
use url::Url;

use crate::error::{ApiError, ApiResult};

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

/// The newest release in `dir` for `target` (preferring its `bundle_type`
/// entry), when it is newer than `current`; `Ok(None)` when there is none.
/// A `current` that is not semver is the caller's fault (400).
pub fn newest_release(
    dir: &std::path::Path,
    public_url: &Url,
    target: &str,
    bundle_type: Option<&str>,
    current: &str,
) -> ApiResult<Option<UpdateRelease>> {
    let current = Version::parse(current)
        .ok_or_else(|| ApiError::bad_request(format!("version {current:?} is not semver")))?;
    let text = match std::fs::read_to_string(dir.join(MANIFEST)) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ApiError::internal(format!("{MANIFEST}: {e}"))),
    };
    let manifest: Manifest =
        serde_json::from_str(&text).map_err(|e| ApiError::internal(format!("{MANIFEST}: {e}")))?;
    let newest = Version::parse(&manifest.version)
        .ok_or_else(|| ApiError::internal(format!("{MANIFEST}: version is not semver")))?;
    let bundled = bundle_type
        .filter(|b| !b.is_empty())
        .map(|b| format!("{target}-{b}"));
    let platform = bundled
        .and_then(|key| manifest.platforms.get(&key))
        .or_else(|| manifest.platforms.get(target));
    let Some(platform) = platform.filter(|_| newest > current) else {
        return Ok(None);
    };
    Ok(Some(UpdateRelease {
        version: manifest.version.clone(),
        notes: manifest.notes.clone(),
        pub_date: manifest.pub_date.clone(),
        url: download_url(public_url, &platform.url)?,
        signature: platform.signature.clone(),
    }))
}

/// `name` in `dir`, when it is a plain file name: no folders, nothing hidden.
pub fn file_in(dir: PathBuf, name: &str) -> Option<PathBuf> {
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
pub(crate) const SEMVER: &str = r"^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$";

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
}
