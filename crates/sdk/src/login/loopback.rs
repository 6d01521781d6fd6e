//! The loopback redirect of an OAuth login (RFC 8252 §7.3): a minimal HTTP/1.1
//! server on `127.0.0.1:<random port>` that waits for the browser to come back to
//! `GET /callback?...` and answers it with a small self-contained page.
//!
//! Everything is bounded: a request head is read up to 8 KiB, each connection has
//! its own deadline, at most [`MAX_CONNECTIONS`] are served at once (more are
//! closed unanswered), and only `GET /callback` ends the wait; anything else (a
//! favicon, a preconnect that never sends) is answered 404 or dropped, and the
//! wait goes on. Nothing here logs the query: it carries the authorization code.

use std::time::Duration;

use satchel_api::LoginLibraryError;
use subtle::ConstantTimeEq as _;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

use crate::error::SdkError;

/// The most of a request head that is read.
const MAX_HEAD: usize = 8 * 1024;
/// How long one connection may take to send its request head, and then to take
/// the answer.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections served at once.
const MAX_CONNECTIONS: usize = 16;
/// The longest authorization code taken (the service takes no longer).
const MAX_CODE: usize = 2048;

/// The `error` values providers send when the person refuses or closes the
/// login (RFC 6749 `access_denied`; Apple's and others' own spellings).
const CANCEL_ERRORS: &[&str] = &[
    "access_denied",
    "user_denied",
    "user_canceled",
    "user_cancelled",
    "user_cancelled_authorize",
    "user_cancelled_login",
    "consent_required",
];

/// Serves `listener` until the browser comes back to `/callback`: the
/// authorization code when `state` matches and the provider sent one. The
/// caller bounds the wait (timeout, cancel).
pub(super) async fn wait_for_callback(
    listener: TcpListener,
    state: String,
) -> Result<String, SdkError> {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else {
                    // A failed accept (out of descriptors, a reset) is the
                    // connection's trouble, not the login's; the deadline bounds it.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                if connections.len() >= MAX_CONNECTIONS {
                    drop(stream);
                    continue;
                }
                connections.spawn(serve(stream, state.clone()));
            }
            Some(served) = connections.join_next(), if !connections.is_empty() => {
                if let Ok(Some(outcome)) = served {
                    return outcome;
                }
            }
        }
    }
}

/// One connection: `Some` with the login's outcome when it was the callback.
async fn serve(mut stream: TcpStream, state: String) -> Option<Result<String, SdkError>> {
    let head = match tokio::time::timeout(CONNECTION_TIMEOUT, read_head(&mut stream)).await {
        Ok(Ok(head)) => head,
        Ok(Err(Head::TooLarge)) => {
            answer(&mut stream, "431 Request Header Fields Too Large", None).await;
            return None;
        }
        Ok(Err(Head::Unreadable)) | Err(_) => return None,
    };
    let Some(query) = callback_query(&head) else {
        answer(&mut stream, "404 Not Found", None).await;
        return None;
    };
    // A callback with another state did not come from this login's browser tab
    // (any program on this computer can reach the port): it ends nothing, and
    // the login goes on waiting for its own.
    if !state_matches(query, &state) {
        let refused = page(
            "Not this login",
            "This page did not start the login the app is waiting for; nothing was signed in.",
        );
        answer(&mut stream, "400 Bad Request", Some(&refused)).await;
        return None;
    }
    let outcome = judge(query, &state);
    let page = match &outcome {
        Ok(_) => page(
            "Signed in",
            "You can close this tab and go back to the app.",
        ),
        Err(e) if e.code == crate::ErrorCode::Login(LoginLibraryError::UserCanceled) => page(
            "Login canceled",
            "The login was canceled. You can close this tab and go back to the app.",
        ),
        Err(_) => page(
            "Login failed",
            "Something went wrong with this login; nothing was signed in. You can close \
             this tab, go back to the app and try again.",
        ),
    };
    answer(&mut stream, "200 OK", Some(&page)).await;
    Some(outcome)
}

enum Head {
    TooLarge,
    Unreadable,
}

