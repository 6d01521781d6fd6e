//! Who a provider says the person is: the subject and, when the provider
//! vouches for it, the e-mail address, read from id token claims or a
//! userinfo answer of any provider's style.

use serde_json::Value;

/// Who a provider says the person is. `email` only when the provider vouches
/// for it (verified).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub subject: String,
    pub email: Option<String>,
}

/// Who a verified id token (or JWT) says the person is.
pub fn person_from_claims(claims: &Value) -> Option<Person> {
    let subject = claims.get("sub").and_then(Value::as_str)?;
    Some(Person {
        subject: bounded(subject)?,
        email: verified_email(claims),
    })
}

/// Who a userinfo answer names: OpenID (`sub`), Discord and Facebook (`id`),
/// Naver (`response.id`).
pub fn person_from_userinfo(body: &Value) -> Option<Person> {
    let body = body
        .get("response")
        .filter(|r| r.is_object())
        .unwrap_or(body);
    let subject = match body.get("sub").or_else(|| body.get("id"))? {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    Some(Person {
        subject: bounded(&subject)?,
        email: verified_email(body),
    })
}

/// The e-mail of claims, when it is a well-formed address the provider does not
/// call unverified (`email_verified` or Discord's `verified`; Apple sends
/// `"true"` as a string). Absent the flag, a provider's e-mail counts (Naver and
/// Facebook give only addresses they have confirmed).
fn verified_email(claims: &Value) -> Option<String> {
    let email = claims.get("email").and_then(Value::as_str)?;
    let flag = claims
        .get("email_verified")
        .or_else(|| claims.get("verified"));
    let verified = match flag {
        None => true,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s == "true",
        Some(_) => false,
    };
    let email = satchel_api::rules::normalize_email(email);
    (verified && satchel_api::rules::is_email_form(&email)).then_some(email)
}

/// A subject of at most 255 characters, not empty.
fn bounded(subject: &str) -> Option<String> {
    (!subject.is_empty() && subject.len() <= 255).then(|| subject.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn userinfo_of_every_provider_style_names_the_person() {
        let oidc = json!({"sub": "a1", "email": "Ada@Example.com", "email_verified": true});
        assert_eq!(
            person_from_userinfo(&oidc),
            Some(Person {
                subject: "a1".into(),
                email: Some("ada@example.com".into())
            })
        );
        let discord = json!({"id": "8011", "email": "d@example.com", "verified": false});
        assert_eq!(person_from_userinfo(&discord).map(|p| p.email), Some(None));
        let naver = json!({"resultcode": "00", "response": {"id": "nv", "email": "n@example.com"}});
        assert_eq!(
            person_from_userinfo(&naver).map(|p| (p.subject, p.email)),
            Some(("nv".into(), Some("n@example.com".into())))
        );
        let facebook = json!({"id": 1234567, "name": "F"});
        assert_eq!(
            person_from_userinfo(&facebook),
            Some(Person {
                subject: "1234567".into(),
                email: None
            })
        );
        assert_eq!(person_from_userinfo(&json!({"name": "nobody"})), None);
        assert_eq!(person_from_userinfo(&json!({"sub": ""})), None);
        assert_eq!(person_from_userinfo(&json!({"sub": "x".repeat(300)})), None);
    }

    #[test]
    fn an_email_counts_only_when_it_is_an_address_not_called_unverified() {
        let apple = json!({"sub": "s", "email": "a@b.co", "email_verified": "true"});
        assert_eq!(verified_email(&apple).as_deref(), Some("a@b.co"));
        let apple_no = json!({"sub": "s", "email": "a@b.co", "email_verified": "false"});
        assert_eq!(verified_email(&apple_no), None);
        assert_eq!(verified_email(&json!({"email": "not an address"})), None);
        assert_eq!(verified_email(&json!({"email": 5})), None);
    }
}
