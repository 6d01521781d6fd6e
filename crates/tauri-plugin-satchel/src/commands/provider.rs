//! The embedded widget's EIP-1193 provider (`getProvider('ethereum')` in
//! `@satchel/widget`): the host application's page makes EIP-1193 requests,
//! answered by the same methods as the local endpoint's, its approvals on the
//! widget's own pages in the widget's window, with the PIN there. The host is
//! a program on this computer (`Origin::Local`): it connects with the person's
//! yes like any other, in its own list of connected sites.

use std::sync::Arc;

use satchel_connect::methods::Methods;
use satchel_connect::rpc::Request;
use satchel_connect::{Origin, ProviderError};
use satchel_desktop::Dapps;
use serde_json::Value;
use tauri::State;

use super::Page;

/// The most a request's parameters may weigh, as the local endpoint's body.
const MAX_PARAMS: usize = 256 * 1024;

/// One EIP-1193 request of the host's page: its result, or `{code, message}`
/// (4001 rejected, 4100 not connected, …).
#[tauri::command]
pub async fn request(
    page: Page,
    provider: State<'_, Arc<Methods<Dapps>>>,
    method: String,
    params: Option<Value>,
) -> Result<Value, ProviderError> {
    if !page.is_own() {
        return Err(ProviderError::not_allowed(
            "a program's widget window has no provider of its own",
        ));
    }
    let params = params.unwrap_or_else(|| Value::Array(Vec::new()));
    if params.to_string().len() > MAX_PARAMS {
        return Err(ProviderError::invalid_params(
            "the parameters are too large",
        ));
    }
    let request = Request {
        id: Value::Null,
        method,
        params,
    };
    provider.call(&Origin::Local, &request).await
}
