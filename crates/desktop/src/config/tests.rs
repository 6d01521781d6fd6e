//! Where each setting comes from, in order, and what an incomplete or
//! malformed configuration says.

use super::*;

fn sources(env: &[(&str, &str)], file: Option<&str>) -> Sources {
    Sources {
        env: env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
        file: file.map(|text| {
            (
                PathBuf::from("/home/ada/.config/x/settings.toml"),
                text.into(),
            )
        }),
        baked: false,
    }
}

const FILE: &str = r#"
    service_url = "https://wallet.example.com/"
    app_id = "file-app"
    app_key = "file-key"
    app_domain = "example.com"

    [[networks]]
    name = "ethereum"
    chain_id = 1
    symbol = "ETH"
    decimals = 18
    tokens = [{ contract = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", symbol = "USDC", decimals = 6 }]
"#;

/// A network table file as the local stack writes one; removed on drop.
struct NetworksFile(PathBuf);

impl NetworksFile {
    fn new(name: &str, text: &str) -> Self {
        let path = std::env::temp_dir().join(format!(
            "satchel-networks-{}-{name}.toml",
            std::process::id()
        ));
        std::fs::write(&path, text).expect("written");
        Self(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().expect("utf-8")
    }
}

impl Drop for NetworksFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn the_settings_file_alone_configures_a_packaged_app() {
    let config = AppConfig::from_sources(&sources(&[], Some(FILE))).expect("configured");
    assert_eq!(config.service_url.as_str(), "https://wallet.example.com/");
    assert_eq!(config.app_id, "file-app");
    assert_eq!(config.app_key, "file-key");
    assert_eq!(config.domain, "example.com");
    assert_eq!(config.keychain, IDENTIFIER);
    assert_eq!(config.updater_pubkey, None, "never from the file");
    assert_eq!(config.provider_port, 1248, "Frame's port by default");
    let ethereum = config
        .networks
        .network("ethereum")
        .expect("the file's network");
    assert_eq!(ethereum.chain_id, 1);
    assert_eq!(ethereum.tokens[0].decimals, 6);
}

#[test]
fn the_network_table_comes_from_the_file_the_environment_names_else_the_settings_file() {
    let stack = NetworksFile::new(
        "stack",
        "[[networks]]\nname = \"anvil\"\nchain_id = 31337\nsymbol = \"ETH\"\ndecimals = 18\n",
    );
    let env = [("SATCHEL_NETWORKS_FILE", stack.path())];
    let config = AppConfig::from_sources(&sources(&env, Some(FILE))).expect("configured");
    assert_eq!(config.networks.networks.len(), 1);
    assert_eq!(config.networks.networks[0].chain_id, 31337);

    let broken = NetworksFile::new("broken", "[[networks]]\nname = \"anvil\"\n");
    let env = [("SATCHEL_NETWORKS_FILE", broken.path())];
    let error = AppConfig::from_sources(&sources(&env, Some(FILE))).expect_err("no chain id");
    assert!(
        error.reason.contains("not a valid network table"),
        "{error}"
    );

    let twice = NetworksFile::new(
        "twice",
        &"[[networks]]\nname = \"anvil\"\nchain_id = 1\nsymbol = \"ETH\"\ndecimals = 18\n"
            .repeat(2),
    );
    let env = [("SATCHEL_NETWORKS_FILE", twice.path())];
    let error = AppConfig::from_sources(&sources(&env, Some(FILE))).expect_err("named twice");
    assert!(error.reason.contains("named twice"), "{error}");

    let env = [("SATCHEL_NETWORKS_FILE", "/nonexistent/networks.toml")];
    let error = AppConfig::from_sources(&sources(&env, Some(FILE))).expect_err("no file");
    assert!(error.reason.contains("cannot be read"), "{error}");
}

#[test]
fn the_provider_port_comes_from_the_environment_or_the_file_and_0_turns_it_off() {
    let with_port = format!("provider_port = 0\n{FILE}");
    let config = AppConfig::from_sources(&sources(&[], Some(&with_port))).expect("configured");
    assert_eq!(config.provider_port, 0);
    let env = [("SATCHEL_PROVIDER_PORT", "18545")];
    let config = AppConfig::from_sources(&sources(&env, Some(&with_port))).expect("configured");
    assert_eq!(config.provider_port, 18545);
    let env = [("SATCHEL_PROVIDER_PORT", "70000")];
    let error = AppConfig::from_sources(&sources(&env, Some(FILE))).expect_err("not a port");
    assert!(error.reason.contains("SATCHEL_PROVIDER_PORT"), "{error}");
}

#[test]
fn without_a_network_table_the_app_is_not_configured() {
    let env = [("SATCHEL_APP_ID", "a"), ("SATCHEL_APP_KEY", "k")];
    let error = AppConfig::from_sources(&sources(&env, None)).expect_err("no networks");
    assert!(error.reason.contains("[[networks]]"), "{error}");
    assert!(error.reason.contains("SATCHEL_NETWORKS_FILE"), "{error}");
}

#[test]
fn environment_variables_win_over_the_settings_file_one_setting_at_a_time() {
    let env = [
        ("SATCHEL_SERVICE_URL", "http://127.0.0.1:9999/"),
        ("SATCHEL_APP_KEY", "env-key"),
    ];
    let config = AppConfig::from_sources(&sources(&env, Some(FILE))).expect("configured");
    assert_eq!(config.service_url.as_str(), "http://127.0.0.1:9999/");
    assert_eq!(config.app_key, "env-key");
    assert_eq!(config.app_id, "file-app", "not in the environment");
    assert_eq!(config.domain, "example.com");
}

#[test]
fn an_empty_variable_counts_as_unset() {
    let env = [("SATCHEL_APP_ID", "  ")];
    let config = AppConfig::from_sources(&sources(&env, Some(FILE))).expect("configured");
    assert_eq!(config.app_id, "file-app");
}

#[test]
fn without_file_or_variables_the_local_stack_is_the_default_and_the_key_is_missing() {
    let error = AppConfig::from_sources(&sources(&[], None)).expect_err("no app id");
    assert_eq!(error.service_url, LOCAL_SERVICE);
    assert!(error.reason.contains("app_id"), "{error}");
    assert!(error.reason.contains("SATCHEL_APP_ID"), "{error}");
    assert!(error.reason.contains(SETTINGS_FILE), "{error}");
    let networks = NetworksFile::new(
        "local",
        FILE.split("[[networks]]")
            .nth(1)
            .map(|n| format!("[[networks]]{n}"))
            .as_deref()
            .expect("a table"),
    );
    let env = [
        ("SATCHEL_APP_ID", "a"),
        ("SATCHEL_APP_KEY", "k"),
        ("SATCHEL_NETWORKS_FILE", networks.path()),
    ];
    let config = AppConfig::from_sources(&sources(&env, None)).expect("configured");
    assert_eq!(config.service_url.as_str(), LOCAL_SERVICE);
    assert_eq!(config.domain, "localhost");
}

#[test]
fn baked_defaults_come_after_the_file_and_before_the_built_in_ones() {
    // The build's own baked values are constants; a setting of the test's
    // own stands for one that `scripts/package.sh` baked in.
    let setting = Setting {
        env: "SATCHEL_SERVICE_URL",
        key: "service_url",
        baked: Some("https://baked.example.com/"),
        default: Some(LOCAL_SERVICE),
    };
    let file: SettingsFile = toml::from_str(FILE).expect("file");
    let empty = SettingsFile::default();
    let baked = |env: &[(&str, &str)]| Sources {
        baked: true,
        ..sources(env, None)
    };
    let env = baked(&[("SATCHEL_SERVICE_URL", "http://env.example/")]);
    assert_eq!(
        pick(&setting, &env, &file).as_deref(),
        Some("http://env.example/")
    );
    assert_eq!(
        pick(&setting, &baked(&[]), &file).as_deref(),
        Some("https://wallet.example.com/")
    );
    assert_eq!(
        pick(&setting, &baked(&[]), &empty).as_deref(),
        Some("https://baked.example.com/")
    );
    let unbaked = sources(&[], None);
    assert_eq!(
        pick(&setting, &unbaked, &empty).as_deref(),
        Some(LOCAL_SERVICE)
    );
}

#[test]
fn a_malformed_file_or_url_is_a_problem_that_names_the_service() {
    let error =
        AppConfig::from_sources(&sources(&[], Some("service_url = 3"))).expect_err("not a string");
    assert!(
        error.reason.contains("not a valid settings file"),
        "{error}"
    );
    let error = AppConfig::from_sources(&sources(&[], Some("servce_url = \"x\"")))
        .expect_err("misspelt key");
    assert!(error.reason.contains("servce_url"), "{error}");
    let env = [("SATCHEL_SERVICE_URL", "ftp://wallet.example.com/")];
    let error = AppConfig::from_sources(&sources(&env, Some(FILE))).expect_err("not http");
    assert_eq!(error.service_url, "ftp://wallet.example.com/");
}

#[test]
fn the_settings_file_is_in_the_apps_config_folder() {
    let path = settings_path().expect("a config folder");
    assert!(path.ends_with(Path::new(IDENTIFIER).join(SETTINGS_FILE)));
}
