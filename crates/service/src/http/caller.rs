//! Who is calling: the app (from the three `X-` headers) and, for protected
//! operations, the user (from the bearer access token). Handlers say what they need
//! by taking [`CallingApp`] or [`AuthUser`] as a parameter.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::StatusCode;
use axum::http::request::Parts;
use satchel_api::{RestErrorCode, ServiceErrorCode, headers};

use crate::crypto::app_key_hash;
use crate::db::AppRow;
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::identity::tokens::TokenKind;
use crate::limits::LimitKey;
use crate::state::AppState;

/// The app a request comes from (its `X-` headers), checked against its key and
/// domain.
#[derive(Debug, Clone)]
pub struct CallingApp {
    pub app_id: String,
}

impl CallingApp {
    /// The app's stored policy (providers, e-mail rules), or 401 when the app was
    /// removed after its key was checked.
    pub async fn policy(&self, state: &AppState) -> ApiResult<AppRow> {
        state
            .db
            .app(&self.app_id)
            .await?
            .ok_or_else(ApiError::unknown_app_key)
    }
}

/// The calling app's access token, verified, whose session is not checked yet:
/// for an operation that checks it in the same database read as its own data
/// (operation 1), or calls [`AuthToken::check_session`].
#[derive(Debug, Clone)]
pub struct AuthToken(AuthUser);

impl AuthToken {
    pub fn user_id(&self) -> &str {
        &self.0.user_id
    }

    pub fn session_id(&self) -> &str {
        &self.0.session_id
    }

    /// Checks that the session is live (401 `InvalidLoginSession` when it ended).
    pub async fn check_session(&self, state: &AppState) -> ApiResult<()> {
        if !state
            .session_active(&self.0.session_id, &self.0.user_id)
            .await?
        {
            return Err(ApiError::session_ended());
        }
        Ok(())
    }

    /// What a read of the caller's own data found of the session: `live`, or 401
    /// `InvalidLoginSession`.
    pub fn found_live(&self, state: &AppState, live: bool) -> ApiResult<()> {
        if !live {
            return Err(ApiError::session_ended());
        }
        state.remember_live_session(&self.0.session_id, &self.0.user_id);
        Ok(())
    }
}

fn header<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    parts
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

/// `X-API-DOMAIN`: a missing (or unreadable) one is a 400. An empty one is
/// passed on as `""`: Wepin's web client (`@wepin/fetch-js`) sends it so for an
/// app on `localhost`, and the app lookup allows it only for an app whose one
/// registered domain is `localhost` (`Db::app_for_key`).
fn api_domain(parts: &Parts) -> ApiResult<&str> {
    let domain = parts
        .headers
        .get(headers::API_DOMAIN)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .ok_or_else(|| ApiError::bad_request("X-API-DOMAIN is missing"))?;
    if domain.len() > MAX_DOMAIN_LEN {
        return Err(ApiError::bad_request(format!(
            "X-API-DOMAIN is longer than a domain can be ({MAX_DOMAIN_LEN} characters)"
        )));
    }
    Ok(domain)
}

/// The longest domain name (RFC 1035: 253 characters written out).
const MAX_DOMAIN_LEN: usize = 253;

fn is_sdk_type(value: &str) -> bool {
    value.len() <= 64
        && value
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

impl FromRequestParts<AppState> for CallingApp {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let key = header(parts, headers::API_KEY).ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                ServiceErrorCode::InvalidAppKey,
                "X-API-KEY is missing",
            )
        })?;
        let domain = api_domain(parts)?;
        let sdk_type = header(parts, headers::SDK_TYPE)
            .ok_or_else(|| ApiError::bad_request("X-SDK-TYPE is missing"))?;
        if !is_sdk_type(sdk_type) {
            return Err(ApiError::bad_request(
                "X-SDK-TYPE must look like <platform>_rest_api",
            ));
        }
        // A web page's request names its own origin's host (an app on
        // localhost alone may send it empty), so a page cannot borrow another
        // domain's registration (`cors.rs`). Origins that are not http(s) (an
        // extension's, an app's own scheme) need no CORS and are not bound.
        if let Some((_, host)) = parts
            .headers
            .get(axum::http::header::ORIGIN)
            .and_then(super::cors::http_origin)
            && !super::cors::is_same_host(&host, domain)
        {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                RestErrorCode::InvalidDomain,
                "the page's origin is not the X-API-DOMAIN it sends",
            ));
        }
        let app = state.app_for_key(&app_key_hash(key), domain).await?;
        match app {
            Some(app) if app.domain_allowed => Ok(Self { app_id: app.app_id }),
            None => Err(ApiError::unknown_app_key()),
            // Any other app's key: an empty domain stays the 400 it always was.
            Some(_) if domain.is_empty() => Err(ApiError::bad_request(
                "X-API-DOMAIN is empty, which only an app key registered for localhost \
                 alone may send",
            )),
            Some(_) => Err(ApiError::new(
                StatusCode::FORBIDDEN,
                RestErrorCode::InvalidDomain,
                "X-API-DOMAIN is not registered for this app key",
            )),
        }
    }
}

