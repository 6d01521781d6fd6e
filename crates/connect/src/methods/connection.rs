//! Connecting an origin: the person's yes (`eth_requestAccounts`), the
//! accounts it sees, and its permissions as EIP-2255 says them.

use serde_json::{Value, json};

use super::{Methods, Via, now};
use crate::origin::Origin;
use crate::rpc::ProviderError;
use crate::wallet::{Answer, Ask, Wallet};

impl<W: Wallet> Methods<W> {
    /// `eth_accounts` of a connected origin: the wallet's accounts the person
    /// chose for it that the wallet still has, in the order chosen (the first
    /// account, as it always saw, for a connection made before there was a
    /// choice: accounts added since are not shown to it unasked).
    pub(crate) async fn accounts_of(&self, origin: &Origin) -> Vec<String> {
        let Some(connection) = self.permissions.get(origin) else {
            return Vec::new();
        };
        let all = self.wallet.accounts().await;
        match connection.accounts {
            None => all.into_iter().take(1).collect(),
            Some(chosen) => chosen
                .iter()
                .filter_map(|c| all.iter().find(|a| a.eq_ignore_ascii_case(c)).cloned())
                .collect(),
        }
    }

    /// Connects `origin` with the person's yes (once, and again when none of
    /// the accounts chosen for it is the wallet's now: another person logged
    /// in), then its accounts.
    pub(super) async fn request_accounts(
        &self,
        origin: &Origin,
        via: Via,
    ) -> Result<Vec<String>, ProviderError> {
        let connected = self.is_connected_via(origin, via);
        if connected {
            let seen = self.accounts_of(origin).await;
            if !seen.is_empty() {
                return Ok(seen);
            }
        }
        // Not connected: the page asks (and may have the person log in first).
        if !connected || !self.wallet.accounts().await.is_empty() {
            let asked = Ask::Connect {
                through_extension: via == Via::Extension,
            };
            let Answer::Connected(chosen) = self.ask(origin, asked).await? else {
                return Err(ProviderError::internal("no accounts were chosen"));
            };
            self.permissions
                .connect_through(origin, now(), &chosen, via == Via::Extension)
                .map_err(|e| {
                    ProviderError::internal(format!("the connection was not kept: {e}"))
                })?;
        }
        let accounts = self.accounts_of(origin).await;
        if accounts.is_empty() {
            return Err(ProviderError::disconnected());
        }
        Ok(accounts)
    }

    pub(super) async fn permissions_of(&self, origin: &Origin) -> Value {
        let Some(connection) = self.permissions.get(origin) else {
            return json!([]);
        };
        json!([{
            "parentCapability": "eth_accounts",
            "invoker": origin.key(),
            "date": connection.connected_at.saturating_mul(1000),
            "caveats": [{"type": "restrictReturnedAccounts", "value": self.accounts_of(origin).await}],
        }])
    }

    /// `[{eth_accounts: {}}]`, the only permission there is.
    pub(super) fn only_eth_accounts(params: &Value) -> Result<(), ProviderError> {
        let asked = params.get(0).and_then(Value::as_object);
        match asked {
            Some(asked) if asked.len() == 1 && asked.contains_key("eth_accounts") => Ok(()),
            _ => Err(ProviderError::invalid_params(
                "the one permission Satchel gives is eth_accounts: [{\"eth_accounts\": {}}]",
            )),
        }
    }
}
