//! Sign-In with Ethereum (EIP-4361): a message that asks to sign the person in
//! to a site. Read strictly, field by field in the EIP's order, so what the
//! page shows is what the site will read; then checked against who asks: the
//! domain must be the requesting origin's host, the address the signing
//! account and the chain the origin's active chain.

use alloy::primitives::Address;
use serde::Serialize;

use crate::origin::Origin;

const HEADER: &str = " wants you to sign in with your Ethereum account:";

/// A sign-in, as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SignIn {
    /// `scheme://` when the message names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub scheme: Option<String>,
    /// The site it signs in to (host and port).
    pub domain: String,
    pub address: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub statement: Option<String>,
    pub uri: String,
    pub version: String,
    pub chain_id: u64,
    pub nonce: String,
    pub issued_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub expiration_time: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub not_before: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub request_id: Option<String>,
    pub resources: Vec<String>,
}

/// `Ok(None)`: not a sign-in. `Err`: it starts as one but is not a valid one.
pub fn parse(text: &str) -> Result<Option<SignIn>, String> {
    // One line break at the end is no field.
    let text = text.strip_suffix('\n').unwrap_or(text);
    let mut lines = text.split('\n');
    let Some(header) = lines.next().and_then(|l| l.strip_suffix(HEADER)) else {
        return Ok(None);
    };
    let (scheme, domain) = match header.split_once("://") {
        Some((scheme, domain)) => (Some(scheme.to_owned()), domain),
        None => (None, header),
    };
    let domain_ok = !domain.is_empty()
        && domain
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    if !domain_ok {
        return Err(format!("{domain:?} is not a domain"));
    }
    let address = lines.next().ok_or("no address")?;
    Address::parse_checksummed(address, None)
        .map_err(|_| format!("{address:?} is not a checksummed address"))?;
    // A blank line, the statement when there is one, another blank line.
    let mut line = lines.next().ok_or("the message ends after the address")?;
    if !line.is_empty() {
        return Err("no blank line after the address".into());
    }
    line = lines.next().ok_or("the message ends after the address")?;
    let mut statement = None;
    if !line.starts_with("URI: ") {
        if !line.is_empty() {
            statement = Some(line.to_owned());
            line = lines.next().ok_or("the message ends after the statement")?;
            if !line.is_empty() {
                return Err("the statement is one line".into());
            }
        }
        line = lines.next().ok_or("no URI")?;
    }
    let field = |name: &str, line: Option<&str>| -> Result<String, String> {
        line.and_then(|l| l.strip_prefix(name))
            .and_then(|l| l.strip_prefix(": "))
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| format!("no {name}"))
    };
    let uri = field("URI", Some(line))?;
    let version = field("Version", lines.next())?;
    if version != "1" {
        return Err(format!("version {version:?} is not 1"));
    }
    let chain_id = field("Chain ID", lines.next())?
        .parse::<u64>()
        .map_err(|_| "the chain id is not a number".to_owned())?;
    let nonce = field("Nonce", lines.next())?;
    if nonce.len() < 8 || !nonce.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err("the nonce is not 8 or more letters and digits".into());
    }
    let issued_at = field("Issued At", lines.next())?;
    let mut sign_in = SignIn {
        scheme,
        domain: domain.to_owned(),
        address: address.to_owned(),
        statement,
        uri,
        version,
        chain_id,
        nonce,
        issued_at,
        expiration_time: None,
        not_before: None,
        request_id: None,
        resources: Vec::new(),
    };
    // The optional fields, each at most once and in the EIP's order.
    let mut rest = lines.peekable();
    let optional = |name: &str, rest: &mut std::iter::Peekable<std::str::Split<'_, char>>| {
        let value = rest
            .peek()
            .and_then(|l| l.strip_prefix(name))
            .and_then(|l| l.strip_prefix(": "))
            .map(str::to_owned);
        if value.is_some() {
            rest.next();
        }
        value
    };
    sign_in.expiration_time = optional("Expiration Time", &mut rest);
    sign_in.not_before = optional("Not Before", &mut rest);
    sign_in.request_id = optional("Request ID", &mut rest);
    if rest.peek() == Some(&"Resources:") {
        rest.next();
        for line in rest.by_ref() {
            let resource = line
                .strip_prefix("- ")
                .ok_or_else(|| format!("{line:?} is not a resource"))?;
            sign_in.resources.push(resource.to_owned());
        }
    }
    match rest.next() {
        None => Ok(Some(sign_in)),
        Some(line) => Err(format!("{line:?} is not a field of a sign-in")),
    }
}

