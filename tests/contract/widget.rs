//! The widget core against the real service and chain: the life cycle from init to
//! finalize, register with a PIN, accounts, balances, NFTs and the refresh cooldown.
//! The proxy that loses answers stands in for a network that drops them.

use std::sync::Arc;

use alloy::primitives::utils::parse_units;
use satchel_api::{
    LoginStatus, ServiceContentType, ServiceErrorCode, ServiceLifeCycle, ServiceNftScheme,
};
use satchel_sdk::AccountRef;
use satchel_sdk::keychain::{pending_entry, wallet_entry};
use satchel_sdk::vault::KdfStrength;
use satchel_sdk::{
    ErrorCode, KeyState, Login, MemoryStore, SdkErrorCode, ThumbnailSize, Thumbnails, TokenStore,
    Widget,
};
use satchel_tests::{Backend, Stack};

/// The text of the QR code in a PNG, as a scanner reads it.
fn reads_qr(png: &[u8]) -> String {
    let picture = image::load_from_memory(png).expect("a PNG").to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(picture);
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code");
    grids[0].decode().expect("decodes").1
}

async fn widget(stack: &Stack, store: Arc<dyn TokenStore>) -> Widget {
    let login = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    let widget = Widget::new(Arc::new(login), store)
        .with_kdf(KdfStrength::Test)
        .with_networks(stack.service.network_table());
    widget.init(stack.sdk_config()).await.expect("initialised");
    widget
}

