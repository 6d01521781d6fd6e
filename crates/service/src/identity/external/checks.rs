//! What an external login's request must look like before anything is
//! asked of a provider: a loopback redirect, an OpenID nonce, a PKCE verifier.

use satchel_api::{Provider, is_oidc_provider};

use super::invalid_parameters;
use crate::error::ApiResult;

/// RFC 3986's unreserved characters only (`A-Z a-z 0-9 - . _ ~`).
fn unreserved(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// A loopback redirect of a desktop app (RFC 8252 §7.3): `http` to 127.0.0.1 or
/// `[::1]` on a port, with a path and nothing else.
pub(super) fn check_loopback_redirect(redirect_uri: &str) -> ApiResult<()> {
    let refused = || {
        invalid_parameters(
            "redirectUri must be a loopback redirect: http://127.0.0.1:<port>/<path>",
        )
    };
    let url = url::Url::parse(redirect_uri).map_err(|_| refused())?;
    let loopback = match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        _ => false,
    };
    if url.scheme() != "http"
        || !loopback
        || url.port().is_none()
        || !url.username().is_empty()
        || url.password().is_some()
        || url.query().is_some()
        || url.fragment().is_some()
        || redirect_uri.len() > 256
    {
        return Err(refused());
    }
    Ok(())
}

/// An OpenID login must send the `nonce` of its authorization request (at
/// least 128 bits written out), which the id token must then carry: without it
/// an id token issued for another login could be replayed into this one.
pub(super) fn check_nonce(provider: Provider, nonce: &str) -> ApiResult<()> {
    let shaped = nonce.len() <= 128 && unreserved(nonce);
    if !shaped {
        return Err(invalid_parameters("nonce is malformed"));
    }
    if is_oidc_provider(provider) && nonce.len() < 22 {
        return Err(invalid_parameters(
            "an OpenID login needs the nonce of its authorization request",
        ));
    }
    Ok(())
}

/// RFC 7636 §4.1: 43 to 128 unreserved characters.
pub(super) fn check_code_verifier(verifier: &str) -> ApiResult<()> {
    let ok = (43..=128).contains(&verifier.len()) && unreserved(verifier);
    if ok {
        Ok(())
    } else {
        Err(invalid_parameters(
            "codeVerifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_openid_login_needs_its_nonce() {
        assert!(check_nonce(Provider::Google, "").is_err());
        assert!(check_nonce(Provider::Google, "short").is_err());
        assert!(check_nonce(Provider::Google, "a\"b").is_err());
        assert!(check_nonce(Provider::Google, &"n".repeat(43)).is_ok());
        // OAuth 2 providers answer with an access token, which carries none.
        assert!(check_nonce(Provider::Discord, "").is_ok());
        assert!(check_nonce(Provider::Discord, &"n".repeat(129)).is_err());
    }

    #[test]
    fn only_loopback_redirects_are_taken() {
        assert!(check_loopback_redirect("http://127.0.0.1:53121/callback").is_ok());
        assert!(check_loopback_redirect("http://[::1]:53121/callback").is_ok());
        for bad in [
            "http://127.0.0.1/callback",
            "https://127.0.0.1:5000/callback",
            "http://localhost:5000/callback",
            "http://evil.example:5000/callback",
            "http://127.0.0.1:5000/callback?x=1",
            "http://127.0.0.1:5000/callback#f",
            "http://user@127.0.0.1:5000/callback",
            "http://10.0.0.1:5000/callback",
            "not a url",
        ] {
            assert!(check_loopback_redirect(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn code_verifiers_follow_rfc_7636() {
        assert!(check_code_verifier(&"a".repeat(43)).is_ok());
        assert!(check_code_verifier(&"A-._~1".repeat(22)[..128]).is_ok());
        assert!(check_code_verifier(&"a".repeat(42)).is_err());
        assert!(check_code_verifier(&"a".repeat(129)).is_err());
        assert!(check_code_verifier(&format!("{}/", "a".repeat(43))).is_err());
    }
}
