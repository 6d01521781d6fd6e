//! Outgoing e-mail (verification, password-reset and PIN unlock links, each
//! written once and sent as text and HTML): through SMTP when `mail.smtp_url` is set, else into an outbox
//! folder of `.eml` files that a person or a test opens.

use std::path::PathBuf;

use lettre::message::{Mailbox, MultiPart, SinglePart, header::ContentType};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::Settings;

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct MailError(String);

#[derive(Clone)]
pub enum Mailer {
    Outbox {
        dir: PathBuf,
        from: Mailbox,
    },
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: Mailbox,
    },
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Outbox { dir, .. } => write!(f, "Mailer::Outbox({})", dir.display()),
            Self::Smtp { .. } => f.write_str("Mailer::Smtp"),
        }
    }
}

impl Mailer {
    pub fn from_settings(settings: &Settings) -> anyhow::Result<Self> {
        let from: Mailbox = settings
            .mail
            .from
            .parse()
            .map_err(|e| anyhow::anyhow!("mail.from: {e}"))?;
        Ok(match &settings.mail.smtp_url {
            Some(url) => Self::Smtp {
                transport: AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .map_err(|e| anyhow::anyhow!("mail.smtp_url: {e}"))?
                    .timeout(Some(settings.upstream_timeout()))
                    .build(),
                from,
            },
            None => Self::Outbox {
                dir: settings
                    .mail
                    .outbox_dir
                    .clone()
                    .unwrap_or_else(|| settings.data_dir.join("outbox")),
                from,
            },
        })
    }

    /// Sends the link that verifies `to`'s address.
    pub async fn send_verification(
        &self,
        to: &str,
        app_name: &str,
        link: &str,
    ) -> Result<(), MailError> {
        let mail = LinkMail {
            subject: format!("Verify your e-mail for {app_name}"),
            opening: format!("Welcome to {app_name}."),
            only_if_you: false,
            action: "verify your e-mail address",
            link,
            closing: "The link works once, for 24 hours. If you did not sign up, ignore this \
                      e-mail."
                .into(),
        };
        self.send_link(to, &mail).await
    }

    /// Sends the link that lifts the lock on `to`'s wallet PIN after too many
    /// wrong tries.
    pub async fn send_pin_unlock(
        &self,
        to: &str,
        app_name: &str,
        link: &str,
    ) -> Result<(), MailError> {
        let mail = LinkMail {
            subject: format!("Unlock your {app_name} PIN"),
            opening: format!(
                "Your {app_name} wallet's PIN was entered wrongly too many times, so it is locked."
            ),
            only_if_you: true,
            action: "unlock your PIN",
            link,
            closing: "The link works once, for 24 hours. If it was not you, do not open it: \
                      someone may be trying to guess your PIN. Your recovery phrase also lets \
                      you set a new PIN."
                .into(),
        };
        self.send_link(to, &mail).await
    }

    /// Sends the link that sets a new password for `to`'s login.
    pub async fn send_password_reset(
        &self,
        to: &str,
        app_name: &str,
        link: &str,
    ) -> Result<(), MailError> {
        let mail = LinkMail {
            subject: format!("Reset your {app_name} password"),
            opening: format!("Someone asked to reset the password of your {app_name} login."),
            only_if_you: true,
            action: "choose a new password",
            link,
            closing: "The link works once, for 1 hour. Setting a new password logs out every \
                      device that is logged in. If it was not you, ignore this e-mail: your \
                      password stays as it is."
                .into(),
        };
        self.send_link(to, &mail).await
    }

    /// Tells `to` that their PIN lock was lifted by the e-mailed link.
    pub async fn send_pin_unlocked(&self, to: &str, app_name: &str) -> Result<(), MailError> {
        let text = format!(
            "The PIN of your {app_name} wallet was just unlocked with the link we e-mailed.\n\n\
             If that was not you, someone can read your e-mail and is trying to guess your \
             PIN: change your e-mail password, and set a new PIN with your recovery phrase."
        );
        let html = format!("<p>{}</p>", html_escape(&text).replace("\n\n", "</p><p>"));
        self.send(to, format!("Your {app_name} PIN was unlocked"), text, html)
            .await
    }

