//! Headless Chromium driven through chromedriver (WebDriver), for the pages a
//! person meets outside the app: the OpenID provider's login page and the
//! loopback redirect back. Each [`Browser`] has its own chromedriver, Chromium
//! and profile, and takes them down when dropped.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use fantoccini::{Client, ClientBuilder, Locator};
use tokio::process::Child;
use url::Url;

mod driver;

use driver::{kill_group, start_driver};

/// How long a page may take to show what a step waits for.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// How often a wait looks again.
const POLL: Duration = Duration::from_millis(50);

/// The password typed into the provider's login page (it takes any).
const ANY_PASSWORD: &str = "any-password";

/// A program from `PATH`.
fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// chromedriver: `SATCHEL_CHROMEDRIVER`, else `chromedriver` on `PATH`.
pub fn chromedriver_binary() -> Option<PathBuf> {
    match std::env::var_os("SATCHEL_CHROMEDRIVER") {
        Some(path) => Some(path.into()),
        None => program("chromedriver"),
    }
}

/// Chromium: `SATCHEL_CHROMIUM`, else `chromium` (Debian's `/usr/bin/chromium`),
/// `chromium-browser` or `google-chrome` on `PATH`.
pub fn chromium_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("SATCHEL_CHROMIUM") {
        return Some(path.into());
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find_map(program)
}

/// What is missing for a [`Browser`] on this machine (`node` is not needed by
/// the browser itself but by the provider it is used with), or `None`.
pub fn missing_tools() -> Option<String> {
    let missing: Vec<&str> = [
        ("chromedriver", chromedriver_binary().is_none()),
        ("chromium", chromium_binary().is_none()),
        ("node", program("node").is_none()),
    ]
    .into_iter()
    .filter_map(|(name, absent)| absent.then_some(name))
    .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "{} not found (Debian: apt-get install chromium chromium-driver nodejs; scripts/setup.sh installs them)",
            missing.join(", ")
        )
    })
}

/// A headless Chromium with a profile of its own.
pub struct Browser {
    client: Client,
    driver: Child,
    _profile: tempfile::TempDir,
}

/// `work`, a WebDriver call, given [`PATIENCE`] to answer: a hung driver fails
/// with what it was doing instead of hanging its caller. The one copy, for the
/// browser here and the desktop UI tests' harness.
pub async fn bounded<T>(
    what: &str,
    work: impl std::future::Future<Output = Result<T, fantoccini::error::CmdError>>,
) -> anyhow::Result<T> {
    tokio::time::timeout(PATIENCE, work)
        .await
        .map_err(|_| anyhow::anyhow!("WebDriver did not answer within {PATIENCE:?}: {what}"))?
        .with_context(|| what.to_owned())
}

/// What the page is, read in one WebDriver call.
#[derive(Debug, serde::Deserialize)]
struct PageState {
    url: String,
    ready: String,
    /// The provider's error message, when it shows one.
    error: Option<String>,
    /// A login form is on the page.
    login: bool,
    /// A form to continue (consent) without a login field is on the page.
    proceed: bool,
}

const PAGE_STATE: &str = r#"
const error = document.querySelector('#error');
const form = document.querySelector('form');
return {
  url: location.href,
  ready: document.readyState,
  error: error ? error.textContent : null,
  login: !!document.querySelector('input[name=login]'),
  proceed: !!form && !form.querySelector('input[name=login]')
    && !!form.querySelector('[type=submit], button'),
};
"#;

/// Whether `url` is the loopback redirect back to an app (`/callback` on a
/// loopback host).
fn is_callback(url: &Url) -> bool {
    url.scheme() == "http"
        && matches!(
            url.host_str(),
            Some("127.0.0.1") | Some("localhost") | Some("[::1]")
        )
        && url.path() == "/callback"
}

impl Browser {
    /// Starts chromedriver on a free port and a headless Chromium session in it.
    pub async fn start() -> anyhow::Result<Self> {
        Self::start_with(&[]).await
    }

    /// The same, with more Chromium flags (say `--host-resolver-rules=MAP
    /// shop.test 127.0.0.1`, for a page of another site served on loopback).
    pub async fn start_with(extra_args: &[&str]) -> anyhow::Result<Self> {
        let driver_binary = chromedriver_binary().context(
            "chromedriver not found (Debian: apt-get install chromium-driver; or set SATCHEL_CHROMEDRIVER)",
        )?;
        let chromium = chromium_binary().context(
            "chromium not found (Debian: apt-get install chromium; or set SATCHEL_CHROMIUM)",
        )?;
        let profile = tempfile::Builder::new()
            .prefix("satchel-chromium-")
            .tempdir()?;
        let (driver, port) = start_driver(&driver_binary).await?;
        let browser = Self::connect(port, &chromium, profile.path(), extra_args).await;
        let client = match browser {
            Ok(client) => client,
            Err(error) => {
                kill_group(&driver);
                return Err(error);
            }
        };
        Ok(Self {
            client,
            driver,
            _profile: profile,
        })
    }

