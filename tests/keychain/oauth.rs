//! OAuth logins end to end: the login library opens the provider's login page
//! in a real browser (headless Chromium through chromium-driver), the person
//! logs in at the local OpenID provider (`oidc-provider`, standing in for an
//! OIDC provider as "google" and an OAuth2-with-userinfo one as "discord"), the
//! provider redirects to the library's loopback listener, the service exchanges
//! the code, and the session ends up in the OS keychain, where a fresh login
//! library finds it. Then every refusal: a provider the app does not allow, the
//! provider's Cancel, a wrong `state`, a replayed code, an account without
//! e-mail (registered by link, then logged in with the same token).

use std::sync::Arc;

use satchel_api::{LoginLibraryError, LoginReply, OAuthCodeExchange, Provider, ServiceErrorCode};
use satchel_devstack::{Browser, OidcProvider, ProviderEndpoints};
use satchel_sdk::{ErrorCode, KeyringStore, Login, OpenUrl, TokenStore};
use satchel_tests::{Backend, Stack};
use sha2::Digest as _;
use tokio::sync::mpsc;

/// Hands the URL the library would open in the system browser to the test.
struct UrlToTest(mpsc::UnboundedSender<String>);

impl OpenUrl for UrlToTest {
    fn open_url(&self, url: &str) -> Result<(), String> {
        self.0.send(url.to_owned()).map_err(|e| e.to_string())
    }
}

/// A browser, or `None` after recording the skip (fails unless
/// `SATCHEL_SKIP_BROWSER=1`).
async fn browser() -> Option<Browser> {
    if let Some(missing) = satchel_devstack::browser::missing_tools() {
        satchel_devstack::missing_dependency("BROWSER", &missing);
        return None;
    }
    Some(Browser::start().await.expect("headless Chromium"))
}

/// The stack's app with the local provider registered as "google" (OpenID: id
/// token and JWKS) and "discord" (OAuth2: userinfo).
async fn stack_with_providers() -> (Stack, OidcProvider, ProviderEndpoints) {
    let stack = Stack::start(Backend::Sqlite).await;
    let provider = OidcProvider::start()
        .await
        .expect("the local OpenID provider");
    let endpoints = provider.endpoints().await.expect("discovery");
    satchel_devstack::stack::register_providers(
        &stack.service.state,
        &stack.app_id().await,
        &provider,
    )
    .await
    .expect("google and discord registered");
    (stack, provider, endpoints)
}

/// A login library over `store` whose "system browser" is the test.
async fn login_with_browser(
    stack: &Stack,
    store: Arc<dyn TokenStore>,
) -> (Arc<Login>, mpsc::UnboundedReceiver<String>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let login = Login::new(stack.app_id().await, &stack.app_key, store)
        .with_browser(Arc::new(UrlToTest(tx)));
    login.init(stack.sdk_config()).await.expect("initialised");
    (Arc::new(login), rx)
}

/// Runs `login_with_oauth_provider(provider)` while the browser logs in as
/// `account` at the page it was sent to.
async fn oauth_login(
    login: &Arc<Login>,
    urls: &mut mpsc::UnboundedReceiver<String>,
    browser: &Browser,
    provider: &str,
    account: &str,
) -> LoginReply {
    let waiting = {
        let (login, provider) = (login.clone(), provider.to_owned());
        tokio::spawn(async move { login.login_with_oauth_provider(&provider, Some(true)).await })
    };
    let url = urls
        .recv()
        .await
        .expect("the library opens the provider's page");
    browser
        .log_in_at_provider(&url, account)
        .await
        .expect("logged in at the provider");
    waiting.await.expect("joined").expect("the OAuth login")
}

