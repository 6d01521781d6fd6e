//! The test harness shared by the door and socket tests: the provider over
//! real loopback sockets, with a wallet standing in for the app (the person's
//! answers are the test's).
#![allow(dead_code)] // each test file uses its part

pub mod extension;
pub mod socket;

use std::sync::Arc;

use alloy::primitives::Address;
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use satchel_connect::{
    Answer, Ask, Extensions, Origin, Permissions, Provider, ProviderError, TokenFacts, Wallet,
};
use serde_json::{Value, json};
use tokio::sync::{Mutex, mpsc, oneshot};

/// anvil's second account, whose key the test's person signs with.
pub const ADDRESS: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
pub const KEY: &str = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
pub const DAPP: &str = "https://dapp.example";
pub const TX_HASH: &str = "0xabababababababababababababababababababababababababababababababab";

/// The person, as the test plays them: each approval page waits for the test's
/// answer (`pages` hands the test each page and its answer channel); a yes to a
/// signature signs what the request derived, with the test's key.
pub struct Person {
    pub pages: mpsc::UnboundedSender<(Origin, Ask, oneshot::Sender<bool>)>,
    pub reads: Mutex<Vec<(String, String)>>,
    pub key: PrivateKeySigner,
    /// Who is logged in changed (the test logs the person out and in).
    pub logins: tokio::sync::watch::Sender<u64>,
    pub logged_in: std::sync::atomic::AtomicBool,
    /// The chain's latest block, as the relay would read it.
    pub block: std::sync::atomic::AtomicU64,
    /// The wallet's further accounts, after `ADDRESS`.
    pub more: std::sync::Mutex<Vec<String>>,
    /// What the person picks on a connect page (none: every account).
    pub picks: std::sync::Mutex<Option<Vec<String>>>,
    /// The network switches the window was told of: origin, network, chain id.
    pub switches: std::sync::Mutex<Vec<(String, String, u64)>>,
}