impl SignIn {
    /// Why this sign-in must not be signed by `account` for `origin` on chain
    /// `chain_id` at `now` (seconds since 1970); `None` when it may.
    pub fn refusal(
        &self,
        origin: &Origin,
        account: Address,
        chain_id: u64,
        now: i64,
    ) -> Option<String> {
        let Origin::Web(web) = origin else {
            return Some(format!(
                "A program on this computer asks you to sign in to {}: only that site itself may ask.",
                self.domain
            ));
        };
        let host = origin.host().unwrap_or_default();
        if !self.domain.eq_ignore_ascii_case(&host) {
            return Some(format!(
                "This sign-in is for {}, but {web} asks for it: a site may only sign you in to itself.",
                self.domain
            ));
        }
        if let Some(scheme) = &self.scheme
            && !web.starts_with(&format!("{}://", scheme.to_ascii_lowercase()))
        {
            return Some(format!(
                "This sign-in is for {scheme}://{}, but {web} asks for it.",
                self.domain
            ));
        }
        if self.address.parse::<Address>().ok() != Some(account) {
            return Some(format!(
                "This sign-in names the account {}, not the account that would sign it.",
                self.address
            ));
        }
        if self.chain_id != chain_id {
            return Some(format!(
                "This sign-in is for chain {}, but this site is on chain {chain_id}.",
                self.chain_id
            ));
        }
        // A web address as its resource must be on the asking site too.
        if let Ok(uri) = url::Url::parse(&self.uri)
            && matches!(uri.scheme(), "http" | "https")
        {
            let uri_host = match uri.port() {
                Some(port) => format!("{}:{port}", uri.host_str().unwrap_or_default()),
                None => uri.host_str().unwrap_or_default().to_owned(),
            };
            if !uri_host.eq_ignore_ascii_case(&host) {
                return Some(format!(
                    "This sign-in's URI is {}, another site than {web}, which asks for it.",
                    self.uri
                ));
            }
        }
        let at = |time: &str| {
            time::OffsetDateTime::parse(time, &time::format_description::well_known::Rfc3339)
                .map(time::OffsetDateTime::unix_timestamp)
        };
        if at(&self.issued_at).is_err() {
            return Some(format!(
                "Its Issued At, {:?}, is not a time.",
                self.issued_at
            ));
        }
        if let Some(expiry) = &self.expiration_time {
            match at(expiry) {
                Ok(expiry) if expiry > now => {}
                Ok(_) => return Some(format!("This sign-in expired at {expiry}.")),
                Err(_) => return Some(format!("Its Expiration Time, {expiry:?}, is not a time.")),
            }
        }
        if let Some(start) = &self.not_before {
            match at(start) {
                Ok(start) if start <= now => {}
                Ok(_) => return Some(format!("This sign-in is not valid before {start}.")),
                Err(_) => return Some(format!("Its Not Before, {start:?}, is not a time.")),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADDRESS: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    /// 2026-11-25T12:00:00Z, between the full message's Not Before and Expiration Time.
    const NOON: i64 = 1_795_608_000;

    #[test]
    fn a_full_message_is_read_field_by_field() {
        let text = format!(
            "https://dapp.example:8443 wants you to sign in with your Ethereum account:\n{ADDRESS}\n\nI accept the terms.\n\nURI: https://dapp.example:8443/login\nVersion: 1\nChain ID: 31337\nNonce: 32891756abc\nIssued At: 2026-11-25T10:00:00Z\nExpiration Time: 2026-11-26T10:00:00Z\nNot Before: 2026-11-25T10:00:00Z\nRequest ID: r-1\nResources:\n- ipfs://bafy\n- https://dapp.example/terms"
        );
        let sign_in = parse(&text).expect("valid").expect("a sign-in");
        assert_eq!(sign_in.scheme.as_deref(), Some("https"));
        assert_eq!(sign_in.domain, "dapp.example:8443");
        assert_eq!(sign_in.statement.as_deref(), Some("I accept the terms."));
        assert_eq!(sign_in.chain_id, 31337);
        assert_eq!(
            sign_in.expiration_time.as_deref(),
            Some("2026-11-26T10:00:00Z")
        );
        assert_eq!(sign_in.request_id.as_deref(), Some("r-1"));
        assert_eq!(
            sign_in.resources,
            ["ipfs://bafy", "https://dapp.example/terms"]
        );
        let origin = Origin::Web("https://dapp.example:8443".into());
        let account: Address = ADDRESS.parse().expect("address");
        assert_eq!(sign_in.refusal(&origin, account, 31337, NOON), None);
        let http = Origin::Web("http://dapp.example:8443".into());
        assert!(
            sign_in.refusal(&http, account, 31337, NOON).is_some(),
            "scheme"
        );
        // Its times are honoured: not before 10:00 on the 25th, not after 10:00 on the 26th.
        let early = sign_in.refusal(&origin, account, 31337, NOON - 3 * 3600);
        assert!(early.is_some_and(|why| why.contains("not valid before")));
        let late = sign_in.refusal(&origin, account, 31337, NOON + 24 * 3600);
        assert!(late.is_some_and(|why| why.contains("expired")));
        // Its URI is the asking site's: another site's is refused.
        let elsewhere = SignIn {
            uri: "https://victim.example/login".into(),
            ..sign_in.clone()
        };
        let refused = elsewhere.refusal(&origin, account, 31337, NOON);
        assert!(refused.is_some_and(|why| why.contains("victim.example")));
        let not_a_time = SignIn {
            expiration_time: Some("tomorrow".into()),
            ..sign_in
        };
        assert!(not_a_time.refusal(&origin, account, 31337, NOON).is_some());
    }

    #[test]
    fn a_message_without_statement_is_read_as_viem_writes_it() {
        let text = format!(
            "localhost:5173 wants you to sign in with your Ethereum account:\n{ADDRESS}\n\n\nURI: http://localhost:5173\nVersion: 1\nChain ID: 1\nNonce: abcdefgh\nIssued At: 2026-11-25T10:00:00.000Z"
        );
        let sign_in = parse(&text).expect("valid").expect("a sign-in");
        assert_eq!(sign_in.statement, None);
        assert_eq!(sign_in.domain, "localhost:5173");
    }

    #[test]
    fn other_text_is_no_sign_in_and_broken_sign_ins_are_errors() {
        assert_eq!(parse("hello"), Ok(None));
        let lower = ADDRESS.to_lowercase();
        let broken = [
            format!(
                "a b wants you to sign in with your Ethereum account:\n{ADDRESS}\n\n\nURI: x\nVersion: 1\nChain ID: 1\nNonce: abcdefgh\nIssued At: t"
            ),
            format!(
                "d.example wants you to sign in with your Ethereum account:\n{lower}\n\n\nURI: x\nVersion: 1\nChain ID: 1\nNonce: abcdefgh\nIssued At: t"
            ),
            format!(
                "d.example wants you to sign in with your Ethereum account:\n{ADDRESS}\n\n\nURI: x\nVersion: 2\nChain ID: 1\nNonce: abcdefgh\nIssued At: t"
            ),
            format!(
                "d.example wants you to sign in with your Ethereum account:\n{ADDRESS}\n\n\nURI: x\nVersion: 1\nChain ID: one\nNonce: abcdefgh\nIssued At: t"
            ),
            format!(
                "d.example wants you to sign in with your Ethereum account:\n{ADDRESS}\n\n\nURI: x\nVersion: 1\nChain ID: 1\nNonce: short\nIssued At: t"
            ),
            format!(
                "d.example wants you to sign in with your Ethereum account:\n{ADDRESS}\n\n\nURI: x\nVersion: 1\nChain ID: 1\nNonce: abcdefgh\nIssued At: t\nSomething: else"
            ),
            format!(
                "d.example wants you to sign in with your Ethereum account:\n{ADDRESS}\n\n\nURI: x\nVersion: 1\nChain ID: 1\nNonce: abcdefgh"
            ),
        ];
        for text in broken {
            assert!(parse(&text).is_err(), "{text}");
        }
    }
}
