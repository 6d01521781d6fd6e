//! The stack's outbox read as a person reads it: the mails sent to an address
//! (the service writes each as a file), their links and subjects, and an
//! e-mailed link opened as a browser opens it.

use std::path::Path;

/// Opens an e-mailed link as a person does in a browser: the page, then its
/// button when it has one (a form that posts the link's token; never a form
/// that asks for a password). The status and text of the last page.
pub async fn open_link(
    http: &reqwest::Client,
    link: &str,
) -> anyhow::Result<(reqwest::StatusCode, String)> {
    let page = http.get(link).send().await?;
    let (status, text) = (page.status(), page.text().await?);
    let Some(action) = button_action(&text) else {
        return Ok((status, text));
    };
    let link = url::Url::parse(link)?;
    let token = link
        .query_pairs()
        .find(|(name, _)| name == "token")
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default();
    let body = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("token", &token)
        .finish();
    let answer = http
        .post(link.join(&action)?)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await?;
    Ok((answer.status(), answer.text().await?))
}

/// Where a link page's one button posts, when the page is such a page.
fn button_action(html: &str) -> Option<String> {
    if html.contains("type=\"password\"") {
        return None;
    }
    let start =
        html.find("<form method=\"post\" action=\"")? + "<form method=\"post\" action=\"".len();
    let action: String = html[start..].chars().take_while(|c| *c != '"').collect();
    Some(action.replace("&amp;", "&"))
}

/// The e-mails to `to` in an outbox folder, decoded, in the order of the
/// files' names: oldest first, though two written in the same second may come
/// in either order.
fn mails_to(outbox: &Path, to: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(outbox) else {
        return Vec::new();
    };
    let mut mails: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "eml"))
        .collect();
    mails.sort();
    let to_line = format!("to: {to}");
    mails
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .map(|text| decode_quoted_printable(&text))
        .filter(|text| text.lines().any(|l| l.eq_ignore_ascii_case(&to_line)))
        .collect()
}

/// An e-mail's first `http://` link.
fn first_link(text: &str) -> Option<String> {
    let start = text.find("http://")?;
    Some(
        text[start..]
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '"' && *c != '<')
            .collect(),
    )
}

/// The verification link in the newest e-mail to `to` in an outbox folder.
pub fn verification_link(outbox: &Path, to: &str) -> Option<String> {
    mails_to(outbox, to)
        .iter()
        .rev()
        .find_map(|text| first_link(text))
}

/// The link of every e-mail to `to` in an outbox folder (the first `http://` link
/// of each), oldest first (as [`mails_to`]).
pub fn mail_links(outbox: &Path, to: &str) -> Vec<String> {
    mails_to(outbox, to)
        .iter()
        .filter_map(|text| first_link(text))
        .collect()
}

/// The subject of every e-mail to `to` in the outbox, oldest first.
pub fn mail_subjects(outbox: &Path, to: &str) -> Vec<String> {
    mails_to(outbox, to)
        .iter()
        .filter_map(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("Subject: "))
                .map(str::to_owned)
        })
        .collect()
}

/// Undoes quoted-printable: soft line breaks and `=XX` escapes.
fn decode_quoted_printable(text: &str) -> String {
    let joined = text.replace("=\r\n", "").replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'=' && i + 2 < bytes.len())
            .then(|| std::str::from_utf8(&bytes[i + 1..i + 3]).ok())
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        if let Some(byte) = escaped {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