/// The request head, up to the blank line that ends it.
async fn read_head(stream: &mut TcpStream) -> Result<String, Head> {
    let mut head = Vec::with_capacity(1024);
    let mut buffer = [0u8; 1024];
    loop {
        let read = stream
            .read(&mut buffer)
            .await
            .map_err(|_| Head::Unreadable)?;
        if read == 0 {
            return Err(Head::Unreadable);
        }
        head.extend_from_slice(&buffer[..read]);
        if let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            head.truncate(end);
            return String::from_utf8(head).map_err(|_| Head::Unreadable);
        }
        if head.len() > MAX_HEAD {
            return Err(Head::TooLarge);
        }
    }
}

/// The query of a `GET /callback` request line (empty without one); `None` for
/// any other request.
fn callback_query(head: &str) -> Option<&str> {
    let line = head.lines().next()?;
    let mut parts = line.split(' ');
    let (method, target, version) = (parts.next()?, parts.next()?, parts.next()?);
    if method != "GET" || !version.starts_with("HTTP/1.") || parts.next().is_some() {
        return None;
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    (path == "/callback").then_some(query)
}

/// Whether a callback's query carries this login's `state` (compared in
/// constant time).
fn state_matches(query: &str, state: &str) -> bool {
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(name, _)| name == "state")
        .is_some_and(|(_, got)| bool::from(got.as_bytes().ct_eq(state.as_bytes())))
}

/// What a callback's query means for the login: the code, or why there is none.
/// The state is checked before anything else, so a page that did not start this
/// login cannot end it with a code of its choosing.
fn judge(query: &str, state: &str) -> Result<String, SdkError> {
    let mut got_state = None;
    let mut code = None;
    let mut error = None;
    for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
        let slot = match &*name {
            "state" => &mut got_state,
            "code" => &mut code,
            "error" => &mut error,
            _ => continue,
        };
        if slot.is_none() {
            *slot = Some(value.into_owned());
        }
    }
    let same_state = got_state
        .as_deref()
        .is_some_and(|got| bool::from(got.as_bytes().ct_eq(state.as_bytes())));
    if !same_state {
        return Err(SdkError::login(
            LoginLibraryError::InternalError,
            "the browser came back with a different state; nothing was exchanged",
        ));
    }
    if let Some(error) = error {
        let error = sanitize(&error);
        if CANCEL_ERRORS.contains(&error.to_ascii_lowercase().as_str()) {
            return Err(SdkError::login(
                LoginLibraryError::UserCanceled,
                "the login was canceled in the browser",
            ));
        }
        return Err(SdkError::login(
            LoginLibraryError::InternalError,
            format!("the provider refused the login: {error}"),
        ));
    }
    match code {
        Some(code) if !code.is_empty() && code.len() <= MAX_CODE => Ok(code),
        Some(code) if !code.is_empty() => Err(SdkError::login(
            LoginLibraryError::InternalError,
            "the provider's authorization code is too long",
        )),
        _ => Err(SdkError::login(
            LoginLibraryError::InternalError,
            "the browser came back without an authorization code",
        )),
    }
}

/// A provider's error code as it may appear in a message: the characters of an
/// OAuth error code only, at most 200 of them.
fn sanitize(error: &str) -> String {
    let clean: String = error
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ' '))
        .take(200)
        .collect();
    if clean.is_empty() {
        "(unreadable error)".to_owned()
    } else {
        clean
    }
}

