//! The transports on `127.0.0.1:<port>`: JSON-RPC 2.0 on `POST /`, and the
//! WebSocket on `GET /` (see [`crate::socket`]), each request through the door
//! first. Requests in flight are bounded: beyond [`MAX_IN_FLIGHT`] a request
//! gets 503 at once, as does a socket beyond [`socket::MAX_SOCKETS`], and the
//! app stays usable.

use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::Value;
use tokio::sync::Semaphore;

use crate::door::{self, MAX_BODY, Opener};
use crate::extension::{self, Extensions, Greeting};
use crate::methods::{Methods, Via};
use crate::permissions::Permissions;
use crate::rpc::{self, Call};
use crate::socket::{self, Heads};
use crate::wallet::Wallet;

/// Frame's port, so dapps that know Frame find Satchel.
pub const DEFAULT_PORT: u16 = 1248;

/// Requests answered at once; more wait for none of them.
pub const MAX_IN_FLIGHT: usize = 64;

/// The most of an oversized body read (and thrown away) so that its client
/// hears the 413; a client sending more is cut off (it would see the
/// connection close rather than the answer).
pub const MAX_DRAINED: usize = 16 * 1024 * 1024;

/// The body, at most [`MAX_BODY`]; a longer one is read on (to at most
/// [`MAX_DRAINED`], so its client can hear the answer) and refused with 413
/// and a JSON-RPC error.
async fn bounded_body(body: Body) -> Result<Bytes, Response> {
    use http_body_util::BodyExt as _;
    let too_large = || {
        let error = rpc::ProviderError::invalid_request(format!(
            "a request to Satchel is at most {MAX_BODY} bytes"
        ));
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            axum::Json(rpc::answer(Value::Null, Err(error))),
        )
            .into_response()
    };
    let mut body = body;
    let mut kept = Vec::new();
    let mut read = 0usize;
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            return Err(StatusCode::BAD_REQUEST.into_response());
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        read = read.saturating_add(data.len());
        if read > MAX_DRAINED {
            let mut cut = too_large();
            cut.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
            return Err(cut);
        }
        if read <= MAX_BODY {
            kept.extend_from_slice(&data);
        }
    }
    if read > MAX_BODY {
        return Err(too_large());
    }
    Ok(Bytes::from(kept))
}

struct Shared<W> {
    methods: Arc<Methods<W>>,
    port: u16,
    in_flight: Semaphore,
    sockets: Arc<Semaphore>,
    /// Sockets open per web page origin (at most `MAX_SOCKETS` entries).
    sockets_by_site: Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
    heads: Arc<Heads>,
    extensions: Arc<Extensions>,
}

/// How long an extension's socket may take to say hello.
const HELLO_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// One site's socket, counted while it is open.
struct SiteSocket {
    counts: Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
    site: String,
}

impl SiteSocket {
    /// A socket for `site`, unless it holds [`socket::MAX_SOCKETS_PER_SITE`].
    fn open(
        counts: &Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
        site: &str,
    ) -> Option<Self> {
        let mut open = counts.lock().unwrap_or_else(|e| e.into_inner());
        let held = open.entry(site.to_owned()).or_insert(0);
        if *held >= socket::MAX_SOCKETS_PER_SITE {
            return None;
        }
        *held += 1;
        Some(Self {
            counts: counts.clone(),
            site: site.to_owned(),
        })
    }
}

impl Drop for SiteSocket {
    fn drop(&mut self) {
        let mut open = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(held) = open.get_mut(&self.site) {
            *held = held.saturating_sub(1);
            if *held == 0 {
                open.remove(&self.site);
            }
        }
    }
}

/// The provider, serving until dropped.
pub struct Provider {
    pub port: u16,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Provider {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Provider {
    /// Serves on `listener` (bound to 127.0.0.1) in a background task.
    pub fn serve<W: Wallet>(
        listener: tokio::net::TcpListener,
        wallet: Arc<W>,
        permissions: Arc<Permissions>,
        extensions: Arc<Extensions>,
    ) -> std::io::Result<Self> {
        let port = listener.local_addr()?.port();
        let shared = Arc::new(Shared {
            methods: Arc::new(Methods::new(wallet, permissions)),
            port,
            in_flight: Semaphore::new(MAX_IN_FLIGHT),
            sockets: Arc::new(Semaphore::new(socket::MAX_SOCKETS)),
            sockets_by_site: Arc::default(),
            heads: Arc::default(),
            extensions,
        });
        let router = Router::new()
            .route(
                "/",
                get(open_socket::<W>)
                    .post(rpc_call::<W>)
                    .options(preflight::<W>),
            )
            // Bodies are read by `bounded_body`, which answers an oversized one.
            .layer(DefaultBodyLimit::disable())
            .with_state(shared);
        let task = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, router).await {
                tracing::warn!("the local provider stopped: {e}");
            }
        });
        Ok(Self { port, task })
    }
}

async fn preflight<W: Wallet>(
    State(shared): State<Arc<Shared<W>>>,
    headers: HeaderMap,
) -> Response {
    match door::admit(&Method::OPTIONS, &headers, shared.port) {
        Ok(origin) => (StatusCode::NO_CONTENT, door::cors(&origin, &headers, true)).into_response(),
        Err(refusal) => (refusal.status, refusal.message).into_response(),
    }
}

