//! The loopback OpenID provider driven by hand through headless Chromium: the
//! authorization code flow with PKCE, as an app with a loopback redirect does it.
//! Needs node (with the npm packages of devstack/: scripts/setup.sh), chromium and chromedriver;
//! `SATCHEL_SKIP_BROWSER=1` skips these tests where they are missing.

use std::collections::HashMap;
use std::time::Instant;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use satchel_devstack::{Browser, OAuthClient, OidcProvider, ProviderEndpoints};
use serde_json::Value;
use sha2::Digest as _;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use url::Url;

/// Whether the tools are here; without them the test fails unless skipped.
fn tools_present() -> bool {
    match satchel_devstack::browser::missing_tools() {
        None => true,
        Some(why) => {
            satchel_devstack::missing_dependency("BROWSER", &why);
            false
        }
    }
}

/// An app's loopback redirect target: answers every request with a small page.
struct Loopback {
    redirect_uri: String,
    task: tokio::task::JoinHandle<()>,
}

impl Loopback {
    async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("bind");
        let port = listener.local_addr().expect("address").port();
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut buf = [0u8; 1024];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&buf[..n]),
                        }
                    }
                    let body = "<!DOCTYPE html><html><body><p id=\"done\">Signed in. You can close this window.</p></body></html>";
                    let answer = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = stream.write_all(answer.as_bytes()).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        Self {
            redirect_uri: format!("http://127.0.0.1:{port}/callback"),
            task,
        }
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn random_b64(bytes: usize) -> String {
    URL_SAFE_NO_PAD.encode((0..bytes).map(|_| rand::random::<u8>()).collect::<Vec<_>>())
}

/// One authorization request: its URL and what the app keeps to finish it.
struct Authorization {
    url: String,
    state: String,
    nonce: String,
    verifier: String,
}

fn authorization(
    endpoints: &ProviderEndpoints,
    client: &OAuthClient,
    redirect_uri: &str,
) -> Authorization {
    let state = random_b64(16);
    let nonce = random_b64(16);
    let verifier = random_b64(32);
    let challenge = URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier.as_bytes()));
    let mut url = endpoints.authorize_url.clone();
    url.query_pairs_mut()
        .append_pair("client_id", &client.client_id)
        .append_pair("response_type", "code")
        .append_pair("redirect_uri", redirect_uri)
        .append_pair("scope", "openid email")
        .append_pair("state", &state)
        .append_pair("nonce", &nonce)
        .append_pair("code_challenge", &challenge)
        .append_pair("code_challenge_method", "S256");
    Authorization {
        url: url.into(),
        state,
        nonce,
        verifier,
    }
}

fn query(url: &Url) -> HashMap<String, String> {
    url.query_pairs().into_owned().collect()
}

/// The token endpoint's answer to an authorization code (status, JSON).
async fn exchange(
    endpoints: &ProviderEndpoints,
    client: &OAuthClient,
    redirect_uri: &str,
    code: &str,
    verifier: &str,
) -> (reqwest::StatusCode, Value) {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("grant_type", "authorization_code")
        .append_pair("code", code)
        .append_pair("redirect_uri", redirect_uri)
        .append_pair("code_verifier", verifier)
        .finish();
    let answer = reqwest::Client::new()
        .post(endpoints.token_url.clone())
        .basic_auth(&client.client_id, Some(&client.client_secret))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .expect("token request");
    let status = answer.status();
    (status, answer.json().await.expect("token json"))
}

/// The id token's claims, its signature checked against the provider's JWKS.
async fn verified_id_token(
    endpoints: &ProviderEndpoints,
    client: &OAuthClient,
    id_token: &str,
) -> Value {
    let header = jsonwebtoken::decode_header(id_token).expect("id token header");
    assert_eq!(header.alg, Algorithm::RS256);
    let jwks: JwkSet = reqwest::get(endpoints.jwks_url.clone())
        .await
        .expect("jwks")
        .json()
        .await
        .expect("jwks json");
    let jwk = jwks
        .find(header.kid.as_deref().expect("kid"))
        .expect("the id token's key is in the JWKS");
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[&client.client_id]);
    validation.set_issuer(&[&endpoints.issuer]);
    jsonwebtoken::decode::<Value>(
        id_token,
        &DecodingKey::from_jwk(jwk).expect("key"),
        &validation,
    )
    .expect("a valid id token")
    .claims
}

/// Logs in at the provider in the browser; the callback's code after its state was checked.
async fn log_in(browser: &Browser, authorization: &Authorization, login: &str) -> String {
    let started = Instant::now();
    let callback = browser
        .log_in_at_provider(&authorization.url, login)
        .await
        .expect("log in at the provider");
    eprintln!("browser login as {login}: {:?}", started.elapsed());
    let params = query(&callback);
    assert_eq!(callback.path(), "/callback");
    assert_eq!(params.get("state"), Some(&authorization.state));
    assert!(!params.contains_key("error"), "{params:?}");
    params.get("code").expect("a code").clone()
}

