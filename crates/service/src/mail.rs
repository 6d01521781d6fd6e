//! Outgoing e-mail (verification, password-reset and PIN unlock links): through SMTP when `mail.smtp_url` is set, else into an outbox
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
        let text = format!(
            "Welcome to {app_name}.\n\nOpen this link to verify your e-mail address:\n\n{link}\n\n\
             The link works once, for 24 hours. If you did not sign up, ignore this e-mail."
        );
        let html = format!(
            "<p>Welcome to {app}.</p><p><a href=\"{link}\">Verify your e-mail address</a></p>\
             <p>The link works once, for 24 hours. If you did not sign up, ignore this e-mail.</p>",
            app = html_escape(app_name),
            link = html_escape(link),
        );
        self.send(to, format!("Verify your e-mail for {app_name}"), text, html)
            .await
    }

    /// Sends the link that lifts the lock on `to`'s wallet PIN after too many
    /// wrong tries.
    pub async fn send_pin_unlock(
        &self,
        to: &str,
        app_name: &str,
        link: &str,
    ) -> Result<(), MailError> {
        let text = format!(
            "Your {app_name} wallet's PIN was entered wrongly too many times, so it is locked.\n\n\
             If that was you, open this link to unlock it:\n\n{link}\n\n\
             The link works once, for 24 hours. If it was not you, do not open it: someone may \
             be trying to guess your PIN. Your recovery phrase also lets you set a new PIN."
        );
        let html = format!(
            "<p>Your {app} wallet's PIN was entered wrongly too many times, so it is locked.</p>\
             <p>If that was you: <a href=\"{link}\">Unlock your PIN</a></p>\
             <p>The link works once, for 24 hours. If it was not you, do not open it: someone may \
             be trying to guess your PIN. Your recovery phrase also lets you set a new PIN.</p>",
            app = html_escape(app_name),
            link = html_escape(link),
        );
        self.send(to, format!("Unlock your {app_name} PIN"), text, html)
            .await
    }

    /// Sends the link that sets a new password for `to`'s login.
    pub async fn send_password_reset(
        &self,
        to: &str,
        app_name: &str,
        link: &str,
    ) -> Result<(), MailError> {
        let text = format!(
            "Someone asked to reset the password of your {app_name} login.\n\n\
             If that was you, open this link to choose a new password:\n\n{link}\n\n\
             The link works once, for 1 hour. Setting a new password logs out every \
             device that is logged in. If it was not you, ignore this e-mail: your \
             password stays as it is."
        );
        let html = format!(
            "<p>Someone asked to reset the password of your {app} login.</p>\
             <p>If that was you: <a href=\"{link}\">Choose a new password</a></p>\
             <p>The link works once, for 1 hour. Setting a new password logs out every \
             device that is logged in. If it was not you, ignore this e-mail: your \
             password stays as it is.</p>",
            app = html_escape(app_name),
            link = html_escape(link),
        );
        self.send(to, format!("Reset your {app_name} password"), text, html)
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
                let name = format!("{}-{}.eml", crate::now(), uuid::Uuid::new_v4().simple());
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

pub fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}