    /// Tells `to` that their wallet's backup was opened with the PIN: a restore
    /// on a device that did not hold the key.
    pub async fn send_restored(&self, to: &str, app_name: &str) -> Result<(), MailError> {
        let text = format!(
            "Your {app_name} wallet was just restored on a device from the backup we keep, \
             opened with your PIN.\n\n\
             If that was not you, someone knows your PIN and can log in as you: change your \
             password now, then move your funds to a new wallet."
        );
        let html = format!("<p>{}</p>", html_escape(&text).replace("\n\n", "</p><p>"));
        self.send(
            to,
            format!("Your {app_name} wallet was restored on a device"),
            text,
            html,
        )
        .await
    }

    async fn send_link(&self, to: &str, mail: &LinkMail<'_>) -> Result<(), MailError> {
        self.send(to, mail.subject.clone(), mail.text(), mail.html())
            .await
    }

    /// Sends a text and HTML e-mail to `to`.
    async fn send(
        &self,
        to: &str,
        subject: String,
        text: String,
        html: String,
    ) -> Result<(), MailError> {
        let from = match self {
            Self::Outbox { from, .. } | Self::Smtp { from, .. } => from.clone(),
        };
        let to: Mailbox = to
            .parse()
            .map_err(|e| MailError(format!("recipient: {e}")))?;
        let message = Message::builder()
            .from(from)
            .to(to)
            .subject(subject)
            .multipart(
                MultiPart::alternative()
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_PLAIN)
                            .body(text),
                    )
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_HTML)
                            .body(html),
                    ),
            )
            .map_err(|e| MailError(e.to_string()))?;
        match self {
            Self::Smtp { transport, .. } => {
                transport
                    .send(message)
                    .await
                    .map_err(|e| MailError(e.to_string()))?;
            }
            Self::Outbox { dir, .. } => {
                tokio::fs::create_dir_all(dir)
                    .await
                    .map_err(|e| MailError(e.to_string()))?;
                let name = format!(
                    "{}-{}.eml",
                    crate::clock::now(),
                    uuid::Uuid::new_v4().simple()
                );
                let partial = dir.join(format!(".{name}.partial"));
                tokio::fs::write(&partial, message.formatted())
                    .await
                    .map_err(|e| MailError(e.to_string()))?;
                tokio::fs::rename(&partial, dir.join(name))
                    .await
                    .map_err(|e| MailError(e.to_string()))?;
            }
        }
        Ok(())
    }
}

/// An e-mail whose point is one link: an opening line, the link with what it
/// does, and a closing line. Written once, rendered as text and as HTML.
struct LinkMail<'a> {
    subject: String,
    opening: String,
    /// The link is for the person who asked ("If that was you, ...").
    only_if_you: bool,
    /// What the link does, as a verb phrase: "verify your e-mail address".
    action: &'static str,
    link: &'a str,
    closing: String,
}

impl LinkMail<'_> {
    fn text(&self) -> String {
        let lead = if self.only_if_you {
            "If that was you, open"
        } else {
            "Open"
        };
        format!(
            "{}\n\n{lead} this link to {}:\n\n{}\n\n{}",
            self.opening, self.action, self.link, self.closing
        )
    }

    fn html(&self) -> String {
        let lead = if self.only_if_you {
            "If that was you: "
        } else {
            ""
        };
        let mut label = self.action.to_owned();
        if let Some(first) = label.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        format!(
            "<p>{}</p><p>{lead}<a href=\"{}\">{}</a></p><p>{}</p>",
            html_escape(&self.opening),
            html_escape(self.link),
            html_escape(&label),
            html_escape(&self.closing)
        )
    }
}

pub fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_mail_says_the_same_as_text_and_as_html() {
        let mail = LinkMail {
            subject: "Unlock".into(),
            opening: "Locked <for now> & then".into(),
            only_if_you: true,
            action: "unlock your PIN",
            link: "https://wallet.example.com/v1/wallets/pin/unlock?token=a&b",
            closing: "Works once.".into(),
        };
        assert_eq!(
            mail.text(),
            "Locked <for now> & then\n\nIf that was you, open this link to unlock your PIN:\n\n\
             https://wallet.example.com/v1/wallets/pin/unlock?token=a&b\n\nWorks once."
        );
        assert_eq!(
            mail.html(),
            "<p>Locked &lt;for now&gt; &amp; then</p><p>If that was you: <a \
             href=\"https://wallet.example.com/v1/wallets/pin/unlock?token=a&amp;b\">Unlock your \
             PIN</a></p><p>Works once.</p>"
        );
    }
}