#[tokio::test]
async fn authorization_code_flow_with_pkce_through_headless_chromium() {
    if !tools_present() {
        return;
    }
    let provider = OidcProvider::start().await.expect("start the provider");
    let endpoints = provider.endpoints().await.expect("discovery");
    assert_eq!(
        endpoints.issuer,
        provider.issuer.as_str().trim_end_matches('/')
    );
    let browser = Browser::start().await.expect("start the browser");
    let loopback = Loopback::start().await;
    let redirect = loopback.redirect_uri.as_str();

    // Google stand-in: OpenID Connect, the id token carries the e-mail.
    let google = authorization(&endpoints, &provider.google, redirect);
    let code = log_in(&browser, &google, "demo").await;
    assert_eq!(
        browser.page_text().await.expect("page text"),
        "Signed in. You can close this window."
    );
    let (status, tokens) = exchange(
        &endpoints,
        &provider.google,
        redirect,
        &code,
        &google.verifier,
    )
    .await;
    assert!(status.is_success(), "{status} {tokens}");
    let claims = verified_id_token(
        &endpoints,
        &provider.google,
        tokens["id_token"].as_str().expect("an id token"),
    )
    .await;
    assert_eq!(claims["sub"], "demo");
    assert_eq!(claims["email"], "demo@satchel.dev");
    assert_eq!(claims["email_verified"], true);
    assert_eq!(claims["nonce"], google.nonce.as_str());

    // A code is good once.
    let (status, replay) = exchange(
        &endpoints,
        &provider.google,
        redirect,
        &code,
        &google.verifier,
    )
    .await;
    assert_eq!(status, reqwest::StatusCode::BAD_REQUEST);
    assert_eq!(replay["error"], "invalid_grant");

    // Discord stand-in: OAuth 2, the e-mail comes from userinfo. The browser
    // still has the provider's session: the login page comes anyway.
    let discord = authorization(&endpoints, &provider.discord, redirect);
    let code = log_in(&browser, &discord, "demo").await;
    // The wrong verifier is refused.
    let (status, wrong) = exchange(
        &endpoints,
        &provider.discord,
        redirect,
        &code,
        &random_b64(32),
    )
    .await;
    assert_eq!(status, reqwest::StatusCode::BAD_REQUEST);
    assert_eq!(wrong["error"], "invalid_grant");
    let discord = authorization(&endpoints, &provider.discord, redirect);
    let code = log_in(&browser, &discord, "demo").await;
    let (status, tokens) = exchange(
        &endpoints,
        &provider.discord,
        redirect,
        &code,
        &discord.verifier,
    )
    .await;
    assert!(status.is_success(), "{status} {tokens}");
    let access_token = tokens["access_token"].as_str().expect("an access token");
    let userinfo: Value = reqwest::Client::new()
        .get(endpoints.userinfo_url.clone())
        .bearer_auth(access_token)
        .send()
        .await
        .expect("userinfo")
        .error_for_status()
        .expect("userinfo status")
        .json()
        .await
        .expect("userinfo json");
    assert_eq!(userinfo["sub"], "demo");
    assert_eq!(userinfo["email"], "demo@satchel.dev");
    assert_eq!(userinfo["email_verified"], true);

    // Another person in the same browser: a subject without an e-mail.
    let other = authorization(&endpoints, &provider.google, redirect);
    let code = log_in(&browser, &other, "noemail").await;
    let (status, tokens) = exchange(
        &endpoints,
        &provider.google,
        redirect,
        &code,
        &other.verifier,
    )
    .await;
    assert!(status.is_success(), "{status} {tokens}");
    let claims = verified_id_token(
        &endpoints,
        &provider.google,
        tokens["id_token"].as_str().expect("an id token"),
    )
    .await;
    assert_eq!(claims["sub"], "noemail");
    assert!(claims.get("email").is_none(), "{claims}");

    // Cancel on the login page: back to the app with access_denied.
    let cancelled = authorization(&endpoints, &provider.google, redirect);
    let callback = browser
        .cancel_at_provider(&cancelled.url)
        .await
        .expect("cancel at the provider");
    let params = query(&callback);
    assert_eq!(
        params.get("error").map(String::as_str),
        Some("access_denied")
    );
    assert_eq!(params.get("state"), Some(&cancelled.state));
    assert!(!params.contains_key("code"));

    browser.close().await;
}

#[tokio::test]
async fn only_loopback_callbacks_on_any_port_are_accepted() {
    if !tools_present() {
        return;
    }
    let provider = OidcProvider::start().await.expect("start the provider");
    let endpoints = provider.endpoints().await.expect("discovery");
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("http client");
    for (redirect, allowed) in [
        ("http://127.0.0.1:1234/callback", true),
        ("http://127.0.0.1:65000/callback", true),
        ("http://127.0.0.1/callback", true),
        ("http://127.0.0.1:1234/other", false),
        ("http://127.0.0.2:1234/callback", false),
        ("https://127.0.0.1:1234/callback", false),
        ("http://evil.example/callback", false),
    ] {
        let authorization = authorization(&endpoints, &provider.google, redirect);
        let answer = http
            .get(&authorization.url)
            .send()
            .await
            .expect("authorize");
        if allowed {
            // On to the login page.
            assert_eq!(
                answer.status(),
                reqwest::StatusCode::SEE_OTHER,
                "{redirect}"
            );
            let location = answer.headers()["location"].to_str().expect("location");
            assert!(
                location.starts_with("/interaction/"),
                "{redirect}: {location}"
            );
        } else {
            assert_eq!(
                answer.status(),
                reqwest::StatusCode::BAD_REQUEST,
                "{redirect}"
            );
            let page = answer.text().await.expect("page");
            assert!(page.contains("invalid_redirect_uri"), "{redirect}: {page}");
        }
    }

    // Without PKCE the request goes back to the app with an error.
    let mut url = endpoints.authorize_url.clone();
    url.query_pairs_mut()
        .append_pair("client_id", &provider.google.client_id)
        .append_pair("response_type", "code")
        .append_pair("redirect_uri", "http://127.0.0.1:1234/callback")
        .append_pair("scope", "openid email")
        .append_pair("state", "s");
    let answer = http.get(url).send().await.expect("authorize");
    let location: Url = answer.headers()["location"]
        .to_str()
        .expect("location")
        .parse()
        .expect("a URL");
    let params = query(&location);
    assert_eq!(
        params.get("error").map(String::as_str),
        Some("invalid_request")
    );
}
