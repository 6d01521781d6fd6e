//! What the local provider for applications (`satchel-connect`, hosted by the
//! shell) needs from the widget: the addresses a connected application sees, as
//! this device checked them, the app's own networks, and reads of a network's
//! node through the service's relay (`POST /v1/rpc/{network}`), so the desktop
//! never holds node URLs or their keys; and the signatures an application asks
//! for, made here with the key the PIN unlocks, of exactly what the approval
//! page showed.

use alloy::dyn_abi::TypedData;
use alloy::primitives::Address;
use alloy::signers::SignerSync as _;
use alloy::signers::local::PrivateKeySigner;
use reqwest::Method;
use satchel_api::ServiceLifeCycle;
use satchel_chain::networks::NetworkTable;
use serde_json::{Value, json};

use super::Widget;
use crate::client::Caller;
use crate::error::{SdkError, blocking};

/// A read the relay or the node refused: its JSON-RPC error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelayRefusal {
    pub code: i64,
    pub message: String,
    /// The node's `data` (a revert's bytes), as it came.
    pub data: Option<Value>,
}

/// What a signature for an application signs.
enum Signable {
    /// A message, with EIP-191's `personal_sign` prefix.
    Message(Vec<u8>),
    /// EIP-712 typed data.
    TypedData(Box<TypedData>),
}

impl Widget {
    /// Signs `message` (EIP-191, as `personal_sign`) with `account`'s key,
    /// unlocked by the PIN: the 65-byte signature as 0x-hex.
    pub async fn sign_message(
        &self,
        pin: &str,
        account: Address,
        message: Vec<u8>,
    ) -> Result<String, SdkError> {
        self.sign_for_app(pin, account, Signable::Message(message))
            .await
    }

    /// Signs EIP-712 typed data with `account`'s key, unlocked by the PIN.
    pub async fn sign_typed_data(
        &self,
        pin: &str,
        account: Address,
        data: TypedData,
    ) -> Result<String, SdkError> {
        self.sign_for_app(pin, account, Signable::TypedData(Box::new(data)))
            .await
    }

    async fn sign_for_app(
        &self,
        pin: &str,
        account: Address,
        signable: Signable,
    ) -> Result<String, SdkError> {
        let signer: PrivateKeySigner = self.unlock(pin, account).await?;
        blocking(move || {
            let signature = match signable {
                Signable::Message(bytes) => signer.sign_message_sync(&bytes),
                Signable::TypedData(data) => signer.sign_dynamic_typed_data_sync(&data),
            };
            Ok(signature.map_err(SdkError::unknown)?.to_string())
        })
        .await
    }

    /// The app's own network table (never the service's answer).
    pub fn network_table(&self) -> &NetworkTable {
        &self.networks
    }

    /// The addresses an application connected to Satchel sees: the wallet's
    /// accounts that `accounts()` believes (the key's, as the app's table says),
    /// each once, checksummed; none when nobody is logged in with a wallet.
    pub async fn connected_addresses(&self) -> Vec<String> {
        if self.get_status() != ServiceLifeCycle::Login {
            return Vec::new();
        }
        let Ok(list) = self.accounts().await else {
            return Vec::new();
        };
        let mut addresses: Vec<String> = Vec::new();
        for account in list.accounts {
            let address = account
                .address
                .parse::<alloy::primitives::Address>()
                .map(|a| a.to_checksum(None));
            if let Ok(address) = address
                && !addresses.contains(&address)
            {
                addresses.push(address);
            }
        }
        addresses
    }

    /// One read relayed to `network`'s node through the service: its result,
    /// or the relay's or the node's refusal.
    pub async fn relay_read(
        &self,
        network: &str,
        method: &str,
        params: Value,
    ) -> Result<Value, RelayRefusal> {
        let refusal = |code: i64, message: String| RelayRefusal {
            code,
            message,
            data: None,
        };
        if self.networks.network(network).is_none() {
            return Err(refusal(
                -32602,
                format!("{network} is not one of this app's networks"),
            ));
        }
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let answer: Value = self
            .login
            .authed(
                Caller::Rest,
                Method::POST,
                &format!("v1/rpc/{network}"),
                Some(&body),
            )
            .await
            .map_err(|e| refusal(-32603, e.message))?;
        match answer.get("error") {
            Some(error) => Err(RelayRefusal {
                data: error.get("data").cloned(),
                ..refusal(
                    error["code"].as_i64().unwrap_or(-32603),
                    error["message"]
                        .as_str()
                        .unwrap_or("the node refused the call")
                        .chars()
                        .take(300)
                        .collect(),
                )
            }),
            None => Ok(answer.get("result").cloned().unwrap_or(Value::Null)),
        }
    }

    /// `network`'s newest block header once it is past block `after` (at once
    /// when none), from the service's one reader of the node, which waits up to
    /// 10 s for it: the newest then, which may be no newer than `after`.
    pub async fn next_head(
        &self,
        network: &str,
        after: Option<u64>,
    ) -> Result<Value, RelayRefusal> {
        if self.networks.network(network).is_none() {
            return Err(RelayRefusal {
                code: -32602,
                message: format!("{network} is not one of this app's networks"),
                data: None,
            });
        }
        let after = after.map(|n| format!("?after={n}")).unwrap_or_default();
        self.login
            .authed(
                Caller::Rest,
                Method::GET,
                &format!("v1/rpc/{network}/head{after}"),
                None,
            )
            .await
            .map_err(|e| RelayRefusal {
                code: -32603,
                message: e.message,
                data: None,
            })
    }
}
