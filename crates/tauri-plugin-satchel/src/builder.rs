//! The plugin's builder: its configuration (in code or from `tauri.conf.json`),
//! and what starts when the host's app does: the widget, its window and pages.

use super::*;

/// The plugin, configured in code or from `tauri.conf.json`.
pub struct Builder<R: Runtime> {
    config: Option<Result<AppConfig, ConfigError>>,
    keychain: Option<String>,
    data_dir: Option<std::path::PathBuf>,
    open_at_start: bool,
    initialise_at_start: bool,
    store: Option<Arc<dyn TokenStore>>,
    on_first_page: Option<Hook<R>>,
}

impl<R: Runtime> Default for Builder<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Runtime> Builder<R> {
    pub fn new() -> Self {
        Self {
            config: None,
            keychain: None,
            data_dir: None,
            open_at_start: false,
            initialise_at_start: false,
            store: None,
            on_first_page: None,
        }
    }

    /// The service, app and networks, in code (an incomplete configuration is
    /// an `Err`: the widget starts and its offline page says what is missing).
    pub fn config(mut self, config: Result<AppConfig, ConfigError>) -> Self {
        self.config = Some(config);
        self
    }

    /// The keychain service the widget's secrets are kept under. Default: the
    /// host's identifier and the app id (`<identifier>.satchel.<appId>`), so
    /// two applications never share a session or a key.
    pub fn keychain(mut self, service: impl Into<String>) -> Self {
        self.keychain = Some(service.into());
        self
    }

    /// The folder of the widget's files (address book, hidden collections).
    /// Default: the host's app data folder, `satchel/<appId>` in it.
    pub fn data_dir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.data_dir = Some(dir.into());
        self
    }

    /// Shows the widget's window as soon as the app starts (the Satchel app,
    /// whose window is the widget).
    pub fn open_at_start(mut self) -> Self {
        self.open_at_start = true;
        self
    }

    /// Initialises the widget (and reads a logged-in person's balances) as the
    /// app starts, rather than when the widget is first used: for an app whose
    /// window is the widget. A host pays nothing for the plugin until it is used.
    pub fn initialise_at_start(mut self) -> Self {
        self.initialise_at_start = true;
        self
    }

    /// Keeps the widget's secrets in `store` instead of the OS keychain (tests).
    pub fn token_store(mut self, store: Arc<dyn TokenStore>) -> Self {
        self.store = Some(store);
        self
    }

    /// Runs once the widget's page has painted its first screen.
    pub fn on_first_page(mut self, hook: impl Fn(&AppHandle<R>) + Send + Sync + 'static) -> Self {
        self.on_first_page = Some(Box::new(hook));
        self
    }

    pub fn build(self) -> TauriPlugin<R, Option<PluginSettings>> {
        let Builder {
            config,
            keychain,
            data_dir,
            open_at_start,
            initialise_at_start,
            store,
            on_first_page,
        } = self;
        let commands = handler::<R>();
        PluginBuilder::<R, Option<PluginSettings>>::new(NAME)
            // Beside the permissions: what only the widget's pages may call is
            // answered only to the webview the plugin made and showing its own
            // pages. A window label can be taken (a host could make a window
            // named as the widget's before it is made); this cannot.
            .invoke_handler(move |invoke| {
                let command = invoke.message.command();
                if !APPLICATION_COMMANDS.contains(&command)
                    && !window::is_widget_page(invoke.message.webview_ref())
                {
                    let refused = format!(
                        "{NAME}.{command} not allowed: only the widget's own window may call it"
                    );
                    invoke.resolver.reject(refused);
                    return true;
                }
                commands(invoke)
            })
            .register_asynchronous_uri_scheme_protocol(
                protocol::SCHEME,
                |context, request, responder| {
                    let hosted = context
                        .app_handle()
                        .satchel()
                        .hosted_for(context.webview_label());
                    let widget = hosted.widget.clone();
                    let path = request.uri().path().to_owned();
                    tauri::async_runtime::spawn(async move {
                        responder.respond(protocol::respond(&widget, &path).await);
                    });
                },
            )
            .setup(move |app, api| {
                let config = match config {
                    Some(config) => config,
                    None => {
                        settings::from_host_config(api.config().as_ref(), &app.config().identifier)
                    }
                };
                let app_id = config.as_ref().map_or("", |c| c.app_id.as_str()).to_owned();
                let keychain = keychain
                    .or_else(|| config.as_ref().ok().map(|c| c.keychain.clone()))
                    .unwrap_or_else(|| settings::keychain_for(&app.config().identifier, &app_id));
                let data_dir = match data_dir {
                    Some(dir) => dir,
                    None => app.path().app_data_dir()?.join("satchel").join(&app_id),
                };
                let store: Arc<dyn TokenStore> = match store {
                    Some(store) => store,
                    None => Arc::new(KeyringStore::new(&keychain)),
                };
                let satchel = start(app, &config, store, data_dir, on_first_page)?;
                if initialise_at_start {
                    satchel.initialise_ahead();
                }
                // The dapps' and the provider's commands take theirs as states.
                app.manage(satchel.dapps.clone());
                app.manage(satchel.provider.clone());
                app.manage(satchel);
                window::grant_pages(app)?;
                Ok(())
            })
            .on_event(move |app, event| {
                // Made off this handler, after it returns: Tauri holds the
                // plugins' lock while it sets them up and while it hands them an
                // event, and a window made under it waits for it for ever.
                if open_at_start && matches!(event, tauri::RunEvent::Ready) {
                    let app = app.clone();
                    tauri::async_runtime::spawn(async move { app.satchel().show(&app) });
                }
                if let tauri::RunEvent::WindowEvent { label, event, .. } = event {
                    match app.satchel().hosted(label) {
                        Some(hosted) => window::on_widget_event(app, &hosted, event),
                        None => window::on_host_event(app, label, event),
                    }
                }
            })
            // The widget's window shows the widget's pages and nothing else.
            .on_navigation(|webview, url| {
                !window::is_widget_label(webview.label()) || window::is_pages_url(url)
            })
            .build()
    }
}