pub async fn the_widget_registers_a_wallet_and_shows_it(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    // Sign up and verify through the login library, as the sign-up page does.
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let w = widget(&stack, store.clone()).await;
    assert_eq!(
        w.get_status(),
        ServiceLifeCycle::LoginBeforeRegister,
        "found the stored session"
    );
    assert!(!w.open_widget(), "no wallet yet, no widget");
    let e = w
        .get_accounts(None, false)
        .await
        .expect_err("not registered");
    assert!(e.is(ServiceErrorCode::InvalidLoginSession));
    let e = w.register("12345", false).await.expect_err("short PIN");
    assert!(e.is(ServiceErrorCode::InvalidParameters));

    let user = w.register("246810", false).await.expect("registered");
    assert_eq!(user.user_status.login_status, LoginStatus::Complete);
    assert!(user.wallet_id.is_some());
    assert!(user.token.is_none(), "the widget never hands out tokens");
    assert_eq!(w.get_status(), ServiceLifeCycle::Login);
    let e = w.register("246810", false).await.expect_err("once only");
    assert!(e.is(ServiceErrorCode::InvalidLoginSession));

    let accounts = w.get_accounts(None, false).await.expect("accounts");
    assert_eq!(accounts.len(), 3);
    // EOA-only: every account says isAA false, and withEoa lists the same ones.
    assert!(
        accounts.iter().all(|a| a.is_aa == Some(false)),
        "{accounts:?}"
    );
    assert_eq!(w.get_accounts(None, true).await.expect("withEoa"), accounts);
    let address = accounts[0].address.clone();
    let signer = w
        .unlock("246810", address.parse().expect("an address"))
        .await
        .expect("the PIN opens the key");
    assert_eq!(
        signer.address().to_checksum(None),
        address,
        "the service has the address the device made"
    );
    assert_eq!(
        w.unlock("000000", signer.address())
            .await
            .expect_err("wrong PIN")
            .code,
        ErrorCode::Sdk(SdkErrorCode::WrongPin)
    );
    assert_eq!(
        w.get_accounts(Some(&["elsewhere".to_owned()]), true)
            .await
            .expect("filtered"),
        vec![]
    );

    let before = w.get_balance(None).await.expect("balances");
    assert_eq!(before[0].balance, "0");
    let to = address.parse().expect("address");
    stack
        .demo
        .send_ether(to, parse_units("1.25", 18).expect("units").into())
        .await
        .expect("sent");
    stack
        .demo
        .send_token(
            stack.demo.dollar6,
            to,
            parse_units("420.5", 6).expect("units").into(),
        )
        .await
        .expect("sent");
    stack
        .demo
        .mint_items(to, &[(1, 3), (2, 1)])
        .await
        .expect("minted");
    let after = w.refresh_balances().await.expect("refreshed");
    assert_eq!(after[0].balance, "1.25");
    assert_eq!(after[0].symbol, "ETH");
    let dusd = after[0]
        .tokens
        .iter()
        .find(|t| t.symbol == "DUSD")
        .expect("DUSD");
    assert_eq!(dusd.balance, "420.5");
    let e = w.refresh_balances().await.expect_err("cooldown");
    assert_eq!(e.code, ErrorCode::Sdk(SdkErrorCode::TooManyRequests));

    // getBalance with an account's token contract (RN): that token only.
    let one_token = w
        .get_balance(Some(&[AccountRef {
            network: after[0].network.clone(),
            address: address.to_lowercase(),
            contract: Some(dusd.contract.to_lowercase()),
            is_aa: None,
        }]))
        .await
        .expect("one token");
    assert_eq!(one_token.len(), 1);
    assert_eq!(one_token[0].tokens.len(), 1, "{one_token:?}");
    assert_eq!(one_token[0].tokens[0].symbol, "DUSD");

    // Receive: the address and an EIP-681 URI, its QR code read back by a decoder.
    let coin = AccountRef {
        network: after[0].network.clone(),
        address: address.clone(),
        contract: None,
        is_aa: None,
    };
    let info = w.receive(&coin).await.expect("receive");
    assert_eq!(info.address, address);
    assert_eq!(info.uri, format!("ethereum:{address}@31337"));
    assert_eq!(reads_qr(&w.receive_qr(&info.uri).expect("qr")), info.uri);
    let token = AccountRef {
        contract: Some(dusd.contract.clone()),
        ..coin.clone()
    };
    let info = w.receive(&token).await.expect("receive a token");
    assert_eq!(info.symbol, "DUSD");
    assert!(
        info.uri.ends_with(&format!("/transfer?address={address}")),
        "{}",
        info.uri
    );
    let stranger = AccountRef {
        address: "0x000000000000000000000000000000000000dEaD".into(),
        ..coin.clone()
    };
    assert!(
        w.receive(&stranger)
            .await
            .expect_err("not yours")
            .is(ServiceErrorCode::InvalidParameters)
    );
    assert!(
        w.receive_qr("ethereum:0x000000000000000000000000000000000000dEaD@31337")
            .is_err(),
        "no QR code of an address the widget has not shown"
    );

    assert_eq!(w.get_nfts(false, None).await.expect("none yet"), vec![]);
    let nfts = w.get_nfts(true, None).await.expect("refreshed");
    assert_eq!(nfts.len(), 2);
    let clip = nfts
        .iter()
        .find(|n| n.content_type == ServiceContentType::Video)
        .expect("the clip");
    assert_eq!(clip.contract.scheme, ServiceNftScheme::Erc1155);
    assert_eq!(clip.account.address, address);
    assert_eq!(
        w.get_nfts(false, Some(&["anvil".to_owned()]))
            .await
            .expect("listed")
            .len(),
        2
    );
    assert!(
        w.get_nfts(true, None).await.is_err(),
        "NFT refresh has its cooldown too"
    );

    // Pictures and links of the listed NFTs only: the page cannot make the app
    // fetch or open anything else.
    let thumbnails = tempfile::tempdir().expect("dir");
    w.set_thumbnails(Thumbnails::new(thumbnails.path()).expect("thumbnails"));
    let png = w
        .nft_thumbnail(&clip.image_url, ThumbnailSize::Tile)
        .await
        .expect("a thumbnail of a listed picture");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    for other in ["http://127.0.0.1:9/secret.png", "file:///etc/passwd", ""] {
        assert!(
            w.nft_thumbnail(other, ThumbnailSize::Tile)
                .await
                .expect_err(other)
                .is(ServiceErrorCode::InvalidParameters)
        );
    }
    assert_eq!(
        w.nft_link(&clip.external_link).expect("its link").as_str(),
        clip.external_link
    );
    for other in ["https://phishing.example/", "javascript:alert(1)", ""] {
        assert!(
            w.nft_link(other)
                .expect_err(other)
                .is(ServiceErrorCode::InvalidParameters)
        );
    }

    assert!(w.open_widget());
    assert!(w.close_widget());
    assert_eq!(
        w.get_status(),
        ServiceLifeCycle::Login,
        "closing does not log out"
    );

    // A restart finds the user logged in, with the wallet.
    let restarted = widget(&stack, store.clone()).await;
    assert_eq!(restarted.get_status(), ServiceLifeCycle::Login);
    assert_eq!(
        restarted.get_balance(None).await.expect("balances")[0].balance,
        "1.25"
    );

    w.logout().await.expect("logged out");
    assert_eq!(w.get_status(), ServiceLifeCycle::BeforeLogin);
    w.finalize().await;
    assert_eq!(w.get_status(), ServiceLifeCycle::NotInitialized);
}

