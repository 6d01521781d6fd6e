//! Cross-origin reads for applications that are web pages (the spec's
//! `<platform>_rest_api` includes the Web): a browser may let a page read the
//! service's answers only when the page's origin is a domain some app
//! registered (`https://<domain>`, or `http://` on loopback), and only that
//! origin is named back; every other origin gets no CORS headers, so the
//! browser refuses the page. The origin also binds the request: a request
//! that carries one must name its host as `X-API-DOMAIN` (`caller.rs`), so a
//! page cannot borrow another domain's registration.

use std::time::Duration;

use axum::http::request::Parts;
use axum::http::{HeaderValue, Method};
use tower_http::cors::{AllowHeaders, AllowOrigin, CorsLayer};

use crate::db::is_loopback_host;
use crate::state::AppState;

/// How long a browser may keep a preflight's answer.
const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(600);

/// The service's CORS layer over `state`'s registered domains.
pub fn layer(state: AppState) -> CorsLayer {
    CorsLayer::new()
        .allow_origin(AllowOrigin::async_predicate(
            move |origin: HeaderValue, _parts: &Parts| {
                let state = state.clone();
                async move {
                    match web_origin_host(&origin) {
                        Some(host) => state.web_domain_registered(&host).await.unwrap_or(false),
                        None => false,
                    }
                }
            },
        ))
        .allow_methods([Method::GET, Method::POST, Method::PUT, Method::DELETE])
        // The app headers (X-API-KEY, X-API-DOMAIN, X-SDK-TYPE, X-SDK-VERSION),
        // Authorization and Content-Type: whatever the page asks for, since the
        // origin is the gate.
        .allow_headers(AllowHeaders::mirror_request())
        .max_age(PREFLIGHT_MAX_AGE)
}

/// The host of a web page's origin a domain registration can stand for:
/// `https://<host>[:port]`, or `http://` on `localhost` or `127.0.0.1`; `None`
/// for anything else (`null`, other schemes, a path, credentials).
pub fn web_origin_host(origin: &HeaderValue) -> Option<String> {
    let (scheme, host) = http_origin(origin)?;
    (scheme == "https" || is_loopback_host(&host)).then_some(host)
}

/// The scheme and host (lowercase) of an http(s) origin; `None` for any
/// other (`null`, an extension's, an app's own scheme) or one that is not
/// just an origin (a path, credentials).
pub fn http_origin(origin: &HeaderValue) -> Option<(String, String)> {
    let origin = origin.to_str().ok()?;
    let url = url::Url::parse(origin).ok()?;
    let bare = url.path() == "/"
        && url.query().is_none()
        && url.username().is_empty()
        && url.password().is_none()
        && !origin.ends_with('/');
    let http = matches!(url.scheme(), "http" | "https");
    let host = url.host_str()?.to_ascii_lowercase();
    (bare && http).then(|| (url.scheme().to_owned(), host))
}

/// Whether the page host `host` is the domain `domain` (an empty domain, an
/// app on loopback, is `localhost`; loopback under either name).
pub fn is_same_host(host: &str, domain: &str) -> bool {
    let domain = if domain.is_empty() {
        "localhost"
    } else {
        domain
    }
    .to_ascii_lowercase();
    host == domain || (is_loopback_host(host) && is_loopback_host(&domain))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(origin: &str) -> Option<String> {
        web_origin_host(&HeaderValue::from_str(origin).expect("a header"))
    }

    #[test]
    fn only_https_pages_and_loopback_ones_stand_for_a_domain() {
        assert_eq!(
            host("https://wallet.example").as_deref(),
            Some("wallet.example")
        );
        assert_eq!(
            host("https://Wallet.Example:8443").as_deref(),
            Some("wallet.example")
        );
        assert_eq!(host("http://localhost:5173").as_deref(), Some("localhost"));
        assert_eq!(host("http://127.0.0.1:5173").as_deref(), Some("127.0.0.1"));
        assert_eq!(
            host("http://wallet.example"),
            None,
            "plain http off loopback"
        );
        assert_eq!(host("null"), None);
        assert_eq!(host("chrome-extension://abc"), None);
        assert_eq!(host("https://wallet.example/path"), None);
        assert_eq!(host("https://user@wallet.example"), None);
    }

    #[test]
    fn a_page_is_its_domain_in_any_case_and_loopback_under_either_name() {
        assert!(is_same_host("wallet.example", "Wallet.Example"));
        assert!(is_same_host("127.0.0.1", "localhost"));
        assert!(is_same_host("localhost", ""));
        assert!(!is_same_host("www.wallet.example", "wallet.example"));
        assert!(!is_same_host("evil.example", ""));
    }
}