fn keychain(service: &str) -> Option<Arc<KeyringStore>> {
    let store = KeyringStore::new(service);
    match store
        .save("probe", "1")
        .and_then(|()| store.delete("probe"))
    {
        Ok(()) => Some(Arc::new(store)),
        Err(e) => {
            satchel_devstack::missing_dependency(
                "KEYCHAIN",
                &format!("no Secret Service keychain answers ({e})"),
            );
            None
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oauth_logs_in_through_a_real_provider_for_both_provider_styles() {
    let service = format!("dev.satchel.test.{}", uuid::Uuid::new_v4().simple());
    let Some(store) = keychain(&service) else {
        return;
    };
    let Some(browser) = browser().await else {
        return;
    };
    let (stack, _provider, endpoints) = stack_with_providers().await;
    let (login, mut urls) = login_with_browser(&stack, store.clone()).await;

    // OpenID style ("google"): the service checks the id token against the JWKS.
    let reply = oauth_login(&login, &mut urls, &browser, "google", "demo").await;
    let LoginReply::Success(result) = reply else {
        panic!("expected tokens, got {reply:?}");
    };
    assert_eq!(result.provider, Provider::Google);
    let user = login
        .login_service(result.provider, result.token)
        .await
        .expect("service login");
    let info = user.user_info.clone().expect("user info");
    assert_eq!(info.provider, Provider::Google);
    assert_eq!(info.email, "demo@satchel.dev");

    // The session is in the OS keychain: a fresh library over it finds the user.
    let fresh = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    fresh.init(stack.sdk_config()).await.expect("initialised");
    let found = fresh
        .get_current_service_user()
        .await
        .expect("read")
        .expect("the stored session");
    assert_eq!(found.user_info.expect("info").user_id, info.user_id);
    // Identity tokens renew, and keep saying google.
    assert_eq!(
        fresh
            .get_refresh_identity_token()
            .await
            .expect("renewed")
            .provider,
        Provider::Google
    );
    fresh.logout().await.expect("logged out");

    // OAuth2 style ("discord"): the service asks the userinfo endpoint.
    let reply = oauth_login(&login, &mut urls, &browser, "discord", "ada").await;
    let LoginReply::Success(result) = reply else {
        panic!("expected tokens, got {reply:?}");
    };
    assert_eq!(result.provider, Provider::Discord);
    let user = login
        .login_service(result.provider, result.token)
        .await
        .expect("service login");
    let discord = user.user_info.expect("info");
    assert_eq!(discord.provider, Provider::Discord);
    assert_eq!(discord.email, "ada@satchel.dev");
    assert_ne!(discord.user_id, info.user_id);
    assert!(
        login
            .get_current_service_user()
            .await
            .expect("read")
            .is_some()
    );
    login.logout().await.expect("logged out");
    let fresh = Login::new(stack.app_id().await, &stack.app_key, store);
    fresh.init(stack.sdk_config()).await.expect("initialised");
    assert!(
        fresh
            .get_current_service_user()
            .await
            .expect("read")
            .is_none(),
        "logout removes the session from the keychain"
    );
    drop(endpoints);
    browser.close().await;
}

fn login_error(e: &satchel_sdk::SdkError) -> Option<LoginLibraryError> {
    match e.code {
        ErrorCode::Login(code) => Some(code),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_oauth_refusal_says_why_and_keeps_no_session() {
    let Some(browser) = browser().await else {
        return;
    };
    let (stack, provider, endpoints) = stack_with_providers().await;
    let store = Arc::new(satchel_sdk::MemoryStore::default());
    let (login, mut urls) = login_with_browser(&stack, store.clone()).await;

    // A provider the app does not allow, and no provider at all.
    for bad in ["naver", "twitter", "email"] {
        let e = login
            .login_with_oauth_provider(bad, Some(true))
            .await
            .expect_err("refused");
        assert_eq!(
            login_error(&e),
            Some(LoginLibraryError::InvalidProvider),
            "{bad}: {e:?}"
        );
    }

    // The person presses Cancel on the provider's page.
    let waiting = {
        let login = login.clone();
        tokio::spawn(async move { login.login_with_oauth_provider("google", Some(true)).await })
    };
    let url = urls.recv().await.expect("opened");
    browser.cancel_at_provider(&url).await.expect("cancelled");
    let e = waiting.await.expect("joined").expect_err("cancelled");
    assert_eq!(
        login_error(&e),
        Some(LoginLibraryError::UserCanceled),
        "{e:?}"
    );

    // Something else comes back to the loopback with another state: refused,
    // nothing exchanged, and the login waits on for its own callback (which
    // never comes here: the person cancels).
    let waiting = {
        let login = login.clone();
        tokio::spawn(async move { login.login_with_oauth_provider("google", Some(true)).await })
    };
    let url: url::Url = urls.recv().await.expect("opened").parse().expect("url");
    let redirect = url
        .query_pairs()
        .find(|(k, _)| k == "redirect_uri")
        .map(|(_, v)| v.into_owned())
        .expect("a redirect_uri");
    browser
        .open(&format!("{redirect}?code=stolen&state=not-the-one-sent"))
        .await
        .expect("the forged redirect");
    assert!(!waiting.is_finished(), "a forged callback ends no login");
    login.cancel_oauth();
    let e = waiting.await.expect("joined").expect_err("cancelled");
    assert_eq!(
        login_error(&e),
        Some(LoginLibraryError::UserCanceled),
        "{e:?}"
    );
    assert!(store.is_empty(), "no session after a refused login");

    // A code used twice: the provider refuses the second exchange, and so does
    // the service. (By hand, as a thief holding a used code would.)
    let callback = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("listener");
    let redirect_uri = format!("http://{}/callback", callback.local_addr().expect("addr"));
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        while let Ok((mut socket, _)) = callback.accept().await {
            let mut buf = [0u8; 4096];
            let _ = socket.read(&mut buf).await;
            let _ = socket
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok")
                .await;
        }
    });
    let verifier = "v".repeat(43);
    let nonce = "n".repeat(43);
    let challenge = base64::Engine::encode(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD,
        sha2::Sha256::digest(verifier.as_bytes()),
    );
    let mut authorize = endpoints.authorize_url.clone();
    authorize
        .query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", &provider.google.client_id)
        .append_pair("redirect_uri", &redirect_uri)
        .append_pair("scope", "openid email")
        .append_pair("state", "s1")
        .append_pair("nonce", &nonce)
        .append_pair("code_challenge", &challenge)
        .append_pair("code_challenge_method", "S256");
    let landed = browser
        .log_in_at_provider(authorize.as_str(), "demo")
        .await
        .expect("logged in");
    let code = landed
        .query_pairs()
        .find(|(k, _)| k == "code")
        .map(|(_, v)| v.into_owned())
        .expect("a code");
    let exchange = |nonce: &str| {
        serde_json::to_value(OAuthCodeExchange {
            provider: Provider::Google,
            code: code.clone(),
            code_verifier: verifier.clone(),
            redirect_uri: redirect_uri.clone(),
            nonce: nonce.into(),
        })
        .expect("json")
    };
    // Without the nonce the id token cannot be tied to this login: refused
    // before the code is spent.
    let (status, body) = stack.post("/v1/auth/oauth/token", exchange("")).await;
    assert_eq!(status, 400, "{body}");
    let exchange = exchange(&nonce);
    let (status, body) = stack.post("/v1/auth/oauth/token", exchange.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["provider"], "google");
    let (status, body) = stack.post("/v1/auth/oauth/token", exchange).await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(body["code"], "InvalidToken");
    assert!(
        body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("used already"),
        "{body}"
    );

    // An account without e-mail: refused with its id token, which registers an
    // address by link and then logs in.
    let reply = oauth_login(&login, &mut urls, &browser, "google", "noemail").await;
    let LoginReply::Failure(refusal) = reply else {
        panic!("expected required/register_email, got {reply:?}");
    };
    assert_eq!(refusal.error, "required/register_email");
    assert_eq!(refusal.provider, Some(Provider::Google));
    let id_token = refusal.id_token.expect("the refused id token");
    assert!(store.is_empty());
    assert!(
        login
            .send_verify_email("noemail@example.com", "google", &id_token, "")
            .await
            .expect("sent")
    );
    let early = login
        .resume_login(Provider::Google, &id_token, "")
        .await
        .expect_err("not verified yet");
    assert!(
        early.is(ServiceErrorCode::RequiredEmailVerified),
        "{early:?}"
    );
    let link = stack
        .mail_links("noemail@example.com")
        .pop()
        .expect("the registration e-mail");
    assert_eq!(
        satchel_devstack::open_link(&stack.http, &link)
            .await
            .expect("opened")
            .0,
        200
    );
    let result = login
        .resume_login(Provider::Google, &id_token, "")
        .await
        .expect("logged in with the earlier token");
    let user = login
        .login_service(result.provider, result.token)
        .await
        .expect("service login");
    assert_eq!(user.user_info.expect("info").email, "noemail@example.com");
    // The next OAuth login of that account goes straight in.
    login.logout().await.expect("logged out");
    let reply = oauth_login(&login, &mut urls, &browser, "google", "noemail").await;
    assert!(matches!(reply, LoginReply::Success(_)), "{reply:?}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_access_token_logs_in_with_its_sign_after_the_e_mail_is_registered() {
    let Some(browser) = browser().await else {
        return;
    };
    let (stack, _provider, _endpoints) = stack_with_providers().await;
    let backend = stack.example_backend().await;
    let store = Arc::new(satchel_sdk::MemoryStore::default());
    let (login, mut urls) = login_with_browser(&stack, store.clone()).await;

    // A real Discord-style access token of an account without e-mail.
    let reply = oauth_login(&login, &mut urls, &browser, "discord", "noemail").await;
    let LoginReply::Failure(refusal) = reply else {
        panic!("expected required/register_email, got {reply:?}");
    };
    assert_eq!(refusal.provider, Some(Provider::Discord));
    let access_token = refusal.access_token.expect("the access token");

    // The app's backend signs it; anything else is refused before the provider
    // is asked.
    let sign = backend.sign(&access_token);
    let forged =
        satchel_api::login_sign::sign_for_login(&"22".repeat(32), &access_token).expect("sign");
    let e = login
        .login_with_access_token("discord", &access_token, &forged)
        .await
        .expect_err("another key's sign");
    assert!(e.is(ServiceErrorCode::InvalidToken), "{e:?}");
    assert!(
        login.session().await.expect("store").is_none(),
        "a forged sign stores no session"
    );
    let e = login
        .login_with_access_token(
            "discord",
            "not-a-token-the-provider-knows",
            &backend.sign("not-a-token-the-provider-knows"),
        )
        .await
        .expect_err("the provider does not know it");
    assert!(e.is(ServiceErrorCode::InvalidToken), "{e:?}");

    // Signed, but the account has no e-mail: the same refusal, as external_token.
    let reply = login
        .login_with_access_token("discord", &access_token, &sign)
        .await
        .expect("answered");
    let LoginReply::Failure(refusal) = reply else {
        panic!("no e-mail yet: {reply:?}");
    };
    assert_eq!(refusal.access_token.as_deref(), Some(access_token.as_str()));
    assert!(
        login
            .send_verify_email("discord-user@example.com", "discord", "", &access_token)
            .await
            .expect("sent")
    );
    let link = stack
        .mail_links("discord-user@example.com")
        .pop()
        .expect("the registration e-mail");
    assert_eq!(
        satchel_devstack::open_link(&stack.http, &link)
            .await
            .expect("opened")
            .0,
        200
    );

    // The earlier token with its sign now logs in, as the same Discord account.
    let reply = login
        .login_with_access_token("discord", &access_token, &sign)
        .await
        .expect("logged in");
    let LoginReply::Success(result) = reply else {
        panic!("the e-mail is registered: {reply:?}");
    };
    assert_eq!(result.provider, Provider::ExternalToken);
    let user = login
        .login_service(result.provider, result.token)
        .await
        .expect("service login");
    let info = user.user_info.expect("info");
    assert_eq!(info.email, "discord-user@example.com");
    // One Discord account is one user, by OAuth or by access token.
    login.logout().await.expect("logged out");
    let reply = oauth_login(&login, &mut urls, &browser, "discord", "noemail").await;
    let LoginReply::Success(result) = reply else {
        panic!("the e-mail is registered: {reply:?}");
    };
    let again = login
        .login_service(result.provider, result.token)
        .await
        .expect("service login");
    assert_eq!(again.user_info.expect("info").user_id, info.user_id);
    browser.close().await;
}
