//! `prepare-call`: any transaction from the caller's own account (a contract
//! call, a deployment), with what the node's simulation says it would move and
//! approve.

use super::*;

/// `POST /v1/transactions/prepare-call`: nonce, fee levels and gas of any
/// transaction from the caller's own account (a deployment without `to`), and
/// what it would move (the node's `eth_simulateV1` with transfer tracing; a
/// node without it estimates instead). One that would revert is refused with
/// the reason.
pub async fn prepare_call(
    state: &AppState,
    user: &AuthUser,
    request: &PrepareCallRequest,
) -> ApiResult<PreparedCall> {
    let (account, network) = own_account(state, user, &request.account_id).await?;
    let from = parse_address(&account.address)?;
    let to = request.to.as_deref().map(parse_recipient).transpose()?;
    let value = parse_amount(&request.value)?;
    let hex = request.data.strip_prefix("0x").unwrap_or(&request.data);
    if hex.len() > 2 * MAX_CALL_DATA {
        return Err(ApiError::bad_request("`data` is longer than 32 KiB"));
    }
    let input = Bytes::from(
        alloy::hex::decode(hex).map_err(|_| ApiError::bad_request("`data` is not hexadecimal"))?,
    );
    if to.is_none() && input.is_empty() {
        return Err(ApiError::bad_request(
            "a deployment (no `to`) carries the contract's creation code in `data`",
        ));
    }
    let chain = &network.chain;
    let recipient_code = async {
        match to {
            Some(to) => chain.has_code(to).await,
            None => Ok(false),
        }
    };
    let (nonce, market, balances, recipient_code) = tokio::join!(
        chain.next_nonce(from),
        chain.fee_market(),
        chain.balances(from, &[]),
        recipient_code,
    );
    let upstream = |e| ApiError::upstream(&network.config.name, e);
    let balances = balances.map_err(upstream)?;
    let market = market.map_err(upstream)?;
    // Simulated paying the normal fee with as much gas as the account can
    // afford after the value, as the signed transaction will pay.
    let (max_fee_per_gas, max_priority_fee_per_gas) = normal_caps(market);
    let affordable = balances
        .native
        .checked_sub(value)
        .map(|left| left / U256::from(max_fee_per_gas.max(1)))
        .unwrap_or_default();
    if affordable < U256::from(21_000) {
        return Err(would_fail(format!(
            "not enough {} for the value and the fee: the account has {}",
            network.config.symbol,
            in_units(balances.native, network.config.decimals)
        )));
    }
    let paying = Paying {
        max_fee_per_gas,
        max_priority_fee_per_gas,
        gas: affordable.saturating_to::<u64>().min(SIMULATED_GAS_CAP),
    };
    let simulated = chain.simulate(from, to, value, &input, paying).await;
    let (gas_used, changes, approvals) = match simulated {
        Ok(simulated) => {
            if let Some(reason) = simulated.reverted {
                return Err(would_fail(format!("the transaction would fail: {reason}")));
            }
            (
                simulated.gas_used,
                Some(changes_of(from, &simulated.transfers)),
                approvals_of(from, &simulated.approvals),
            )
        }
        Err(SimulateError::Unsupported) => {
            match chain.estimate_gas(from, to, value, input.clone()).await {
                Ok(gas) => (gas, None, Vec::new()),
                Err(SendError::Refused(Refusal::Reverted(reason) | Refusal::Refused(reason))) => {
                    return Err(would_fail(format!("the transaction would fail: {reason}")));
                }
                Err(SendError::Chain(e)) => return Err(upstream(e)),
            }
        }
        Err(SimulateError::Chain(e)) => return Err(upstream(e)),
    };
    // Room for state that changes before it is mined.
    let gas_limit = if input.is_empty() && gas_used <= 21_000 {
        21_000
    } else {
        gas_used.max(21_000).saturating_mul(6) / 5
    };
    let fees = fee_levels(market, gas_limit, None);
    let slowest: U256 = fees.slow.max_fee.parse().unwrap_or(U256::MAX);
    if balances.native < value.saturating_add(slowest) {
        return Err(would_fail(format!(
            "not enough {} for the value and the fee: up to {} needed, the account has {}",
            network.config.symbol,
            in_units(value.saturating_add(slowest), network.config.decimals),
            in_units(balances.native, network.config.decimals)
        )));
    }
    let node_nonce = nonce.map_err(upstream)?;
    let here = state
        .db
        .highest_pending_nonce(&account.id)
        .await?
        .map_or(0, |n| n as u64 + 1);
    Ok(PreparedCall {
        transaction: PreparedTransaction {
            chain_id: network.config.chain_id,
            nonce: node_nonce.max(here),
            from: views::checksummed(&account.address),
            to: to.map(|to| to.to_checksum(None)),
            value: value.to_string(),
            data: format!("0x{}", alloy::hex::encode(&input)),
            gas_limit,
            base_fee_per_gas: market.base_fee.to_string(),
            fees,
            coin_balance: balances.native.to_string(),
            token_balance: None,
            recipient_is_contract: recipient_code.map_err(upstream)?,
        },
        changes,
        approvals,
    })
}

/// The simulated approvals `account` gives or withdraws.
fn approvals_of(account: Address, approvals: &[SimulatedApproval]) -> Vec<ApprovalChange> {
    approvals
        .iter()
        .filter(|a| a.owner == account)
        .map(|a| ApprovalChange {
            kind: match a.kind {
                satchel_chain::ApprovalKind::Allowance => ApprovalKind::Allowance,
                satchel_chain::ApprovalKind::Operator => ApprovalKind::Operator,
            },
            contract: a.contract.to_checksum(None),
            spender: a.spender.to_checksum(None),
            value: a.value.to_string(),
        })
        .collect()
}

/// The simulated movements that leave or reach `account`, from its side.
fn changes_of(account: Address, transfers: &[AssetTransfer]) -> Vec<BalanceChange> {
    transfers
        .iter()
        .filter(|t| t.from != t.to && (t.from == account || t.to == account))
        .map(|t| {
            let (direction, counterparty) = if t.from == account {
                (ChangeDirection::Out, t.to)
            } else {
                (ChangeDirection::In, t.from)
            };
            let (kind, contract, token_id) = match &t.asset {
                Asset::Coin => (AssetKind::Coin, None, None),
                Asset::Erc20 { contract } => (AssetKind::Erc20, Some(*contract), None),
                Asset::Erc721 { contract, id } => (AssetKind::Erc721, Some(*contract), Some(*id)),
                Asset::Erc1155 { contract, id } => (AssetKind::Erc1155, Some(*contract), Some(*id)),
            };
            BalanceChange {
                kind,
                direction,
                contract: contract.map(|c| c.to_checksum(None)),
                token_id: token_id.map(|id| id.to_string()),
                amount: t.amount.to_string(),
                counterparty: counterparty.to_checksum(None),
            }
        })
        .collect()
}