/// The balances an app reads as it starts (`read_balances_ahead`) answer the
/// first `getBalance` of all accounts, once; a refresh, a named ask and the
/// second ask read the service again.
pub async fn balances_read_ahead_answer_the_first_ask_once(backend: Backend) {
    let stack = Stack::start(backend).await;
    let (ada, address) = stack
        .registered_widget("ada@example.com", "246810", KdfStrength::Test)
        .await;
    let stored = ada.get_balance(None).await.expect("balances");
    ada.read_balances_ahead().await.expect("read ahead");

    // Another client of the same user refreshes the stored balance after the
    // chain gave the account one more ether.
    stack
        .demo
        .send_ether(address, parse_units("1", 18).expect("units").into())
        .await
        .expect("sent");
    let (token, account_id) = stack.rest_client_of(&ada).await;
    let (status, _) = stack
        .get(&format!("/v1/accountbalance/{account_id}/balance"), &token)
        .await;
    assert_eq!(status, 200);

    assert_eq!(
        ada.get_balance(None).await.expect("balances"),
        stored,
        "the first ask: what was read ahead"
    );
    let now = ada.get_balance(None).await.expect("balances");
    assert_ne!(now, stored, "the second ask reads the service");

    // A refresh never answers with what was read ahead.
    ada.read_balances_ahead().await.expect("read ahead");
    stack
        .demo
        .send_ether(address, parse_units("1", 18).expect("units").into())
        .await
        .expect("sent");
    let refreshed = ada.refresh_balances().await.expect("refreshed");
    assert_ne!(refreshed, now, "the chain's new balance");
    assert_eq!(ada.get_balance(None).await.expect("balances"), refreshed);
}

pub async fn a_wallet_whose_key_is_elsewhere_asks_for_the_pin(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    widget(&stack, store.clone())
        .await
        .register("135790", false)
        .await
        .expect("registered");
    // Another device: the same login, none of the keychain's wallet entries.
    let other: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let login = Login::new(stack.app_id().await, &stack.app_key, other.clone());
    let w = Widget::new(Arc::new(login), other)
        .with_kdf(KdfStrength::Test)
        .with_networks(stack.service.network_table());
    w.init(stack.sdk_config()).await.expect("init");
    let user = w
        .login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in");
    assert_eq!(user.user_status.login_status, LoginStatus::PinRequired);
    assert_eq!(user.user_status.pin_required, Some(true));
    assert_eq!(w.get_status(), ServiceLifeCycle::LoginBeforeRegister);
}

/// A proxy in front of the service that forwards every request, except that it
/// closes the connection instead of passing on the service's answer to the
/// first `POST /v1/wallets`, and then closes the next `after` requests unanswered.
struct LossyProxy {
    url: url::Url,
    dropped_register: Arc<std::sync::atomic::AtomicBool>,
    _task: tokio::task::JoinHandle<()>,
}

