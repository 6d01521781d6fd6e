//! NFT metadata: a `tokenURI`/`uri` (http(s), `ipfs://` or `data:`) read into the
//! few fields a wallet shows.

use std::time::Duration;

use base64::Engine as _;
use serde::Deserialize;
use url::Url;

use crate::safe_http::{self, HostPolicy};

/// What kind of media an NFT shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    Image,
    Video,
}

/// The parts of an NFT's metadata JSON a wallet shows. Missing text is empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NftMetadata {
    pub name: String,
    pub description: String,
    /// The image, with `ipfs://` resolved through the gateway.
    pub image_url: String,
    pub external_link: String,
    /// The animation or video, resolved like the image, when there is one.
    pub content_url: Option<String>,
    pub media: MediaKind,
}

#[derive(Debug, thiserror::Error)]
pub enum MetadataError {
    #[error("unsupported metadata URI scheme")]
    UnsupportedUri,
    #[error("metadata fetch failed: {0}")]
    Fetch(String),
    #[error("metadata is not valid JSON: {0}")]
    Json(String),
    #[error("metadata is larger than {0} bytes")]
    TooLarge(usize),
    #[error("metadata host refused: {0}")]
    Refused(String),
}

/// Reads metadata documents, with a time and size limit on each.
#[derive(Clone, Debug)]
pub struct MetadataFetcher {
    http: reqwest::Client,
    ipfs_gateway: Url,
    max_bytes: usize,
    hosts: HostPolicy,
}

/// The metadata JSON as ERC-721/1155 and common marketplaces write it.
#[derive(Deserialize, Default)]
struct RawMetadata {
    #[serde(default)]
    name: Option<serde_json::Value>,
    #[serde(default)]
    description: Option<serde_json::Value>,
    #[serde(default)]
    image: Option<String>,
    #[serde(default)]
    image_url: Option<String>,
    #[serde(default)]
    external_url: Option<String>,
    #[serde(default)]
    external_link: Option<String>,
    #[serde(default)]
    animation_url: Option<String>,
}

impl MetadataFetcher {
    /// `ipfs_gateway` is the prefix that an `ipfs://CID/path` is appended to,
    /// e.g. `https://ipfs.io/ipfs/`.
    /// Only hosts `hosts` allows are reached (`crate::safe_http`): a URI on
    /// chain cannot make the service request its own network.
    pub fn new(
        ipfs_gateway: Url,
        timeout: Duration,
        max_bytes: usize,
        hosts: HostPolicy,
    ) -> Result<Self, MetadataError> {
        let http = safe_http::client(hosts.clone(), timeout)
            .map_err(|e| MetadataError::Fetch(e.to_string()))?;
        Ok(Self {
            http,
            ipfs_gateway,
            max_bytes,
            hosts,
        })
    }

    /// Reads and parses the metadata document at `uri`.
    pub async fn fetch(&self, uri: &str) -> Result<NftMetadata, MetadataError> {
        let body = self.read(uri).await?;
        let raw: RawMetadata =
            serde_json::from_slice(&body).map_err(|e| MetadataError::Json(e.to_string()))?;
        Ok(self.describe(raw))
    }

    /// Turns `ipfs://` into a gateway URL; other URIs stay as they are.
    pub fn resolve(&self, uri: &str) -> String {
        let uri = uri.trim();
        match uri.strip_prefix("ipfs://") {
            Some(rest) => {
                let rest = rest.trim_start_matches("ipfs/");
                format!(
                    "{}{}",
                    self.ipfs_gateway.as_str().trim_end_matches('/'),
                    format_args!("/{rest}")
                )
            }
            None => uri.to_owned(),
        }
    }

