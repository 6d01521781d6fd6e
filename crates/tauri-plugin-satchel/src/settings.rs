//! The plugin's settings in a host's `tauri.conf.json` (`plugins.satchel`),
//! checked as the Satchel app's own settings are.

use satchel_desktop::{AppConfig, ConfigError};
use satchel_sdk::{KnownNetwork, NetworkTable};
use serde::Deserialize;
use url::Url;

/// `plugins.satchel` in the host's `tauri.conf.json`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginSettings {
    /// The app's id and key, as the service's admin command printed them.
    pub app_id: String,
    pub app_key: String,
    /// The wallet service, e.g. `https://wallet.example.com/`.
    pub service_url: String,
    /// The domain the app was registered with; a desktop application's is
    /// its bundle identifier (the default: the host's `identifier`).
    #[serde(default)]
    pub domain: Option<String>,
    /// The networks, coins and tokens the device signs for and believes the
    /// service about (the same table as the Satchel app's settings).
    pub networks: Vec<KnownNetwork>,
}

/// The keychain service of a host's widget: its identifier and app id, so two
/// applications never share a session or a key.
pub fn keychain_for(identifier: &str, app_id: &str) -> String {
    format!("{identifier}.satchel.{app_id}")
}

/// The configuration from the host's `plugins.satchel`, else (a host in
/// development, against the local stack) from the `SATCHEL_*` variables the
/// Satchel app reads too (`.devstack/app.env`); a missing or invalid one is an
/// error the widget's offline page shows.
pub fn from_host_config(
    settings: Option<&PluginSettings>,
    identifier: &str,
) -> Result<AppConfig, ConfigError> {
    let Some(settings) = settings else {
        return from_environment(
            std::env::vars()
                .filter(|(name, _)| name.starts_with("SATCHEL_"))
                .collect(),
            identifier,
        );
    };
    let fail = |reason: String| ConfigError {
        service_url: settings.service_url.clone(),
        reason,
    };
    let service_url: Url = settings
        .service_url
        .parse()
        .map_err(|e| fail(format!("plugins.satchel.serviceUrl is not a URL: {e}")))?;
    if !matches!(service_url.scheme(), "http" | "https") {
        return Err(fail(
            "plugins.satchel.serviceUrl is not an http(s) URL".into(),
        ));
    }
    if settings.app_id.trim().is_empty() || settings.app_key.trim().is_empty() {
        return Err(fail("plugins.satchel needs appId and appKey".into()));
    }
    let networks = NetworkTable {
        networks: settings.networks.clone(),
    };
    networks
        .validate()
        .map_err(|e| fail(format!("plugins.satchel.networks: {e}")))?;
    Ok(AppConfig {
        service_url,
        app_id: settings.app_id.clone(),
        app_key: settings.app_key.clone(),
        domain: settings
            .domain
            .clone()
            .unwrap_or_else(|| identifier.to_owned()),
        keychain: keychain_for(identifier, &settings.app_id),
        updater_pubkey: None,
        networks,
        // A host serves no local endpoint: that is the Satchel app's.
        provider_port: 0,
    })
}