async fn lossy_proxy(upstream: url::Url, after: usize) -> LossyProxy {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use http_body_util::{BodyExt as _, Full};
    use hyper::body::{Bytes, Incoming};
    use hyper::{Request, Response, header};
    use hyper_util::rt::TokioIo;

    let lost = || std::io::Error::other("lost on the way");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let url = format!("http://{}/", listener.local_addr().expect("address"))
        .parse()
        .expect("url");
    let dropped_register = Arc::new(AtomicBool::new(false));
    let to_drop = Arc::new(AtomicUsize::new(0));
    let http = reqwest::Client::new();
    let dropped = dropped_register.clone();
    let task = tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (http, upstream) = (http.clone(), upstream.clone());
            let (dropped, to_drop) = (dropped.clone(), to_drop.clone());
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                let (http, upstream) = (http.clone(), upstream.clone());
                let (dropped, to_drop) = (dropped.clone(), to_drop.clone());
                async move {
                    let (parts, body) = request.into_parts();
                    let is_register =
                        parts.method == hyper::Method::POST && parts.uri.path() == "/v1/wallets";
                    if !is_register
                        && to_drop
                            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                            .is_ok()
                    {
                        return Err::<Response<Full<Bytes>>, _>(lost());
                    }
                    let body = body
                        .collect()
                        .await
                        .map_err(std::io::Error::other)?
                        .to_bytes();
                    let target = upstream
                        .join(
                            parts
                                .uri
                                .path_and_query()
                                .map_or("", |p| p.as_str())
                                .trim_start_matches('/'),
                        )
                        .map_err(std::io::Error::other)?;
                    let mut forward = http.request(parts.method.clone(), target).body(body);
                    for (name, value) in &parts.headers {
                        if name != header::HOST && name != header::CONTENT_LENGTH {
                            forward = forward.header(name, value);
                        }
                    }
                    let answer = forward.send().await.map_err(std::io::Error::other)?;
                    let status = answer.status();
                    let headers = answer.headers().clone();
                    let body = answer.bytes().await.map_err(std::io::Error::other)?;
                    if is_register && !dropped.swap(true, Ordering::SeqCst) {
                        // The service has answered (and committed): the answer is lost.
                        to_drop.store(after, Ordering::SeqCst);
                        return Err(lost());
                    }
                    let mut response = Response::builder().status(status);
                    for (name, value) in &headers {
                        if name != header::TRANSFER_ENCODING && name != header::CONTENT_LENGTH {
                            response = response.header(name, value);
                        }
                    }
                    response
                        .body(Full::new(body))
                        .map_err(std::io::Error::other)
                }
            });
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    LossyProxy {
        url,
        dropped_register,
        _task: task,
    }
}

/// A widget that reaches the service at `url`, logged in there as Ada (signed up
/// before), ready to register.
async fn widget_through(stack: &Stack, url: url::Url, store: Arc<dyn TokenStore>) -> Widget {
    let login = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    let widget = Widget::new(Arc::new(login), store)
        .with_kdf(KdfStrength::Test)
        .with_networks(stack.service.network_table());
    let config = satchel_sdk::ServiceConfig::new(url, &stack.domain);
    widget.init(config).await.expect("initialised");
    widget
        .login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in");
    assert_eq!(widget.get_status(), ServiceLifeCycle::LoginBeforeRegister);
    widget
}

/// The wallet's address as the service has it, and the user's id.
async fn registered_address(w: &Widget) -> (String, String) {
    let accounts = w.get_accounts(None, false).await.expect("accounts");
    let user_id = w
        .current_user()
        .and_then(|u| u.user_info)
        .map(|i| i.user_id)
        .expect("a user");
    (accounts[0].address.clone(), user_id)
}

pub async fn a_lost_registration_answer_keeps_the_key_the_service_has(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let proxy = lossy_proxy(stack.sdk_config().service_url, 0).await;
    let w = widget_through(&stack, proxy.url.clone(), store.clone()).await;

    // The service commits, its answer is lost; the widget asks the service and
    // finds its own address there.
    w.register("246810", false)
        .await
        .expect("registered all the same");
    assert!(
        proxy
            .dropped_register
            .load(std::sync::atomic::Ordering::SeqCst)
    );
    assert_eq!(w.get_status(), ServiceLifeCycle::Login);
    assert_eq!(w.key_status().state, KeyState::OnDevice);
    let (address, user_id) = registered_address(&w).await;
    let signer = w
        .unlock("246810", address.parse().expect("an address"))
        .await
        .expect("the key");
    assert_eq!(signer.address().to_checksum(None), address);
    let app_id = stack.app_id().await;
    assert_eq!(store.load(&pending_entry(&app_id, &user_id)), Ok(None));
}

