//! The HTTP transport every node request goes through: alloy's reqwest
//! transport, but the answer is read chunk by chunk and given up past
//! [`MAX_NODE_ANSWER`], so a hostile or broken node cannot make the service
//! hold an answer of any size (alloy's reads the whole body first).

use std::task;

use alloy::rpc::json_rpc::{RequestPacket, ResponsePacket};
use alloy::transports::{TransportError, TransportErrorKind, TransportFut};
use url::Url;

/// The largest node answer read, in bytes: room for a log window's worth of
/// logs or a full block; the relay passes on at most 1 MiB of it per call.
pub const MAX_NODE_ANSWER: usize = 16 * 1024 * 1024;

/// JSON-RPC over HTTP with a bounded answer.
#[derive(Debug, Clone)]
pub struct BoundedHttp {
    client: reqwest::Client,
    url: Url,
    max_bytes: usize,
}

impl BoundedHttp {
    pub fn new(client: reqwest::Client, url: Url, max_bytes: usize) -> Self {
        Self {
            client,
            url,
            max_bytes,
        }
    }

    async fn send(self, request: RequestPacket) -> Result<ResponsePacket, TransportError> {
        let mut response = self
            .client
            .post(self.url)
            .json(&request)
            .headers(request.headers())
            .send()
            .await
            .map_err(TransportErrorKind::custom)?;
        let too_large = || {
            TransportErrorKind::custom_str(&format!(
                "the node's answer is over {} bytes",
                self.max_bytes
            ))
        };
        if response
            .content_length()
            .is_some_and(|length| length > self.max_bytes as u64)
        {
            return Err(too_large());
        }
        let status = response.status();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(TransportErrorKind::custom)? {
            if body.len() + chunk.len() > self.max_bytes {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        if !status.is_success() {
            // The body may be anything: a short excerpt (URLs are taken out
            // where errors are shown).
            let excerpt = String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned();
            return Err(TransportErrorKind::http_error(status.as_u16(), excerpt));
        }
        serde_json::from_slice(&body)
            .map_err(|e| TransportError::deser_err(e, "the node's answer is not JSON-RPC"))
    }
}

impl tower::Service<RequestPacket> for BoundedHttp {
    type Response = ResponsePacket;
    type Error = TransportError;
    type Future = TransportFut<'static>;

    fn poll_ready(&mut self, _: &mut task::Context<'_>) -> task::Poll<Result<(), Self::Error>> {
        task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: RequestPacket) -> Self::Future {
        Box::pin(self.clone().send(request))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use alloy::rpc::client::ClientBuilder;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// A node that answers every request with an endless chunked body; the
    /// bytes it managed to write.
    async fn endless_node() -> (Url, Arc<AtomicUsize>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let url = format!("http://{}/", listener.local_addr().expect("an address"));
        let written = Arc::new(AtomicUsize::new(0));
        let counter = written.clone();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.expect("a request");
            let mut request = [0u8; 4096];
            let _ = socket.read(&mut request).await;
            let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                        transfer-encoding: chunked\r\n\r\n";
            socket.write_all(head.as_bytes()).await.expect("a head");
            let chunk = format!("{:x}\r\n{}\r\n", 64 * 1024, " ".repeat(64 * 1024));
            while socket.write_all(chunk.as_bytes()).await.is_ok() {
                counter.fetch_add(64 * 1024, Ordering::Relaxed);
            }
        });
        (url.parse().expect("a url"), written)
    }

    #[tokio::test]
    async fn an_endless_answer_is_given_up_at_the_bound() {
        let (url, written) = endless_node().await;
        let bound = 1024 * 1024;
        let transport = BoundedHttp::new(reqwest::Client::new(), url, bound);
        let client = ClientBuilder::default().transport(transport, true);
        let answer = client
            .request_noparams::<alloy::primitives::U64>("eth_blockNumber")
            .await;
        let error = answer.expect_err("refused").to_string();
        assert!(error.contains("over 1048576 bytes"), "{error}");
        // The node was not read much past the bound (socket buffers aside).
        assert!(
            written.load(Ordering::Relaxed) < 16 * bound,
            "{} bytes were taken",
            written.load(Ordering::Relaxed)
        );
    }
}
