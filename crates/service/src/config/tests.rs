//! Settings: defaults, environment overrides, masked `Debug`, validation.

use super::*;

/// One network with only the fields that have no default.
const ANVIL: &str = r#"
    [[networks]]
    name = "anvil"
    chain_id = 31337
    rpc_url = "http://127.0.0.1:8545"
    coin_id = 60
    coin_name = "Ether"
    symbol = "ETH"
"#;

#[test]
fn a_minimal_file_gets_the_defaults_and_env_overrides_win() {
    let mut s = Settings::from_toml(ANVIL).expect("valid settings");
    assert_eq!(s.networks[0].decimals, 18);
    assert_eq!(s.refresh_per_minute, 6);
    s.apply_env(|name| (name == "DATABASE_URL").then(|| "postgres://x/y".to_owned()))
        .expect("env applies");
    assert_eq!(s.database_url(), "postgres://x/y");
}

#[test]
fn every_env_override_applies() {
    let mut s = Settings::default();
    s.apply_env(|name| {
        Some(
            match name {
                "SATCHEL_BIND" => "0.0.0.0:9000",
                "DATABASE_URL" => "postgres://db/satchel",
                "SATCHEL_DATA_DIR" => "/var/lib/satchel",
                "SATCHEL_PUBLIC_URL" => "https://wallet.example.com/",
                "SATCHEL_SMTP_URL" => "smtp://mail:587",
                "SATCHEL_PIN_SECRET" => "c2VjcmV0",
                _ => return None,
            }
            .to_owned(),
        )
    })
    .expect("env applies");
    assert_eq!(s.bind.to_string(), "0.0.0.0:9000");
    assert_eq!(s.database_url(), "postgres://db/satchel");
    assert_eq!(s.data_dir, PathBuf::from("/var/lib/satchel"));
    assert_eq!(s.public_url.as_str(), "https://wallet.example.com/");
    assert_eq!(s.mail.smtp_url.as_deref(), Some("smtp://mail:587"));
    assert_eq!(s.pin_secret.as_deref(), Some("c2VjcmV0"));
}

#[test]
fn debug_hides_the_pin_secret() {
    let s = Settings::from_toml(
        r#"
        pin_secret = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
        pin_pause_secs = 5
        "#,
    )
    .expect("valid settings");
    let printed = format!("{s:?}");
    assert!(!printed.contains("AAECAwQF"), "{printed}");
    assert!(
        printed.contains("pin_secret: Some(\"<redacted>\")"),
        "{printed}"
    );
    assert!(printed.contains("pin_pause_secs: 5"), "{printed}");
    assert!(!format!("{:?}", Settings::default()).contains("<redacted>"));
}

#[test]
fn debug_masks_the_passwords_in_urls() {
    let mut s = Settings::from_toml(
        r#"
        database_url = "postgres://satchel:hunter2@db:5432/satchel?sslmode=require"
        [mail]
        smtp_url = "smtps://mailer:s3cr3t-pw@smtp.example.com:465"
        "#,
    )
    .expect("valid settings");
    let printed = format!("{s:?}");
    assert!(!printed.contains("hunter2"), "{printed}");
    assert!(!printed.contains("s3cr3t-pw"), "{printed}");
    assert!(printed.contains("postgres://satchel:***@db:5432/satchel?sslmode=require"));
    assert!(printed.contains("smtps://mailer:***@smtp.example.com:465"));
    assert!(
        printed.contains("refresh_per_minute: 6"),
        "the rest is shown"
    );

    s.database_url = Some("postgres://db/satchel?user=satchel&password=hunter2".into());
    s.mail.smtp_url = Some("not a url with s3cr3t-pw".into());
    let printed = format!("{s:?}");
    assert!(!printed.contains("hunter2"), "{printed}");
    assert!(!printed.contains("s3cr3t-pw"), "{printed}");
    assert!(printed.contains("user=satchel"), "{printed}");
}

#[test]
fn settings_written_as_toml_read_back_the_same() {
    let s = Settings {
        refresh_per_minute: 9,
        ..Settings::default()
    };
    let text = toml::to_string_pretty(&s).expect("toml");
    let back = Settings::from_toml(&text).expect("reads back");
    assert_eq!(back.refresh_per_minute, 9);
    assert_eq!(back.mail.from, s.mail.from);
}

