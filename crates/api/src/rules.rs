//! The e-mail and password rules, shared by the service (which enforces them) and
//! the SDK (which checks them before sending anything).

/// Passwords are 8 to 128 characters with at least one letter and one digit.
pub const PASSWORD_RULES: &str = "8 to 128 characters, with at least one letter and one digit";

/// Whether `email` has the form of an address: one `@`, a local part, and a domain
/// with a dot, no spaces, at most 254 characters.
pub fn is_email_form(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    email.len() <= 254
        && !local.is_empty()
        && local.len() <= 64
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// Whether `password` follows [`PASSWORD_RULES`].
pub fn is_password_form(password: &str) -> bool {
    let length = password.chars().count();
    (8..=128).contains(&length)
        && password.chars().any(char::is_alphabetic)
        && password.chars().any(|c| c.is_ascii_digit())
}

/// E-mail addresses are compared without case and surrounding space.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// The domain part of a (normalised) e-mail address.
pub fn email_domain(email: &str) -> &str {
    email.rsplit_once('@').map(|(_, d)| d).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn email_forms() {
        for good in ["a@b.co", "ada.lovelace+w@mail.example.org"] {
            assert!(is_email_form(good), "{good}");
        }
        for bad in [
            "", "a", "a@b", "@b.co", "a@@b.co", "a b@c.co", "a@.co", "a@b.co.", "a@b..co",
        ] {
            assert!(!is_email_form(bad), "{bad}");
        }
    }

    #[test]
    fn password_forms() {
        assert!(is_password_form("correct1horse"));
        assert!(!is_password_form("short1"));
        assert!(!is_password_form("onlyletters"));
        assert!(!is_password_form("1234567890"));
        assert!(!is_password_form(&format!("a1{}", "x".repeat(127))));
    }

    #[test]
    fn emails_normalise_and_split() {
        assert_eq!(normalize_email("  Ada@Example.COM "), "ada@example.com");
        assert_eq!(email_domain("ada@example.com"), "example.com");
    }
}
