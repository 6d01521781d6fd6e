//! Satchel as another program's wallet: the app serves the local provider
//! (`SATCHEL_PROVIDER_PORT`), a program on this computer asks to connect with
//! plain JSON-RPC, the person approves on Satchel's page, the program reads
//! the chain through the service's relay, and Settings' Disconnect ends it.
//! Then a site signs the person in with Ethereum, has a permit signed and sends
//! a transaction that mints an NFT, each on its approval page with the PIN: the
//! permit holds on chain, the NFT is the wallet's, the transaction is in
//! Activity; one that would fail is refused before the PIN.

use alloy::primitives::{Address, Signature, U256};
use alloy::sol_types::SolCall;
use satchel_devstack::demo::{DemoNft, Permit};
use satchel_devstack::{DEMO_EMAIL, DEMO_PASSWORD, LocalStack, StackOptions};
use satchel_tests::desktop::{App, Desktop, screenshots};
use serde_json::{Value, json};

use crate::{ONE_APP_AT_A_TIME, app_env, application};

pub(crate) const PIN: &str = "135790";
/// The site that signs the person in (as a browser sends its `Origin`).
const DAPP: &str = "http://localhost:5173";

/// A JSON-RPC call as a local program makes it (no `Origin`); its answer.
pub(crate) async fn call(
    http: &reqwest::Client,
    port: u16,
    method: &str,
    params: Value,
) -> anyhow::Result<Value> {
    call_from(http, port, None, method, params).await
}

/// A JSON-RPC call from `origin` (`None`: a local program); its answer.
pub(crate) async fn call_from(
    http: &reqwest::Client,
    port: u16,
    origin: Option<&str>,
    method: &str,
    params: Value,
) -> anyhow::Result<Value> {
    let mut request = http
        .post(format!("http://127.0.0.1:{port}/"))
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}));
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    Ok(request.send().await?.error_for_status()?.json().await?)
}

/// The same call from the site, in a task of its own (it waits on a page).
fn dapp_call(
    http: &reqwest::Client,
    port: u16,
    method: &'static str,
    params: Value,
) -> tokio::task::JoinHandle<anyhow::Result<Value>> {
    let http = http.clone();
    tokio::spawn(async move { call_from(&http, port, Some(DAPP), method, params).await })
}

/// A Sign-In with Ethereum message for `domain`, as viem writes one.
fn sign_in_message(domain: &str, address: &str) -> String {
    format!(
        "{domain} wants you to sign in with your Ethereum account:\n{address}\n\nSign in to the demo.\n\nURI: http://{domain}\nVersion: 1\nChain ID: 31337\nNonce: 8d1c0ffee42\nIssued At: 2026-11-25T10:00:00.000Z"
    )
}

