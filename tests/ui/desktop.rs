//! The harness of the desktop UI tests: a virtual display (Xvfb), tauri-driver in
//! front of WebKitWebDriver, and WebDriver sessions that each start the real app
//! binary. Everything a test starts is its own and goes when it is dropped.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context as _, bail};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use tokio::io::AsyncBufReadExt as _;
use tokio::process::{Child, Command};

/// How long a page may take to show what a step waits for (the same patience
/// as the local stack's browser).
pub use satchel_devstack::browser::PATIENCE;
use satchel_devstack::browser::bounded;

/// How long the app may take to start and show its window in a new session.
const START_PATIENCE: Duration = Duration::from_secs(120);

/// Where the screenshots go: `what`'s folder (`ui`, `packaging`, `bench`) in
/// `target_tmpdir`, the caller's `CARGO_TARGET_TMPDIR` (Cargo gives it to tests and
/// benches, not to this library).
pub fn screenshots(target_tmpdir: impl AsRef<Path>, what: &str) -> PathBuf {
    target_tmpdir.as_ref().join(format!("{what}-screenshots"))
}

/// A program the UI tests need, from `PATH` (and `~/.cargo/bin` for tauri-driver).
pub fn program(name: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Some(home) = std::env::var_os("CARGO_HOME")
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo").into_os_string()))
    {
        dirs.push(Path::new(&home).join("bin"));
    }
    dirs.into_iter()
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// The programs, or `None` when this machine lacks one and
/// `SATCHEL_SKIP_UI=1` says to skip; without it a missing tool fails the test.
pub fn tools() -> Option<(PathBuf, PathBuf, PathBuf)> {
    let found = (
        program("Xvfb"),
        program("tauri-driver"),
        program("WebKitWebDriver"),
        program("import"),
    );
    match found {
        (Some(xvfb), Some(driver), Some(native), Some(_)) => Some((xvfb, driver, native)),
        missing => {
            satchel_devstack::missing_dependency(
                "UI",
                &format!(
                    "a UI test tool is missing (Xvfb, tauri-driver, WebKitWebDriver, ImageMagick's import; scripts/setup.sh installs them): {missing:?}"
                ),
            );
            None
        }
    }
}

/// A virtual display and a tauri-driver serving WebDriver on a free port.
pub struct Desktop {
    _display: Child,
    /// `:N`, the virtual display's name.
    display: String,
    driver: Child,
    port: u16,
    _home: tempfile::TempDir,
}

/// The environment the apps a [`Desktop`] starts get.
pub enum AppEnv<'a> {
    /// This test's environment and these variables, with folders of its own
    /// (cache, settings, web storage) so no test meets another's or a person's data.
    Test(&'a [(&'a str, String)]),
    /// What a desktop session gives a program started from its menu: `home`, a
    /// `PATH` with `bin` first, the session bus (the keychain) and nothing of
    /// this test's.
    Session { home: &'a Path, bin: &'a Path },
}

/// What every program on the virtual display `display` gets: it has no GPU, no
/// desktop portal and no accessibility bus (GTK would wait on both and fill the
/// log trying to reach them).
pub fn on_display(command: &mut Command, display: &str) {
    command
        .env("DISPLAY", display)
        .env("WEBKIT_DISABLE_COMPOSITING_MODE", "1")
        .env("GTK_USE_PORTAL", "0")
        .env("NO_AT_BRIDGE", "1");
}

/// The folders an app keeps its data in (cache, settings, web storage), all
/// under `home`.
pub fn in_folders(command: &mut Command, home: &Path) {
    command
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"));
}

impl Desktop {
    /// Starts both for apps with this test's environment and `app_env`, or
    /// `None` when a tool is missing and `SATCHEL_SKIP_UI=1` says to skip.
    pub async fn start(app_env: &[(&str, String)]) -> anyhow::Result<Option<Self>> {
        if tools().is_none() {
            return Ok(None);
        }
        Self::start_in(AppEnv::Test(app_env)).await.map(Some)
    }

