//! What the local provider for applications (`satchel-connect`, hosted by the
//! shell) needs from the widget: the addresses a connected application sees, as
//! this device checked them, the app's own networks, and reads of a network's
//! node through the service's relay (`POST /v1/rpc/{network}`), so the desktop
//! never holds node URLs or their keys.

use reqwest::Method;
use satchel_api::ServiceLifeCycle;
use satchel_chain::networks::NetworkTable;
use serde_json::{Value, json};

use super::Widget;
use crate::client::Caller;

/// A read the relay or the node refused: its JSON-RPC error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelayRefusal {
    pub code: i64,
    pub message: String,
}

impl Widget {
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
        let refusal = |code: i64, message: String| RelayRefusal { code, message };
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
            Some(error) => Err(refusal(
                error["code"].as_i64().unwrap_or(-32603),
                error["message"]
                    .as_str()
                    .unwrap_or("the node refused the call")
                    .chars()
                    .take(300)
                    .collect(),
            )),
            None => Ok(answer.get("result").cloned().unwrap_or(Value::Null)),
        }
    }
}
