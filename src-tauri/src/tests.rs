//! The commands as the widget's page calls them, on Tauri's mock runtime with
//! the app's own configuration and capabilities and the widget plugin as the
//! app adds it: the success and error shapes the page relies on, and the calls
//! the window is not allowed to make.

use std::sync::Arc;

use satchel_sdk::{MemoryStore, ServiceConfig, TokenStore, Widget};
use serde_json::{Value, json};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder};
use tauri::webview::InvokeRequest;
use tauri::{App, Manager, WebviewWindow};

use satchel_desktop::config::{AppConfig, ConfigError};
use tauri_plugin_satchel::{SatchelExt as _, WIDGET_WINDOW};

struct Harness {
    app: App<MockRuntime>,
    window: WebviewWindow<MockRuntime>,
    widget: Arc<Widget>,
}

/// The service address of the tests: nothing listens on the discard port.
const NO_SERVICE: &str = "http://127.0.0.1:9/";

fn harness() -> Harness {
    harness_with(&harness_config())
}

/// The configuration of the tests: a service that is not there.
fn harness_config() -> Result<AppConfig, ConfigError> {
    Ok(AppConfig {
        service_url: NO_SERVICE.parse().expect("url"),
        app_id: "app".into(),
        app_key: "key".into(),
        domain: "localhost".into(),
        keychain: "unused".into(),
        updater_pubkey: None,
        networks: Default::default(),
        provider_port: 0,
    })
}

fn harness_with(config: &Result<AppConfig, ConfigError>) -> Harness {
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let plugin = crate::widget_plugin(config.clone())
        .token_store(store)
        .data_dir(std::env::temp_dir().join(format!("satchel-shell-test-{}", std::process::id())));
    let app = crate::with_widget(mock_builder(), plugin)
        .build(tauri::generate_context!())
        .expect("the app builds");
    // The widget's window, as the app's start opens it (once its event loop
    // runs, which the mock app's never does).
    app.satchel().show(app.handle());
    let window = app
        .get_webview_window(WIDGET_WINDOW)
        .expect("the widget's window");
    let widget = app.satchel().widget().clone();
    Harness {
        app,
        window,
        widget,
    }
}

/// Invokes `cmd` from `window`'s page at the widget's address.
fn call_from(window: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    get_ipc_response(
        window,
        InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "satchel://localhost/index.html".parse().expect("url"),
            body: InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.into(),
        },
    )
    .map(|body| body.deserialize::<Value>().expect("a JSON answer"))
}

impl Harness {
    /// Invokes the plugin's `cmd` from the widget's page, as the page's
    /// `invoke('plugin:satchel|<cmd>', args)` does.
    fn call(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        self.call_raw(&format!("plugin:satchel|{cmd}"), args)
    }

    /// Invokes `cmd` as named (an app command, another plugin's).
    fn call_raw(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        call_from(&self.window, cmd, args)
    }

    /// Initialises the widget against a service that is not there: it starts
    /// with no one logged in, as on a first start.
    fn initialise(&self) {
        let config = ServiceConfig::new(NO_SERVICE.parse().expect("url"), "localhost");
        tauri::async_runtime::block_on(self.widget.init(config)).expect("initialised");
    }
}

#[test]
fn before_init_the_status_is_not_initialized_and_wallet_calls_say_so() {
    let h = harness();
    assert_eq!(h.call("getStatus", json!({})), Ok(json!("not_initialized")));
    assert_eq!(
        h.call("getAccounts", json!({})),
        Err(json!({"code": "NotInitialized", "message": "the widget is not initialised"}))
    );
    assert_eq!(
        h.call("getNFTs", json!({"options": {"refresh": true}}))
            .expect_err("refused")["code"],
        "NotInitialized"
    );
}

#[test]
fn with_no_one_logged_in_the_page_gets_null_and_invalid_login_session() {
    let h = harness();
    h.initialise();
    assert_eq!(h.call("getStatus", json!({})), Ok(json!("before_login")));
    // loginWithUI waits for a login on the login page; closing the widget
    // answers UserCancelled.
    let widget = h.widget.clone();
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let closer = std::thread::spawn({
        let done = done.clone();
        move || {
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                widget.close_widget();
                std::thread::yield_now();
            }
        }
    });
    let answer = h.call("loginWithUI", json!({}));
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    closer.join().expect("joined");
    assert_eq!(answer.expect_err("cancelled")["code"], "UserCancelled");
    assert_eq!(h.call("getCurrentServiceUser", json!({})), Ok(Value::Null));
    assert_eq!(
        h.call("getBalance", json!({"accounts": null}))
            .expect_err("refused")["code"],
        "InvalidLoginSession"
    );
    assert_eq!(
        h.call("register", json!({"pin": "246813"}))
            .expect_err("refused")["code"],
        "InvalidLoginSession"
    );
    assert_eq!(
        h.call("getRefreshWait", json!({})),
        Ok(json!({"balances": 0, "nfts": 0}))
    );
    assert_eq!(
        h.call("openWidget", json!({})),
        Ok(json!(false)),
        "no widget for no one"
    );
    assert_eq!(
        h.call("closeWidget", json!({})),
        Ok(json!(true)),
        "closing never logs out"
    );
}