#[test]
fn a_public_network_needs_its_nft_start_block() {
    let net = |url: &str, start: u64| {
        format!(
            "[[networks]]\nname = \"main\"\nchain_id = 1\nrpc_url = \"{url}\"\ncoin_id = 60\ncoin_name = \"Ether\"\nsymbol = \"ETH\"\nnft_start_block = {start}\n"
        )
    };
    let e = Settings::from_toml(&net("https://eth.example.com/v2/key", 0)).expect_err("no start");
    assert!(e.to_string().contains("nft_start_block"), "{e}");
    assert!(Settings::from_toml(&net("https://eth.example.com/v2/key", 19_000_000)).is_ok());
    assert!(
        Settings::from_toml(&net("http://127.0.0.1:8545", 0)).is_ok(),
        "a local chain"
    );
}

#[test]
fn a_duplicate_network_or_bad_token_address_is_refused() {
    let net = r#"
        [[networks]]
        name = "anvil"
        chain_id = 1
        rpc_url = "http://127.0.0.1:1"
        coin_id = 60
        coin_name = "Ether"
        symbol = "ETH"
    "#;
    assert!(Settings::from_toml(&format!("{net}{net}")).is_err());
    let bad_token = format!(
        "{net}[[networks.tokens]]\ncontract = \"0x12\"\nname = \"T\"\nsymbol = \"T\"\ndecimals = 6\n"
    );
    assert!(Settings::from_toml(&bad_token).is_err());
}

#[test]
fn tracked_tokens_are_found_by_contract_in_any_case_with_their_checksum() {
    let s = Settings::from_toml(&format!(
        r#"{ANVIL}
        [[networks.tokens]]
        contract = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
        name = "First"
        symbol = "ONE"
        decimals = 18
        [[networks.tokens]]
        contract = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
        name = "Same contract again"
        symbol = "TWO"
        decimals = 6
        "#
    ))
    .expect("valid settings");
    let network = &s.networks[0];
    let checksummed = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    for asked in [checksummed, &checksummed.to_ascii_lowercase()] {
        let (token, contract) = network.tracked_token(asked).expect("tracked");
        assert_eq!(
            token.symbol, "ONE",
            "the first entry counts, as in the list"
        );
        assert_eq!(contract, checksummed);
    }
    assert!(
        network
            .tracked_token("0x0000000000000000000000000000000000000001")
            .is_none()
    );
}

/// An `anvil` network with `toml`'s fields beside the required ones.
fn anvil_with(toml: &str) -> NetworkConfig {
    let base = "name = \"anvil\"\nchain_id = 31337\nrpc_url = \"http://127.0.0.1:8545\"\n\
                coin_id = 60\ncoin_name = \"Ether\"\nsymbol = \"ETH\"\n";
    toml::from_str(&format!("{base}{toml}")).expect("a network")
}

#[test]
fn kept_bodies_are_of_the_coin_and_token_facts_they_show_not_of_the_node() {
    let token = "[[tokens]]\ncontract = \"0x5FbDB2315678afecb367f032d93F642f64180aa3\"\n\
                 name = \"Demo\"\nsymbol = \"DEMO\"\n";
    let plain = accounts_rendered_by(&[anvil_with(&format!("{token}decimals = 18\n"))]);
    // Another node for the same network: the same bodies.
    let mut moved = anvil_with(&format!("{token}decimals = 18\n"));
    moved.rpc_url = "https://node.example.com/".parse().expect("url");
    assert_eq!(accounts_rendered_by(&[moved]), plain);
    // Another fact a body shows: rendered again.
    assert_ne!(
        accounts_rendered_by(&[anvil_with(&format!("{token}decimals = 6\n"))]),
        plain
    );
    assert_ne!(
        accounts_rendered_by(&[anvil_with(&format!(
            "icon_url = \"x\"\n{token}decimals = 18\n"
        ))]),
        plain
    );
    // The order networks are configured in does not matter.
    let mut other = anvil_with("");
    other.name = "other".into();
    let one = anvil_with(&format!("{token}decimals = 18\n"));
    assert_eq!(
        accounts_rendered_by(&[one.clone(), other.clone()]),
        accounts_rendered_by(&[other, one])
    );
}