    /// Starts both for apps with the environment `app_env`; a missing tool is an error.
    pub async fn start_in(app_env: AppEnv<'_>) -> anyhow::Result<Self> {
        let (xvfb, tauri_driver, native_driver) = (
            program("Xvfb").context("no Xvfb")?,
            program("tauri-driver").context("no tauri-driver")?,
            program("WebKitWebDriver").context("no WebKitWebDriver")?,
        );
        let (display, number) = start_display(&xvfb).await?;
        let display_name = format!(":{number}");
        let home = tempfile::tempdir()?;
        let port = satchel_devstack::free_port()?;
        let native_port = satchel_devstack::free_port()?;
        let mut command = Command::new(tauri_driver);
        match app_env {
            AppEnv::Test(vars) => {
                in_folders(&mut command, home.path());
                command.env("RUST_LOG", "warn");
                for (name, value) in vars {
                    command.env(name, value);
                }
            }
            AppEnv::Session { home, bin } => {
                std::fs::create_dir_all(home)?;
                command
                    .env_clear()
                    .env("HOME", home)
                    .env(
                        "PATH",
                        format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display()),
                    )
                    .env("LANG", "C.UTF-8");
                for name in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] {
                    if let Some(value) = std::env::var_os(name) {
                        command.env(name, value);
                    }
                }
            }
        }
        on_display(&mut command, &display_name);
        command
            .args(["--port", &port.to_string()])
            .args(["--native-port", &native_port.to_string()])
            .arg("--native-driver")
            .arg(native_driver)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .kill_on_drop(true)
            // Its own process group, so WebKitWebDriver and the app go with it.
            .process_group(0);
        let driver = command.spawn().context("cannot start tauri-driver")?;
        let desktop = Self {
            _display: display,
            display: display_name,
            driver,
            port,
            _home: home,
        };
        desktop.wait_ready().await?;
        Ok(desktop)
    }

    async fn wait_ready(&self) -> anyhow::Result<()> {
        let http = reqwest::Client::new();
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while tokio::time::Instant::now() < deadline {
            let status = http
                .get(format!("http://127.0.0.1:{}/status", self.port))
                .send()
                .await;
            if status.is_ok() {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        bail!("tauri-driver did not answer within {PATIENCE:?}")
    }

    /// The app's folders (cache, settings, web storage).
    pub fn home(&self) -> &Path {
        self._home.path()
    }

    /// The virtual display, for programs started without WebDriver.
    pub fn display(&self) -> String {
        self.display.clone()
    }

    /// Starts the app in a new WebDriver session.
    pub async fn open(&self, application: &Path, shots: &Path) -> anyhow::Result<App> {
        self.open_with_args(application, &[], shots).await
    }

    /// Starts the app with `args` in a new WebDriver session.
    pub async fn open_with_args(
        &self,
        application: &Path,
        args: &[String],
        shots: &Path,
    ) -> anyhow::Result<App> {
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "tauri:options".into(),
            serde_json::json!({ "application": application, "args": args }),
        );
        let mut builder =
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        builder.capabilities(capabilities);
        let driver = format!("http://127.0.0.1:{}/", self.port);
        // An app that never shows its window (one that handed over to a copy
        // already running, say) would leave the session waiting for ever.
        let client = tokio::time::timeout(START_PATIENCE, builder.connect(&driver))
            .await
            .map_err(|_| {
                anyhow::anyhow!(
                    "no WebDriver session within {START_PATIENCE:?}: the app did not open its window (is another copy running on this session bus?)"
                )
            })?
            .context("no WebDriver session")?;
        std::fs::create_dir_all(shots)?;
        Ok(App {
            client,
            shots: shots.to_owned(),
            display: self.display.clone(),
        })
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        // tauri-driver's group: the driver, WebKitWebDriver and any app left open.
        if let Some(pid) = self.driver.id() {
            kill_group(pid, "KILL");
        }
    }
}

