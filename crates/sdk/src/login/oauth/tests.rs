//! The OAuth login against a fake browser (it reads the authorize URL and then
//! requests the loopback redirect with a query of the test's choosing) and a
//! stand-in service that records what it is sent.

use std::collections::{HashMap, VecDeque};

use satchel_api::{IdentityTokens, LoginErrorResult, ServiceErrorCode, ServiceToken};

use super::*;
use crate::keychain::session::StoredSession;
use crate::login::test_service::{
    AUTHORIZE_URL, Answer, CLIENT_ID, SCOPES, TestService, identity_tokens,
};

/// What the fake browser requests at the redirect, given the authorize URL's
/// query: paths with their query, in order.
type Plan = Box<dyn Fn(&HashMap<String, String>) -> Vec<String> + Send + Sync>;

#[derive(Default)]
struct FakeBrowser {
    /// One plan per login, in order; a login beyond them gets no visit.
    plans: parking_lot::Mutex<VecDeque<Plan>>,
    /// Each URL it was asked to open.
    opened_urls: parking_lot::Mutex<Vec<Url>>,
    /// Status and body of each page it got back.
    pages: parking_lot::Mutex<Vec<(u16, String)>>,
    opened: Notify,
    /// Told when the visits of a login are over.
    visited: Notify,
}

impl FakeBrowser {
    fn with(plans: Vec<Plan>) -> Arc<Self> {
        Arc::new(Self {
            plans: parking_lot::Mutex::new(plans.into()),
            ..Self::default()
        })
    }

    /// The pages it got back, once its visits are over (the login may end
    /// before the browser has read the last page).
    async fn pages(&self) -> Vec<(u16, String)> {
        self.visited.notified().await;
        self.pages.lock().clone()
    }
}

fn visit(plan: impl Fn(&str) -> Vec<String> + Send + Sync + 'static) -> Plan {
    Box::new(move |query| plan(&query["state"]))
}

/// The callback a provider sends after a login: the code and the state.
fn comes_back() -> Plan {
    visit(|state| vec![format!("/callback?code=the-code&state={state}")])
}

fn stays_away() -> Plan {
    Box::new(|_| Vec::new())
}

impl OpenUrl for Arc<FakeBrowser> {
    fn open_url(&self, url: &str) -> Result<(), String> {
        let url = Url::parse(url).map_err(|e| e.to_string())?;
        self.opened_urls.lock().push(url.clone());
        let query: HashMap<String, String> = url.query_pairs().into_owned().collect();
        let visits = match self.plans.lock().pop_front() {
            Some(plan) => plan(&query),
            None => Vec::new(),
        };
        let redirect = Url::parse(&query["redirect_uri"]).map_err(|e| e.to_string())?;
        let me = self.clone();
        tokio::spawn(async move {
            let http = reqwest::Client::builder()
                .no_proxy()
                .build()
                .expect("client");
            for path in visits {
                let url = redirect.join(&path).expect("url");
                let response = http.get(url).send().await.expect("the loopback answers");
                let status = response.status().as_u16();
                let body = response.text().await.expect("body");
                me.pages.lock().push((status, body));
            }
            me.visited.notify_one();
        });
        self.opened.notify_one();
        Ok(())
    }
}

async fn setup(answer: Answer, plans: Vec<Plan>) -> (TestService, Arc<FakeBrowser>, Login) {
    let service = TestService::start(answer).await;
    let browser = FakeBrowser::with(plans);
    let login = service
        .login(|l| l.with_browser(Arc::new(browser.clone())))
        .await;
    (service, browser, login)
}

fn login_code(e: &SdkError) -> LoginLibraryError {
    match e.code {
        ErrorCode::Login(code) => code,
        other => panic!("not a login-library error: {other:?} {}", e.message),
    }
}

#[tokio::test]
async fn a_login_sends_s256_of_the_verifier_it_exchanges() {
    let (service, browser, login) = setup(Answer::Success, vec![comes_back()]).await;
    let reply = login
        .login_with_oauth_provider("google", None)
        .await
        .expect("logged in");
    assert_eq!(
        reply,
        LoginReply::Success(identity_tokens(Provider::Google))
    );

    let url = browser.opened_urls.lock()[0].clone();
    assert!(url.as_str().starts_with(AUTHORIZE_URL), "{}", url.path());
    let query: HashMap<String, String> = url.query_pairs().into_owned().collect();
    let exchanges = service.recorded.calls_to("/v1/auth/oauth/token");
    assert_eq!(exchanges.len(), 1);
    let exchange = &exchanges[0];
    let verifier = exchange["codeVerifier"].as_str().expect("verifier");
    assert_eq!(verifier.len(), 43);
    assert!(
        verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    assert_eq!(query["code_challenge"], code_challenge(verifier));
    assert_ne!(query["code_challenge"], verifier);
    assert_eq!(query["code_challenge_method"], "S256");
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["scope"], SCOPES);
    assert_eq!(query["state"].len(), 43);
    assert_eq!(exchange["provider"], "google");
    assert_eq!(exchange["code"], "the-code");
    assert_eq!(exchange["nonce"], query["nonce"].as_str());
    assert_ne!(query["nonce"], query["state"]);
    let redirect = exchange["redirectUri"].as_str().expect("redirect");
    assert_eq!(query["redirect_uri"], redirect);
    let redirect = Url::parse(redirect).expect("url");
    assert_eq!(redirect.host_str(), Some("127.0.0.1"));
    assert_eq!(redirect.path(), "/callback");

    let pages = browser.pages().await;
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].0, 200);
    assert!(
        pages[0]
            .1
            .contains("You can close this tab and go back to the app")
    );
    assert!(!pages[0].1.contains("src="), "no external resources");
}

