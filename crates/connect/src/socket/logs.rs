//! What a `logs` subscription takes (a bounded `{address?, topics?}` filter)
//! and what a block-following subscriber is told of each block.

use serde_json::Value;

use crate::rpc::ProviderError;

/// The most logs of one block told to one `logs` subscriber.
pub const MAX_LOGS_PER_BLOCK: usize = 256;
/// The most addresses, and topic alternatives, a `logs` filter names.
const MAX_FILTER_ENTRIES: usize = 16;

/// What a subscriber following the blocks is told of each.
pub(super) enum Follows {
    /// The block's header (`newHeads`).
    Heads,
    /// Its logs that match the filter (`logs`).
    Logs(serde_json::Map<String, Value>),
}

/// A `logs` subscription's filter: `{address?, topics?}` (the block is each
/// new one, so no range), bounded.
pub(super) fn logs_filter(
    param: Option<&Value>,
) -> Result<serde_json::Map<String, Value>, ProviderError> {
    let invalid = |why: &str| {
        ProviderError::invalid_params(format!("a logs filter is {{address?, topics?}}: {why}"))
    };
    let filter = match param {
        None | Some(Value::Null) => return Ok(serde_json::Map::new()),
        Some(Value::Object(filter)) => filter.clone(),
        Some(_) => return Err(invalid("an object")),
    };
    let is_hex = |v: &Value| {
        v.as_str()
            .is_some_and(|s| s.starts_with("0x") && s.len() <= 66)
    };
    let list = |v: &Value| match v {
        Value::Array(items) => items.len() <= MAX_FILTER_ENTRIES && items.iter().all(is_hex),
        single => is_hex(single),
    };
    for (key, value) in &filter {
        let fine = match key.as_str() {
            "address" => list(value),
            "topics" => value.as_array().is_some_and(|topics| {
                topics.len() <= 4 && topics.iter().all(|t| t.is_null() || list(t))
            }),
            _ => false,
        };
        if !fine {
            return Err(invalid(&format!(
                "{key:?} is not one Satchel takes, or too long"
            )));
        }
    }
    Ok(filter)
}