/// Sends `signal` to the process group `pgid`; whether one was there to get it.
/// (`kill -s SIG -- -PGID`: without `--`, procps' kill reads `-PGID` as an option
/// and signals every process it may.)
pub fn kill_group(pgid: u32, signal: &str) -> bool {
    pgid > 1
        && std::process::Command::new("kill")
            .args(["-s", signal, "--", &format!("-{pgid}")])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

/// Starts Xvfb on a display number it picks itself and reports.
async fn start_display(xvfb: &Path) -> anyhow::Result<(Child, String)> {
    let mut display = Command::new(xvfb)
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x1024x24",
            "-nolisten",
            "tcp",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .context("cannot start Xvfb")?;
    let stdout = display.stdout.take().context("Xvfb's output")?;
    let mut line = String::new();
    tokio::time::timeout(
        PATIENCE,
        tokio::io::BufReader::new(stdout).read_line(&mut line),
    )
    .await
    .context("Xvfb did not report its display")??;
    let number = line.trim().to_owned();
    anyhow::ensure!(!number.is_empty(), "Xvfb did not start");
    Ok((display, number))
}

/// One running copy of the app, seen through WebDriver.
pub struct App {
    client: Client,
    shots: PathBuf,
    /// The virtual display the app's window is on.
    display: String,
}

impl App {
    /// The element `css` once it is on the page.
    pub async fn find(&self, css: &str) -> anyhow::Result<Element> {
        bounded(
            &format!("{css} did not appear"),
            self.client
                .wait()
                .at_most(PATIENCE)
                .for_element(Locator::Css(css)),
        )
        .await
    }

    /// Types `text` into the field `css`, as a person does.
    pub async fn type_into(&self, css: &str, text: &str) -> anyhow::Result<()> {
        eprintln!("ui: type into {css}");
        let field = self.find(css).await?;
        bounded(&format!("click {css}"), field.click()).await?;
        bounded(&format!("type into {css}"), field.send_keys(text)).await
    }

    /// Clicks `css` once it is there and enabled.
    pub async fn click(&self, css: &str) -> anyhow::Result<()> {
        eprintln!("ui: click {css}");
        let element = self.find(css).await?;
        self.until(&format!("{css} is enabled"), || async {
            bounded("is it enabled", element.is_enabled()).await
        })
        .await?;
        // In the middle of the page first: the tab bar is fixed over the page's
        // foot, and a button half under it would take the click for the bar.
        bounded(
            &format!("scroll to {css}"),
            self.client.execute(
                "arguments[0].scrollIntoView({block: 'center'})",
                vec![serde_json::to_value(&element)?],
            ),
        )
        .await?;
        // Clicked where it stands: wait until it holds still over two frames
        // (something loading above it may still be pushing it down).
        self.until(&format!("{css} holds still"), || async {
            let still = bounded(
                "does it hold still",
                self.client.execute_async(
                    "const [el, done] = arguments;
                     const at = () => JSON.stringify(el.getBoundingClientRect());
                     const first = at();
                     requestAnimationFrame(() => requestAnimationFrame(() => done(first === at())));",
                    vec![serde_json::to_value(&element)?],
                ),
            )
            .await?;
            Ok(still == serde_json::Value::Bool(true))
        })
        .await?;
        bounded(&format!("click {css}"), element.click()).await
    }

    /// Whether `css` is there and enabled.
    pub async fn is_enabled(&self, css: &str) -> anyhow::Result<bool> {
        let element = self.find(css).await?;
        bounded("is it enabled", element.is_enabled()).await
    }

    /// The text of `css` now, if it is on the page.
    pub async fn text_now(&self, css: &str) -> Option<String> {
        let element = bounded(css, self.client.find(Locator::Css(css)))
            .await
            .ok()?;
        bounded(css, element.text()).await.ok()
    }

    /// The text of `css` once it satisfies `check`.
    pub async fn text_when(
        &self,
        css: &str,
        check: impl Fn(&str) -> bool,
    ) -> anyhow::Result<String> {
        let mut last = String::new();
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while tokio::time::Instant::now() < deadline {
            if let Some(text) = self.text_now(css).await {
                if check(&text) {
                    return Ok(text);
                }
                last = text;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!("{css} never showed what was expected; last it said {last:?}")
    }

    /// Waits until this window's page is hidden (its window closed and kept)
    /// and shows `selector`: a widget back on its wallet after a close.
    pub async fn until_hidden_showing(&self, selector: &str) -> anyhow::Result<()> {
        let source = format!(
            "return document.visibilityState === 'hidden' && !!document.querySelector({selector:?})"
        );
        self.until(&format!("the page hidden, showing {selector}"), || async {
            Ok(self.script(&source).await? == serde_json::Value::Bool(true))
        })
        .await
    }

    /// Waits until `condition` holds.
    pub async fn until<F, Fut>(&self, what: &str, condition: F) -> anyhow::Result<()>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = anyhow::Result<bool>>,
    {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while tokio::time::Instant::now() < deadline {
            if condition().await.unwrap_or(false) {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!("waited {PATIENCE:?}, but never: {what}")
    }

    /// Calls one of the widget plugin's commands from the page, as the page's
    /// code does (`__TAURI_INTERNALS__.invoke('plugin:satchel|<command>')`, the
    /// window's own permission): its answer, or the error it was refused with.
    pub async fn invoke(
        &self,
        command: &str,
        args: serde_json::Value,
    ) -> anyhow::Result<Result<serde_json::Value, serde_json::Value>> {
        self.invoke_command(&format!("plugin:satchel|{command}"), args)
            .await
    }

    /// Calls any command from the page by its full name (`plugin:window|close`),
    /// as [`invoke`](Self::invoke) calls the widget's.
    pub async fn invoke_command(
        &self,
        command: &str,
        args: serde_json::Value,
    ) -> anyhow::Result<Result<serde_json::Value, serde_json::Value>> {
        let script = "const [command, args, done] = arguments; \
            window.__TAURI_INTERNALS__.invoke(command, args).then(\
              (value) => done({ ok: value ?? null }), (error) => done({ err: error }));";
        let answer = bounded(
            command,
            self.client
                .execute_async(script, vec![serde_json::json!(command), args]),
        )
        .await?;
        Ok(match answer.get("ok") {
            Some(value) => Ok(value.clone()),
            None => Err(answer.get("err").cloned().unwrap_or(answer)),
        })
    }

    /// Runs a script in the page and returns its result.
    pub async fn script(&self, source: &str) -> anyhow::Result<serde_json::Value> {
        bounded("a script", self.client.execute(source, vec![])).await
    }

    pub async fn count(&self, css: &str) -> anyhow::Result<usize> {
        Ok(bounded(css, self.client.find_all(Locator::Css(css)))
            .await?
            .len())
    }

    /// Saves what the window shows as `<name>.png` beside the other screenshots.
    pub async fn shot(&self, name: &str) -> anyhow::Result<()> {
        // The window as the display shows it (ImageMagick's `import`): WebKitWebDriver's
        // own screenshot never answers on some pages (the recovery phrase's, seen with
        // WebKitGTK 2.4x), whatever their content, so the display is read instead.
        // What the page just became, painted: two animation frames, so the
        // display shows the DOM the test waited for and not the frame before.
        bounded(
            "two animation frames",
            self.client.execute_async(
                "const done = arguments[arguments.length - 1];
                 requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
                Vec::new(),
            ),
        )
        .await?;
        let (x, y, width, height) =
            bounded("the window's place", self.client.get_window_rect()).await?;
        let path = self.shots.join(format!("{name}.png"));
        let import = Command::new("import")
            .args(["-display", &self.display, "-window", "root"])
            .args(["-crop", &format!("{width}x{height}+{x}+{y}"), "+repage"])
            .arg(&path)
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .status();
        let status = tokio::time::timeout(PATIENCE, import)
            .await
            .context("import did not finish")??;
        anyhow::ensure!(status.success(), "import could not read the display");
        eprintln!("ui: screenshot {name}.png");
        Ok(())
    }

    /// Ends the session, which quits the app.
    pub async fn quit(self) -> anyhow::Result<()> {
        bounded("end the session", self.client.close()).await
    }

    /// The number of the app's windows (each a WebDriver window handle).
    pub async fn window_count(&self) -> anyhow::Result<usize> {
        Ok(bounded("list the windows", self.client.windows())
            .await?
            .len())
    }

    /// Goes on in the app's window titled `title` (waiting for it to appear):
    /// what the steps after it find, click and shoot is in that window.
    pub async fn switch_to_window_titled(&self, title: &str) -> anyhow::Result<()> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while tokio::time::Instant::now() < deadline {
            for handle in bounded("list the windows", self.client.windows()).await? {
                bounded("switch windows", self.client.switch_to_window(handle)).await?;
                if bounded("read the title", self.client.title()).await? == title {
                    eprintln!("ui: in the window {title:?}");
                    return Ok(());
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!("waited {PATIENCE:?}, but no window is titled {title:?}")
    }

    /// Goes on in the app's window whose page shows `css` (waiting for it):
    /// for windows of the same title (Satchel's own and a program's).
    pub async fn switch_to_window_showing(&self, css: &str) -> anyhow::Result<()> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        let probe = format!("return !!document.querySelector({css:?})");
        while tokio::time::Instant::now() < deadline {
            for handle in bounded("list the windows", self.client.windows()).await? {
                bounded("switch windows", self.client.switch_to_window(handle)).await?;
                if self.script(&probe).await? == serde_json::Value::Bool(true) {
                    eprintln!("ui: in the window showing {css}");
                    return Ok(());
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!("waited {PATIENCE:?}, but no window shows {css}")
    }
}