/// Makes the host's widget; nothing is asked of the service until it is used.
fn start<R: Runtime>(
    app: &AppHandle<R>,
    config: &Result<AppConfig, ConfigError>,
    store: Arc<dyn TokenStore>,
    data_dir: std::path::PathBuf,
    on_first_page: Option<Hook<R>>,
) -> Result<Satchel<R>, Box<dyn std::error::Error>> {
    let (widget, connection) = make_widget(app, config, store, data_dir.clone())?;
    let app_id = config.as_ref().map_or("", |c| c.app_id.as_str());
    let own = Arc::new(Hosted::new(
        WIDGET_WINDOW.to_owned(),
        app_id,
        widget.clone(),
        connection,
    ));
    // The dapps a person connected are kept beside the widget's files.
    let permissions = Arc::new(satchel_connect::Permissions::open(
        &data_dir.join("connected-apps.json"),
    ));
    // The browser extensions the person linked, beside them.
    let extensions = Arc::new(satchel_connect::Extensions::open(
        &data_dir.join("linked-extensions.json"),
    ));
    let dapps = Dapps::new(widget, permissions.clone(), extensions, {
        let (app, own) = (app.clone(), own.clone());
        move || own.show(&app)
    })
    .with_port_file(data_dir.join("endpoint-port"))
    .with_embedding(Embedded::new(
        config.clone(),
        Arc::new(GuestWindows {
            app: app.clone(),
            next: Default::default(),
        }),
    ));
    let dapps = Arc::new(dapps);
    Ok(Satchel {
        own,
        guests: Default::default(),
        making_window: Default::default(),
        provider: Arc::new(Methods::new(dapps.clone(), permissions)),
        dapps,
        on_first_page,
    })
}

/// A widget of `config`'s app, its secrets in `store`, its files in
/// `data_dir`: the host's own, or a program's.
pub(crate) fn make_widget<R: Runtime>(
    app: &AppHandle<R>,
    config: &Result<AppConfig, ConfigError>,
    store: Arc<dyn TokenStore>,
    data_dir: std::path::PathBuf,
) -> Result<(Arc<Widget>, Arc<Connection>), Box<dyn std::error::Error>> {
    let connection = Arc::new(Connection::new(config));
    let (app_id, app_key) = match config {
        Ok(c) => (c.app_id.as_str(), c.app_key.as_str()),
        Err(_) => ("", ""),
    };
    let login = Arc::new(
        Login::new(app_id, app_key, store.clone()).with_browser(Arc::new(browser::SystemBrowser)),
    );
    let networks = config
        .as_ref()
        .map(|c| c.networks.clone())
        .unwrap_or_default();
    let widget = Arc::new(
        Widget::new(login, store)
            .with_networks(networks)
            .with_data_dir(data_dir),
    );
    widget.set_thumbnails(Thumbnails::new(
        app.path()
            .app_cache_dir()?
            .join("satchel")
            .join(app_id)
            .join("thumbnails"),
    )?);
    Ok((widget, connection))
}
