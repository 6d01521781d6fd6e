//! Where the app finds its service and who it is to it. Read from the environment
//! (the local stack writes them to `.devstack/app.env`), with the local stack's
//! service as the default.

use url::Url;

/// The app's identifier; it also names the app's entries in the OS keychain.
pub const IDENTIFIER: &str = "dev.satchel.wallet";

#[derive(Debug, Clone)]
pub struct AppConfig {
    pub service_url: Url,
    pub app_id: String,
    pub app_key: String,
    pub domain: String,
    /// The keychain service name; tests set their own so they never touch a
    /// person's real entries.
    pub keychain: String,
}

impl AppConfig {
    pub fn from_env() -> Result<Self, String> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let service_url =
            var("SATCHEL_SERVICE_URL").unwrap_or_else(|| "http://127.0.0.1:8787/".into());
        Ok(Self {
            service_url: service_url
                .parse()
                .map_err(|e| format!("SATCHEL_SERVICE_URL: {e}"))?,
            app_id: var("SATCHEL_APP_ID").ok_or("SATCHEL_APP_ID is not set")?,
            app_key: var("SATCHEL_APP_KEY").ok_or("SATCHEL_APP_KEY is not set")?,
            domain: var("SATCHEL_APP_DOMAIN").unwrap_or_else(|| "localhost".into()),
            keychain: var("SATCHEL_KEYCHAIN_SERVICE").unwrap_or_else(|| IDENTIFIER.into()),
        })
    }
}
