//! HTTP to the service: every request carries the app headers, every error comes
//! back as an [`SdkError`] (the service's own code where it sent one), and a
//! network failure is `NotConnectedInternet` or `ApiRequestError`, never a panic.

use std::time::Duration;

use bytes::Bytes;
use reqwest::{Method, StatusCode};
use satchel_api::{ApiErrorBody, RegisterEmailRequired, ServiceErrorCode, headers};
use serde::Serialize;
use serde::de::DeserializeOwned;
use url::Url;

use crate::error::SdkError;

/// Where the service is and who the app is to it.
#[derive(Debug, Clone)]
pub struct ServiceConfig {
    /// e.g. `https://wallet.example.com/`.
    pub service_url: Url,
    /// The app's domain, sent as `X-API-DOMAIN`.
    pub domain: String,
    /// The platform part of `X-SDK-TYPE`, e.g. `desktop`.
    pub platform: String,
    /// How long one request may take.
    pub timeout: Duration,
}

impl ServiceConfig {
    pub fn new(service_url: Url, domain: impl Into<String>) -> Self {
        Self {
            service_url,
            domain: domain.into(),
            platform: "desktop".into(),
            timeout: Duration::from_secs(20),
        }
    }
}

/// `https://`, or `http://` to this machine only (the local stack).
fn check_service_url(url: &Url) -> Result<(), SdkError> {
    let local = match url.host() {
        Some(url::Host::Domain(name)) => name == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    match url.scheme() {
        "https" => Ok(()),
        "http" if local => Ok(()),
        _ => Err(SdkError::service(
            ServiceErrorCode::InvalidParameters,
            "the service URL must be https:// (http:// only for a service on this machine)",
        )),
    }
}

/// Which part of the SDK is calling; it picks the `X-SDK-TYPE` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caller {
    /// The login library: `<platform>-login`.
    Login,
    /// The REST operations: `<platform>_rest_api`.
    Rest,
}

/// The service's HTTP client for one app key: the app headers on every request,
/// errors as [`SdkError`]. [`Login`](crate::Login) adds the user's token.
///
/// ```no_run
/// # async fn demo() -> Result<(), satchel_sdk::SdkError> {
/// use satchel_sdk::{Caller, RestClient, ServiceConfig};
///
/// let url = "https://wallet.example.com/".parse().expect("a URL");
/// let client = RestClient::new(&ServiceConfig::new(url, "app.example.com"), "app-key")?;
/// let app: satchel_sdk::api::AppInfo = client
///     .send(Caller::Login, reqwest::Method::GET, "v1/app", None, None)
///     .await?;
/// println!("{} allows {:?}", app.name, app.providers);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RestClient {
    http: reqwest::Client,
    base: Url,
    app_key: String,
    domain: String,
    platform: String,
    /// How long one request may take (the client's), unless what is asked for
    /// may take longer ([`Wanted::patience`]).
    timeout: Duration,
}

impl std::fmt::Debug for RestClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RestClient")
            .field("base", &self.base.as_str())
            .finish_non_exhaustive()
    }
}

