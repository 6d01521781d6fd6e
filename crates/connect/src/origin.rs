//! Who is asking: a web page, known by its `Origin` header, or a program on
//! this computer (a request without one). All local programs share one
//! permission, shown to the person as such: they cannot be told apart.

use std::fmt;

/// The longest `Origin` kept (scheme, host and port: 253 characters of host and
/// a little more).
const MAX_ORIGIN: usize = 300;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// `scheme://host[:port]`, as the browser sent it (lowercased).
    Web(String),
    /// A request without an `Origin`: a program on this computer.
    Local,
}

impl Origin {
    /// The origin of a request from its `Origin` header (`None`: a local
    /// program). A header that is not a web origin (`null` from a sandboxed
    /// frame or a file page, a path, an overlong or non-http value) is refused:
    /// such a page must not pass for a local program.
    pub fn from_header(header: Option<&str>) -> Result<Self, String> {
        let Some(header) = header else {
            return Ok(Self::Local);
        };
        if header.len() > MAX_ORIGIN {
            return Err("the Origin header is too long".into());
        }
        let url = url::Url::parse(header).map_err(|_| format!("{header:?} is not an origin"))?;
        let is_origin = matches!(url.scheme(), "http" | "https")
            && url.host_str().is_some()
            && url.path() == "/"
            && url.query().is_none()
            && url.fragment().is_none()
            && url.username().is_empty()
            && !header.ends_with('/');
        if !is_origin {
            return Err(format!("{header:?} is not an http(s) origin"));
        }
        Ok(Self::Web(url.origin().ascii_serialization()))
    }

    /// The host a Sign-In with Ethereum message of this origin must name.
    pub fn host(&self) -> Option<String> {
        match self {
            Self::Web(origin) => url::Url::parse(origin).ok().map(|u| {
                let host = u.host_str().unwrap_or_default().to_owned();
                match u.port() {
                    Some(port) => format!("{host}:{port}"),
                    None => host,
                }
            }),
            Self::Local => None,
        }
    }

    /// The key it is kept under in the permissions file.
    pub fn key(&self) -> &str {
        match self {
            Self::Web(origin) => origin,
            Self::Local => "local",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        match key {
            "local" => Some(Self::Local),
            web => Self::from_header(Some(web)).ok(),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Web(origin) => f.write_str(origin),
            Self::Local => f.write_str("a program on this computer"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_its_origin_and_a_request_without_one_is_a_local_program() {
        assert_eq!(Origin::from_header(None), Ok(Origin::Local));
        assert_eq!(
            Origin::from_header(Some("https://App.Example.com")),
            Ok(Origin::Web("https://app.example.com".into()))
        );
        assert_eq!(
            Origin::from_header(Some("http://localhost:5173")),
            Ok(Origin::Web("http://localhost:5173".into()))
        );
        assert_eq!(
            Origin::from_header(Some("https://app.example.com:8443"))
                .expect("origin")
                .host()
                .as_deref(),
            Some("app.example.com:8443")
        );
    }

    #[test]
    fn what_is_not_a_web_origin_does_not_pass_for_a_local_program() {
        for bad in [
            "null",
            "file://",
            "https://a.example/path",
            "https://a.example/",
            "chrome-extension://abc",
            "https://user@a.example",
            &format!("https://{}.example", "a".repeat(400)),
        ] {
            assert!(Origin::from_header(Some(bad)).is_err(), "{bad}");
        }
    }
}