pub async fn a_retried_registration_reuses_the_key_made_first(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    // The answer is lost, and so is the question that would have settled it.
    let proxy = lossy_proxy(stack.sdk_config().service_url, 1).await;
    let w = widget_through(&stack, proxy.url.clone(), store.clone()).await;
    let user_id = w
        .current_user()
        .and_then(|u| u.user_info)
        .map(|i| i.user_id)
        .expect("a user");
    let app_id = stack.app_id().await;

    w.register("246810", false).await.expect_err("no answer");
    assert_eq!(w.get_status(), ServiceLifeCycle::LoginBeforeRegister);
    assert_eq!(
        store.load(&wallet_entry(&app_id, &user_id)),
        Ok(None),
        "no wallet key before the service has confirmed it"
    );
    let pending = store
        .load(&pending_entry(&app_id, &user_id))
        .expect("keychain")
        .expect("the key made is kept for the retry");

    let e = w.register("246813", false).await.expect_err("another PIN");
    assert!(e.is(ServiceErrorCode::InvalidParameters), "{e:?}");
    assert!(e.message.contains("PIN you chose"), "{}", e.message);

    // The retry meets 409 (the wallet exists) and finds its own address there.
    w.register("246810", false)
        .await
        .expect("the retry succeeds");
    assert_eq!(w.get_status(), ServiceLifeCycle::Login);
    let (address, _) = registered_address(&w).await;
    assert!(
        pending.to_lowercase().contains(&address.to_lowercase()),
        "the wallet's address is the first key's"
    );
    let signer = w
        .unlock("246810", address.parse().expect("an address"))
        .await
        .expect("the key");
    assert_eq!(signer.address().to_checksum(None), address);
    assert_eq!(store.load(&pending_entry(&app_id, &user_id)), Ok(None));
}

pub async fn a_key_that_is_not_the_wallets_is_never_shown_as_the_wallet(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let w = widget(&stack, store.clone()).await;
    w.register("246810", false).await.expect("registered");
    let (_, user_id) = registered_address(&w).await;
    // The keychain entry now holds another wallet's key.
    let phrase = satchel_sdk::vault::Phrase::generate().expect("another phrase");
    let others_address = phrase.signer().expect("its first key").address();
    let other = satchel_sdk::vault::PinKey::new_pin("246810", KdfStrength::Test)
        .and_then(|pin| phrase.seal(&pin, &satchel_sdk::vault::new_share()))
        .expect("another key");
    let app_id = stack.app_id().await;
    store
        .save(
            &wallet_entry(&app_id, &user_id),
            &serde_json::to_string(&other).expect("json"),
        )
        .expect("saved");

    // A restart checks the key against the wallet.
    let w = widget(&stack, store.clone()).await;
    assert_eq!(w.key_status().state, KeyState::Mismatch);
    assert_eq!(w.get_status(), ServiceLifeCycle::LoginBeforeRegister);
    let user = w.current_user().expect("logged in");
    assert_eq!(user.user_status.login_status, LoginStatus::PinRequired);
    assert!(!w.open_widget());
    assert!(
        w.get_balance(None)
            .await
            .expect_err("no wallet shown")
            .is(ServiceErrorCode::InvalidLoginSession)
    );
    // Not even for the account the keychain's key does derive.
    let e = w
        .unlock("246810", others_address)
        .await
        .expect_err("the key is never used");
    assert!(e.is(ServiceErrorCode::InvalidLoginSession), "{e:?}");
    assert!(
        w.register("246810", false).await.is_err(),
        "and never replaced by a new one"
    );
}

pub async fn a_pending_key_the_service_has_is_taken_after_a_restart(backend: Backend) {
    let stack = Stack::start(backend).await;
    // The pending key in the OS keychain, found by the restarted widget.
    let Some(store) = satchel_tests::keychain_store() else {
        return;
    };
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    // The answer is lost, and so is the question that would have settled it; the
    // person closes the app.
    let proxy = lossy_proxy(stack.sdk_config().service_url, 1).await;
    let w = widget_through(&stack, proxy.url.clone(), store.clone()).await;
    w.register("246810", false).await.expect_err("no answer");
    drop(w);

    // The next start finds the wallet the service has is the pending key's.
    let login = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    let w = Widget::new(Arc::new(login), store)
        .with_kdf(KdfStrength::Test)
        .with_networks(stack.service.network_table());
    w.init(satchel_sdk::ServiceConfig::new(
        proxy.url.clone(),
        &stack.domain,
    ))
    .await
    .expect("initialised");
    assert_eq!(w.get_status(), ServiceLifeCycle::Login);
    assert_eq!(w.key_status().state, KeyState::OnDevice);
    let (address, _) = registered_address(&w).await;
    let signer = w
        .unlock("246810", address.parse().expect("an address"))
        .await
        .expect("the key");
    assert_eq!(signer.address().to_checksum(None), address);
}