impl RestClient {
    /// Refuses a plain `http://` service anywhere but on this machine: the app
    /// key and the user's tokens travel in its headers.
    pub fn new(config: &ServiceConfig, app_key: &str) -> Result<Self, SdkError> {
        check_service_url(&config.service_url)?;
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout.min(Duration::from_secs(10)))
            // The service never redirects; following one would carry X-API-KEY
            // (and a bearer token) to wherever it points.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| SdkError::service(ServiceErrorCode::ApiRequestError, e.to_string()))?;
        let mut base = config.service_url.clone();
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        Ok(Self {
            http,
            base,
            app_key: app_key.to_owned(),
            domain: config.domain.clone(),
            platform: config.platform.clone(),
            timeout: config.timeout,
        })
    }

    /// Sends a request and decodes the JSON answer (`()` for an empty one).
    pub async fn send<T: DeserializeOwned>(
        &self,
        caller: Caller,
        method: Method,
        path: &str,
        body: Option<&(dyn erased::Body + Sync)>,
        bearer: Option<&str>,
    ) -> Result<T, SdkError> {
        let answer = self
            .send_for_answer(caller, method, path, body, bearer, JSON_ANSWER)
            .await?
            .whole()
            .await?;
        parse_answer(&answer)
    }

    /// Sends a request asking for the answer as `wanted` says; a successful
    /// answer's body as it comes (see [`Answer`]), for a caller that parses it
    /// its own way. An error answer is the [`SdkError`] it names.
    pub async fn send_for_answer(
        &self,
        caller: Caller,
        method: Method,
        path: &str,
        body: Option<&(dyn erased::Body + Sync)>,
        bearer: Option<&str>,
        wanted: Wanted,
    ) -> Result<Answer, SdkError> {
        let mut request = self
            .request(caller, method, path, body, bearer)?
            .header(reqwest::header::ACCEPT, wanted.media_type);
        if let Some(patience) = wanted.patience {
            request = request.timeout(patience.max(self.timeout));
        }
        let response = request.send().await.map_err(network_error)?;
        let status = response.status();
        if !status.is_success() {
            let bytes = read_bounded(response, MAX_ANSWER).await?;
            return Err(refusal(status, &bytes));
        }
        Answer::of(response, wanted.limit)
    }

    /// Like [`send`](Self::send) for the logins through someone else's identity:
    /// a 428 `RequiredSignupEmail` answer is `Ok(Err(body))`, what
    /// `sendVerifyEmail` needs back (the provider and the refused token); every
    /// other error is an [`SdkError`] as `send` makes it. The answer is read up
    /// to [`MAX_LOGIN_ANSWER`].
    pub async fn send_or_register_email<T: DeserializeOwned>(
        &self,
        caller: Caller,
        method: Method,
        path: &str,
        body: Option<&(dyn erased::Body + Sync)>,
    ) -> Result<Result<T, RegisterEmailRequired>, SdkError> {
        let request = self
            .request(caller, method, path, body, None)?
            .header(reqwest::header::ACCEPT, JSON);
        let response = request.send().await.map_err(network_error)?;
        let status = response.status();
        let bytes = read_bounded(response, MAX_LOGIN_ANSWER).await?;
        if status == StatusCode::PRECONDITION_REQUIRED
            && let Ok(required) = serde_json::from_slice::<RegisterEmailRequired>(&bytes)
            && required.code == ServiceErrorCode::RequiredSignupEmail.into()
        {
            return Ok(Err(required));
        }
        refused(status, &bytes)?;
        parse_answer(&bytes).map(Ok)
    }

    /// A request to `path` with the app headers (and the bearer token, if any).
    fn request(
        &self,
        caller: Caller,
        method: Method,
        path: &str,
        body: Option<&(dyn erased::Body + Sync)>,
        bearer: Option<&str>,
    ) -> Result<reqwest::RequestBuilder, SdkError> {
        let url = self
            .base
            .join(path.trim_start_matches('/'))
            .map_err(|e| SdkError::service(ServiceErrorCode::InvalidParameters, e.to_string()))?;
        let sdk_type = match caller {
            Caller::Login => format!("{}-login", self.platform),
            Caller::Rest => format!("{}_rest_api", self.platform),
        };
        let mut request = self
            .http
            .request(method, url)
            .header(headers::API_KEY, &self.app_key)
            .header(headers::API_DOMAIN, &self.domain)
            .header(headers::SDK_TYPE, sdk_type)
            .header(reqwest::header::CONTENT_TYPE, "application/json");
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.body(body.to_json()?);
        }
        Ok(request)
    }
}

/// The most [`RestClient::send_or_register_email`] reads of an answer.
const MAX_LOGIN_ANSWER: usize = 1 << 20;

/// The most any other answer is read to: far above the largest the service
/// sends but the NFT listing, far below what would hurt the app if the service
/// (or whoever answers in its place) sent without end.
const MAX_ANSWER: usize = 64 << 20;

/// The most the NFT listing is read to. It is judged as it comes, never held
/// whole, and a wallet at the service's default limits (20 accounts of 10,000
/// NFTs) with its pictures as `data:` URIs is about 180 MB grouped (100,000
/// NFTs in the desktop benchmark: 88 MB).
const MAX_NFT_LISTING: usize = 256 << 20;

/// How long the NFT listing may take to come, refresh and all: the service
/// refreshes what the wallet holds on the chain before it answers, which took
/// 23 s for 100,000 NFTs (the desktop benchmark), past the 20 s any other
/// answer may take; its work is bounded by its limit of NFTs an account.
const NFT_LISTING_PATIENCE: Duration = Duration::from_secs(120);

/// How an answer is asked for: its media type (a JSON one, in `Accept`), the
/// most of it that is read, and how long it may take when that is longer than
/// the client's timeout.
#[derive(Debug, Clone, Copy)]
pub struct Wanted {
    pub media_type: &'static str,
    pub limit: usize,
    pub patience: Option<Duration>,
}

/// Any answer but the NFT listing.
pub const JSON_ANSWER: Wanted = Wanted {
    media_type: JSON,
    limit: MAX_ANSWER,
    patience: None,
};

