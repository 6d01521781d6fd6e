//! The provider over real HTTP on 127.0.0.1, with a wallet standing in for the
//! app (the person's answers are the test's): the door's refusals, JSON-RPC's
//! errors, connect and disconnect, and a flood that leaves it serving.

use std::sync::Arc;

use satchel_connect::{Approval, Origin, Permissions, Provider, ProviderError, Wallet};
use serde_json::{Value, json};
use tokio::sync::{Mutex, mpsc, oneshot};

const ADDRESS: &str = "0x1a1A1c9eAACCAa5FB35da1824140438086C67734";
const DAPP: &str = "https://dapp.example";

/// The person, as the test plays them: each approval page waits for the test's
/// answer (`pages` hands the test each page and its answer channel).
struct Person {
    pages: mpsc::UnboundedSender<(Origin, Approval, oneshot::Sender<bool>)>,
    reads: Mutex<Vec<(String, String)>>,
}

impl Wallet for Person {
    async fn accounts(&self) -> Vec<String> {
        vec![ADDRESS.to_owned()]
    }
    fn networks(&self) -> Vec<(String, u64)> {
        vec![("anvil".into(), 31337), ("ethereum".into(), 1)]
    }
    async fn read(
        &self,
        network: &str,
        method: &str,
        _params: Value,
    ) -> Result<Value, ProviderError> {
        self.reads
            .lock()
            .await
            .push((network.into(), method.into()));
        Ok(json!("0x10"))
    }
    async fn ask(&self, origin: &Origin, approval: Approval) -> Result<bool, ProviderError> {
        let (answer, answered) = oneshot::channel();
        let _ = self.pages.send((origin.clone(), approval, answer));
        Ok(answered.await.unwrap_or(false))
    }
}

struct Running {
    provider: Provider,
    pages: mpsc::UnboundedReceiver<(Origin, Approval, oneshot::Sender<bool>)>,
    person: Arc<Person>,
    http: reqwest::Client,
    _dir: tempfile::TempDir,
}

async fn start() -> Running {
    let dir = tempfile::tempdir().expect("dir");
    let (pages_tx, pages) = mpsc::unbounded_channel();
    let person = Arc::new(Person {
        pages: pages_tx,
        reads: Mutex::new(Vec::new()),
    });
    let permissions = Arc::new(Permissions::open(&dir.path().join("connected.json")));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let provider = Provider::serve(listener, person.clone(), permissions).expect("serving");
    Running {
        provider,
        pages,
        person,
        http: reqwest::Client::new(),
        _dir: dir,
    }
}

impl Running {
    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.provider.port)
    }

    /// A JSON-RPC call from `origin` (`None`: a local program); the answer.
    async fn call(&self, origin: Option<&str>, method: &str, params: Value) -> Value {
        let mut request = self
            .http
            .post(self.url())
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}));
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        let response = request.send().await.expect("answered");
        assert_eq!(response.status(), 200);
        response.json().await.expect("json")
    }
}

fn code(answer: &Value) -> i64 {
    answer["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("an error: {answer}"))
}

#[tokio::test]
async fn the_door_refuses_rebinding_hosts_non_json_bodies_and_oversized_ones() {
    let running = start().await;
    let rebound = running
        .http
        .post(running.url())
        .header("host", format!("evil.example:{}", running.provider.port))
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}))
        .send()
        .await
        .expect("answered");
    assert_eq!(rebound.status(), 403);
    let plain = running
        .http
        .post(running.url())
        .header("content-type", "text/plain")
        .header("origin", DAPP)
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"eth_requestAccounts"}"#)
        .send()
        .await
        .expect("answered");
    assert_eq!(plain.status(), 415);
    let huge = running
        .http
        .post(running.url())
        .header("content-type", "application/json")
        .body(vec![b' '; 300 * 1024])
        .send()
        .await
        .expect("answered");
    assert_eq!(huge.status(), 413);
    let preflight = running
        .http
        .request(reqwest::Method::OPTIONS, running.url())
        .header("origin", DAPP)
        .header("access-control-request-method", "POST")
        .header("access-control-request-private-network", "true")
        .send()
        .await
        .expect("answered");
    assert_eq!(preflight.status(), 204);
    assert_eq!(preflight.headers()["access-control-allow-origin"], DAPP);
    assert_eq!(
        preflight.headers()["access-control-allow-private-network"],
        "true"
    );
    // Nothing was asked of the person.
    assert_eq!(
        running.call(Some(DAPP), "eth_accounts", json!([])).await["result"],
        json!([])
    );
}

#[tokio::test]
async fn json_rpc_errors_come_with_their_codes() {
    let running = start().await;
    let broken = running
        .http
        .post(running.url())
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .expect("answered");
    let broken: Value = broken.json().await.expect("json");
    assert_eq!(code(&broken), -32700);
    assert_eq!(
        code(&running.call(None, "eth_doesNotExist", json!([])).await),
        -32601
    );
    assert_eq!(
        code(
            &running
                .call(None, "eth_sign", json!([ADDRESS, "0xdead"]))
                .await
        ),
        4200
    );
    assert_eq!(
        code(&running.call(None, "eth_signTransaction", json!([{}])).await),
        4200
    );
    for method in [
        "personal_sign",
        "eth_signTypedData_v4",
        "eth_sendTransaction",
        "eth_call",
    ] {
        let answer = running.call(Some(DAPP), method, json!([])).await;
        assert_eq!(code(&answer), 4100, "{method} from an unconnected origin");
    }
    assert_eq!(
        running.call(Some(DAPP), "eth_chainId", json!([])).await["result"],
        "0x7a69"
    );
    assert_eq!(
        running.call(Some(DAPP), "net_version", json!([])).await["result"],
        "31337"
    );
    let batch: Value = running
        .http
        .post(running.url())
        .json(&json!([
            {"jsonrpc": "2.0", "id": "a", "method": "eth_chainId"},
            {"jsonrpc": "2.0", "id": "b", "method": "nope"},
            {"id": "c", "method": "eth_chainId"},
        ]))
        .send()
        .await
        .expect("answered")
        .json()
        .await
        .expect("json");
    assert_eq!(batch[0]["result"], "0x7a69");
    assert_eq!(batch[1]["error"]["code"], -32601);
    assert_eq!(batch[2]["error"]["code"], -32600);
    assert_eq!(batch[2]["id"], "c");
}