impl Wallet for Person {
    async fn accounts(&self) -> Vec<String> {
        if self.logged_in.load(std::sync::atomic::Ordering::SeqCst) {
            let mut all = vec![ADDRESS.to_owned()];
            all.extend(self.more.lock().expect("lock").iter().cloned());
            all
        } else {
            Vec::new()
        }
    }
    fn changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.logins.subscribe()
    }
    fn switched(&self, origin: &Origin, network: &str, chain_id: u64) {
        self.switches.lock().expect("lock").push((
            origin.to_string(),
            network.to_owned(),
            chain_id,
        ));
    }
    fn networks(&self) -> Vec<(String, u64)> {
        vec![("anvil".into(), 31337), ("ethereum".into(), 1)]
    }
    async fn read(
        &self,
        network: &str,
        method: &str,
        params: Value,
    ) -> Result<Value, ProviderError> {
        let _params = params;
        self.reads
            .lock()
            .await
            .push((network.into(), method.into()));
        if method == "eth_getLogs" {
            // One log of the block asked for, from the address asked for.
            return Ok(
                json!([{"address": _params[0]["address"], "blockHash": _params[0]["blockHash"], "topics": [], "data": "0x"}]),
            );
        }
        if method == "eth_getTransactionReceipt" {
            // Mined and successful, as anvil would have it at once.
            return Ok(
                json!({"status": "0x1", "logs": [], "blockHash": "0xb1", "blockNumber": "0x2", "gasUsed": "0x5208", "transactionHash": _params[0]}),
            );
        }
        if method == "eth_getBlockByNumber" {
            let number = self.block.load(std::sync::atomic::Ordering::SeqCst);
            return Ok(
                json!({"number": format!("{number:#x}"), "hash": format!("{number:#066x}"), "transactions": []}),
            );
        }
        Ok(json!("0x10"))
    }
    fn token(&self, _network: &str, _contract: Address) -> Option<TokenFacts> {
        None
    }
    async fn next_head(&self, network: &str, after: Option<u64>) -> Result<Value, ProviderError> {
        self.reads
            .lock()
            .await
            .push((network.into(), "head".into()));
        // As the service answers: at once when past `after`, else when a block
        // comes, or after its wait.
        for _ in 0..1000 {
            let number = self.block.load(std::sync::atomic::Ordering::SeqCst);
            if after.is_none_or(|after| number > after) {
                return Ok(
                    json!({"number": format!("{number:#x}"), "hash": format!("{number:#066x}"), "transactions": []}),
                );
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let number = self.block.load(std::sync::atomic::Ordering::SeqCst);
        Ok(json!({"number": format!("{number:#x}")}))
    }
    async fn ask(&self, origin: &Origin, ask: Ask) -> Result<Answer, ProviderError> {
        let (answer, answered) = oneshot::channel();
        let _ = self.pages.send((origin.clone(), ask.clone(), answer));
        if !answered.await.unwrap_or(false) {
            return Err(ProviderError::rejected());
        }
        let signature = match ask {
            Ask::Connect { .. } => {
                let picks = self.picks.lock().expect("lock").clone();
                return Ok(Answer::Connected(match picks {
                    Some(picks) => picks,
                    None => self.accounts().await,
                }));
            }
            Ask::SignMessage(m) => self.key.sign_message_sync(&m.bytes),
            Ask::SignTypedData(t) => self.key.sign_dynamic_typed_data_sync(&t.data),
            // The app signs and broadcasts; the test stands in with a hash.
            Ask::SendTransaction(_) => return Ok(Answer::Sent(TX_HASH.into())),
            Ask::SendCalls(batch) => {
                return Ok(Answer::SentCalls {
                    hashes: (1..=batch.calls.len())
                        .map(|n| format!("{n:#066x}"))
                        .collect(),
                    stopped: None,
                });
            }
            Ask::WatchAsset(_) => return Ok(Answer::Watched),
            Ask::UseWidget(_) => return Ok(Answer::WidgetAllowed),
        };
        let signature = signature.map_err(|e| ProviderError::internal(e.to_string()))?;
        Ok(Answer::Signed(signature.to_string()))
    }
}

pub struct Running {
    pub provider: Provider,
    pub pages: mpsc::UnboundedReceiver<(Origin, Ask, oneshot::Sender<bool>)>,
    pub person: Arc<Person>,
    pub permissions: Arc<Permissions>,
    pub extensions: Arc<Extensions>,
    pub http: reqwest::Client,
    pub _dir: tempfile::TempDir,
}

pub async fn start() -> Running {
    let dir = tempfile::tempdir().expect("dir");
    let (pages_tx, pages) = mpsc::unbounded_channel();
    let person = Arc::new(Person {
        pages: pages_tx,
        reads: Mutex::new(Vec::new()),
        key: KEY.parse().expect("key"),
        logins: tokio::sync::watch::Sender::new(0),
        logged_in: std::sync::atomic::AtomicBool::new(true),
        block: std::sync::atomic::AtomicU64::new(1),
        more: std::sync::Mutex::new(Vec::new()),
        picks: std::sync::Mutex::new(None),
        switches: std::sync::Mutex::new(Vec::new()),
    });
    let permissions = Arc::new(Permissions::open(&dir.path().join("connected.json")));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let extensions = Arc::new(Extensions::open(&dir.path().join("extensions.json")));
    let provider = Provider::serve(
        listener,
        person.clone(),
        permissions.clone(),
        extensions.clone(),
    )
    .expect("serving");
    Running {
        provider,
        pages,
        person,
        permissions,
        extensions,
        http: reqwest::Client::new(),
        _dir: dir,
    }
}

impl Running {
    pub fn provider_permissions(&self) -> &Permissions {
        &self.permissions
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.provider.port)
    }

    /// A JSON-RPC call from `origin` (`None`: a local program); the answer.
    pub async fn call(&self, origin: Option<&str>, method: &str, params: Value) -> Value {
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

    /// The same call in a task of its own, for one that waits on a page.
    pub fn spawn_call(
        &self,
        origin: &'static str,
        method: &'static str,
        params: Value,
    ) -> tokio::task::JoinHandle<Value> {
        let (http, url) = (self.http.clone(), self.url());
        tokio::spawn(async move {
            let request = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
            let response = http.post(url).header("origin", origin).json(&request);
            let response = response.send().await.expect("answered");
            response.json::<Value>().await.expect("json")
        })
    }

    /// Connects `origin` with the person's yes.
    pub async fn connect(&mut self, origin: &'static str) {
        let asking = self.spawn_call(origin, "eth_requestAccounts", json!([]));
        let (_, _, answer) = self.pages.recv().await.expect("a page");
        answer.send(true).expect("the page waits");
        let picked = self.person.picks.lock().expect("lock").clone();
        let expected = match picked {
            Some(picks) => picks,
            None => self.person.accounts().await,
        };
        assert_eq!(asking.await.expect("joined")["result"], json!(expected));
    }
}

pub fn code(answer: &Value) -> i64 {
    answer["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("an error: {answer}"))
}
