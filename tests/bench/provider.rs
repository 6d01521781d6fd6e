//! The provider's own cost: an `eth_call` through Satchel's endpoint (the
//! provider's HTTP transport, its door and methods, the SDK's relay read) beside
//! the same call made to the service's read relay directly (the SDK's call, as
//! the provider makes it) and to the node directly, p50 and p99 over 1,000 calls
//! each, one client, one call at a time; then 100 WebSocket subscribers to
//! `newHeads`, and how long after the node has a block each of them is told.
//! Against a local stack (service on SQLite, anvil) on this machine.
//!
//! `cargo bench -p satchel-tests --bench provider`; `SATCHEL_BENCH_QUICK=1`:
//! 100 calls each, 10 subscribers, 2 blocks (it checks the answers all the same).

use std::sync::Arc;
use std::time::{Duration, Instant};

use alloy::primitives::Address;
use futures::{SinkExt as _, StreamExt as _};
use satchel_connect::{
    Answer, Ask, Extensions, Origin, Permissions, Provider, ProviderError, TokenFacts, Wallet,
};
use satchel_sdk::Widget;
use satchel_sdk::vault::KdfStrength;
use satchel_tests::{Backend, Stack};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// The app's part in a read, as the desktop shell's `Apps` plays it: the SDK's
/// relay read; nothing here asks the person.
struct Device {
    widget: Arc<Widget>,
    logins: tokio::sync::watch::Sender<u64>,
}

impl Wallet for Device {
    async fn accounts(&self) -> Vec<String> {
        self.widget.connected_addresses().await
    }
    fn networks(&self) -> Vec<(String, u64)> {
        self.widget
            .network_table()
            .networks
            .iter()
            .map(|n| (n.name.clone(), n.chain_id))
            .collect()
    }
    fn token(&self, _: &str, _: Address) -> Option<TokenFacts> {
        None
    }
    fn changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.logins.subscribe()
    }
    async fn read(
        &self,
        network: &str,
        method: &str,
        params: Value,
    ) -> Result<Value, ProviderError> {
        self.widget
            .relay_read(network, method, params)
            .await
            .map_err(|refusal| ProviderError::internal(refusal.message))
    }
    async fn next_head(&self, network: &str, after: Option<u64>) -> Result<Value, ProviderError> {
        self.widget
            .next_head(network, after)
            .await
            .map_err(|refusal| ProviderError::internal(refusal.message))
    }
    async fn ask(&self, _: &Origin, _: Ask) -> Result<Answer, ProviderError> {
        Err(ProviderError::rejected())
    }
}

/// Latencies in ms, sorted.
struct Figures(Vec<f64>);

impl Figures {
    fn of(mut times: Vec<Duration>) -> Self {
        times.sort_unstable();
        Self(times.iter().map(|d| d.as_secs_f64() * 1e3).collect())
    }
    fn at(&self, p: f64) -> f64 {
        self.0[((self.0.len() as f64 - 1.0) * p).round() as usize]
    }
}

/// The ways, in turn (so a slow moment of the machine falls on each alike):
/// `calls` calls each, after a tenth as many not counted; each way's
/// latencies. Each way checks its own answer.
async fn timed<const N: usize>(calls: usize, ways: [Way; N]) -> [Figures; N] {
    let mut times: [Vec<Duration>; N] = std::array::from_fn(|_| Vec::new());
    for round in 0..calls + calls / 10 {
        for (way, one) in ways.iter().enumerate() {
            let started = Instant::now();
            one().await;
            let took = started.elapsed();
            if round >= calls / 10 {
                times[way].push(took);
            }
        }
    }
    times.map(Figures::of)
}

/// One way to make the call, checking what it was answered.
type Way = Box<dyn Fn() -> futures::future::BoxFuture<'static, ()>>;