/// The configuration from `SATCHEL_*` variables: the service, the app, the
/// network table (`SATCHEL_NETWORKS_FILE`); the domain and the keychain are
/// the host's own unless `SATCHEL_APP_DOMAIN` or `SATCHEL_KEYCHAIN_SERVICE`
/// name others.
fn from_environment(
    env: std::collections::HashMap<String, String>,
    identifier: &str,
) -> Result<AppConfig, ConfigError> {
    let set = |name: &str| env.get(name).filter(|v| !v.trim().is_empty()).cloned();
    let (domain, keychain) = (set("SATCHEL_APP_DOMAIN"), set("SATCHEL_KEYCHAIN_SERVICE"));
    if set("SATCHEL_APP_ID").is_none() {
        return Err(ConfigError {
            service_url: set("SATCHEL_SERVICE_URL").unwrap_or_default(),
            reason: "no plugins.satchel in tauri.conf.json (appId, appKey, serviceUrl, networks), none given to tauri_plugin_satchel::Builder::config, and no SATCHEL_APP_ID".into(),
        });
    }
    let mut config = AppConfig::from_sources(&satchel_desktop::config::Sources {
        env,
        file: None,
        baked: false,
    })?;
    config.domain = domain.unwrap_or_else(|| identifier.to_owned());
    config.keychain = keychain.unwrap_or_else(|| keychain_for(identifier, &config.app_id));
    config.provider_port = 0;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(json: serde_json::Value) -> PluginSettings {
        serde_json::from_value(json).expect("settings")
    }

    #[test]
    fn a_hosts_settings_use_its_identifier_as_domain_and_keychain_namespace() {
        let json = |networks| {
            serde_json::json!({
                "appId": "app-1", "appKey": "key", "serviceUrl": "https://wallet.example.com/",
                "networks": networks
            })
        };
        let one = serde_json::json!([{"name": "ethereum", "chain_id": 1, "symbol": "ETH", "decimals": 18}]);
        let config = from_host_config(Some(&settings(json(one))), "com.example.launcher")
            .expect("a complete configuration");
        assert_eq!(config.domain, "com.example.launcher");
        assert_eq!(config.keychain, "com.example.launcher.satchel.app-1");
        assert_eq!(config.provider_port, 0, "a host serves no local endpoint");
        // An empty network table is refused, as the app's own settings are.
        let error = from_host_config(Some(&settings(json(serde_json::json!([])))), "h")
            .expect_err("no networks");
        assert!(error.reason.contains("networks"), "{}", error.reason);
    }

    #[test]
    fn without_settings_the_error_says_where_to_write_them() {
        let error = from_environment(Default::default(), "com.example.launcher").expect_err("none");
        assert!(error.reason.contains("plugins.satchel"), "{}", error.reason);
    }

    #[test]
    fn from_the_environment_the_domain_and_keychain_are_the_hosts_unless_named() {
        let networks = tempfile_with(
            "[[networks]]\nname = \"dev\"\nchain_id = 31337\nsymbol = \"ETH\"\ndecimals = 18\n",
        );
        let env = |extra: &[(&str, &str)]| {
            let mut env: std::collections::HashMap<String, String> = [
                ("SATCHEL_APP_ID", "app-1"),
                ("SATCHEL_APP_KEY", "key"),
                ("SATCHEL_SERVICE_URL", "http://127.0.0.1:8787/"),
                ("SATCHEL_NETWORKS_FILE", networks.to_str().expect("a path")),
            ]
            .iter()
            .chain(extra)
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
            env.retain(|_, v| !v.is_empty());
            env
        };
        let config = from_environment(env(&[]), "com.example.launcher").expect("configured");
        assert_eq!(config.domain, "com.example.launcher");
        assert_eq!(config.keychain, "com.example.launcher.satchel.app-1");
        let config = from_environment(
            env(&[
                ("SATCHEL_APP_DOMAIN", "localhost"),
                ("SATCHEL_KEYCHAIN_SERVICE", "test.keychain"),
            ]),
            "com.example.launcher",
        )
        .expect("configured");
        assert_eq!(
            (config.domain.as_str(), config.keychain.as_str()),
            ("localhost", "test.keychain")
        );
        let _ = std::fs::remove_file(networks);
    }

    fn tempfile_with(text: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!(
            "satchel-plugin-networks-{}-{:?}.toml",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::write(&path, text).expect("written");
        path
    }

    #[test]
    fn a_misspelt_setting_is_refused() {
        let parsed = serde_json::from_value::<PluginSettings>(serde_json::json!({
            "appId": "a", "appKey": "k", "serviceURL": "https://x/", "networks": []
        }));
        assert!(parsed.is_err());
    }

    #[test]
    fn two_apps_on_one_host_have_their_own_keychain_entries() {
        assert_ne!(
            keychain_for("com.example.launcher", "app-1"),
            keychain_for("com.example.launcher", "app-2")
        );
        assert_ne!(
            keychain_for("com.example.a", "app-1"),
            keychain_for("com.example.b", "app-1")
        );
    }
}
