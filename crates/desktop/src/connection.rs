//! The app's way to its service: the widget initialised once the configuration
//! allows, and the service asked for the app's settings (`GET /v1/app`) when the
//! page starts. A configuration that is incomplete, or a service that does not
//! answer, reaches the page as an error naming the service URL, which the
//! offline page shows (never a blank window).

use satchel_api::{AppInfo, ServiceErrorCode, ServiceLifeCycle};
use satchel_sdk::{SdkError, ServiceConfig, Widget};

use crate::config::{AppConfig, ConfigError};

pub struct Connection {
    /// The service, or why the app has none.
    service: Result<ServiceConfig, ConfigError>,
    /// The service URL the app tries (or would try), for the offline page.
    url: String,
    /// One initialisation at a time: the one at start and a page's retry.
    init: tokio::sync::Mutex<()>,
}

impl Connection {
    pub fn new(config: &Result<AppConfig, ConfigError>) -> Self {
        let (service, url) = match config {
            Ok(config) => (
                Ok(ServiceConfig::new(
                    config.service_url.clone(),
                    &config.domain,
                )),
                config.service_url.to_string(),
            ),
            Err(e) => (Err(e.clone()), e.service_url.clone()),
        };
        Self {
            service,
            url,
            init: tokio::sync::Mutex::new(()),
        }
    }

    /// The service URL the app tries.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Initialises the widget unless it is already: at start, and again when the
    /// page retries after a failed start.
    pub async fn init(&self, widget: &Widget) -> Result<(), SdkError> {
        let service = self.service.as_ref().map_err(|e| {
            SdkError::service(
                ServiceErrorCode::NotInitialized,
                format!("{}: {}", self.url, e.reason),
            )
        })?;
        let _one = self.init.lock().await;
        if widget.get_status() == ServiceLifeCycle::NotInitialized {
            widget
                .init(service.clone())
                .await
                .map_err(|e| self.naming_the_service(e))?;
        }
        Ok(())
    }

    /// The app's settings from the service (`getAppInfo`), once the widget is
    /// initialised; any failure names the service URL tried.
    pub async fn app_info(&self, widget: &Widget) -> Result<AppInfo, SdkError> {
        self.init(widget).await?;
        widget
            .login()
            .app_info()
            .await
            .map_err(|e| self.naming_the_service(e))
    }

    fn naming_the_service(&self, mut e: SdkError) -> SdkError {
        e.message = format!("{}: {}", self.url, e.message);
        e
    }
}
