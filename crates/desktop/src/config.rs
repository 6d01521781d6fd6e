//! Where the app finds its service and who it is to it. Each setting comes from
//! the first of three places that has it: an environment variable (`SATCHEL_*`;
//! the local stack writes them to `.devstack/app.env`), the settings file in the
//! user's config folder (`~/.config/dev.satchel.wallet/settings.toml` on Linux),
//! and the defaults baked in when the app was built (`scripts/package.sh`). A
//! packaged app started from the desktop menu has no `SATCHEL_*` variables, so
//! the settings file and the baked defaults are what point it at a service.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use satchel_sdk::{KnownNetwork, NetworkTable};
use serde::Deserialize;
use url::Url;

/// The app's identifier; it also names the app's entries in the OS keychain and
/// its config folder.
pub const IDENTIFIER: &str = "dev.satchel.wallet";

/// The settings file's name inside the app's config folder.
pub const SETTINGS_FILE: &str = "settings.toml";

/// What a person does after changing the settings: they are read at start, and
/// starting Satchel from the menu again only shows the running one.
const RESTART: &str = "quit Satchel (its tray menu) and start it again";

/// The service a build without baked defaults talks to: the local stack's.
const LOCAL_SERVICE: &str = "http://127.0.0.1:8787/";

#[derive(Debug, Clone)]
pub struct AppConfig {
    pub service_url: Url,
    pub app_id: String,
    pub app_key: String,
    pub domain: String,
    /// The keychain service name; tests set their own so they never touch a
    /// person's real entries.
    pub keychain: String,
    /// The public key update packages must be signed with (minisign, as `tauri
    /// signer generate` prints it). Only ever baked in at build time: a file or a
    /// variable a user can write must not choose whose updates are installed.
    /// `None`: this build does not look for updates.
    pub updater_pubkey: Option<String>,
    /// The networks, coins and tokens the device signs for and believes the
    /// service about: `[[networks]]` in the file `SATCHEL_NETWORKS_FILE` names,
    /// else in the settings file, else the table baked in at build time
    /// (`SATCHEL_DEFAULT_NETWORKS`). Never the service's own answer.
    pub networks: NetworkTable,
    /// The port of the provider for applications on 127.0.0.1 (Frame's 1248 by
    /// default); 0 turns it off.
    pub provider_port: u16,
}

/// The configuration is incomplete or malformed: the app still starts, and its
/// offline page names the service and what is missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The service URL the app would have used, as written.
    pub service_url: String,
    pub reason: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// One setting: its environment variable, its key in the settings file, the
/// value baked in at build time (`option_env!` of `SATCHEL_DEFAULT_*`, which
/// `scripts/package.sh` sets) and the built-in default.
struct Setting {
    env: &'static str,
    key: &'static str,
    baked: Option<&'static str>,
    default: Option<&'static str>,
}

const SERVICE_URL: Setting = Setting {
    env: "SATCHEL_SERVICE_URL",
    key: "service_url",
    baked: option_env!("SATCHEL_DEFAULT_SERVICE_URL"),
    default: Some(LOCAL_SERVICE),
};
const APP_ID: Setting = Setting {
    env: "SATCHEL_APP_ID",
    key: "app_id",
    baked: option_env!("SATCHEL_DEFAULT_APP_ID"),
    default: None,
};
const APP_KEY: Setting = Setting {
    env: "SATCHEL_APP_KEY",
    key: "app_key",
    baked: option_env!("SATCHEL_DEFAULT_APP_KEY"),
    default: None,
};
const APP_DOMAIN: Setting = Setting {
    env: "SATCHEL_APP_DOMAIN",
    key: "app_domain",
    baked: option_env!("SATCHEL_DEFAULT_APP_DOMAIN"),
    default: Some("localhost"),
};
/// The variable of the provider's port; the settings file's `provider_port`.
pub const PROVIDER_PORT: &str = "SATCHEL_PROVIDER_PORT";
const KEYCHAIN: Setting = Setting {
    env: "SATCHEL_KEYCHAIN_SERVICE",
    key: "keychain_service",
    baked: None,
    default: Some(IDENTIFIER),
};

