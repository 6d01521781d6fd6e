//! A dapp in the browser through Satchel Connector (the extension), against
//! the same requests sent to Satchel's endpoint directly. Headless Chromium
//! with the extension, linked to Satchel as a person links it, opens the
//! example dapp, which finds Satchel by EIP-6963 and connects with the
//! person's yes. Then
//!
//! - `eth_call` (the demo token's `decimals()`) from the page through the
//!   extension, each on the page's clock, beside the same call sent to the
//!   endpoint by this process, in alternating blocks;
//! - where that time goes, in the same blocks: a message from the page to the
//!   extension's content script and back (one the content script answers
//!   itself), and `eth_chainId` (which the endpoint answers without the node)
//!   through the extension and directly;
//! - the page's `eth_sendTransaction` to Satchel's approval page painted: from
//!   the request leaving the page to the approval page's `shown approval`
//!   mark, on the wall clock both share; each rejected before the next.

use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use satchel_devstack::{ExampleDapp, LocalStack};
use satchel_tests::desktop::{self, Desktop};
use satchel_tests::extension_link::{browser_with_extension, follow_port, link};
use serde_json::json;

use crate::memory::wait_gone;

/// `decimals()`: a read the node answers at once, so the path is what is timed.
const DECIMALS: &str = "0x313ce567";
/// Calls of each block, before which one call is left out (the first after
/// a pause opens connections).
const CALLS_PER_BLOCK: usize = 25;

/// What the session measured.
pub struct ThroughExtension {
    /// `eth_call` from the page through the extension, each.
    pub page_calls: Vec<Duration>,
    /// The same call sent to the endpoint by this process, each.
    pub direct_calls: Vec<Duration>,
    /// The page's `eth_sendTransaction` to the approval page shown, each.
    pub approvals: Vec<Duration>,
    /// The hops: the page to the content script and back; `eth_chainId` from
    /// the page through the extension, and sent to the endpoint directly.
    pub bridge_trips: Vec<Duration>,
    pub page_chain_ids: Vec<Duration>,
    pub direct_chain_ids: Vec<Duration>,
}

