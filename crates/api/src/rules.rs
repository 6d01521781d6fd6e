//! The rules a person's input must follow, in one place: e-mail and password
//! (the service enforces them, the SDK checks them before sending anything, the
//! sign-up page shows them as you type), the PIN, and the wallet's account path.

use crate::{EmailCredentials, ServiceErrorCode};

/// Passwords are 8 to 128 characters with at least one letter and one digit.
pub const PASSWORD_RULES: &str = "8 to 128 characters, with at least one letter and one digit";

/// Shortest and longest password, in characters.
pub const PASSWORD_MIN_CHARS: usize = 8;
pub const PASSWORD_MAX_CHARS: usize = 128;

/// The path of the first account, the one every network uses (BIP-44, Ethereum).
pub const FIRST_ACCOUNT_PATH: &str = "m/44'/60'/0'/0/0";

/// The most accounts a wallet keeps (each on every network): the first and the
/// ones the person added.
pub const MAX_ACCOUNTS: u32 = 20;

/// The longest account name, in characters.
pub const MAX_LABEL_CHARS: usize = 32;

/// The path of the wallet's account `index` (0 is the first): `m/44'/60'/0'/0/i`,
/// as MetaMask, Rabby and Frame derive theirs, so a phrase restored elsewhere
/// finds the same accounts.
pub fn account_path(index: u32) -> String {
    format!("m/44'/60'/0'/0/{index}")
}

/// The index of an account path made by [`account_path`]; any other path is `None`.
pub fn account_index(path: &str) -> Option<u32> {
    let digits = path.strip_prefix("m/44'/60'/0'/0/")?;
    let plain = !digits.is_empty()
        && digits.len() <= 10
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    plain.then(|| digits.parse().ok()).flatten()
}

/// The name of an account as it is kept: trimmed, 1 to [`MAX_LABEL_CHARS`]
/// characters, no control characters; else a message saying what is wrong.
pub fn account_label(label: &str) -> Result<String, String> {
    let label = label.trim();
    if label.is_empty() {
        return Err("the account's name is empty".to_owned());
    }
    if label.chars().count() > MAX_LABEL_CHARS {
        return Err(format!(
            "the account's name is longer than {MAX_LABEL_CHARS} characters"
        ));
    }
    if label.chars().any(char::is_control) {
        return Err("the account's name has a control character".to_owned());
    }
    Ok(label.to_owned())
}

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

/// Whether `password` has a letter of any script (Unicode `Alphabetic`, as the
/// sign-up page's `\p{Alphabetic}`).
pub fn has_letter(password: &str) -> bool {
    password.chars().any(char::is_alphabetic)
}

/// Whether `password` has an ASCII digit.
pub fn has_digit(password: &str) -> bool {
    password.chars().any(|c| c.is_ascii_digit())
}

/// Whether `password` is long enough and not too long.
pub fn has_length(password: &str) -> bool {
    (PASSWORD_MIN_CHARS..=PASSWORD_MAX_CHARS).contains(&password.chars().count())
}

/// Whether `password` follows [`PASSWORD_RULES`].
pub fn is_password_form(password: &str) -> bool {
    has_length(password) && has_letter(password) && has_digit(password)
}

/// A PIN: exactly six ASCII digits.
pub fn is_pin(pin: &str) -> bool {
    pin.len() == 6 && pin.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a 6-digit PIN is one of those anyone guesses first: one digit
/// repeated (000000), a run up or down (123456, 987654, 901234), a pair or a
/// triple repeated (121212, 123123), a mirrored triple (123321), or one of a
/// short list of favourites. A new PIN may not be one: ten guesses at the
/// lock would find too many of them.
pub fn is_common_pin(pin: &str) -> bool {
    const FAVOURITES: [&str; 6] = ["112233", "147258", "159753", "147852", "258369", "696969"];
    let d: Vec<u8> = pin.bytes().map(|b| b.wrapping_sub(b'0')).collect();
    if d.len() != 6 || d.iter().any(|&x| x > 9) {
        return false;
    }
    let run = |step: u8| d.windows(2).all(|w| (w[0] + step) % 10 == w[1]);
    run(0)
        || run(1)
        || run(9)
        || (d[0..2] == d[2..4] && d[2..4] == d[4..6])
        || d[0..3] == d[3..6]
        || (d[0] == d[5] && d[1] == d[4] && d[2] == d[3])
        || FAVOURITES.contains(&pin)
}

/// E-mail addresses are compared without case and surrounding space.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// The domain part of a (normalised) e-mail address.
pub fn email_domain(email: &str) -> &str {
    email.rsplit_once('@').map(|(_, d)| d).unwrap_or_default()
}

/// Why input was refused: the spec's code and a sentence for the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleViolation {
    pub code: ServiceErrorCode,
    pub message: String,
}