async fn open_socket<W: Wallet>(
    State(shared): State<Arc<Shared<W>>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let opener = match door::admit_socket(&headers, shared.port) {
        Ok(opener) => opener,
        Err(refusal) => return (refusal.status, refusal.message).into_response(),
    };
    // One page cannot take every socket: a site holds a few at most (the
    // programs on this computer share the rest, as one origin they are all).
    let site = match &opener {
        Opener::Page(crate::origin::Origin::Web(site)) => {
            match SiteSocket::open(&shared.sockets_by_site, site) {
                Some(held) => Some(held),
                None => {
                    return (
                        StatusCode::SERVICE_UNAVAILABLE,
                        "this site has too many connections to Satchel open",
                    )
                        .into_response();
                }
            }
        }
        Opener::Page(crate::origin::Origin::Local) | Opener::Extension(_) => None,
    };
    let Ok(slot) = shared.sockets.clone().try_acquire_owned() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "Satchel has too many connections open; try again",
        )
            .into_response();
    };
    upgrade
        .max_message_size(MAX_BODY)
        .max_frame_size(MAX_BODY)
        .on_upgrade(move |ws| async move {
            let (methods, heads) = (shared.methods.clone(), shared.heads.clone());
            match opener {
                Opener::Page(origin) => {
                    let ended = std::future::pending();
                    socket::serve(methods, heads, (origin, Via::Direct), ws, ended).await
                }
                Opener::Extension(extension) => {
                    extension_socket(&shared, &extension, ws).await;
                }
            }
            drop((slot, site));
        })
}

/// Serves a socket of Satchel's browser extension. Satchel says a nonce
/// first; the extension's first message links it (with a proof of the code
/// Settings shows) or names the page it speaks for (signing the nonce with its
/// linked key); only then is it that page's socket, until the page closes it
/// or the link ends. Anything else is answered 4100 and closed.
async fn extension_socket<W: Wallet>(
    shared: &Arc<Shared<W>>,
    extension: &str,
    mut ws: axum::extract::ws::WebSocket,
) {
    use axum::extract::ws::Message;
    let nonce = extension::new_nonce();
    let challenge = serde_json::json!({
        "jsonrpc": "2.0",
        "method": extension::CHALLENGE,
        "params": { "nonce": nonce },
    });
    if ws
        .send(Message::Text(challenge.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let first = tokio::time::timeout(HELLO_WAIT, ws.recv()).await;
    let Ok(Some(Ok(Message::Text(text)))) = first else {
        return;
    };
    let reply = |id: Value, outcome| Message::Text(rpc::answer(id, outcome).to_string().into());
    match extension::greeting(&text) {
        Err((id, refused)) => {
            let _ = ws.send(reply(id, Err(refused))).await;
        }
        Ok((
            id,
            Greeting::Pair {
                key,
                proof,
                browser,
            },
        )) => {
            // The proof's derivation takes a moment: off the async threads.
            let (extensions, extension, port) =
                (shared.extensions.clone(), extension.to_owned(), shared.port);
            let linked = tokio::task::spawn_blocking(move || {
                extensions.pair(&extension, &key, &proof, &browser, port)
            })
            .await
            .unwrap_or_else(|e| Err(rpc::ProviderError::internal(e.to_string())))
            .map(|proof| serde_json::json!({ "proof": proof }));
            let _ = ws.send(reply(id, linked)).await;
        }
        Ok((
            id,
            Greeting::Hello {
                key,
                origin,
                signature,
            },
        )) => {
            let admitted =
                shared
                    .extensions
                    .admit(extension, &key, &origin, &nonce, &signature, shared.port);
            let page = match admitted {
                Ok(page) => page,
                Err(refused) => {
                    let _ = ws.send(reply(id, Err(refused))).await;
                    return;
                }
            };
            let site = SiteSocket::open(&shared.sockets_by_site, page.key());
            if site.is_none() {
                let refused = rpc::ProviderError::limit_exceeded(
                    "this site has too many connections to Satchel open",
                );
                let _ = ws.send(reply(id, Err(refused))).await;
                return;
            }
            if ws.send(reply(id, Ok(Value::Bool(true)))).await.is_err() {
                return;
            }
            let (methods, heads) = (shared.methods.clone(), shared.heads.clone());
            let unlinked = shared
                .extensions
                .clone()
                .until_unlinked(extension.to_owned(), key);
            // Unlinked in Settings: the socket (and its subscriptions) ends.
            socket::serve(methods, heads, (page, Via::Extension), ws, unlinked).await;
            drop(site);
        }
    }
}

async fn rpc_call<W: Wallet>(
    State(shared): State<Arc<Shared<W>>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let origin = match door::admit(&Method::POST, &headers, shared.port) {
        Ok(origin) => origin,
        Err(refusal) => return (refusal.status, refusal.message).into_response(),
    };
    let body = match bounded_body(body).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    let cors = door::cors(&origin, &headers, false);
    let Ok(_slot) = shared.in_flight.try_acquire() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            cors,
            "Satchel is answering too many requests at once; ask again",
        )
            .into_response();
    };
    let answer = match rpc::parse(&body) {
        Err(error) => rpc::answer(Value::Null, Err(error)),
        Ok(Call::Single(request)) => one(&shared.methods, &origin, request).await,
        Ok(Call::Batch(requests)) => {
            let mut answers = Vec::with_capacity(requests.len());
            for request in requests {
                answers.push(one(&shared.methods, &origin, request).await);
            }
            Value::Array(answers)
        }
    };
    (cors, axum::Json(answer)).into_response()
}

async fn one<W: Wallet>(
    methods: &Methods<W>,
    origin: &crate::origin::Origin,
    request: Result<rpc::Request, (Value, rpc::ProviderError)>,
) -> Value {
    match request {
        Ok(request) => {
            let outcome = methods.call(origin, &request).await;
            rpc::answer(request.id, outcome)
        }
        Err((id, error)) => rpc::answer(id, Err(error)),
    }
}