#[test]
fn a_login_the_service_cannot_take_is_an_error_with_a_code_and_message() {
    let h = harness();
    h.initialise();
    let error = h
        .call(
            "loginWithEmailAndPassword",
            json!({"email": "ada@example.com", "password": "correct1horse"}),
        )
        .expect_err("no service there");
    let code = error["code"].as_str().expect("a code");
    assert!(
        ["NotConnectedInternet", "ApiRequestError"].contains(&code),
        "{error}"
    );
    assert!(!error["message"].as_str().expect("a message").is_empty());
    assert_eq!(
        error.as_object().map(|o| o.len()),
        Some(2),
        "only code and message"
    );
}

#[test]
fn an_unreachable_service_is_an_error_that_names_the_url_tried() {
    // getAppInfo and the page's start (getStart) initialise the widget
    // themselves when the app's own start has not yet.
    for command in ["getAppInfo", "getStart"] {
        let h = harness();
        let error = h.call(command, json!({})).expect_err("no service there");
        let code = error["code"].as_str().expect("a code");
        assert!(
            ["NotConnectedInternet", "ApiRequestError"].contains(&code),
            "{command}: {error}"
        );
        let message = error["message"].as_str().expect("a message");
        assert!(message.starts_with(NO_SERVICE), "{command}: {message}");
        assert_eq!(h.call("getStatus", json!({})), Ok(json!("before_login")));
    }
}

#[test]
fn an_app_without_configuration_starts_and_says_what_is_missing() {
    let h = harness_with(&Err(ConfigError {
        service_url: "https://wallet.example.com/".into(),
        reason: "no app_key: set app_key in settings.toml or the variable SATCHEL_APP_KEY".into(),
    }));
    for command in ["getAppInfo", "getStart"] {
        let error = h.call(command, json!({})).expect_err("no app key");
        assert_eq!(error["code"], "NotInitialized", "{command}");
        let message = error["message"].as_str().expect("a message");
        assert!(
            message.starts_with("https://wallet.example.com/: no app_key"),
            "{command}: {message}"
        );
    }
    assert_eq!(h.call("getStatus", json!({})), Ok(json!("not_initialized")));
}

#[test]
fn with_no_update_downloaded_there_is_none_to_show_or_install() {
    let h = harness();
    assert_eq!(h.call_raw("getUpdate", json!({})), Ok(Value::Null));
    assert_eq!(h.call_raw("installUpdate", json!({})), Ok(json!(false)));
}

#[test]
fn arguments_of_the_wrong_shape_are_refused_before_the_sdk_is_called() {
    let h = harness();
    h.initialise();
    assert!(h.call("register", json!({"pin": 123456})).is_err());
    assert!(h.call("register", json!({})).is_err());
}

#[test]
fn the_window_may_call_no_command_but_the_apps_own() {
    let h = harness();
    for cmd in [
        "plugin:window|close",
        "plugin:webview|create_webview_window",
        "plugin:event|emit",
        "plugin:app|app_show",
        "plugin:path|resolve_directory",
    ] {
        let error = h.call_raw(cmd, json!({})).expect_err(cmd);
        assert!(
            error.to_string().contains("not allowed"),
            "{cmd} was not refused by the capabilities: {error}"
        );
    }
}

/// The app's command list is written once (`app_commands!` in lib.rs): the
/// window's permission names exactly those.
#[test]
fn the_apps_permission_lists_exactly_its_handlers() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut handlers: Vec<&str> = crate::COMMANDS.to_vec();
    handlers.sort_unstable();
    let toml: toml::Table = std::fs::read_to_string(root.join("src-tauri/permissions/app.toml"))
        .expect("the permission file")
        .parse()
        .expect("TOML");
    let mut allowed: Vec<&str> = toml["permission"][0]["commands"]["allow"]
        .as_array()
        .expect("an allow list")
        .iter()
        .map(|v| v.as_str().expect("a name"))
        .collect();
    allowed.sort_unstable();
    assert_eq!(allowed, handlers, "permissions/app.toml");
}