/// Checks a password against [`PASSWORD_RULES`] (a new one at sign-up or reset).
pub fn check_password(password: &str) -> Result<(), RuleViolation> {
    if is_password_form(password) {
        Ok(())
    } else {
        Err(RuleViolation {
            code: ServiceErrorCode::IncorrectPasswordForm,
            message: format!("the password must have {PASSWORD_RULES}"),
        })
    }
}

/// Normalises the e-mail and checks both against the rules: the one check the
/// service and the SDK share, with the same codes and messages.
pub fn check_credentials(email: &str, password: &str) -> Result<EmailCredentials, RuleViolation> {
    let email = normalize_email(email);
    if !is_email_form(&email) {
        return Err(RuleViolation {
            code: ServiceErrorCode::IncorrectEmailForm,
            message: "the e-mail address is not valid".into(),
        });
    }
    check_password(password)?;
    Ok(EmailCredentials {
        email,
        password: password.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_paths_round_trip_and_nothing_else_is_an_index() {
        for index in [0, 1, 19, u32::MAX] {
            assert_eq!(account_index(&account_path(index)), Some(index));
        }
        assert_eq!(account_path(0), FIRST_ACCOUNT_PATH);
        for other in [
            "m/44'/60'/0'/0/",
            "m/44'/60'/0'/0/01",
            "m/44'/60'/1'/0/1",
            "m/44'/60'/0'/0/1'",
            "m/44'/60'/0'/0/1/2",
            "m/44'/60'/0'/0/4294967296",
            "m/44'/60'/0'/0/+1",
        ] {
            assert_eq!(account_index(other), None, "{other}");
        }
    }

    #[test]
    fn account_labels_are_trimmed_and_bounded() {
        assert_eq!(account_label("  Savings ").as_deref(), Ok("Savings"));
        assert_eq!(
            account_label(&"あ".repeat(32)).map(|l| l.chars().count()),
            Ok(32)
        );
        for bad in ["", "   ", "a\nb", &"x".repeat(33)] {
            assert!(account_label(bad).is_err(), "{bad:?}");
        }
    }

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
        assert!(
            is_password_form("비밀번호비밀번호1"),
            "letters of any script count"
        );
        assert!(!is_password_form("short1"));
        assert!(!is_password_form("onlyletters"));
        assert!(!is_password_form("1234567890"));
        assert!(!is_password_form(&format!("a1{}", "x".repeat(127))));
    }

    #[test]
    fn pins_are_six_digits() {
        assert!(is_pin("012345"));
        assert!(!is_pin("12345"));
        assert!(!is_pin("12345a"));
        assert!(!is_pin("1234567"));
        assert!(!is_pin("١٢٣٤٥٦"), "only ASCII digits");
    }

    #[test]
    fn credentials_are_normalised_then_checked_with_the_spec_codes() {
        let ok = check_credentials(" Ada@Example.com ", "correct1horse").expect("fine");
        assert_eq!(ok.email, "ada@example.com");
        let e = check_credentials("nope", "correct1horse").expect_err("form");
        assert_eq!(e.code, ServiceErrorCode::IncorrectEmailForm);
        let e = check_credentials("a@b.co", "short").expect_err("form");
        assert_eq!(e.code, ServiceErrorCode::IncorrectPasswordForm);
        assert!(e.message.contains(PASSWORD_RULES));
    }

    #[test]
    fn emails_normalise_and_split() {
        assert_eq!(normalize_email("  Ada@Example.COM "), "ada@example.com");
        assert_eq!(email_domain("ada@example.com"), "example.com");
    }

    #[test]
    fn the_pins_guessed_first_are_common_and_others_are_not() {
        for common in [
            "000000", "999999", "123456", "654321", "890123", "121212", "123123", "123321",
            "112233", "147258",
        ] {
            assert!(is_common_pin(common), "{common}");
        }
        for other in ["246810", "135790", "246813", "975318", "580264"] {
            assert!(!is_common_pin(other), "{other}");
        }
        assert!(!is_common_pin("12345"), "not a PIN at all");
    }
}