    /// Reads the bytes at `uri` (http(s), `ipfs://` or `data:`), within the size
    /// and time limits.
    pub async fn read(&self, uri: &str) -> Result<Vec<u8>, MetadataError> {
        if let Some(data) = uri.trim().strip_prefix("data:") {
            let (_, bytes) = decode_data_uri(data)?;
            return self.limit(bytes);
        }
        let url = Url::parse(&self.resolve(uri)).map_err(|_| MetadataError::UnsupportedUri)?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(MetadataError::UnsupportedUri);
        }
        self.hosts.check(&url).map_err(MetadataError::Refused)?;
        let mut response = self
            .http
            .get(url)
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .map_err(|e| MetadataError::Fetch(e.without_url().to_string()))?;
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| MetadataError::Fetch(e.without_url().to_string()))?
        {
            body.extend_from_slice(&chunk);
            if body.len() > self.max_bytes {
                return Err(MetadataError::TooLarge(self.max_bytes));
            }
        }
        Ok(body)
    }

    fn limit(&self, bytes: Vec<u8>) -> Result<Vec<u8>, MetadataError> {
        if bytes.len() > self.max_bytes {
            return Err(MetadataError::TooLarge(self.max_bytes));
        }
        Ok(bytes)
    }

    fn describe(&self, raw: RawMetadata) -> NftMetadata {
        let image = raw.image.or(raw.image_url).unwrap_or_default();
        let animation = raw.animation_url.filter(|a| !a.trim().is_empty());
        let media =
            if animation.as_deref().is_some_and(looks_like_video) || looks_like_video(&image) {
                MediaKind::Video
            } else {
                MediaKind::Image
            };
        NftMetadata {
            name: clip(text(raw.name), MAX_NAME_CHARS),
            description: clip(text(raw.description), MAX_DESCRIPTION_CHARS),
            image_url: bounded_link(self.resolve(&image)),
            external_link: bounded_link(raw.external_url.or(raw.external_link).unwrap_or_default()),
            content_url: animation
                .map(|a| bounded_link(self.resolve(&a)))
                .filter(|a| !a.is_empty()),
            media,
        }
    }
}

/// The longest name kept, in characters; longer ones are cut.
pub const MAX_NAME_CHARS: usize = 200;
/// The longest description kept, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 2_000;
/// The longest link kept; a longer one is dropped (a cut URL is a wrong URL).
pub const MAX_LINK_BYTES: usize = 2_048;
/// The longest `data:` picture kept inline.
pub const MAX_DATA_URI_BYTES: usize = 16 * 1024;

fn clip(text: String, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => text[..at].to_owned(),
        None => text,
    }
}

fn bounded_link(link: String) -> String {
    let limit = if link.starts_with("data:") {
        MAX_DATA_URI_BYTES
    } else {
        MAX_LINK_BYTES
    };
    if link.len() > limit {
        String::new()
    } else {
        link
    }
}