impl FromRequestParts<AppState> for AuthToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let app = CallingApp::from_request_parts(parts, state).await?;
        let token = header(parts, "authorization")
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .ok_or_else(|| {
                ApiError::invalid_token("Authorization: Bearer <accessToken> is missing")
            })?;
        let claims = state
            .verify_access(token)
            .map_err(|e| TokenKind::Access.refused(e))?;
        if claims.app != app.app_id {
            return Err(TokenKind::Access.foreign());
        }
        Ok(Self(AuthUser {
            user_id: claims.sub,
            app_id: claims.app,
            session_id: claims.sid,
        }))
    }
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = AuthToken::from_request_parts(parts, state).await?;
        token.check_session(state).await?;
        Ok(token.0)
    }
}

/// The caller's network address, when the server knows it: the peer's, or, when
/// the peer is one of the configured `trusted_proxies`, the rightmost address in
/// `X-Forwarded-For` that is not a trusted proxy. A client cannot pick its own
/// address by sending the header: from anyone else it is ignored.
pub struct ClientAddress(pub Option<IpAddr>);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        Ok(Self(client_address(
            peer,
            &parts.headers,
            &state.settings.trusted_proxies,
        )))
    }
}

fn client_address(
    peer: Option<IpAddr>,
    headers: &axum::http::HeaderMap,
    trusted: &[IpAddr],
) -> Option<IpAddr> {
    let peer = peer?;
    if !trusted.contains(&peer) {
        return Some(counted_as(peer));
    }
    // From the right, where the trusted proxies appended what they saw; what a
    // client wrote itself is on the left, and an entry that does not parse is
    // skipped, never a way to be counted as nobody.
    let forwarded: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    let client = forwarded
        .into_iter()
        .rev()
        .filter_map(|a| a.trim().parse::<IpAddr>().ok())
        .find(|a| !trusted.contains(a))
        .unwrap_or(peer);
    Some(counted_as(client))
}

/// The address a client is counted by: an IPv4 address as it is, an IPv6 one
/// by its /64 (what one subscriber is given: counting single addresses would
/// give each client 2^64 allowances).
fn counted_as(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

/// Counts a request from one network address against its limit.
pub(crate) async fn per_address(state: &AppState, key: LimitKey<'_>) -> ApiResult<()> {
    state.limits.take(key).await.map_err(|wait| {
        crate::error::ApiError::rate_limited("too many requests from this address", wait)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_types_are_short_lowercase_words() {
        assert!(is_sdk_type("desktop_rest_api"));
        assert!(is_sdk_type("desktop-login"));
        assert!(!is_sdk_type("Desktop REST"));
        assert!(!is_sdk_type(&"a".repeat(65)));
    }

    #[test]
    fn the_forwarded_address_is_believed_only_from_a_trusted_proxy() {
        let proxy: std::net::IpAddr = "10.0.0.2".parse().expect("ip");
        let client: std::net::IpAddr = "203.0.113.7".parse().expect("ip");
        let mut headers = axum::http::HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "198.51.100.1, 203.0.113.7".parse().expect("value"),
        );
        // Not from a proxy: the header is the client's own claim.
        assert_eq!(client_address(Some(client), &headers, &[]), Some(client));
        // From the proxy: the rightmost address it did not add itself.
        assert_eq!(
            client_address(Some(proxy), &headers, &[proxy]),
            Some(client)
        );
        // Without the header: the proxy itself.
        assert_eq!(
            client_address(Some(proxy), &axum::http::HeaderMap::new(), &[proxy]),
            Some(proxy)
        );
        // Garbage cannot make a client nobody: the rightmost address that parses,
        // else the proxy.
        headers.insert("x-forwarded-for", "not-an-address".parse().expect("value"));
        assert_eq!(client_address(Some(proxy), &headers, &[proxy]), Some(proxy));
        headers.insert(
            "x-forwarded-for",
            "203.0.113.7, junk, unknown".parse().expect("value"),
        );
        assert_eq!(
            client_address(Some(proxy), &headers, &[proxy]),
            Some(client)
        );
        assert_eq!(client_address(None, &headers, &[]), None);
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:ffff:ffff:ffff:fffe".parse().expect("ip");
        let other: IpAddr = "2001:db8:1:3::1".parse().expect("ip");
        let headers = axum::http::HeaderMap::new();
        let counted = |ip| client_address(Some(ip), &headers, &[]);
        assert_eq!(counted(a), counted(b));
        assert_ne!(counted(a), counted(other));
        let mapped: IpAddr = "::ffff:198.51.100.1".parse().expect("ip");
        assert_eq!(counted(mapped), Some("198.51.100.1".parse().expect("ip")));
    }
}