/// The plugin's commands are listed once (its build.rs): docs/desktop-app.md's
/// table names exactly those and the app's two.
#[test]
fn the_docs_table_lists_exactly_the_commands() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut handlers: Vec<&str> = tauri_plugin_satchel::COMMANDS
        .iter()
        .chain(crate::COMMANDS)
        .copied()
        .collect();
    handlers.sort_unstable();
    let doc = std::fs::read_to_string(root.join(COMMANDS_DOC)).expect("the doc");
    let table = doc
        .split("<!-- commands -->")
        .nth(1)
        .expect("the doc marks its table of commands with <!-- commands -->");
    let mut documented: Vec<&str> = table
        .lines()
        .filter_map(|line| line.strip_prefix("| `")?.split('`').next())
        .collect();
    documented.sort_unstable();
    assert_eq!(documented, handlers, "{COMMANDS_DOC}'s table of commands");
}

/// Where the table of commands is.
const COMMANDS_DOC: &str = "docs/desktop-app.md";

/// The widget's window may call the pages' commands; a host's window with the
/// plugin's default permission may not call what only the pages may.
#[test]
fn the_widget_window_may_call_the_pages_commands() {
    let h = harness();
    // A PIN command answers the page (an SDK error, not a refusal by the ACL).
    let error = h
        .call("showRecoveryPhrase", json!({"pin": "246813"}))
        .expect_err("no one is logged in");
    assert!(
        error.get("code").is_some(),
        "answered by the widget, not refused: {error}"
    );
}

/// A host's own window, granted the plugin's default permission as a host's
/// capability would: the spec's application methods answer, and what only the
/// widget's pages may do (a PIN, a key export, confirming a send, answering a
/// dapp) is refused by the permissions before the widget is asked.
#[test]
fn a_hosts_window_may_call_the_application_methods_and_nothing_of_the_pages() {
    use tauri::ipc::CapabilityBuilder;
    let h = harness();
    h.app
        .add_capability(
            CapabilityBuilder::new("host")
                .window("host")
                .permission("satchel:default"),
        )
        .expect("the capability");
    let host = tauri::WebviewWindowBuilder::new(&h.app, "host", Default::default())
        .build()
        .expect("the host's window");
    let call = |cmd: &str, args: Value| call_from(&host, &format!("plugin:satchel|{cmd}"), args);
    assert_eq!(call("getStatus", json!({})), Ok(json!("not_initialized")));
    assert_eq!(call("getCurrentServiceUser", json!({})), Ok(Value::Null));
    for (cmd, args) in [
        ("showRecoveryPhrase", json!({"pin": "246813"})),
        (
            "exportPrivateKey",
            json!({"pin": "246813", "account": "0x0000000000000000000000000000000000000001"}),
        ),
        ("register", json!({"pin": "246813", "backup": false})),
        ("changePin", json!({"oldPin": "246813", "newPin": "135792"})),
        ("confirmSend", json!({"confirm": {}})),
        ("answerConnectRequest", json!({"id": 1, "approve": true})),
        ("getNftGrid", json!({})),
    ] {
        let error = call(cmd, args).expect_err(cmd);
        assert!(
            error.to_string().contains("not allowed"),
            "{cmd} was not refused by the permissions: {error}"
        );
    }
}

/// A window named as the widget's that the plugin did not make (a host's page
/// could make one first, and the plugin's capability is granted by that name)
/// is refused every command only the widget's pages may call, and is never
/// shown as the widget.
#[test]
fn a_window_named_as_the_widgets_that_the_plugin_did_not_make_gets_nothing_of_the_pages() {
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let plugin = crate::widget_plugin(harness_config()).token_store(store);
    let app = crate::with_widget(mock_builder(), plugin)
        .build(tauri::generate_context!())
        .expect("the app builds");
    let impostor = tauri::WebviewWindowBuilder::new(
        &app,
        WIDGET_WINDOW,
        tauri::WebviewUrl::CustomProtocol("satchel://localhost/index.html".parse().expect("url")),
    )
    .build()
    .expect("a window named as the widget's");
    for cmd in [
        "showRecoveryPhrase",
        "exportPrivateKey",
        "confirmSend",
        "answerConnectRequest",
    ] {
        let error =
            call_from(&impostor, &format!("plugin:satchel|{cmd}"), json!({})).expect_err(cmd);
        assert!(
            error.to_string().contains("not allowed"),
            "{cmd} was answered to a window the plugin did not make: {error}"
        );
    }
    // The application's methods are still the host's to call.
    assert_eq!(
        call_from(&impostor, "plugin:satchel|getStatus", json!({})),
        Ok(json!("not_initialized"))
    );
}
