//! A fresh process that looks for a stored login session in the OS keychain, as
//! the app does when it starts: prints the user id, or `none`.
//! Usage: session-probe KEYCHAIN_SERVICE APP_ID APP_KEY SERVICE_URL DOMAIN

use std::sync::Arc;

use satchel_sdk::{KeyringStore, Login, ServiceConfig};

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [keychain, app_id, app_key, url, domain] = args.as_slice() else {
        anyhow::bail!("usage: session-probe KEYCHAIN_SERVICE APP_ID APP_KEY SERVICE_URL DOMAIN");
    };
    let login = Login::new(app_id, app_key, Arc::new(KeyringStore::new(keychain)));
    login.init(ServiceConfig::new(url.parse()?, domain)).await?;
    match login.get_current_service_user().await? {
        Some(user) => println!("{}", user.user_info.map(|i| i.user_id).unwrap_or_default()),
        None => println!("none"),
    }
    Ok(())
}