pub async fn login_with_ui_resolves_after_a_login_or_a_close(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let fresh: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let w = Arc::new(widget(&stack, fresh).await);
    assert_eq!(w.get_status(), ServiceLifeCycle::BeforeLogin);

    // Closed before anyone logs in: UserCancelled.
    let waiting = tokio::spawn({
        let w = w.clone();
        async move { w.login_with_ui().await }
    });
    tokio::task::yield_now().await;
    while !waiting.is_finished() {
        w.close_widget();
        tokio::task::yield_now().await;
    }
    let e = waiting.await.expect("joined").expect_err("cancelled");
    assert!(e.is(ServiceErrorCode::UserCancelled), "{e:?}");

    // Someone logs in through the login page: it resolves with the user.
    let waiting = tokio::spawn({
        let w = w.clone();
        async move { w.login_with_ui().await }
    });
    w.login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in");
    let user = waiting.await.expect("joined").expect("the user");
    assert_eq!(user.user_info.expect("info").email, "ada@example.com");
    // Logged in already: at once.
    assert!(w.login_with_ui().await.is_ok());
}

pub async fn login_with_ui_shows_exactly_the_providers_it_is_given(backend: Backend) {
    use satchel_api::Provider;
    use satchel_sdk::LoginProviderChoice;
    let stack = Stack::start(backend).await;
    let app_id = stack.app_id().await;
    for (provider, client_id) in [
        (Provider::Google, "google-client"),
        (Provider::Discord, "discord-client"),
    ] {
        satchel_service::admin::set_oauth_provider(
            &stack.service.state,
            &app_id,
            satchel_service::admin::OAuthProviderSetup {
                provider,
                client_id: client_id.into(),
                client_secret: "secret".into(),
                authorize_url: Some("https://provider.example/authorize".into()),
                token_url: Some("https://provider.example/token".into()),
                issuer: Some("https://provider.example".into()),
                jwks_url: Some("https://provider.example/jwks".into()),
                userinfo_url: Some("https://provider.example/userinfo".into()),
                scopes: None,
            },
        )
        .await
        .expect("registered");
    }
    let w = widget(&stack, Arc::new(MemoryStore::default())).await;
    let choice = |provider: &str, client_id: &str| LoginProviderChoice {
        provider: provider.into(),
        client_id: client_id.into(),
    };

    // Left out: every provider the app registered, and the e-mail form.
    let options = w.login_options().await.expect("options");
    assert_eq!(options.oauth, vec![Provider::Discord, Provider::Google]);
    assert!(options.email);
    assert_eq!(options.prefill_email, None);

    // Exactly the ones asked for, in that order, with the e-mail filled in.
    w.choose_login(
        Some(vec![choice("google", "google-client")]),
        Some(" Ada@Example.com ".into()),
    )
    .await
    .expect("chosen");
    let options = w.login_options().await.expect("options");
    assert_eq!(options.oauth, vec![Provider::Google]);
    assert_eq!(options.prefill_email.as_deref(), Some("ada@example.com"));

    // An empty list: e-mail only.
    w.choose_login(Some(vec![]), None).await.expect("chosen");
    assert!(w.login_options().await.expect("options").oauth.is_empty());

    // A provider the app does not allow, not an OAuth provider, or another
    // client id: InvalidLoginProvider, and the choice before stays.
    for bad in [
        choice("naver", ""),
        choice("email", ""),
        choice("google", "someone-elses-client"),
    ] {
        let e = w
            .choose_login(Some(vec![bad.clone()]), None)
            .await
            .expect_err("refused");
        assert!(
            e.is(ServiceErrorCode::InvalidLoginProvider),
            "{bad:?}: {e:?}"
        );
    }
    assert!(w.login_options().await.expect("options").oauth.is_empty());
}