/// The public key of update packages, baked in by `scripts/package.sh`.
const UPDATER_PUBKEY: Option<&str> = option_env!("SATCHEL_UPDATER_PUBKEY");

/// The variable naming a TOML file of `[[networks]]` (the local stack's
/// `networks.toml`), and the table baked in by `scripts/package.sh`.
const NETWORKS_FILE: &str = "SATCHEL_NETWORKS_FILE";
const BAKED_NETWORKS: Option<&str> = option_env!("SATCHEL_DEFAULT_NETWORKS");

/// The settings file: every key optional, nothing else allowed (a misspelt key
/// is an error, not a silently ignored line).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsFile {
    service_url: Option<String>,
    app_id: Option<String>,
    app_key: Option<String>,
    app_domain: Option<String>,
    keychain_service: Option<String>,
    provider_port: Option<u16>,
    networks: Option<Vec<KnownNetwork>>,
}

impl SettingsFile {
    fn get(&self, key: &str) -> Option<&str> {
        match key {
            "service_url" => self.service_url.as_deref(),
            "app_id" => self.app_id.as_deref(),
            "app_key" => self.app_key.as_deref(),
            "app_domain" => self.app_domain.as_deref(),
            "keychain_service" => self.keychain_service.as_deref(),
            _ => None,
        }
    }
}

/// What the configuration is read from; [`Sources::current`] for the running
/// app, built by hand in tests.
pub struct Sources {
    pub env: HashMap<String, String>,
    /// The settings file's path and its text, when it exists.
    pub file: Option<(PathBuf, String)>,
    /// Whether the build's baked defaults count (off in the precedence tests).
    pub baked: bool,
}

impl Sources {
    /// This process's environment and the user's settings file.
    pub fn current() -> Self {
        let env = std::env::vars()
            .filter(|(name, _)| name.starts_with("SATCHEL_"))
            .collect();
        let file = settings_path()
            .and_then(|path| std::fs::read_to_string(&path).ok().map(|text| (path, text)));
        Self {
            env,
            file,
            baked: true,
        }
    }
}

/// The settings file of the user running the app: `settings.toml` in the app's
/// config folder, the one Tauri's path resolver names (`$XDG_CONFIG_HOME` or
/// `~/.config` on Linux, then the app's identifier).
pub fn settings_path() -> Option<PathBuf> {
    dirs::config_dir().map(|dir| dir.join(IDENTIFIER).join(SETTINGS_FILE))
}

/// A setting's value: the environment, else the settings file, else the baked
/// default (when `sources.baked`), else the built-in one; blank counts as unset.
fn pick(setting: &Setting, sources: &Sources, file: &SettingsFile) -> Option<String> {
    let nonblank = |v: &str| Some(v.trim().to_owned()).filter(|v| !v.is_empty());
    sources
        .env
        .get(setting.env)
        .and_then(|v| nonblank(v))
        .or_else(|| file.get(setting.key).and_then(nonblank))
        .or_else(|| setting.baked.filter(|_| sources.baked).and_then(nonblank))
        .or_else(|| setting.default.and_then(nonblank))
}

impl AppConfig {
    /// The configuration of the running app.
    pub fn load() -> Result<Self, ConfigError> {
        Self::from_sources(&Sources::current())
    }

