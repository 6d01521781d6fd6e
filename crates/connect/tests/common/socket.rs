//! A WebSocket client of the provider, as a dapp's (or the extension's) would be.

use std::time::Duration;

use futures::{SinkExt as _, StreamExt as _};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::Running;

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long a test waits for what must come: a bound on a condition, not a
/// wall-clock window (it returns as soon as the message arrives).
pub const PATIENCE: Duration = Duration::from_secs(20);

pub async fn open(running: &Running, origin: Option<&str>) -> Result<Socket, String> {
    let mut request = format!("ws://127.0.0.1:{}/", running.provider.port)
        .into_client_request()
        .map_err(|e| e.to_string())?;
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("origin", origin.parse().map_err(|_| "origin")?);
    }
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(socket, _)| socket)
        .map_err(|e| e.to_string())
}

/// A local program's socket, once Satchel has a place for it.
pub async fn open_when_free(running: &Running) -> Socket {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        match open(running, None).await {
            Ok(socket) => return socket,
            Err(e) if tokio::time::Instant::now() > deadline => panic!("no place: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

pub async fn send(socket: &mut Socket, id: u64, method: &str, params: Value) {
    let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    socket
        .send(Message::Text(request.to_string().into()))
        .await
        .expect("sent");
}

/// The next JSON message (an answer or a notification).
pub async fn next(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(PATIENCE, socket.next())
            .await
            .expect("a message in time")
            .expect("the socket is open")
            .expect("a message");
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).expect("json");
        }
    }
}

/// The answer to request `id`, with the notifications that came first.
pub async fn answer(socket: &mut Socket, id: u64) -> (Value, Vec<Value>) {
    let mut notes = Vec::new();
    loop {
        let message = next(socket).await;
        if message["id"] == json!(id) {
            return (message, notes);
        }
        notes.push(message);
    }
}
