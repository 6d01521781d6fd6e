//! Satchel's widget for programs that are not Tauri apps (Electron, Unity, a
//! command-line tool): the spec's widget methods as `satchel_<method>` on the
//! local endpoint, each program's app its own.
//!
//! `satchel_init [{appId, appKey, domain}, attributes?]` asks the person first
//! ("this program wants to use Satchel for app …"); once allowed, that origin
//! (a web page, or "a program on this computer") has a widget of that app: its
//! own users, keychain entries, files and window, never the Satchel app's own
//! nor another program's. Every other method answers 4100 until then. One app
//! per origin: an `init` for another app asks again and takes its place.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use satchel_connect::{Answer, Ask, Origin, ProviderError, Wallet, WidgetApp};
use satchel_sdk::{SdkError, Widget};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::application::{self, WidgetWindow};
use crate::config::AppConfig;
use crate::connection::Connection;

/// Origins with a widget at once (each one window and one set of keychain
/// entries); past it an `init` from a new origin is refused.
pub const MAX_EMBEDDED: usize = 8;

/// The longest app id, app key or domain taken (they name keychain entries and
/// folders, and come from the caller).
const MAX_ID: usize = 128;

/// A widget the host made for a program's app.
#[derive(Clone)]
pub struct Guest {
    pub app_id: String,
    pub widget: Arc<Widget>,
    pub connection: Arc<Connection>,
    pub window: Arc<dyn WidgetWindow>,
}

/// What makes a program's widget: the Tauri plugin, which gives it its own
/// keychain service, data folder and window.
pub trait GuestHost: Send + Sync {
    /// The widget of `config`'s app (the same one for the same app id).
    fn guest(&self, config: AppConfig) -> Result<Guest, SdkError>;
    /// The program finalized its widget: its window goes.
    fn release(&self, app_id: &str);
}

/// The programs' widgets, by origin.
pub struct Embedded {
    /// The Satchel app's own configuration: its service and network table,
    /// which a program's widget uses with its own app id and key.
    own: Result<AppConfig, crate::ConfigError>,
    host: Arc<dyn GuestHost>,
    guests: Mutex<HashMap<Origin, Guest>>,
}

/// `satchel_init`'s first parameter.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct InitApp {
    app_id: String,
    app_key: String,
    domain: String,
}

/// An app id, key or domain as it may name a keychain entry or a folder.
fn well_formed(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= MAX_ID
        && !value.starts_with('.')
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The `n`th parameter, `None` when left out or `null`.
fn param<T: DeserializeOwned>(params: &Value, n: usize) -> Result<Option<T>, ProviderError> {
    match params.get(n) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => serde_json::from_value(value.clone())
            .map(Some)
            .map_err(|e| ProviderError::invalid_params(format!("parameter {n}: {e}"))),
    }
}

fn required<T: DeserializeOwned>(params: &Value, n: usize) -> Result<T, ProviderError> {
    param(params, n)?
        .ok_or_else(|| ProviderError::invalid_params(format!("parameter {n} is required")))
}

/// The SDK's refusal as the program reads it: the spec's code in `data.code`.
fn refusal(e: SdkError) -> ProviderError {
    let code = serde_json::to_value(e.code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "ApiRequestError".to_owned());
    ProviderError::widget(code, e.message)
}

fn answer<T: serde::Serialize>(result: Result<T, SdkError>) -> Result<Value, ProviderError> {
    let value = result.map_err(refusal)?;
    serde_json::to_value(value).map_err(|e| ProviderError::internal(e.to_string()))
}

impl Embedded {
    pub fn new(own: Result<AppConfig, crate::ConfigError>, host: Arc<dyn GuestHost>) -> Self {
        Self {
            own,
            host,
            guests: Mutex::new(HashMap::new()),
        }
    }

    /// Lets the host drop `app_id`'s widget and window, unless another
    /// origin still uses that app.
    fn release_unless_used(&self, app_id: &str) {
        if !self.guests.lock().values().any(|g| g.app_id == app_id) {
            self.host.release(app_id);
        }
    }

    fn guest_of(&self, origin: &Origin) -> Result<Guest, ProviderError> {
        self.guests.lock().get(origin).cloned().ok_or_else(|| {
            ProviderError::not_allowed(
                "this program has not initialised Satchel's widget: call satchel_init first",
            )
        })
    }

    /// Answers `satchel_<method>` for `origin`; `wallet` asks the person.
    pub async fn call(
        &self,
        wallet: &impl Wallet,
        origin: &Origin,
        method: &str,
        params: &Value,
    ) -> Result<Value, ProviderError> {
        if method == "init" {
            return self.init(wallet, origin, params).await;
        }
        let guest = self.guest_of(origin)?;
        let (widget, window) = (&guest.widget, guest.window.as_ref());
        match method {
            "getStatus" => answer(Ok(widget.get_status())),
            "loginWithUI" => answer(
                application::login_with_ui(widget, window, param(params, 0)?, param(params, 1)?)
                    .await,
            ),
            "register" => answer(application::register_with_ui(widget, window).await),
            "openWidget" => answer(Ok(application::open_widget(widget, window))),
            "closeWidget" => answer(Ok(application::close_widget(widget, window))),
            "getAccounts" => answer(application::get_accounts(widget, param(params, 0)?).await),
            "getBalance" => answer(application::get_balance(widget, param(params, 0)?).await),
            "getNFTs" => answer(application::get_nfts(widget, param(params, 0)?).await),
            "send" => answer(
                application::send(widget, window, &required(params, 0)?, param(params, 1)?).await,
            ),
            "receive" => answer(widget.receive(&required(params, 0)?).await),
            "getCurrentServiceUser" => answer(Ok(widget.current_user())),
            "changeLanguage" => {
                let language: String = required(params, 0)?;
                let as_default = param(params, 1)?.unwrap_or(false);
                answer(widget.change_language(&language, as_default))
            }
            "logout" => answer(widget.logout().await),
            "finalize" => {
                self.guests.lock().remove(origin);
                widget.finalize().await;
                self.release_unless_used(&guest.app_id);
                Ok(Value::Null)
            }
            other => Err(ProviderError::method_not_found(&format!("satchel_{other}"))),
        }
    }

