//! What a request must be before anything reads it. A web page can make the
//! browser send a request to 127.0.0.1 (a "simple" request needs no CORS
//! preflight), and a DNS-rebinding page can make its own name resolve there:
//! - the `Host` must be this server's own (`127.0.0.1:<port>` or
//!   `localhost:<port>`), which a rebinding page cannot make its browser send;
//! - a body must be `application/json`, which a page cannot send without a
//!   preflight, so the browser asks first and the answer names only the origin;
//! - the `Origin`, when there is one, must be a web origin (a sandboxed frame's
//!   `null` does not pass for a local program);
//! - preflights are answered for the asking origin, with Chrome's Private
//!   Network Access (`Access-Control-Allow-Private-Network`), so https dapps can
//!   reach the local provider at all.

use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};

use crate::origin::Origin;

/// The largest body read: a transaction's data is at most 128 KiB as hex.
pub const MAX_BODY: usize = 256 * 1024;

/// Why the door turned a request away (an HTTP status and a plain message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
}

fn refuse(status: StatusCode, message: impl Into<String>) -> Refusal {
    Refusal {
        status,
        message: message.into(),
    }
}

/// Who opens a WebSocket: a page or a program (as [`admit`] knows them), or
/// Satchel's browser extension (by its own origin), which names the page it
/// speaks for once it is in (see [`crate::extension`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opener {
    Page(Origin),
    Extension(String),
}

/// Checks a WebSocket's handshake: an extension's origin is let in to say
/// hello, anything else is a page or program as [`admit`] decides.
pub fn admit_socket(headers: &HeaderMap, port: u16) -> Result<Opener, Refusal> {
    let extension = headers
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .and_then(crate::extension::extension_origin);
    match extension {
        Some(extension) => {
            own_host(headers, port)?;
            Ok(Opener::Extension(extension))
        }
        None => admit(&Method::GET, headers, port).map(Opener::Page),
    }
}

/// The `Host` must be this server's own.
fn own_host(headers: &HeaderMap, port: u16) -> Result<(), Refusal> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if host != format!("127.0.0.1:{port}") && host != format!("localhost:{port}") {
        return Err(refuse(
            StatusCode::FORBIDDEN,
            "Satchel answers only requests to 127.0.0.1 or localhost with its port",
        ));
    }
    Ok(())
}

/// Checks a request's headers; its origin when it may come in.
pub fn admit(method: &Method, headers: &HeaderMap, port: u16) -> Result<Origin, Refusal> {
    own_host(headers, port)?;
    let origin = headers
        .get(header::ORIGIN)
        .map(|o| {
            o.to_str()
                .map_err(|_| "an Origin that is not text".to_owned())
        })
        .transpose()
        .and_then(Origin::from_header)
        .map_err(|why| refuse(StatusCode::FORBIDDEN, why))?;
    if method == Method::POST {
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|c| c.to_str().ok())
            .and_then(|c| c.split(';').next())
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return Err(refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "a request to Satchel is application/json",
            ));
        }
    }
    Ok(origin)
}

/// The CORS headers of an answer to `origin` (none for a local program).
pub fn cors(origin: &Origin, request: &HeaderMap, preflight: bool) -> HeaderMap {
    let mut headers = HeaderMap::new();
    let Origin::Web(web) = origin else {
        return headers;
    };
    if let Ok(value) = HeaderValue::from_str(web) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
    }
    headers.insert(header::VARY, HeaderValue::from_static("Origin"));
    if preflight {
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("POST"),
        );
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static("content-type"),
        );
        headers.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("600"),
        );
        let private_network = request
            .get("access-control-request-private-network")
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"true"));
        if private_network {
            headers.insert(
                "access-control-allow-private-network",
                HeaderValue::from_static("true"),
            );
        }
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_str(value).expect("value"));
        }
        map
    }

    #[test]
    fn only_this_servers_own_host_comes_in() {
        let json = ("content-type", "application/json");
        for host in ["127.0.0.1:1248", "localhost:1248", "LOCALHOST:1248"] {
            assert!(
                admit(&Method::POST, &headers(&[("host", host), json]), 1248).is_ok(),
                "{host}"
            );
        }
        for host in [
            "evil.example:1248",
            "127.0.0.1:80",
            "127.0.0.1",
            "",
            "localhost.evil.example:1248",
        ] {
            let refused = admit(&Method::POST, &headers(&[("host", host), json]), 1248);
            assert_eq!(
                refused.expect_err(host).status,
                StatusCode::FORBIDDEN,
                "{host}"
            );
        }
    }

    #[test]
    fn a_body_must_be_json_and_an_origin_a_web_origin() {
        let host = ("host", "127.0.0.1:1248");
        for content_type in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ] {
            let refused = admit(
                &Method::POST,
                &headers(&[host, ("content-type", content_type)]),
                1248,
            );
            assert_eq!(
                refused.expect_err(content_type).status,
                StatusCode::UNSUPPORTED_MEDIA_TYPE
            );
        }
        let ok = admit(
            &Method::POST,
            &headers(&[
                host,
                ("content-type", "application/json; charset=utf-8"),
                ("origin", "https://dapp.example"),
            ]),
            1248,
        );
        assert_eq!(ok, Ok(Origin::Web("https://dapp.example".into())));
        let null = admit(
            &Method::POST,
            &headers(&[
                host,
                ("content-type", "application/json"),
                ("origin", "null"),
            ]),
            1248,
        );
        assert_eq!(null.expect_err("null").status, StatusCode::FORBIDDEN);
    }

    #[test]
    fn a_preflight_is_answered_for_the_asking_origin_with_private_network_access() {
        let origin = Origin::Web("https://dapp.example".into());
        let asked = headers(&[("access-control-request-private-network", "true")]);
        let answer = cors(&origin, &asked, true);
        assert_eq!(
            answer[header::ACCESS_CONTROL_ALLOW_ORIGIN],
            "https://dapp.example"
        );
        assert_eq!(answer["access-control-allow-private-network"], "true");
        assert_eq!(answer[header::ACCESS_CONTROL_ALLOW_HEADERS], "content-type");
        assert!(
            cors(&Origin::Local, &asked, true).is_empty(),
            "no CORS for a program"
        );
    }
}
