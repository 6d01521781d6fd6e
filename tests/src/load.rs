//! The benchmarks' load: 32 keep-alive connections asking for a list of
//! targets in turn, with every latency kept.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;

pub const CONNECTIONS: usize = 32;

/// One request of the load: its path and `Authorization` header.
pub type Target = (String, String);

pub struct Load {
    pub seconds: f64,
    pub latencies: Vec<Duration>,
}

impl Load {
    pub fn per_second(&self) -> f64 {
        self.latencies.len() as f64 / self.seconds
    }
    pub fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort_unstable();
        sorted
            .get(((sorted.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or_default()
    }
}

/// Drives `targets` in turn (each connection takes the next one) for `time`;
/// with `once`, each target is asked for at most once (the load ends early when
/// they run out), so no answer can come from a cache an earlier one filled.
pub async fn load(
    addr: SocketAddr,
    targets: Arc<Vec<Target>>,
    headers: Vec<(String, String)>,
    time: Duration,
    once: bool,
) -> Load {
    load_spread(&[addr], targets, headers, time, once).await
}

/// [`load`] with its connections spread over `addrs` in turn, as a client in
/// front of several instances of a service.
pub async fn load_spread(
    addrs: &[SocketAddr],
    targets: Arc<Vec<Target>>,
    headers: Vec<(String, String)>,
    time: Duration,
    once: bool,
) -> Load {
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let deadline = start + time;
    let workers = (0..CONNECTIONS).map(|c| {
        let addr = addrs[c % addrs.len()];
        let (targets, headers, next) = (targets.clone(), headers.clone(), next.clone());
        tokio::spawn(async move {
            let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
            stream.set_nodelay(true).expect("nodelay");
            let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                .await
                .expect("handshake");
            tokio::spawn(conn);
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if once && i >= targets.len() {
                    break;
                }
                let (path, auth) = &targets[i % targets.len()];
                let mut request = hyper::Request::get(path).header("host", addr.to_string());
                for (name, value) in &headers {
                    request = request.header(name, value);
                }
                if !auth.is_empty() {
                    request = request.header("authorization", auth);
                }
                let request = request.body(Empty::<Bytes>::new()).expect("request");
                let sent = Instant::now();
                let response = sender.send_request(request).await.expect("response");
                let status = response.status();
                let body = response.into_body().collect().await.expect("body");
                assert!(
                    status.is_success(),
                    "status {status}: {:?}",
                    body.to_bytes()
                );
                latencies.push(sent.elapsed());
            }
            latencies
        })
    });
    let mut latencies = Vec::new();
    for worker in futures::future::join_all(workers).await {
        latencies.extend(worker.expect("worker"));
    }
    Load {
        seconds: start.elapsed().as_secs_f64(),
        latencies,
    }
}

pub fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}