/// The desktop shell awaits these in its commands, on a multi-threaded runtime.
#[test]
fn the_logins_can_move_between_threads() {
    fn send<T: Send>(_: T) {}
    let login = Login::new("app", "key", Arc::new(crate::MemoryStore::default()));
    send(login.login_with_oauth_provider("google", None));
    send(login.login_with_id_token("t", "s"));
    send(login.login_with_access_token("naver", "t", "s"));
    send(login.send_verify_email("a@b.co", "naver", "", "t"));
    send(login.resume_login(Provider::Naver, "", "t"));
}

/// RFC 7636 appendix B.
#[test]
fn the_challenge_is_rfc_7636s() {
    assert_eq!(
        code_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    );
}

#[tokio::test]
async fn a_different_state_ends_nothing_and_the_login_waits_for_its_own() {
    // Another program on this computer reaches the loopback first, with a state
    // and a code of its own; then the provider sends the browser back.
    let plan = visit(|state| {
        vec![
            "/callback?code=stolen&state=someone-elses".into(),
            "/callback?error=access_denied".into(),
            format!("/callback?code=the-code&state={state}"),
        ]
    });
    let (service, browser, login) = setup(Answer::Success, vec![plan]).await;
    let reply = login
        .login_with_oauth_provider("google", None)
        .await
        .expect("the login's own callback logs in");
    assert!(matches!(reply, LoginReply::Success(_)), "{reply:?}");
    let exchanges = service.recorded.calls_to("/v1/auth/oauth/token");
    assert_eq!(exchanges.len(), 1, "only the login's own code is exchanged");
    assert_eq!(exchanges[0]["code"], "the-code");
    let pages = browser.pages().await;
    assert!(pages[0].1.contains("Not this login"), "{}", pages[0].1);
    assert!(pages[1].1.contains("Not this login"), "{}", pages[1].1);
}

#[tokio::test]
async fn access_denied_is_user_canceled() {
    let plan = visit(|state| vec![format!("/callback?error=access_denied&state={state}")]);
    let (service, browser, login) = setup(Answer::Success, vec![plan]).await;
    let e = login
        .login_with_oauth_provider("google", None)
        .await
        .expect_err("refused");
    assert_eq!(login_code(&e), LoginLibraryError::UserCanceled);
    assert_eq!(
        serde_json::to_value(&e).expect("json")["code"],
        "User canceled"
    );
    assert!(service.recorded.calls_to("/v1/auth/oauth/token").is_empty());
    assert!(browser.pages().await[0].1.contains("canceled"));
}

#[tokio::test]
async fn another_provider_error_is_internal_with_its_code() {
    let plan = visit(|state| {
        vec![format!(
            "/callback?error=invalid_scope&error_description=no&state={state}"
        )]
    });
    let (service, _browser, login) = setup(Answer::Success, vec![plan]).await;
    let e = login
        .login_with_oauth_provider("google", None)
        .await
        .expect_err("refused");
    assert_eq!(login_code(&e), LoginLibraryError::InternalError);
    assert!(e.message.contains("invalid_scope"), "{}", e.message);
    assert!(service.recorded.calls_to("/v1/auth/oauth/token").is_empty());
}

#[tokio::test]
async fn a_stray_request_does_not_end_the_wait() {
    let plan = visit(|state| {
        vec![
            "/favicon.ico".into(),
            format!("/callback?code=the-code&state={state}"),
        ]
    });
    let (_service, browser, login) = setup(Answer::Success, vec![plan]).await;
    let reply = login
        .login_with_oauth_provider("google", None)
        .await
        .expect("logged in after the favicon");
    assert!(matches!(reply, LoginReply::Success(_)));
    let pages = browser.pages().await;
    assert_eq!(pages[0].0, 404);
    assert_eq!(pages[1].0, 200);
}

#[tokio::test]
async fn cancel_oauth_ends_the_wait() {
    let (service, browser, login) = setup(Answer::Success, vec![stays_away()]).await;
    let (result, ()) = tokio::join!(login.login_with_oauth_provider("google", None), async {
        browser.opened.notified().await;
        login.cancel_oauth();
    });
    let e = result.expect_err("canceled");
    assert_eq!(login_code(&e), LoginLibraryError::UserCanceled);
    assert!(service.recorded.calls_to("/v1/auth/oauth/token").is_empty());
    login.cancel_oauth(); // nothing waits: nothing happens
}

