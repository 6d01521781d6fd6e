//! HTTP to addresses found on a chain, which anyone can write: an NFT's metadata
//! or picture may name `http://169.254.169.254/...` or a machine on the operator's
//! own network. A [`HostPolicy`] says which hosts may be reached, and
//! [`client`] builds a `reqwest` client that holds to it:
//!
//! - names are resolved here and only public addresses are handed to the
//!   connector, so the connection goes to the address that was checked (a second
//!   DNS answer cannot swap in an internal one);
//! - an address written in the URL is checked the same way, and so is every
//!   redirect (at most three), with the scheme and port;
//! - no proxy from the environment is used (it would resolve names itself).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use url::Url;

/// Which hosts a client may reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPolicy {
    /// Reach loopback, private, link-local and other internal addresses too: only
    /// for a local stack whose metadata server runs beside it.
    pub allow_internal: bool,
    /// The ports allowed; empty allows every port.
    pub ports: Vec<u16>,
}

impl Default for HostPolicy {
    /// The public web on its usual ports.
    fn default() -> Self {
        Self {
            allow_internal: false,
            ports: vec![80, 443],
        }
    }
}

impl HostPolicy {
    fn allows_ip(&self, ip: IpAddr) -> bool {
        self.allow_internal || is_public(ip)
    }

    /// Checks a URL before it is requested: http(s), an allowed port, and a
    /// public address when the host is one. A name is checked when resolved.
    pub fn check(&self, url: &Url) -> Result<(), String> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!("the scheme {} is not fetched", url.scheme()));
        }
        let port = url.port_or_known_default().unwrap_or(0);
        if !self.ports.is_empty() && !self.ports.contains(&port) {
            return Err(format!("port {port} is not fetched"));
        }
        let literal = match url.host() {
            Some(url::Host::Ipv4(ip)) => Some(IpAddr::V4(ip)),
            Some(url::Host::Ipv6(ip)) => Some(IpAddr::V6(ip)),
            Some(url::Host::Domain(_)) => None,
            None => return Err("the URL has no host".into()),
        };
        match literal {
            Some(ip) if !self.allows_ip(ip) => Err("an internal address is not fetched".into()),
            _ => Ok(()),
        }
    }
}

/// Whether `ip` is an address of the public internet: not loopback, private,
/// link-local (cloud metadata lives there), shared (CGNAT), multicast,
/// documentation, benchmarking or reserved, in IPv4 or IPv6, including IPv4
/// addresses carried in IPv6 (mapped, compatible, NAT64, 6to4).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // shared address space (CGNAT)
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 198 && (b == 18 || b == 19)) // benchmarking
        || a >= 240) // reserved
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let s = ip.segments();
    let embedded_v4 =
        || Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if s[..6] == [0; 6] {
        // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d.
        return !ip.is_unspecified() && !ip.is_loopback() && is_public_v4(embedded_v4());
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return is_public_v4(embedded_v4()); // NAT64
    }
    if s[0] == 0x2002 {
        // 6to4 carries the IPv4 address in the next 32 bits.
        let v4 = Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8);
        return is_public_v4(v4);
    }
    !(ip.is_multicast()
        || (s[0] & 0xfe00) == 0xfc00 // unique local
        || (s[0] & 0xffc0) == 0xfe80 // link-local
        || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || (s[0] == 0x2001 && s[1] == 0) // Teredo
        || s[0] == 0x0100) // discard-only
}

/// Resolves names and keeps only the addresses the policy allows.
struct CheckedResolver {
    policy: Arc<HostPolicy>,
}

impl reqwest::dns::Resolve for CheckedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|a| policy.allows_ip(a.ip()))
                .collect();
            if found.is_empty() {
                return Err(format!("{host} resolves to no public address").into());
            }
            Ok(Box::new(found.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// A client that reaches only what `policy` allows, giving up after `timeout`.
pub fn client(policy: HostPolicy, timeout: Duration) -> reqwest::Result<reqwest::Client> {
    let policy = Arc::new(policy);
    let redirects = policy.clone();
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(5)))
        .no_proxy()
        .dns_resolver(Arc::new(CheckedResolver {
            policy: policy.clone(),
        }))
        .redirect(reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() >= 3 {
                return attempt.error("too many redirects");
            }
            match redirects.check(attempt.url()) {
                Ok(()) => attempt.follow(),
                Err(reason) => attempt.error(reason),
            }
        }))
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_addresses_are_not_public_in_any_form() {
        for internal in [
            "127.0.0.1",
            "10.0.0.5",
            "172.16.3.4",
            "192.168.1.1",
            "169.254.169.254",
            "100.100.100.200",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.0.1",
            "198.18.0.1",
            "240.0.0.1",
            "::1",
            "::",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::a00:5",
            "2002:a00:5::",
            "fd00:ec2::254",
            "fe80::1",
            "ff02::1",
            "2001:db8::1",
            "2001::1",
        ] {
            let ip: IpAddr = internal.parse().expect(internal);
            assert!(!is_public(ip), "{internal} is internal");
        }
        for public in [
            "93.184.216.34",
            "1.1.1.1",
            "2606:4700:4700::1111",
            "::ffff:1.1.1.1",
            "64:ff9b::101:101",
        ] {
            let ip: IpAddr = public.parse().expect(public);
            assert!(is_public(ip), "{public} is public");
        }
    }

    #[test]
    fn urls_are_checked_for_scheme_port_and_literal_address() {
        let policy = HostPolicy::default();
        let check = |u: &str| policy.check(&u.parse().expect("url"));
        assert!(check("https://example.com/a.json").is_ok());
        assert!(check("http://example.com/a.json").is_ok());
        assert!(check("https://example.com:8443/a.json").is_err(), "port");
        assert!(check("http://169.254.169.254/latest/meta-data").is_err());
        assert!(check("http://[::ffff:10.0.0.5]/").is_err());
        assert!(
            check("http://2130706433/").is_err(),
            "127.0.0.1 as one number"
        );
        assert!(check("file:///etc/passwd").is_err());
        let local = HostPolicy {
            allow_internal: true,
            ports: Vec::new(),
        };
        assert!(
            local
                .check(&"http://127.0.0.1:8545/x".parse().expect("url"))
                .is_ok()
        );
    }

    #[tokio::test]
    async fn a_name_that_resolves_to_loopback_is_never_connected_to() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let accepted = tokio::spawn(async move { listener.accept().await.is_ok() });
        let policy = HostPolicy {
            allow_internal: false,
            ports: Vec::new(),
        };
        let http = client(policy, Duration::from_secs(2)).expect("client");
        let e = http
            .get(format!("http://localhost:{port}/meta.json"))
            .send()
            .await
            .expect_err("refused");
        assert!(e.is_connect() || e.is_request(), "{e}");
        // Refused at resolution, before any connection was tried.
        assert!(!accepted.is_finished(), "nothing connected to the listener");
        accepted.abort();
    }
}