/// Metadata sometimes carries numbers where text is expected; show them as text.
fn text(value: Option<serde_json::Value>) -> String {
    match value {
        Some(serde_json::Value::String(s)) => s,
        Some(serde_json::Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

fn looks_like_video(uri: &str) -> bool {
    let lower = uri.trim().to_ascii_lowercase();
    if let Some(data) = lower.strip_prefix("data:") {
        return data.starts_with("video/");
    }
    let path = lower.split(['?', '#']).next().unwrap_or_default();
    [".mp4", ".webm", ".mov", ".m4v", ".ogv"]
        .iter()
        .any(|ext| path.ends_with(ext))
}

/// Decodes the part of a `data:` URI after the colon into (media type, bytes).
pub fn decode_data_uri(data: &str) -> Result<(String, Vec<u8>), MetadataError> {
    let (header, payload) = data.split_once(',').ok_or(MetadataError::UnsupportedUri)?;
    let (media_type, is_base64) = match header.strip_suffix(";base64") {
        Some(media) => (media, true),
        None => (header, false),
    };
    let bytes = if is_base64 {
        base64::engine::general_purpose::STANDARD
            .decode(payload.trim())
            .map_err(|e| MetadataError::Json(format!("bad base64 in data URI: {e}")))?
    } else {
        percent_encoding::percent_decode_str(payload).collect()
    };
    let media_type = media_type.split(';').next().unwrap_or_default();
    Ok((media_type.to_owned(), bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetcher() -> MetadataFetcher {
        MetadataFetcher::new(
            Url::parse("https://gateway.example/ipfs/").expect("static url"),
            Duration::from_secs(1),
            64 * 1024,
            HostPolicy::default(),
        )
        .expect("client")
    }

    #[tokio::test]
    async fn oversized_metadata_text_is_cut_and_oversized_links_dropped() {
        let long_name = "N".repeat(10_000);
        let long_description = "D".repeat(1_000_000);
        let long_link = format!("https://x.example/{}", "a".repeat(5_000));
        let json = serde_json::json!({
            "name": long_name,
            "description": long_description,
            "image": long_link,
            "external_url": "https://ok.example/1",
        })
        .to_string();
        let uri = format!(
            "data:application/json;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(json)
        );
        let fetcher = MetadataFetcher::new(
            Url::parse("https://gateway.example/ipfs/").expect("static url"),
            Duration::from_secs(1),
            4 * 1024 * 1024,
            HostPolicy::default(),
        )
        .expect("client");
        let meta = fetcher.fetch(&uri).await.expect("read");
        assert_eq!(meta.name.chars().count(), MAX_NAME_CHARS);
        assert_eq!(meta.description.chars().count(), MAX_DESCRIPTION_CHARS);
        assert_eq!(meta.image_url, "", "a cut URL would be a wrong one");
        assert_eq!(meta.external_link, "https://ok.example/1");
    }

    #[tokio::test]
    async fn base64_data_uri_metadata_is_read_offline() {
        let json = r#"{"name":"Dot #1","description":"A dot","image":"ipfs://bafy/dot.png","external_url":"https://dots.example/1"}"#;
        let uri = format!(
            "data:application/json;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(json)
        );
        let meta = fetcher().fetch(&uri).await.expect("metadata");
        assert_eq!(meta.name, "Dot #1");
        assert_eq!(meta.description, "A dot");
        assert_eq!(meta.image_url, "https://gateway.example/ipfs/bafy/dot.png");
        assert_eq!(meta.external_link, "https://dots.example/1");
        assert_eq!(meta.media, MediaKind::Image);
        assert_eq!(meta.content_url, None);
    }

    #[tokio::test]
    async fn percent_encoded_data_uri_and_video_animation() {
        let uri = "data:application/json,%7B%22name%22%3A%22Clip%22%2C%22animation_url%22%3A%22ipfs%3A%2F%2Fcid%2Fclip.mp4%22%7D";
        let meta = fetcher().fetch(uri).await.expect("metadata");
        assert_eq!(meta.name, "Clip");
        assert_eq!(meta.media, MediaKind::Video);
        assert_eq!(
            meta.content_url.as_deref(),
            Some("https://gateway.example/ipfs/cid/clip.mp4")
        );
        assert_eq!(meta.description, "");
    }

    #[tokio::test]
    async fn unsupported_schemes_and_oversized_documents_are_refused() {
        assert!(matches!(
            fetcher().fetch("ftp://x/y.json").await,
            Err(MetadataError::UnsupportedUri)
        ));
        let big = format!("data:application/json,{}", "a".repeat(70 * 1024));
        assert!(matches!(
            fetcher().fetch(&big).await,
            Err(MetadataError::TooLarge(_))
        ));
    }

    #[test]
    fn ipfs_paths_with_an_ipfs_prefix_resolve_once() {
        assert_eq!(
            fetcher().resolve("ipfs://ipfs/cid/a.json"),
            "https://gateway.example/ipfs/cid/a.json"
        );
        assert_eq!(fetcher().resolve("https://x/a.json"), "https://x/a.json");
    }
}