#[tokio::test]
async fn a_second_login_cancels_the_first() {
    let (_service, browser, login) = setup(Answer::Success, vec![stays_away(), comes_back()]).await;
    let (first, second) = tokio::join!(login.login_with_oauth_provider("google", None), async {
        browser.opened.notified().await;
        login.login_with_oauth_provider("google", None).await
    });
    let e = first.expect_err("replaced");
    assert_eq!(login_code(&e), LoginLibraryError::UserCanceled);
    assert!(matches!(second.expect("logged in"), LoginReply::Success(_)));
}

#[tokio::test]
async fn no_answer_in_time_is_user_canceled() {
    let (_service, _browser, login) = setup(Answer::Success, vec![stays_away()]).await;
    let login = login.with_oauth_timeout(Duration::from_millis(200));
    let e = login
        .login_with_oauth_provider("google", None)
        .await
        .expect_err("timed out");
    assert_eq!(login_code(&e), LoginLibraryError::UserCanceled);
    assert!(e.message.contains("timed out"), "{}", e.message);
}

#[tokio::test]
async fn unknown_or_unregistered_providers_are_invalid_provider() {
    let (service, browser, login) = setup(Answer::Success, Vec::new()).await;
    for provider in ["twitter", "email", "external_token", "Google", ""] {
        let e = login
            .login_with_oauth_provider(provider, None)
            .await
            .expect_err("not an OAuth provider");
        assert_eq!(
            serde_json::to_value(&e).expect("json")["code"],
            "Invalid provider",
            "{provider}"
        );
    }
    let e = login
        .login_with_oauth_provider("naver", None)
        .await
        .expect_err("not registered");
    assert_eq!(login_code(&e), LoginLibraryError::InvalidProvider);
    assert_eq!(
        e.message,
        "this app has not registered naver with the service"
    );
    assert!(browser.opened_urls.lock().is_empty());
    assert!(service.recorded.calls.lock().is_empty());
}

#[tokio::test]
async fn without_a_browser_or_init_it_is_internal_error() {
    let service = TestService::start(Answer::Success).await;
    let login = service.login(|l| l).await;
    let e = login
        .login_with_oauth_provider("google", None)
        .await
        .expect_err("no browser");
    assert_eq!(login_code(&e), LoginLibraryError::InternalError);
    assert_eq!(e.message, "no browser to open");
    login.finalize().await;
    let e = login
        .login_with_oauth_provider("google", None)
        .await
        .expect_err("not initialised");
    assert_eq!(login_code(&e), LoginLibraryError::InternalError);
}

#[tokio::test]
async fn an_identity_without_e_mail_is_register_email_with_its_token() {
    let (_service, _browser, login) = setup(Answer::RegisterEmail, vec![comes_back()]).await;
    let reply = login
        .login_with_oauth_provider("google", None)
        .await
        .expect("a reply");
    assert_eq!(
        reply,
        LoginReply::Failure(LoginErrorResult {
            error: "required/register_email".into(),
            id_token: Some("refused-id-token".into()),
            access_token: None,
            provider: Some(Provider::Google),
        })
    );
}

#[tokio::test]
async fn a_refused_code_is_internal_error_with_the_services_message() {
    let answer = Answer::Error(
        401,
        ServiceErrorCode::InvalidToken,
        "the provider refused the code: it was used already",
    );
    let (_service, _browser, login) = setup(answer, vec![comes_back()]).await;
    let e = login
        .login_with_oauth_provider("google", None)
        .await
        .expect_err("refused");
    assert_eq!(login_code(&e), LoginLibraryError::InternalError);
    assert_eq!(
        e.message,
        "the provider refused the code: it was used already"
    );
}

#[tokio::test]
async fn a_stored_session_is_logged_out_unless_with_logout_is_true() {
    let (service, _browser, login) = setup(Answer::Success, vec![comes_back(), comes_back()]).await;
    // A service access token that ends in the far future, so logout needs no renewal.
    let access = format!("h.{}.s", URL_SAFE_NO_PAD.encode(br#"{"exp":99999999999}"#));
    let session = StoredSession {
        provider: Provider::Email,
        identity: IdentityTokens {
            id_token: "id".into(),
            refresh_token: "refresh".into(),
        },
        service: ServiceToken {
            access_token: access,
            refresh_token: "service-refresh".into(),
        },
        user_id: "user-1".into(),
    };
    login.save(Some(session)).await.expect("saved");
    login
        .login_with_oauth_provider("google", Some(true))
        .await
        .expect("logged in");
    assert!(service.recorded.calls_to("/v1/auth/logout").is_empty());
    assert!(login.session().await.expect("read").is_some());
    login
        .login_with_oauth_provider("google", Some(false))
        .await
        .expect("logged in");
    assert_eq!(service.recorded.calls_to("/v1/auth/logout").len(), 1);
    assert!(login.session().await.expect("read").is_none());
}