/// A page with no external resources (and a policy that allows none).
fn page(title: &str, text: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>Satchel: {title}</title>\
         <style>body{{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;\
         padding:0 1rem;line-height:1.5;color:#222}}h1{{font-size:1.4rem}}</style></head>\
         <body><h1>{title}</h1><p>{text}</p></body></html>"
    )
}

/// Writes one answer and closes the connection; a browser that went away is no
/// error of the login's.
async fn answer(stream: &mut TcpStream, status: &str, html: Option<&str>) {
    let body = html.unwrap_or("");
    let content_type = if html.is_some() {
        "text/html; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    };
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nContent-Security-Policy: default-src 'none'; \
         style-src 'unsafe-inline'\r\nReferrer-Policy: no-referrer\r\n\
         X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let write = async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(CONNECTION_TIMEOUT, write).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(e: SdkError) -> crate::ErrorCode {
        e.code
    }

    #[test]
    fn only_get_callback_counts() {
        assert_eq!(
            callback_query("GET /callback?code=a&state=b HTTP/1.1\r\nHost: x"),
            Some("code=a&state=b")
        );
        assert_eq!(callback_query("GET /callback HTTP/1.1"), Some(""));
        assert_eq!(callback_query("GET /favicon.ico HTTP/1.1"), None);
        assert_eq!(callback_query("POST /callback?code=a HTTP/1.1"), None);
        assert_eq!(callback_query("GET /callbackx?code=a HTTP/1.1"), None);
        assert_eq!(callback_query("garbage"), None);
    }

    #[test]
    fn the_state_is_checked_first() {
        let internal = crate::ErrorCode::Login(LoginLibraryError::InternalError);
        let canceled = crate::ErrorCode::Login(LoginLibraryError::UserCanceled);
        assert_eq!(judge("code=c&state=s", "s").expect("code"), "c");
        assert_eq!(
            code_of(judge("code=c&state=t", "s").expect_err("state")),
            internal
        );
        assert_eq!(
            code_of(judge("code=c", "s").expect_err("no state")),
            internal
        );
        assert_eq!(
            code_of(judge("error=access_denied", "s").expect_err("no state")),
            internal
        );
        assert_eq!(
            code_of(judge("error=access_denied&state=s", "s").expect_err("cancel")),
            canceled
        );
        assert_eq!(
            code_of(judge("error=user_cancelled_authorize&state=s", "s").expect_err("apple")),
            canceled
        );
        assert_eq!(
            code_of(judge("state=s", "s").expect_err("no code")),
            internal
        );
        assert_eq!(
            code_of(judge("state=s&code=", "s").expect_err("empty")),
            internal
        );
    }

    async fn exchange(port: u16, request: &[u8]) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        stream.write_all(request).await.expect("write");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.expect("read");
        answer
    }

    #[tokio::test]
    async fn a_silent_or_oversized_request_does_not_hold_up_the_callback() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let waiting = tokio::spawn(wait_for_callback(listener, "s".to_owned()));
        // A preconnect that never sends anything stays open meanwhile.
        let _silent = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        // Exactly one byte too many, so that all of it is read before the answer.
        let mut huge = b"GET /callback?".to_vec();
        huge.resize(MAX_HEAD + 1, b'a');
        let answer = exchange(port, &huge).await;
        assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
        let answer = exchange(port, b"GET /robots.txt HTTP/1.1\r\nHost: x\r\n\r\n").await;
        assert!(answer.starts_with("HTTP/1.1 404 "), "{answer}");
        // Another program's callback, with a state of its own or none: refused,
        // and the login goes on waiting.
        for forged in [
            &b"GET /callback?state=x&code=evil HTTP/1.1\r\nHost: x\r\n\r\n"[..],
            &b"GET /callback?error=access_denied HTTP/1.1\r\nHost: x\r\n\r\n"[..],
        ] {
            let answer = exchange(port, forged).await;
            assert!(answer.starts_with("HTTP/1.1 400 "), "{answer}");
        }
        assert!(!waiting.is_finished(), "a forged callback ends nothing");
        let answer = exchange(
            port,
            b"GET /callback?state=s&code=c0de HTTP/1.1\r\nHost: x\r\n\r\n",
        )
        .await;
        assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
        assert!(answer.contains("Connection: close\r\n"));
        assert!(answer.contains("Content-Security-Policy: default-src 'none'"));
        assert_eq!(waiting.await.expect("joined").expect("code"), "c0de");
    }

    #[test]
    fn a_provider_error_is_sanitised_and_bounded() {
        let e = judge("state=s&error=server_error%3Cscript%3E", "s").expect_err("error");
        assert_eq!(
            e.message,
            "the provider refused the login: server_errorscript"
        );
        let long = "x".repeat(1000);
        let e = judge(&format!("state=s&error={long}"), "s").expect_err("error");
        assert!(e.message.len() <= 240, "{}", e.message.len());
    }
}