#[tokio::test]
async fn a_page_connects_with_the_persons_yes_once_and_disconnect_forgets_it() {
    let mut running = start().await;
    // The person closes the first page: rejected, nothing kept.
    let asking = {
        let (http, url) = (running.http.clone(), running.url());
        tokio::spawn(async move {
            http.post(url)
                .header("origin", DAPP)
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_requestAccounts"}))
                .send()
                .await
                .expect("answered")
                .json::<Value>()
                .await
                .expect("json")
        })
    };
    let (origin, approval, answer) = running.pages.recv().await.expect("a page");
    assert_eq!(origin, Origin::Web(DAPP.into()));
    assert_eq!(approval, Approval::Connect);
    // A second prompt of the same kind while one waits: -32002.
    assert_eq!(
        code(
            &running
                .call(Some(DAPP), "eth_requestAccounts", json!([]))
                .await
        ),
        -32002
    );
    answer.send(false).expect("the page waits");
    assert_eq!(code(&asking.await.expect("joined")), 4001);
    assert_eq!(
        running.call(Some(DAPP), "eth_accounts", json!([])).await["result"],
        json!([])
    );

    // Approved: its accounts, now and without asking again.
    let asking = {
        let (http, url) = (running.http.clone(), running.url());
        tokio::spawn(async move {
            http.post(url)
                .header("origin", DAPP)
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_requestAccounts"}))
                .send()
                .await
                .expect("answered")
                .json::<Value>()
                .await
                .expect("json")
        })
    };
    let (_, _, answer) = running.pages.recv().await.expect("a page");
    answer.send(true).expect("the page waits");
    assert_eq!(asking.await.expect("joined")["result"], json!([ADDRESS]));
    assert_eq!(
        running
            .call(Some(DAPP), "eth_requestAccounts", json!([]))
            .await["result"],
        json!([ADDRESS])
    );
    assert!(running.pages.try_recv().is_err(), "asked once");
    let permissions = running
        .call(Some(DAPP), "wallet_getPermissions", json!([]))
        .await;
    assert_eq!(permissions["result"][0]["parentCapability"], "eth_accounts");
    // Another page and a local program are not connected by it.
    assert_eq!(
        running
            .call(Some("https://other.example"), "eth_accounts", json!([]))
            .await["result"],
        json!([])
    );
    assert_eq!(
        running.call(None, "eth_accounts", json!([])).await["result"],
        json!([])
    );

    // Reads go to the origin's network, which it may switch among the served ones.
    assert_eq!(
        running.call(Some(DAPP), "eth_blockNumber", json!([])).await["result"],
        "0x10"
    );
    assert_eq!(
        code(
            &running
                .call(
                    Some(DAPP),
                    "wallet_switchEthereumChain",
                    json!([{"chainId": "0x89"}])
                )
                .await
        ),
        4902
    );
    let switched = running
        .call(
            Some(DAPP),
            "wallet_switchEthereumChain",
            json!([{"chainId": "0x1"}]),
        )
        .await;
    assert_eq!(switched["result"], Value::Null, "{switched}");
    assert_eq!(
        running.call(Some(DAPP), "eth_chainId", json!([])).await["result"],
        "0x1"
    );
    running.call(Some(DAPP), "eth_blockNumber", json!([])).await;
    let reads = running.person.reads.lock().await.clone();
    assert_eq!(
        reads,
        vec![
            ("anvil".into(), "eth_blockNumber".into()),
            ("ethereum".into(), "eth_blockNumber".into())
        ]
    );

    let revoked = running
        .call(
            Some(DAPP),
            "wallet_revokePermissions",
            json!([{"eth_accounts": {}}]),
        )
        .await;
    assert_eq!(revoked["result"], Value::Null, "{revoked}");
    assert_eq!(
        running.call(Some(DAPP), "eth_accounts", json!([])).await["result"],
        json!([])
    );
    assert_eq!(
        code(&running.call(Some(DAPP), "eth_blockNumber", json!([])).await),
        4100
    );
}

#[tokio::test]
async fn a_flood_of_requests_is_answered_and_the_provider_keeps_serving() {
    let running = start().await;
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..300 {
        let (http, url) = (running.http.clone(), running.url());
        calls.spawn(async move {
            http.post(url)
                .header("origin", DAPP)
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}))
                .send()
                .await
                .map(|r| r.status().as_u16())
        });
    }
    while let Some(status) = calls.join_next().await {
        let status = status.expect("joined").expect("answered");
        assert!(status == 200 || status == 503, "{status}");
    }
    assert_eq!(
        running.call(Some(DAPP), "eth_chainId", json!([])).await["result"],
        "0x7a69"
    );
}