    pub fn from_sources(sources: &Sources) -> Result<Self, ConfigError> {
        let (file, file_problem) = match &sources.file {
            None => (SettingsFile::default(), None),
            Some((path, text)) => match toml::from_str::<SettingsFile>(text) {
                Ok(file) => (file, None),
                Err(e) => (
                    SettingsFile::default(),
                    Some(format!(
                        "{} is not a valid settings file ({}); correct it, then {RESTART}",
                        path.display(),
                        e.message()
                    )),
                ),
            },
        };
        let value = |setting: &Setting| pick(setting, sources, &file);
        let service_url = value(&SERVICE_URL).unwrap_or_else(|| LOCAL_SERVICE.into());
        let fail = |reason: String| ConfigError {
            service_url: service_url.clone(),
            reason,
        };
        if let Some(problem) = file_problem {
            return Err(fail(problem));
        }
        let where_to_set = |setting: &Setting| {
            let file = sources
                .file
                .as_ref()
                .map(|(path, _)| path.clone())
                .or_else(settings_path)
                .unwrap_or_else(|| Path::new(SETTINGS_FILE).to_owned());
            format!(
                "no {}: set {} in {} or the variable {}, then {RESTART}",
                setting.key,
                setting.key,
                file.display(),
                setting.env
            )
        };
        let parsed: Url = service_url
            .parse()
            .map_err(|e| fail(format!("service_url {service_url:?} is not a URL: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(fail(format!(
                "service_url {service_url:?} is not an http(s) URL"
            )));
        }
        let app_id = value(&APP_ID).ok_or_else(|| fail(where_to_set(&APP_ID)))?;
        let app_key = value(&APP_KEY).ok_or_else(|| fail(where_to_set(&APP_KEY)))?;
        let provider_port = match sources.env.get(PROVIDER_PORT).map(|v| v.trim()) {
            Some(port) if !port.is_empty() => port.parse::<u16>().map_err(|_| {
                fail(format!(
                    "{PROVIDER_PORT} {port:?} is not a port (0 turns the provider for applications off)"
                ))
            })?,
            _ => file
                .provider_port
                .unwrap_or(satchel_connect::DEFAULT_PORT),
        };
        let networks = network_table(sources, file.networks.clone()).map_err(|reason| {
            let settings = sources
                .file
                .as_ref()
                .map(|(path, _)| path.clone())
                .or_else(settings_path)
                .unwrap_or_else(|| Path::new(SETTINGS_FILE).to_owned());
            fail(format!(
                "{reason}: write the app's [[networks]] in {} or a file named by the variable {NETWORKS_FILE}, then {RESTART}",
                settings.display()
            ))
        })?;
        Ok(Self {
            service_url: parsed,
            app_id,
            app_key,
            domain: value(&APP_DOMAIN).unwrap_or_else(|| "localhost".into()),
            keychain: value(&KEYCHAIN).unwrap_or_else(|| IDENTIFIER.into()),
            updater_pubkey: UPDATER_PUBKEY
                .filter(|_| sources.baked)
                .map(str::trim)
                .filter(|k| !k.is_empty())
                .map(str::to_owned),
            networks,
            provider_port,
        })
    }
}

/// The app's network table, from the first place that has one: the file the
/// environment names, the settings file, the baked-in table. Checked (bounded,
/// each name once).
fn network_table(
    sources: &Sources,
    in_file: Option<Vec<KnownNetwork>>,
) -> Result<NetworkTable, String> {
    let parse = |text: &str, from: &str| {
        toml::from_str::<NetworkTable>(text)
            .map_err(|e| format!("{from} is not a valid network table ({})", e.message()))
    };
    let table = if let Some(path) = sources
        .env
        .get(NETWORKS_FILE)
        .filter(|p| !p.trim().is_empty())
    {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("the network table {path} cannot be read ({e})"))?;
        parse(&text, path)?
    } else if let Some(networks) = in_file {
        NetworkTable { networks }
    } else if let Some(baked) = BAKED_NETWORKS.filter(|t| sources.baked && !t.trim().is_empty()) {
        parse(baked, "the network table built in")?
    } else {
        return Err("no networks".into());
    };
    table.validate()?;
    Ok(table)
}

#[cfg(test)]
mod tests;
