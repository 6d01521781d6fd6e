//! Settings that may hold a password (database and SMTP URLs) as `Debug` prints
//! them: with the password masked.

use std::fmt;

use url::Url;

/// A URL printed with its password (user info or a `password` query parameter)
/// masked; one that does not parse, or has no host, is not printed at all.
pub(super) struct Redacted<'a>(pub(super) &'a str);

impl fmt::Debug for Redacted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MASK: &str = "***";
        // Without a host there is no user info to mask a password in, so a
        // password could be anywhere: show nothing.
        let Some(mut url) = Url::parse(self.0).ok().filter(|u| u.has_host()) else {
            return f.write_str("\"<redacted>\"");
        };
        if url.password().is_some() {
            let _ = url.set_password(Some(MASK));
        }
        if url.query().is_some() {
            let pairs: Vec<(String, String)> = url
                .query_pairs()
                .map(|(key, value)| {
                    let secret = key.to_ascii_lowercase().contains("pass");
                    let value = if secret {
                        MASK.into()
                    } else {
                        value.into_owned()
                    };
                    (key.into_owned(), value)
                })
                .collect();
            url.query_pairs_mut().clear().extend_pairs(pairs);
        }
        fmt::Debug::fmt(url.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(url: &str) -> String {
        format!("{:?}", Redacted(url))
    }

    #[test]
    fn user_info_and_password_parameters_are_masked() {
        assert_eq!(
            shown("smtps://mailer:pw1@smtp.example.com:465"),
            r#""smtps://mailer:***@smtp.example.com:465""#
        );
        assert_eq!(
            shown("postgres://db/satchel?user=s&password=pw1"),
            r#""postgres://db/satchel?user=s&password=***""#
        );
        assert_eq!(
            shown("sqlite://data/satchel.db?mode=rwc"),
            r#""sqlite://data/satchel.db?mode=rwc""#
        );
    }

    #[test]
    fn what_does_not_parse_is_not_shown() {
        assert_eq!(shown("user:pw1 at somewhere"), r#""<redacted>""#);
        assert_eq!(shown("smtp:user:pw1@host"), r#""<redacted>""#);
        assert_eq!(shown("no url pw1"), r#""<redacted>""#);
    }
}