    /// `satchel_init`: the person allows the program's app (once per origin
    /// and app), then its widget is initialised; the life cycle is the answer.
    async fn init(
        &self,
        wallet: &impl Wallet,
        origin: &Origin,
        params: &Value,
    ) -> Result<Value, ProviderError> {
        let app: InitApp = required(params, 0)?;
        if ![&app.app_id, &app.app_key, &app.domain]
            .iter()
            .all(|v| well_formed(v))
        {
            return Err(ProviderError::invalid_params(format!(
                "appId, appKey and domain are 1 to {MAX_ID} letters, digits, '-', '_' or '.'"
            )));
        }
        let own = self.own.as_ref().map_err(|e| {
            ProviderError::widget(
                "NotInitialized",
                format!("Satchel has no service configured: {e}"),
            )
        })?;
        if app.app_id == own.app_id {
            // The Satchel app's own wallet stays its own.
            return Err(ProviderError::widget(
                "InvalidAppKey",
                "this is the Satchel app's own app id: a program embeds Satchel with its own",
            ));
        }
        let known = self
            .guests
            .lock()
            .get(origin)
            .filter(|g| g.app_id == app.app_id)
            .cloned();
        let guest = match known {
            Some(guest) => guest,
            None => {
                let full = {
                    let guests = self.guests.lock();
                    !guests.contains_key(origin) && guests.len() >= MAX_EMBEDDED
                };
                if full {
                    return Err(ProviderError::widget(
                        "ApiRequestError",
                        format!(
                            "Satchel serves the widget to at most {MAX_EMBEDDED} programs at once"
                        ),
                    ));
                }
                let config = AppConfig {
                    app_id: app.app_id,
                    app_key: app.app_key,
                    domain: app.domain.clone(),
                    updater_pubkey: None,
                    ..own.clone()
                };
                let guest = self.host.guest(config).map_err(refusal)?;
                // The service checks the key and domain before the person is
                // asked, and names the app: a wrong key bothers no one.
                let info = match guest.connection.app_info(&guest.widget).await {
                    Ok(info) => info,
                    Err(e) => {
                        self.release_unless_used(&guest.app_id);
                        return Err(refusal(e));
                    }
                };
                let asked = Ask::UseWidget(WidgetApp {
                    app_id: guest.app_id.clone(),
                    domain: app.domain,
                    name: info.name,
                });
                match wallet.ask(origin, asked).await {
                    Ok(Answer::WidgetAllowed) => {}
                    Ok(_) => return Err(ProviderError::internal("the widget was not allowed")),
                    Err(e) => {
                        self.release_unless_used(&guest.app_id);
                        return Err(e);
                    }
                }
                if let Some(previous) = self.guests.lock().insert(origin.clone(), guest.clone())
                    && previous.app_id != guest.app_id
                {
                    self.release_unless_used(&previous.app_id);
                }
                guest
            }
        };
        guest
            .connection
            .init(&guest.widget)
            .await
            .map_err(refusal)?;
        Ok(json!(guest.widget.get_status()))
    }
}

#[cfg(test)]
mod tests {
    use satchel_api::ServiceErrorCode;

    use super::*;

    #[test]
    fn an_app_id_that_could_leave_its_folder_or_entry_is_refused() {
        assert!(well_formed("pixel-launcher_2.app"));
        for bad in [
            "",
            "..",
            ".hidden",
            "a/b",
            "a\\b",
            "a b",
            "é",
            &"a".repeat(MAX_ID + 1),
        ] {
            assert!(!well_formed(bad), "{bad:?}");
        }
    }

    #[test]
    fn the_spec_code_reaches_the_program() {
        let e = refusal(SdkError::service(ServiceErrorCode::UserCancelled, "closed"));
        assert_eq!(
            (
                e.code,
                e.data.and_then(|d| d["code"].as_str().map(str::to_owned))
            ),
            (4001, Some("UserCancelled".into()))
        );
        let e = refusal(SdkError::service(
            ServiceErrorCode::InvalidLoginSession,
            "no",
        ));
        assert_eq!(
            (
                e.code,
                e.data.and_then(|d| d["code"].as_str().map(str::to_owned))
            ),
            (-32000, Some("InvalidLoginSession".into()))
        );
    }

    #[test]
    fn parameters_are_read_or_refused() {
        let params = json!([{"networks": ["ethereum"]}, null]);
        let options: Option<application::AccountOptions> = param(&params, 0).unwrap_or_default();
        assert_eq!(
            options.and_then(|o| o.networks),
            Some(vec!["ethereum".to_owned()])
        );
        assert!(matches!(
            param::<application::AccountOptions>(&params, 1),
            Ok(None)
        ));
        let bad = param::<application::AccountOptions>(&json!([{"stolen": 1}]), 0);
        assert_eq!(bad.map_err(|e| e.code).err(), Some(-32602));
    }
}