/// The NFT listing, grouped by collection.
pub const NFT_LISTING: Wanted = Wanted {
    media_type: satchel_api::NFTS_GROUPED_MEDIA_TYPE,
    limit: MAX_NFT_LISTING,
    patience: Some(NFT_LISTING_PATIENCE),
};

const JSON: &str = "application/json";

/// The body of `response`, refused once it passes `limit` bytes (it is not read
/// further).
async fn read_bounded(response: reqwest::Response, limit: usize) -> Result<Vec<u8>, SdkError> {
    Answer::of(response, limit)?.whole().await
}

/// A successful answer whose body is read as it comes, within a bound: whole
/// ([`whole`](Self::whole)), or chunk by chunk ([`chunk`](Self::chunk)) by a
/// parser that keeps what it parsed and not the text.
#[derive(Debug)]
pub struct Answer {
    response: reqwest::Response,
    read: usize,
    limit: usize,
}

impl Answer {
    fn of(response: reqwest::Response, limit: usize) -> Result<Self, SdkError> {
        if response
            .content_length()
            .is_some_and(|length| length > limit as u64)
        {
            return Err(too_large());
        }
        Ok(Self {
            response,
            read: 0,
            limit,
        })
    }

    /// The body's next chunk; `None` at its end.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, SdkError> {
        let chunk = self.response.chunk().await.map_err(network_error)?;
        if let Some(chunk) = &chunk {
            self.read += chunk.len();
            if self.read > self.limit {
                return Err(too_large());
            }
        }
        Ok(chunk)
    }

    /// The whole body.
    pub async fn whole(mut self) -> Result<Vec<u8>, SdkError> {
        // Room for the whole answer when its length is announced (within the
        // limit, checked when it came), rather than grown into by doubling:
        // each doubling held the old copy beside the new.
        let announced = self
            .response
            .content_length()
            .and_then(|l| usize::try_from(l).ok());
        let mut bytes = Vec::with_capacity(announced.unwrap_or(0));
        while let Some(chunk) = self.chunk().await? {
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    }
}

fn too_large() -> SdkError {
    SdkError::service(
        ServiceErrorCode::ApiRequestError,
        "the service's answer is too large",
    )
}

/// An error answer (its status not a success) as the [`SdkError`] its body names.
fn refused(status: StatusCode, bytes: &[u8]) -> Result<(), SdkError> {
    if status.is_success() {
        return Ok(());
    }
    Err(refusal(status, bytes))
}

/// What an answer with an error status and `bytes` for its body says.
fn refusal(status: StatusCode, bytes: &[u8]) -> SdkError {
    match serde_json::from_slice::<ApiErrorBody>(bytes) {
        Ok(body) => SdkError::from_api(body),
        Err(_) => SdkError::service(
            ServiceErrorCode::ApiRequestError,
            format!("the service answered {status}"),
        ),
    }
}

/// A successful answer's JSON as a value (an empty answer is `null`: `()`).
pub(crate) fn parse_answer<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, SdkError> {
    let bytes = if bytes.is_empty() {
        &b"null"[..]
    } else {
        bytes
    };
    serde_json::from_slice(bytes).map_err(unexpected_answer)
}

/// An answer the SDK could not read as what it asked for.
pub(crate) fn unexpected_answer(e: impl std::fmt::Display) -> SdkError {
    SdkError::service(
        ServiceErrorCode::ApiRequestError,
        format!("unexpected answer from the service: {e}"),
    )
}

fn network_error(e: reqwest::Error) -> SdkError {
    if e.is_connect() {
        SdkError::service(
            ServiceErrorCode::NotConnectedInternet,
            "cannot reach the wallet service; check the connection",
        )
    } else if e.is_timeout() {
        SdkError::service(
            ServiceErrorCode::ApiRequestError,
            "the wallet service did not answer in time",
        )
    } else {
        SdkError::service(
            ServiceErrorCode::ApiRequestError,
            e.without_url().to_string(),
        )
    }
}

/// Request bodies of any serialisable type, behind one object-safe trait.
pub mod erased {
    use super::*;

    pub trait Body {
        fn to_json(&self) -> Result<Vec<u8>, SdkError>;
    }

    impl<T: Serialize> Body for T {
        fn to_json(&self) -> Result<Vec<u8>, SdkError> {
            serde_json::to_vec(self)
                .map_err(|e| SdkError::service(ServiceErrorCode::InvalidParameters, e.to_string()))
        }
    }
}

#[cfg(test)]
mod tests;