/// One session: Satchel on its wallet page with its endpoint on `port`,
/// Chromium with the extension; `blocks` blocks of calls each way, then
/// `approvals` transactions asked for and rejected.
pub async fn through_the_extension(
    desktop: &Desktop,
    stack: &LocalStack,
    port: u16,
    blocks: usize,
    approvals: usize,
) -> anyhow::Result<ThroughExtension> {
    let dapp = ExampleDapp::serve(0, &stack.demo, "http://127.0.0.1:9/").await?;
    let browser = browser_with_extension().await?;
    let (program, app) = crate::satchel_on_the_wallet_page(desktop).await?;
    follow_port(&browser, port).await?;
    link(&app, &browser, None).await?;

    // The page finds Satchel by itself and connects with the person's yes.
    browser
        .open(&format!("{}/?wallet=discover", dapp.url))
        .await?;
    browser
        .text_when("#wallets", |t| t.contains("Satchel"))
        .await?;
    browser.click("#connect").await?;
    app.text_when("[data-testid='connect-origin']", |t| t == dapp.url)
        .await?;
    app.click("[data-testid='connect-approve']").await?;
    let account = browser
        .text_when("#account", |t| t.starts_with("0x"))
        .await?
        .trim()
        .to_owned();

    let call = json!({"to": format!("{:#x}", stack.demo.token18), "data": DECIMALS});
    let call_params = json!([call, "latest"]);
    let http = reqwest::Client::new();
    let endpoint = format!("http://127.0.0.1:{port}/");
    let direct = |method: &'static str, params: serde_json::Value| {
        let (http, endpoint) = (http.clone(), endpoint.clone());
        async move {
            let started = Instant::now();
            let answer: serde_json::Value = http
                .post(&endpoint)
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            let took = started.elapsed();
            let result = answer["result"]
                .as_str()
                .with_context(|| format!("the endpoint answered {answer}"))?
                .to_owned();
            anyhow::Ok((took, result))
        }
    };
    let (_, expected) = direct("eth_call", call_params.clone()).await?;
    let (_, chain_id) = direct("eth_chainId", json!([])).await?;
    let (mut page_calls, mut direct_calls) = (Vec::new(), Vec::new());
    let (mut page_chain_ids, mut direct_chain_ids) = (Vec::new(), Vec::new());
    let mut bridge_trips = Vec::new();
    for _ in 0..blocks {
        for (method, params, answer, times) in [
            ("eth_call", &call_params, &expected, &mut direct_calls),
            ("eth_chainId", &json!([]), &chain_id, &mut direct_chain_ids),
        ] {
            let _ = direct(method, params.clone()).await?;
            for _ in 0..CALLS_PER_BLOCK {
                let (took, result) = direct(method, params.clone()).await?;
                anyhow::ensure!(&result == answer, "the endpoint answered {result}");
                times.push(took);
            }
        }
        page_calls.extend(page_block(&browser, "eth_call", &call_params, &expected).await?);
        page_chain_ids.extend(page_block(&browser, "eth_chainId", &json!([]), &chain_id).await?);
        bridge_trips.extend(bridge_block(&browser).await?);
    }

    let mut shown = Vec::with_capacity(approvals);
    for _ in 0..approvals {
        app.script("performance.clearMarks('shown approval'); return true")
            .await?;
        let sent = browser
            .run(&format!(
                "window.__benchAnswer = null;
                 const sent = performance.timeOrigin + performance.now();
                 window.ethereum.request({{ method: 'eth_sendTransaction', params: [{{ from: {account:?}, to: {account:?}, value: '0x1' }}] }})
                   .then((ok) => {{ window.__benchAnswer = {{ ok }}; }}, (e) => {{ window.__benchAnswer = {{ code: e.code }}; }});
                 return sent"
            ))
            .await?
            .as_f64()
            .context("the page did not tell when it sent the transaction")?;
        let at = crate::approval_shown_at(&app).await?;
        shown.push(Duration::from_secs_f64((at - sent).max(0.0) / 1000.0));
        app.click("#tx-pin-cancel").await?;
        let deadline = Instant::now() + desktop::PATIENCE;
        loop {
            let answer = browser.run("return window.__benchAnswer").await?;
            if !answer.is_null() {
                anyhow::ensure!(
                    answer["code"] == 4001,
                    "the rejected transaction was answered {answer}"
                );
                break;
            }
            if Instant::now() > deadline {
                bail!("the page was not told the transaction was rejected");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        app.until("the approval page is gone", || async {
            Ok(app.count("[data-testid='connect-request']").await? == 0)
        })
        .await?;
    }
    browser.close().await;
    app.quit().await?;
    wait_gone(&program).await?;
    Ok(ThroughExtension {
        page_calls,
        direct_calls,
        approvals: shown,
        bridge_trips,
        page_chain_ids,
        direct_chain_ids,
    })
}

/// One block of requests `method` from the page through the extension, one
/// after the other (the first left out), each on the page's clock; every
/// answer must be `expected`.
async fn page_block(
    browser: &satchel_devstack::Browser,
    method: &str,
    params: &serde_json::Value,
    expected: &str,
) -> anyhow::Result<Vec<Duration>> {
    timed_block(
        browser,
        &format!(
            "const params = {params};
             const ask = async () => {{
               const result = await window.ethereum.request({{ method: {method:?}, params }});
               if (result !== {expected:?}) throw new Error('answered ' + result);
             }};"
        ),
    )
    .await
}

/// One block of messages from the page to the extension's content script,
/// which answers them itself (a request it refuses: its id is not a number):
/// the first hop and back, on the page's clock.
async fn bridge_block(browser: &satchel_devstack::Browser) -> anyhow::Result<Vec<Duration>> {
    timed_block(
        browser,
        "let next = 0;
         const ask = () => new Promise((answered) => {
           const id = 'bench-' + next++;
           const heard = (event) => {
             if (event.source !== window || event.data?.target !== 'satchel-connector:bridge' || event.data.id !== id) return;
             window.removeEventListener('message', heard);
             answered();
           };
           window.addEventListener('message', heard);
           window.postMessage({ target: 'satchel-connector:page', id, method: 'eth_chainId' }, location.origin);
         });",
    )
    .await
}

/// Runs `ask` (defined by `define`: an async function) `CALLS_PER_BLOCK + 1`
/// times in the page, one after the other, and gives each one's time on the
/// page's clock (the first left out).
async fn timed_block(
    browser: &satchel_devstack::Browser,
    define: &str,
) -> anyhow::Result<Vec<Duration>> {
    browser
        .run(&format!(
            "{define}
             const state = {{ done: false, error: null, times: [] }};
             window.__benchCalls = state;
             (async () => {{
               for (let i = 0; i <= {CALLS_PER_BLOCK}; i++) {{
                 const started = performance.now();
                 await ask();
                 const took = performance.now() - started;
                 if (i > 0) state.times.push(took);
               }}
               state.done = true;
             }})().catch((e) => {{ state.error = String(e); }});
             return true"
        ))
        .await?;
    let deadline = Instant::now() + desktop::PATIENCE;
    while Instant::now() < deadline {
        let state = browser.run("return window.__benchCalls").await?;
        if let Some(error) = state["error"].as_str() {
            bail!("a request from the page failed: {error}");
        }
        if state["done"] == json!(true) {
            return Ok(state["times"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|ms| ms.as_f64())
                .map(|ms| Duration::from_secs_f64(ms / 1000.0))
                .collect());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    bail!("the page's requests took over {:?}", desktop::PATIENCE)
}