fn signature_of(answer: &Value) -> anyhow::Result<Signature> {
    let text = answer["result"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no signature: {answer}"))?;
    Ok(text.parse()?)
}

/// Waits until the wallet page's activity lists transaction `hash`.
pub(crate) async fn activity_lists(app: &App, hash: &str) -> anyhow::Result<()> {
    app.until("the activity lists the transaction", || async {
        let found = app
            .script(&format!(
                "return !!document.querySelector(\"[data-testid='activity-row'][data-hash='{hash}']\")"
            ))
            .await?;
        Ok(found == Value::Bool(true))
    })
    .await
}

/// Logs the demo person in, sets the PIN, skips the phrase, and waits for the
/// faucet's 10 ETH on the wallet page.
pub(crate) async fn into_the_wallet(app: &App) -> anyhow::Result<()> {
    app.type_into("#login-email", DEMO_EMAIL).await?;
    app.type_into("#login-password", DEMO_PASSWORD).await?;
    app.click("#login-submit").await?;
    app.type_into("#register-pin", PIN).await?;
    app.type_into("#register-pin-again", PIN).await?;
    app.click("#register-submit").await?;
    app.click("#phrase-skip").await?;
    app.text_when("[data-testid='balance-ETH']", |t| t == "10")
        .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_on_this_computer_connects_with_the_persons_yes_and_reads_the_chain()
-> anyhow::Result<()> {
    let _alone = ONE_APP_AT_A_TIME.lock().await;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    let port = satchel_devstack::free_port()?;
    let mut env = app_env(&stack);
    env.push(("SATCHEL_PROVIDER_PORT", port.to_string()));
    let Some(desktop) = Desktop::start(&env).await? else {
        return Ok(());
    };
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "ui");
    let app = desktop.open(application(), &shots).await?;
    into_the_wallet(&app).await?;

    let http = reqwest::Client::new();
    // Not connected: the chain and reads (within an allowance of its own,
    // through the person's session), but no accounts.
    assert_eq!(
        call(&http, port, "eth_chainId", json!([])).await?["result"],
        "0x7a69"
    );
    assert_eq!(
        call(&http, port, "eth_accounts", json!([])).await?["result"],
        json!([])
    );
    let block = call(&http, port, "eth_blockNumber", json!([])).await?;
    assert!(
        block["result"]
            .as_str()
            .is_some_and(|n| n.starts_with("0x")),
        "a read before connecting: {block}"
    );

    // It asks; Satchel's page says who, and the person connects.
    let asking = {
        let http = http.clone();
        tokio::spawn(async move { call(&http, port, "eth_requestAccounts", json!([])).await })
    };
    app.text_when("[data-testid='connect-origin']", |t| {
        t == "A program on this computer"
    })
    .await?;
    app.shot("30-connect-request").await?;
    app.click("[data-testid='connect-approve']").await?;
    let answer = asking.await??;
    let accounts = answer["result"].as_array().cloned().unwrap_or_default();
    assert_eq!(accounts.len(), 1, "{answer}");
    let address = accounts[0].as_str().unwrap_or_default().to_owned();
    app.text_when("[data-testid='balance-ETH']", |t| t == "10")
        .await?;

    // Reads go to the dev chain through the service's relay: the wallet's 10 ETH
    // from the faucet, as the chain itself has them.
    let balance = call(&http, port, "eth_getBalance", json!([address, "latest"])).await?;
    assert_eq!(balance["result"], "0x8ac7230489e80000", "10 ETH: {balance}");

    // A Rust program with alloy, as docs/local-provider.md shows it: reads, then a transaction
    // through the wallet (eth_sendTransaction), approved with the PIN.
    a_program_with_alloy_sends_through_the_wallet(&app, &stack, port).await?;

    // Settings lists it; Disconnect ends it.
    app.click("#nav-settings").await?;
    app.text_when("[data-testid='connected-site']", |t| {
        t.contains("A program on this computer")
    })
    .await?;
    app.shot("31-connected-sites").await?;
    app.click("[data-testid='connected-site-disconnect']")
        .await?;
    app.text_when("[data-testid='connected-sites']", |t| {
        t.contains("No site or program is connected")
    })
    .await?;
    assert_eq!(
        call(&http, port, "eth_accounts", json!([])).await?["result"],
        json!([])
    );

    // Asked again and rejected: 4001, nothing connected.
    let asking = {
        let http = http.clone();
        tokio::spawn(async move { call(&http, port, "eth_requestAccounts", json!([])).await })
    };
    app.find("[data-testid='connect-request']").await?;
    app.click("[data-testid='connect-cancel']").await?;
    assert_eq!(asking.await??["error"]["code"], 4001);
    assert_eq!(
        call(&http, port, "eth_accounts", json!([])).await?["result"],
        json!([])
    );

    a_site_signs_in_and_has_a_permit_signed(&app, &stack, &http, port).await?;
    a_site_sends_a_transaction(&app, &stack, &http, port).await?;
    a_strangers_airdrop_waits_under_show_hidden(&app, &stack, &address).await?;
    the_private_key_is_exported_behind_a_warning_and_the_pin(&app, &address).await?;
    app.quit().await?;
    Ok(())
}

async fn a_program_with_alloy_sends_through_the_wallet(
    app: &App,
    stack: &LocalStack,
    port: u16,
) -> anyhow::Result<()> {
    use alloy::network::TransactionBuilder as _;
    use alloy::providers::{Provider as _, ProviderBuilder};
    use alloy::rpc::types::TransactionRequest;
    let provider = ProviderBuilder::new().connect_http(format!("http://127.0.0.1:{port}").parse()?);
    assert_eq!(provider.get_chain_id().await?, 31337);
    let account = provider.get_accounts().await?[0];
    let to = Address::repeat_byte(0x42);
    let tx = TransactionRequest::default()
        .with_from(account)
        .with_to(to)
        .with_value(U256::from(1_000_000_000_000_000u64));
    let sending = tokio::spawn(async move {
        let pending = provider.send_transaction(tx).await?;
        anyhow::Ok(*pending.tx_hash())
    });
    app.text_when("[data-testid='tx-summary']", |t| t == "Send coins")
        .await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    let hash = sending.await??;
    let chain = ProviderBuilder::new().connect_http(stack.anvil.url.clone());
    app.until("the transaction is mined", || async {
        Ok(chain.get_transaction_receipt(hash).await?.is_some())
    })
    .await?;
    assert_eq!(
        chain.get_balance(to).await?,
        U256::from(1_000_000_000_000_000u64)
    );
    Ok(())
}

/// A stranger mints the wallet an NFT of a collection nobody vouches for: the
/// gallery leaves it out, "Show hidden" shows it marked as likely spam, its
/// detail says why; the person shows the collection, then hides it again.
async fn a_strangers_airdrop_waits_under_show_hidden(
    app: &App,
    stack: &LocalStack,
    address: &str,
) -> anyhow::Result<()> {
    let stranger = alloy::signers::local::PrivateKeySigner::random();
    stack
        .demo
        .send_ether(stranger.address(), U256::from(10).pow(U256::from(18)))
        .await?;
    let prize = stack
        .demo
        .deploy_collection_as(&stranger, "Free Prize")
        .await?;
    stack
        .demo
        .mint_as(&stranger, prize, address.parse()?, "Claim your prize")
        .await?;
    app.click("#nav-nfts").await?;
    // Read from the chain on entry: the Pals show, the airdrop waits.
    app.text_when("#nfts-hidden", |t| t == "Show hidden (1)")
        .await?;
    let captions =
        "return [...document.querySelectorAll('.tile .caption')].map(c => c.textContent).join('|')";
    assert!(
        !app.script(captions)
            .await?
            .to_string()
            .contains("Claim your prize"),
        "the airdrop is left out"
    );
    app.click("#nfts-hidden").await?;
    app.find("[data-testid='nft-spam-badge']").await?;
    app.shot("52-nft-spam-shown").await?;
    app.click(".tile[title='Claim your prize']").await?;
    app.text_when("[data-testid='nft-spam-notice']", |t| {
        t.contains("minted to you in a transaction none of your accounts sent")
    })
    .await?;
    app.shot("53-nft-spam-detail").await?;
    app.click("#nft-hide").await?;
    app.text_when("#nft-hide", |t| t == "Hide this collection")
        .await?;
    // Hidden again, the detail goes back to the grid, hidden ones left out.
    app.click("#nft-hide").await?;
    app.text_when("#nfts-hidden", |t| t == "Leave hidden out (1)")
        .await?;
    app.click("#nfts-hidden").await?;
    app.text_when("#nfts-hidden", |t| t == "Show hidden (1)")
        .await?;
    Ok(())
}

/// Settings → Export private key: the warning accepted, the PIN, the key shown
/// once; it is the wallet's.
async fn the_private_key_is_exported_behind_a_warning_and_the_pin(
    app: &App,
    address: &str,
) -> anyhow::Result<()> {
    app.click("#nav-settings").await?;
    app.click("#settings-export-key").await?;
    app.find("[data-testid='export-key-warning']").await?;
    app.shot("39-export-key-warning").await?;
    app.click("#export-key-understood").await?;
    app.click("#export-key-continue").await?;
    app.type_into("#export-key-pin", PIN).await?;
    app.click("#export-key-pin-submit").await?;
    let key = app
        .text_when("[data-testid='export-key-value']", |t| t.starts_with("0x"))
        .await?;
    let signer: alloy::signers::local::PrivateKeySigner = key.trim().parse()?;
    assert_eq!(signer.address(), address.parse::<Address>()?);
    app.click("#export-key-done").await?;
    app.find("#settings-export-key").await?;

    // The address book, beside it in Settings: one address saved.
    app.click("#settings-book").await?;
    app.type_into("#book-name", "Bob").await?;
    app.type_into(
        "#book-address",
        "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
    )
    .await?;
    app.click("form.card button.primary").await?;
    app.text_when("[data-testid='book-entry']", |t| t.contains("Bob"))
        .await?;
    app.shot("50-address-book").await?;

    // An NFT from its detail page, to the saved Bob: reviewed with what leaves,
    // sent with the PIN.
    app.click("#nav-nfts").await?;
    app.click(".tile").await?;
    app.click("#nft-send").await?;
    app.type_into("#nft-send-to", "0x8ba1f109551bD432803012645Ac136ddd64DBA72")
        .await?;
    app.click("#nft-send-review").await?;
    app.text_when("[data-testid='nft-send-changes']", |t| {
        t.contains("You send")
    })
    .await?;
    app.shot("51-nft-send-review").await?;
    app.type_into("[data-testid='nft-send-pin']", PIN).await?;
    app.click("[data-testid='nft-send-submit']").await?;
    app.find("[data-testid='nft-sent']").await?;
    Ok(())
}

/// A site connects, signs the person in with Ethereum (its own domain: signed
/// with the PIN; another site's: refused in red), and has an EIP-2612 permit
/// for the demo token signed, which the token then accepts on chain.
async fn a_site_signs_in_and_has_a_permit_signed(
    app: &App,
    stack: &LocalStack,
    http: &reqwest::Client,
    port: u16,
) -> anyhow::Result<()> {
    let asking = dapp_call(http, port, "eth_requestAccounts", json!([]));
    app.text_when("[data-testid='connect-origin']", |t| t == DAPP)
        .await?;
    app.click("[data-testid='connect-approve']").await?;
    let answer = asking.await??;
    let address = answer["result"][0]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no account: {answer}"))?
        .to_owned();
    let account: Address = address.parse()?;

    // Its own domain: shown as a sign-in, signed with the PIN.
    let message = sign_in_message("localhost:5173", &address);
    let hex = format!("0x{}", alloy::hex::encode(message.as_bytes()));
    let asking = dapp_call(http, port, "personal_sign", json!([hex, address]));
    app.text_when("[data-testid='sign-in-domain']", |t| {
        t.contains("localhost:5173")
    })
    .await?;
    app.shot("32-sign-in").await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    let signature = signature_of(&asking.await??)?;
    assert_eq!(
        signature.recover_address_from_msg(message.as_bytes())?,
        account,
        "the sign-in's signature is the wallet's"
    );

    // Another site's sign-in: refused in red, only Reject.
    let foreign = sign_in_message("evil.example", &address);
    let asking = dapp_call(http, port, "personal_sign", json!([foreign, address]));
    app.text_when("[data-testid='sign-refusal']", |t| {
        t.contains("evil.example")
    })
    .await?;
    app.shot("33-sign-in-refused").await?;
    app.click("[data-testid='sign-reject']").await?;
    assert_eq!(asking.await??["error"]["code"], 4001);

    // A plain message, and typed data that is no permit: each on its page
    // (shown for the screenshots), rejected.
    let asking = dapp_call(
        http,
        port,
        "personal_sign",
        json!([
            "Welcome to the demo!\nThis request will not trigger a transaction.",
            address
        ]),
    );
    app.text_when("[data-testid='sign-text']", |t| t.starts_with("Welcome"))
        .await?;
    app.shot("37-sign-message").await?;
    app.click(".actions .secondary").await?;
    assert_eq!(asking.await??["error"]["code"], 4001);
    let mail = json!({
        "types": {
            "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "chainId", "type": "uint256"}],
            "Person": [{"name": "name", "type": "string"}, {"name": "wallet", "type": "address"}],
            "Mail": [{"name": "from", "type": "Person"}, {"name": "to", "type": "Person"}, {"name": "contents", "type": "string"}]
        },
        "primaryType": "Mail",
        "domain": {"name": "Ether Mail", "chainId": 31337},
        "message": {
            "from": {"name": "Ada", "wallet": address},
            "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
            "contents": "Hello, Bob!"
        }
    });
    let asking = dapp_call(http, port, "eth_signTypedData_v4", json!([address, mail]));
    app.text_when("[data-testid='typed-message']", |t| {
        t.contains("Hello, Bob!")
    })
    .await?;
    app.shot("38-sign-typed-data").await?;
    app.click(".actions .secondary").await?;
    assert_eq!(asking.await??["error"]["code"], 4001);

    // A permit for the demo token, said in words, signed with the PIN; the
    // token accepts it on chain.
    let token = stack.demo.token18;
    let spender: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC".parse()?;
    let permit = Permit {
        owner: account,
        spender,
        value: U256::from(1_500_000_000_000_000_000u128),
        deadline: U256::from(4_000_000_000u64),
    };
    let typed = json!({
        "types": {
            "EIP712Domain": [
                {"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
            "Permit": [
                {"name": "owner", "type": "address"}, {"name": "spender", "type": "address"},
                {"name": "value", "type": "uint256"}, {"name": "nonce", "type": "uint256"},
                {"name": "deadline", "type": "uint256"}]
        },
        "primaryType": "Permit",
        "domain": {"name": "Demo Token", "version": "1", "chainId": 31337, "verifyingContract": token},
        "message": {"owner": address, "spender": spender, "value": permit.value.to_string(), "nonce": 0, "deadline": permit.deadline.to_string()}
    });
    let asking = dapp_call(
        http,
        port,
        "eth_signTypedData_v4",
        json!([address, typed.to_string()]),
    );
    app.text_when("[data-testid='permit-allowance']", |t| t == "1.5 DEMO")
        .await?;
    app.shot("34-permit").await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    let signature = signature_of(&asking.await??)?;
    stack.demo.submit_permit(token, permit, &signature).await?;
    assert_eq!(
        stack.demo.allowance(token, account, spender).await?,
        permit.value
    );
    Ok(())
}

/// The site sends a transaction that mints it an NFT (`claim`): the page shows
/// the call and the NFT arriving; sent with the PIN, the NFT is the wallet's on
/// chain and the transaction in Activity. A mint only the contract's owner may
/// make would fail: refused before the PIN.
async fn a_site_sends_a_transaction(
    app: &App,
    stack: &LocalStack,
    http: &reqwest::Client,
    port: u16,
) -> anyhow::Result<()> {
    let accounts = call_from(http, port, Some(DAPP), "eth_accounts", json!([])).await?;
    let address = accounts["result"][0]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no account: {accounts}"))?
        .to_owned();
    let account: Address = address.parse()?;
    let pals = stack.demo.pals;

    let owner_only = DemoNft::mintCall {
        to: account,
        uri: "data:,x".into(),
    }
    .abi_encode();
    let asking = dapp_call(
        http,
        port,
        "eth_sendTransaction",
        json!([{"from": address, "to": pals, "data": format!("0x{}", alloy::hex::encode(owner_only))}]),
    );
    app.text_when("[data-testid='sign-refusal']", |t| t.contains("owner only"))
        .await?;
    app.shot("36-transaction-refused").await?;
    app.click("[data-testid='sign-reject']").await?;
    assert_eq!(asking.await??["error"]["code"], 4001);

    let id = stack.demo.next_pal_id().await?;
    let claim = DemoNft::claimCall {
        uri: satchel_devstack::demo::metadata_uri(
            "Claimed Pal",
            "Claimed from the example dapp",
            "#4f46e5",
            Value::Null,
        ),
    }
    .abi_encode();
    let asking = dapp_call(
        http,
        port,
        "eth_sendTransaction",
        json!([{"from": address, "to": pals, "data": format!("0x{}", alloy::hex::encode(claim))}]),
    );
    app.text_when("[data-testid='tx-changes']", |t| {
        t.contains(&format!("You receive NFT #{id}"))
    })
    .await?;
    app.shot("35-transaction").await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    let answer = asking.await??;
    let hash = answer["result"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no hash: {answer}"))?
        .to_owned();
    app.until("the NFT is the wallet's on chain", || async {
        Ok(stack.demo.pal_owner(id).await? == account)
    })
    .await?;
    app.click("#nav-wallet").await?;
    activity_lists(app, &hash).await?;
    Ok(())
}
