//! What Satchel's browser extension does on its sockets, in Rust: a P-256 key
//! pair (as WebCrypto makes it), the link's proof and each socket's signed hello.

use p256::ecdsa::signature::Signer as _;
use satchel_connect::extension::{CHALLENGE, HELLO, PAIR, hello_message, link_proofs};
use serde_json::{Value, json};

use super::Running;
use super::socket::{Socket, answer, next, open, send};

pub struct Extension {
    /// Its origin, as its sockets' `Origin` header says.
    pub origin: String,
    key: p256::ecdsa::SigningKey,
}

impl Extension {
    pub fn new(origin: impl Into<String>) -> Self {
        Self {
            origin: origin.into(),
            key: p256::ecdsa::SigningKey::random(&mut rand::thread_rng()),
        }
    }

    pub fn public(&self) -> String {
        alloy::hex::encode(self.key.verifying_key().to_encoded_point(false).as_bytes())
    }

    /// Its proof of `code` for the extension's key and `port`.
    pub fn proof(&self, code: &str, port: u16) -> String {
        alloy::hex::encode(link_proofs(code, &self.public(), port).0)
    }

    pub fn sign(&self, nonce: &str, page: &str, port: u16) -> String {
        let signature: p256::ecdsa::Signature =
            self.key.sign(hello_message(nonce, page, port).as_bytes());
        alloy::hex::encode(signature.to_bytes())
    }

    /// A socket with the extension's origin, and the nonce Satchel sent first.
    pub async fn open(&self, running: &Running) -> (Socket, String) {
        let mut socket = open(running, Some(&self.origin)).await.expect("open");
        let challenge = next(&mut socket).await;
        assert_eq!(challenge["method"], CHALLENGE, "{challenge}");
        let nonce = challenge["params"]["nonce"]
            .as_str()
            .expect("a nonce")
            .to_owned();
        (socket, nonce)
    }

    /// Links with the code Settings shows: Satchel's answer.
    pub async fn link(&self, running: &Running, code: &str) -> Value {
        let proof = self.proof(code, running.provider.port);
        self.pair_with(running, &self.public(), &proof).await
    }

    /// Asks, on a socket with this extension's origin, to link `key` with
    /// `proof`: Satchel's answer.
    pub async fn pair_with(&self, running: &Running, key: &str, proof: &str) -> Value {
        let (mut socket, _) = self.open(running).await;
        let pair = json!([{"key": key, "proof": proof, "browser": "Chromium"}]);
        send(&mut socket, 1, PAIR, pair).await;
        answer(&mut socket, 1).await.0
    }

    /// A socket that said hello for `page`, and Satchel's answer to it.
    pub async fn hello(&self, running: &Running, page: &str) -> (Socket, Value) {
        let (mut socket, nonce) = self.open(running).await;
        let signature = self.sign(&nonce, page, running.provider.port);
        send(
            &mut socket,
            1,
            HELLO,
            json!([{"key": self.public(), "origin": page, "signature": signature}]),
        )
        .await;
        let answered = answer(&mut socket, 1).await.0;
        (socket, answered)
    }
}