fn result_of(answer: Value) -> Value {
    match answer.get("result") {
        Some(result) => result.clone(),
        None => panic!("an answer without a result: {answer}"),
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let quick = std::env::var("SATCHEL_BENCH_QUICK").is_ok_and(|v| v == "1");
    let (calls, subscribers, blocks) = if quick { (100, 10, 2) } else { (1000, 100, 10) };

    // The relay's per-user allowance is not what is measured here.
    let stack = Stack::start_with(Backend::Sqlite, |s| s.rpc_calls_per_minute = 1_000_000).await;
    let (widget, _) = stack
        .registered_widget("provider@example.com", "246810", KdfStrength::Test)
        .await;
    let widget = Arc::new(widget);
    let holder = widget.connected_addresses().await[0].clone();

    let folder = tempfile::tempdir().expect("a folder");
    let permissions = Arc::new(Permissions::open(&folder.path().join("apps.json")));
    permissions
        .connect(&Origin::Local, 0, std::slice::from_ref(&holder))
        .expect("connected");
    let device = Arc::new(Device {
        widget: widget.clone(),
        logins: tokio::sync::watch::Sender::new(0),
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let extensions = Arc::new(Extensions::open(&folder.path().join("extensions.json")));
    let provider = Provider::serve(listener, device, permissions, extensions).expect("serving");
    let endpoint = format!("http://127.0.0.1:{}/", provider.port);

    // A token's balanceOf(holder): a real contract call.
    let token = stack.service.network_table().networks[0].tokens[0].contract;
    let call = json!([{
        "to": token,
        "data": format!("0x70a08231{:0>64}", holder.trim_start_matches("0x").to_lowercase()),
    }, "latest"]);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": call});
    let http = reqwest::Client::new();
    let post = move |url: String| {
        let (http, body) = (http.clone(), body.clone());
        async move {
            let answer: Value = http
                .post(url)
                .json(&body)
                .send()
                .await
                .expect("sent")
                .json()
                .await
                .expect("JSON");
            result_of(answer)
        }
    };

    // What the node answers is what every way must answer.
    let expected = post(stack.anvil.url.to_string()).await;
    let answers = |expected: Value,
                   way: futures::future::BoxFuture<'static, Value>|
     -> futures::future::BoxFuture<'static, ()> {
        Box::pin(
            async move { assert_eq!(way.await, expected, "every way answers as the node does") },
        )
    };
    let node: Way = {
        let (url, expected) = (stack.anvil.url.to_string(), expected.clone());
        let post = post.clone();
        Box::new(move || answers(expected.clone(), Box::pin(post(url.clone()))))
    };
    let relay: Way = {
        let (widget, call, expected) = (widget.clone(), call.clone(), expected.clone());
        Box::new(move || {
            let (widget, call) = (widget.clone(), call.clone());
            answers(
                expected.clone(),
                Box::pin(async move {
                    widget
                        .relay_read("anvil", "eth_call", call)
                        .await
                        .expect("relayed")
                }),
            )
        })
    };
    // The relay's yardstick: the same request through the same client, door,
    // token check and allowance, of a method the relay refuses before any node
    // is asked: what the relay costs without the node.
    let refused: Way = {
        let widget = widget.clone();
        Box::new(move || {
            let widget = widget.clone();
            Box::pin(async move {
                let refusal = widget
                    .relay_read("anvil", "eth_accounts", json!([]))
                    .await
                    .expect_err("eth_accounts is not relayed");
                assert_eq!(refusal.code, -32601, "{}", refusal.message);
            })
        })
    };
    // The floor under that: one HTTP exchange with the service that does
    // nothing (`GET /health`), from a client like the SDK's.
    let exchange: Way = {
        let (http, url) = (stack.http.clone(), stack.url("/health"));
        Box::new(move || {
            let (http, url) = (http.clone(), url.clone());
            Box::pin(async move {
                let answer = http.get(url).send().await.expect("sent");
                assert_eq!(answer.text().await.expect("a body"), "ok");
            })
        })
    };
    let satchel: Way = {
        let (url, expected) = (endpoint.clone(), expected.clone());
        let post = post.clone();
        Box::new(move || answers(expected.clone(), Box::pin(post(url.clone()))))
    };
    let [node, relay, refused, exchange, satchel] =
        timed(calls, [node, relay, refused, exchange, satchel]).await;

    println!(
        "eth_call of a token's balanceOf, {calls} calls each, one at a time (ms), on one 2-core machine:"
    );
    println!(
        "{:<44} {:>8} {:>8}   {:>12} {:>12}",
        "", "p50", "p99", "ratio p50", "ratio p99"
    );
    println!(
        "{:<44} {:>8.3} {:>8.3}",
        "the node directly (anvil)",
        node.at(0.5),
        node.at(0.99)
    );
    let row = |name: &str, it: &Figures, base: [f64; 2], base_name: &str| {
        println!(
            "{:<44} {:>8.3} {:>8.3}   {:>11.2}x {:>11.2}x  of {base_name}",
            name,
            it.at(0.5),
            it.at(0.99),
            it.at(0.5) / base[0],
            it.at(0.99) / base[1],
        );
    };
    let at = |f: &Figures| [f.at(0.5), f.at(0.99)];
    // The relay's yardstick: what it cannot do without, the node's call and
    // one HTTP exchange with the service.
    let floor = [0.5, 0.99].map(|q| node.at(q) + exchange.at(q));
    row(
        "the service's read relay (the SDK's call)",
        &relay,
        floor,
        "the node + GET /health (goal <= 1.1x)",
    );
    row("", &relay, at(&node), "the node alone");
    row(
        "through Satchel's endpoint",
        &satchel,
        at(&relay),
        "the relay (goal <= 1.15x)",
    );
    println!(
        "{:<44} {:>8.3} {:>8.3}   (the relay's yardstick: the same request refused before any node is asked)",
        "the relay refusing eth_accounts at once",
        refused.at(0.5),
        refused.at(0.99),
    );
    println!(
        "{:<44} {:>8.3} {:>8.3}   (one HTTP exchange with the service that does nothing)",
        "the service's GET /health",
        exchange.at(0.5),
        exchange.at(0.99),
    );
    println!(
        "the relay's share beside the node's at p50: {:.3} ms without the node + {:.3} ms for the node's call = {:.3} ms; the node directly {:.3} ms",
        refused.at(0.5),
        relay.at(0.5) - refused.at(0.5),
        relay.at(0.5),
        node.at(0.5),
    );

    heads(&stack, provider.port, subscribers, blocks).await;
    widget.finalize().await;
}

/// `subscribers` WebSocket clients subscribe to `newHeads`; `blocks` blocks are
/// mined one after another (at different points of the provider's reading), and
/// each client's delay from the node having the block to its notification is
/// kept.
async fn heads(stack: &Stack, port: u16, subscribers: usize, blocks: usize) {
    let (told, mut tells) = tokio::sync::mpsc::unbounded_channel::<(u64, Instant)>();
    let mut clients = Vec::new();
    for _ in 0..subscribers {
        let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}/"))
            .await
            .expect("a socket");
        let subscribe =
            json!({"jsonrpc": "2.0", "id": 1, "method": "eth_subscribe", "params": ["newHeads"]});
        socket
            .send(Message::text(subscribe.to_string()))
            .await
            .expect("subscribed");
        let told = told.clone();
        clients.push(tokio::spawn(async move {
            while let Some(Ok(message)) = socket.next().await {
                let Message::Text(text) = message else {
                    continue;
                };
                let value: Value = serde_json::from_str(&text).expect("JSON");
                if let Some(number) = value["params"]["result"]["number"].as_str() {
                    let number = u64::from_str_radix(number.trim_start_matches("0x"), 16)
                        .expect("a block number");
                    let _ = told.send((number, Instant::now()));
                }
            }
        }));
    }
    // Every subscription made, and the provider told the block it starts from,
    // before blocks come (a second is ample on loopback; nothing is timed yet).
    tokio::time::sleep(Duration::from_secs(1)).await;

    let mut delays = Vec::new();
    for k in 0..blocks {
        // A different point of the service's reading of the node each time
        // (the local stack reads it every 20 ms).
        tokio::time::sleep(Duration::from_millis(37 * k as u64 % 100 + 50)).await;
        stack.chain_rpc("evm_mine", json!([])).await;
        let mined = Instant::now();
        let number = stack.chain_rpc("eth_blockNumber", json!([])).await;
        let number = u64::from_str_radix(
            number.as_str().expect("a number").trim_start_matches("0x"),
            16,
        )
        .expect("a block number");
        let mut got = 0;
        while got < subscribers {
            let (told, at) = tokio::time::timeout(Duration::from_secs(30), tells.recv())
                .await
                .expect("every subscriber told within 30 s")
                .expect("a subscriber");
            if told == number {
                delays.push(at.saturating_duration_since(mined));
                got += 1;
            }
        }
    }
    for client in clients {
        client.abort();
    }
    let delays = Figures::of(delays);
    println!(
        "\n{subscribers} WebSocket subscribers to newHeads, {blocks} blocks: from the node having the block to each being told (ms): p50 {:.1}, p99 {:.1}, max {:.1} (goal: each within 100 ms)",
        delays.at(0.5),
        delays.at(0.99),
        delays.at(1.0)
    );
}