    async fn connect(
        port: u16,
        chromium: &Path,
        profile: &Path,
        extra_args: &[&str],
    ) -> anyhow::Result<Client> {
        let mut args = vec![
            "--headless=new".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--disable-dev-shm-usage".to_owned(),
            format!("--user-data-dir={}", profile.display()),
            "--no-first-run".to_owned(),
            "--no-default-browser-check".to_owned(),
            "--password-store=basic".to_owned(),
            "--window-size=1280,900".to_owned(),
        ];
        args.extend(extra_args.iter().map(|a| (*a).to_owned()));
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("browserName".into(), "chrome".into());
        capabilities.insert("pageLoadStrategy".into(), "normal".into());
        capabilities.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": chromium,
                "args": args,
            }),
        );
        let connecting =
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(capabilities)
                .connect(&format!("http://127.0.0.1:{port}/"))
                .await;
        connecting.map_err(|e| {
            anyhow::anyhow!(
                "chromedriver could not start {} headless: {e}",
                chromium.display()
            )
        })
    }

    /// The WebDriver session, for what the methods here do not cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Opens `url` and waits for the page to load.
    pub async fn open(&self, url: &str) -> anyhow::Result<()> {
        bounded(&format!("open {url}"), self.client.goto(url)).await
    }

    /// The page's address now.
    pub async fn current_url(&self) -> anyhow::Result<Url> {
        bounded("read the address", self.client.current_url()).await
    }

    /// The text of the page's body.
    pub async fn page_text(&self) -> anyhow::Result<String> {
        let body = bounded("find the body", self.client.find(Locator::Css("body"))).await?;
        bounded("read the body's text", body.text()).await
    }

    /// Opens an authorization URL of the loopback OpenID provider, logs in there
    /// as `login` (with any password), goes on through a consent page if one
    /// comes, and returns the loopback redirect it ends on
    /// (`http://127.0.0.1:<port>/callback?code=…&state=…`) once that page loaded.
    pub async fn log_in_at_provider(
        &self,
        authorize_url: &str,
        login: &str,
    ) -> anyhow::Result<Url> {
        self.open(authorize_url).await?;
        let state = self
            .wait_page("the provider's login page", |page| {
                page.login || is_callback_loaded(page)
            })
            .await?;
        if !state.login {
            // Already signed in: the provider sent the browser straight back.
            return Ok(state.url.parse()?);
        }
        let field = bounded(
            "find the login field",
            self.client.find(Locator::Css("input[name=login]")),
        )
        .await?;
        bounded("clear the login field", field.clear()).await?;
        bounded("type the login", field.send_keys(login)).await?;
        let password = bounded(
            "find the password field",
            self.client.find(Locator::Css("input[name=password]")),
        )
        .await?;
        bounded("type the password", password.send_keys(ANY_PASSWORD)).await?;
        let submit = bounded(
            "find the sign-in button",
            self.client.find(Locator::Css(
                "form [type=submit], form button:not([type=button])",
            )),
        )
        .await?;
        bounded("sign in", submit.click()).await?;
        self.wait_callback().await
    }

    /// Opens an authorization URL of the loopback OpenID provider, presses its
    /// "Cancel" link, and returns the loopback redirect it ends on
    /// (`…/callback?error=access_denied&…`) once that page loaded.
    pub async fn cancel_at_provider(&self, authorize_url: &str) -> anyhow::Result<Url> {
        self.open(authorize_url).await?;
        let cancel = bounded(
            "find the provider's Cancel link",
            self.client
                .wait()
                .at_most(PATIENCE)
                .every(POLL)
                .for_element(Locator::Css("a#cancel, a[href$='/abort']")),
        )
        .await?;
        bounded("press Cancel", cancel.click()).await?;
        self.wait_callback().await
    }

    /// Waits for the loopback redirect to load, pressing "continue" on a consent
    /// page on the way, and failing at once on a provider's error page.
    async fn wait_callback(&self) -> anyhow::Result<Url> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        let mut consented = false;
        loop {
            let page = self.page_state().await?;
            if is_callback_loaded(&page) {
                return Ok(page.url.parse()?);
            }
            if let Some(error) = &page.error {
                anyhow::bail!(
                    "the provider shows an error at {}: {}",
                    page.url,
                    error.trim()
                );
            }
            if page.proceed && !page.login && page.ready == "complete" && !consented {
                // A consent page: go on.
                consented = true;
                let button = bounded(
                    "find the consent button",
                    self.client
                        .find(Locator::Css("form [type=submit], form button")),
                )
                .await?;
                bounded("consent", button.click()).await?;
                continue;
            }
            anyhow::ensure!(
                tokio::time::Instant::now() < deadline,
                "the browser did not come back to a loopback /callback within {PATIENCE:?}; it is at {}",
                page.url
            );
            tokio::time::sleep(POLL).await;
        }
    }

    async fn page_state(&self) -> anyhow::Result<PageState> {
        let value = bounded(
            "read the page's state",
            self.client.execute(PAGE_STATE, Vec::new()),
        )
        .await?;
        Ok(serde_json::from_value(value)?)
    }

    async fn wait_page(
        &self,
        what: &str,
        done: impl Fn(&PageState) -> bool,
    ) -> anyhow::Result<PageState> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let page = self.page_state().await?;
            if done(&page) {
                return Ok(page);
            }
            if let Some(error) = &page.error {
                anyhow::bail!(
                    "the provider shows an error at {}: {}",
                    page.url,
                    error.trim()
                );
            }
            anyhow::ensure!(
                tokio::time::Instant::now() < deadline,
                "{what} did not come within {PATIENCE:?}; the browser is at {}",
                page.url
            );
            tokio::time::sleep(POLL).await;
        }
    }

    /// Clicks the element `css` finds.
    pub async fn click(&self, css: &str) -> anyhow::Result<()> {
        let element = bounded(
            &format!("find {css}"),
            self.client.wait().for_element(Locator::Css(css)),
        )
        .await?;
        bounded(&format!("click {css}"), element.click()).await
    }

    /// Types `text` into the field `css` finds, replacing what it held.
    pub async fn type_into(&self, css: &str, text: &str) -> anyhow::Result<()> {
        let field = bounded(
            &format!("find {css}"),
            self.client.wait().for_element(Locator::Css(css)),
        )
        .await?;
        bounded(&format!("clear {css}"), field.clear()).await?;
        bounded(&format!("type into {css}"), field.send_keys(text)).await
    }

    /// The text of the element `css` finds once `wanted` holds for it (within
    /// [`PATIENCE`]); the text it last had otherwise, in the error.
    pub async fn text_when(
        &self,
        css: &str,
        wanted: impl Fn(&str) -> bool,
    ) -> anyhow::Result<String> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let text = match self.client.find(Locator::Css(css)).await {
                Ok(element) => element.text().await.unwrap_or_default(),
                Err(_) => String::new(),
            };
            if wanted(&text) {
                return Ok(text);
            }
            if tokio::time::Instant::now() > deadline {
                anyhow::bail!("{css} did not become what the test waits for; it reads {text:?}");
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// An attribute of the element `css` finds.
    pub async fn attribute(&self, css: &str, name: &str) -> anyhow::Result<Option<String>> {
        let element = bounded(&format!("find {css}"), self.client.find(Locator::Css(css))).await?;
        bounded(&format!("read {css}'s {name}"), element.attr(name)).await
    }

    /// Runs `script` in the page (a function body; `return` gives its value).
    pub async fn run(&self, script: &str) -> anyhow::Result<serde_json::Value> {
        bounded(
            "run a script in the page",
            self.client.execute(script, Vec::new()),
        )
        .await
    }

    /// A PNG of the page, written to `path`.
    pub async fn screenshot(&self, path: &Path) -> anyhow::Result<()> {
        let png = bounded("take a screenshot", self.client.screenshot()).await?;
        std::fs::write(path, png)?;
        Ok(())
    }

    /// Ends the session (Chromium quits) and stops chromedriver.
    pub async fn close(self) {
        let _ = tokio::time::timeout(PATIENCE, self.client.clone().close()).await;
        // Drop stops chromedriver and anything left in its group.
    }
}

fn is_callback_loaded(page: &PageState) -> bool {
    page.ready == "complete" && page.url.parse::<Url>().is_ok_and(|url| is_callback(&url))
}

impl Drop for Browser {
    fn drop(&mut self) {
        kill_group(&self.driver);
    }
}
