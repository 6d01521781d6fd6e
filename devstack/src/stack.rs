//! The whole local stack in one value: anvil with the demo contracts, the service
//! on SQLite with the faucet in front of it, the demo app and the demo user. The
//! `satchel-devstack` binary runs one for a person; the desktop UI tests start one
//! per test on free ports.

use std::path::{Path, PathBuf};

use satchel_service::{Settings, admin};

use crate::{Anvil, Demo, RunningService, with_faucet};

/// The demo user's login.
pub const DEMO_EMAIL: &str = "demo@satchel.dev";
pub const DEMO_PASSWORD: &str = "satchel-demo1";

/// Where the stack listens (0: a free port) and which domain the demo app calls from.
#[derive(Debug, Clone)]
pub struct StackOptions {
    pub data_dir: PathBuf,
    pub anvil_port: u16,
    pub service_port: u16,
    pub domain: String,
}

impl StackOptions {
    /// A stack of its own in `data_dir`, on free ports, for the domain `localhost`:
    /// what a test or a benchmark starts.
    pub fn on_free_ports(data_dir: PathBuf) -> Self {
        Self {
            data_dir,
            anvil_port: 0,
            service_port: 0,
            domain: "localhost".into(),
        }
    }
}

pub struct LocalStack {
    pub anvil: Anvil,
    pub demo: Demo,
    pub service: RunningService,
    pub app_id: String,
    pub app_key: String,
    pub domain: String,
    pub demo_user_id: String,
    /// The folder of the database, the outbox and the files below.
    pub data_dir: PathBuf,
}

impl LocalStack {
    /// Empties `data_dir` (the chain starts empty too), then starts everything and
    /// writes `service.toml` and `app.env` into it.
    pub async fn start(options: StackOptions) -> anyhow::Result<Self> {
        if options.data_dir.exists() {
            std::fs::remove_dir_all(&options.data_dir)?;
        }
        std::fs::create_dir_all(&options.data_dir)?;
        let data_dir = std::fs::canonicalize(&options.data_dir)?;

        let anvil = match options.anvil_port {
            0 => Anvil::spawn().await?,
            port => Anvil::spawn_on(port).await?,
        };
        let demo = Demo::deploy(&anvil.url).await?;
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", options.service_port)).await?;
        let address = listener.local_addr()?;
        let settings = Settings {
            bind: address,
            data_dir: data_dir.clone(),
            public_url: format!("http://{address}/").parse()?,
            networks: vec![demo.network_config("anvil")],
            ..Settings::default()
        };
        std::fs::write(
            data_dir.join("service.toml"),
            toml::to_string_pretty(&settings)?,
        )?;
        let faucet = demo.clone();
        let service =
            RunningService::start_on_with(listener, settings, |router| with_faucet(router, faucet))
                .await?;

        let app = admin::create_app(
            &service.state.db,
            "Satchel Demo",
            std::slice::from_ref(&options.domain),
        )
        .await?;
        let demo_user_id =
            admin::create_email_account(&service.state, &app.app_id, DEMO_EMAIL, DEMO_PASSWORD)
                .await?;
        let stack = Self {
            anvil,
            demo,
            service,
            app_id: app.app_id,
            app_key: app.app_key,
            domain: options.domain,
            demo_user_id,
            data_dir,
        };
        std::fs::write(stack.env_file(), stack.app_env())?;
        Ok(stack)
    }

    /// The desktop app's settings for this stack, as `NAME=value` lines.
    pub fn app_env(&self) -> String {
        self.app_env_vars()
            .iter()
            .map(|(name, value)| format!("{name}={value}\n"))
            .collect()
    }

    /// The desktop app's settings for this stack (README: the desktop app).
    pub fn app_env_vars(&self) -> Vec<(&'static str, String)> {
        vec![
            ("SATCHEL_SERVICE_URL", self.service.base_url.to_string()),
            ("SATCHEL_APP_ID", self.app_id.clone()),
            ("SATCHEL_APP_KEY", self.app_key.clone()),
            ("SATCHEL_APP_DOMAIN", self.domain.clone()),
        ]
    }

    pub fn env_file(&self) -> PathBuf {
        self.data_dir.join("app.env")
    }

    pub fn outbox(&self) -> PathBuf {
        self.data_dir.join("outbox")
    }

    pub fn config_file(&self) -> PathBuf {
        self.data_dir.join("service.toml")
    }

    /// Stops the service, then the chain.
    pub async fn stop(self) -> anyhow::Result<()> {
        self.service.shutdown().await?;
        drop(self.anvil);
        Ok(())
    }
}

/// The verification link in the newest e-mail to `to` in an outbox folder.
pub fn verification_link(outbox: &Path, to: &str) -> Option<String> {
    let mut mails: Vec<_> = std::fs::read_dir(outbox)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "eml"))
        .collect();
    mails.sort();
    mails.iter().rev().find_map(|path| {
        let text = decode_quoted_printable(&std::fs::read_to_string(path).ok()?);
        if !text
            .lines()
            .any(|l| l.eq_ignore_ascii_case(&format!("to: {to}")))
        {
            return None;
        }
        let start = text.find("http://")?;
        let link: String = text[start..]
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '"' && *c != '<')
            .collect();
        Some(link)
    })
}

/// The link of every e-mail to `to` in an outbox folder (the first `http://` link
/// of each), in the order of the files' names: oldest first, though two e-mails
/// written in the same second may come in either order.
pub fn mail_links(outbox: &Path, to: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(outbox) else {
        return Vec::new();
    };
    let mut mails: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "eml"))
        .collect();
    mails.sort();
    mails
        .iter()
        .filter_map(|path| {
            let text = decode_quoted_printable(&std::fs::read_to_string(path).ok()?);
            if !text
                .lines()
                .any(|l| l.eq_ignore_ascii_case(&format!("to: {to}")))
            {
                return None;
            }
            let start = text.find("http://")?;
            Some(
                text[start..]
                    .chars()
                    .take_while(|c| !c.is_whitespace() && *c != '"' && *c != '<')
                    .collect(),
            )
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
