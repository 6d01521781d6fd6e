//! The .deb as a person installs it: `scripts/package.sh --debug` builds it and
//! the .rpm with the Tauri CLI (the updater's public key baked in); `rpm -qp`
//! reads the .rpm's metadata, requirements and files; `dpkg-deb -x` unpacks the
//! .deb into a throwaway root, `desktop-file-validate` and `appstreamcli
//! validate-tree` check its desktop entry and metadata; `dpkg -i` installs it
//! into the machine (and `dpkg --purge` removes it at the end, checked gone),
//! and the installed binary is started as the desktop entry's `Exec=` line says, with a clean
//! environment (no `SATCHEL_*`) and a settings file in its config folder,
//! through tauri-driver under Xvfb: first pointed at a service that is not there
//! (the offline page names the URL), then at a local stack, through login to the
//! wallet page, where Settings offers the signed update the service serves.
//!
//! A missing packaging or UI tool fails the test, unless `SATCHEL_SKIP_PACKAGING=1`.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context as _, ensure};
use satchel_devstack::{DEMO_EMAIL, DEMO_PASSWORD, LocalStack, StackOptions};
use satchel_tests::desktop::{self, AppEnv, Desktop, PATIENCE, program};
use tokio::process::Command;

const PIN: &str = "135790";
/// The version the service offers; the package is 0.1.0.
const UPDATE: &str = "0.2.0";
/// Every size the package installs a PNG icon at (and a scalable SVG).
const ICON_SIZES: [u32; 8] = [16, 24, 32, 48, 64, 128, 256, 512];

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn tauri_cli() -> PathBuf {
    repository().join("ui/node_modules/.bin/tauri")
}

/// The tools, or `None` when one is missing and `SATCHEL_SKIP_PACKAGING=1`.
fn tools() -> Option<()> {
    let missing: Vec<&str> = [
        "dpkg-deb",
        "dpkg",
        "rpm",
        "desktop-file-validate",
        "appstreamcli",
        "npm",
        "Xvfb",
        "tauri-driver",
        "WebKitWebDriver",
    ]
    .into_iter()
    .filter(|name| program(name).is_none())
    .chain((!tauri_cli().exists()).then_some("the Tauri CLI in ui/node_modules"))
    .collect();
    if !missing.is_empty() {
        satchel_devstack::missing_dependency(
            "PACKAGING",
            &format!(
                "a packaging tool is missing (scripts/setup.sh installs them): {}",
                missing.join(", ")
            ),
        );
        return None;
    }
    Some(())
}

/// Runs `command` to the end; its output is the error when it fails.
async fn run(what: &str, command: &mut Command) -> anyhow::Result<String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .await
        .with_context(|| format!("cannot run {what}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    ensure!(
        output.status.success(),
        "{what} failed ({}):\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    Ok(stdout)
}

/// The updater's key pair, made once with the Tauri CLI and kept in the target
/// folder: a new key each run would bake a new public key in, and rebuild the app.
async fn updater_key() -> anyhow::Result<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("packaging");
    std::fs::create_dir_all(&dir)?;
    let key = dir.join("updater.key");
    if !key.exists() || !dir.join("updater.key.pub").exists() {
        run(
            "tauri signer generate",
            Command::new(tauri_cli())
                .args(["signer", "generate", "--ci", "--force", "--password", ""])
                .arg("--write-keys")
                .arg(&key),
        )
        .await?;
    }
    Ok(key)
}

/// The test build of the app, kept aside while `tauri build --debug` writes the
/// packaged build to the same path (`target/debug/satchel`), and put back when
/// dropped: the desktop UI tests, which run after this one, drive the test build.
struct TestBuildAside {
    path: PathBuf,
    aside: PathBuf,
}

impl TestBuildAside {
    fn keep(path: &Path) -> anyhow::Result<Self> {
        let aside = path.with_extension("test-build");
        std::fs::copy(path, &aside).with_context(|| format!("cannot copy {}", path.display()))?;
        Ok(Self {
            path: path.to_owned(),
            aside,
        })
    }
}

impl Drop for TestBuildAside {
    fn drop(&mut self) {
        if let Err(e) = std::fs::rename(&self.aside, &self.path) {
            eprintln!("the test build of satchel was not put back: {e}");
        }
    }
}

/// `scripts/package.sh --debug`, the .deb and the .rpm, into `out`: the pages
/// test.sh built (`--ui-built`), and the app with the test build's Cargo
/// features (`--as-tested`), so only tauri and the app are compiled again.
async fn build_packages(out: &Path, pubkey: &Path) -> anyhow::Result<(PathBuf, PathBuf)> {
    let _test_build = TestBuildAside::keep(Path::new(env!("CARGO_BIN_EXE_satchel")))?;
    run(
        "scripts/package.sh",
        Command::new(repository().join("scripts/package.sh"))
            .args([
                "--debug",
                "--bundles",
                "deb,rpm",
                "--no-compare",
                "--ui-built",
                "--as-tested",
                "--out",
            ])
            .arg(out)
            .arg("--updater-pubkey")
            .arg(pubkey)
            .env_remove("TAURI_SIGNING_PRIVATE_KEY"),
    )
    .await?;
    let made = |extension: &str| {
        std::fs::read_dir(out)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|e| e == extension))
            .with_context(|| format!("scripts/package.sh made no .{extension}"))
    };
    Ok((made("deb")?, made("rpm")?))
}

/// The .rpm's metadata, dependencies and files, as `rpm -qp` reads them.
async fn checks_the_rpm(rpm: &Path) -> anyhow::Result<()> {
    let info = run("rpm -qpi", Command::new("rpm").arg("-qpi").arg(rpm)).await?;
    assert_eq!(field(&info, "Name"), "satchel", "{info}");
    assert_eq!(field(&info, "Version"), "0.1.0", "{info}");
    for name in ["License", "URL", "Summary"] {
        assert!(!field(&info, name).is_empty(), "{name}:\n{info}");
    }
    let requires = run("rpm -qpR", Command::new("rpm").arg("-qpR").arg(rpm)).await?;
    assert!(
        requires.contains("libwebkit2gtk-4.1.so.0"),
        "Requires: {requires}"
    );
    let files = run("rpm -qpl", Command::new("rpm").arg("-qpl").arg(rpm)).await?;
    for file in [
        "/usr/bin/satchel",
        "/usr/share/applications/Satchel.desktop",
        "/usr/share/metainfo/dev.satchel.wallet.metainfo.xml",
        "/usr/share/icons/hicolor/scalable/apps/satchel.svg",
        "/usr/share/icons/hicolor/256x256/apps/satchel.png",
    ] {
        assert!(files.lines().any(|l| l == file), "{file} in:\n{files}");
    }
    Ok(())
}

/// The .deb installed into this machine with `dpkg -i` (as root: the test
/// command runs as root on its machine, else through `sudo -n`), removed again
/// when dropped, whatever happened in between.
struct Installed;

/// `dpkg`, as root.
fn dpkg() -> std::process::Command {
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    if root {
        std::process::Command::new("dpkg")
    } else {
        let mut sudo = std::process::Command::new("sudo");
        sudo.args(["-n", "dpkg"]);
        sudo
    }
}

impl Installed {
    async fn install(deb: &Path) -> anyhow::Result<Self> {
        run("dpkg -i", Command::from(dpkg()).arg("-i").arg(deb)).await?;
        let status = run("dpkg -s", Command::from(dpkg()).args(["-s", "satchel"])).await?;
        assert!(status.contains("Status: install ok installed"), "{status}");
        Ok(Self)
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let removed = dpkg().args(["--purge", "satchel"]).status();
        if !removed.is_ok_and(|s| s.success()) {
            eprintln!("packaging: the installed satchel package was not removed");
        }
    }
}

/// A `Name: value` field of a control file or of `rpm -qpi` (which pads names).
fn field<'a>(control: &'a str, name: &str) -> &'a str {
    control
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(key, _)| key.trim_end() == name)
        .map_or("", |(_, value)| value.trim())
}

/// The package's metadata and files, as a distribution expects them.
async fn checks_the_package(deb: &Path, root: &Path) -> anyhow::Result<PathBuf> {
    let control = run("dpkg-deb -f", Command::new("dpkg-deb").arg("-f").arg(deb)).await?;
    assert_eq!(field(&control, "Package"), "satchel", "{control}");
    assert_eq!(field(&control, "Version"), "0.1.0", "{control}");
    for name in ["Maintainer", "Homepage", "Description", "Section"] {
        assert!(!field(&control, name).is_empty(), "{name}:\n{control}");
    }
    let depends = field(&control, "Depends");
    for package in [
        "libwebkit2gtk-4.1-0",
        "libgtk-3-0",
        "libayatana-appindicator3-1",
    ] {
        assert!(depends.contains(package), "Depends: {depends}");
    }
    assert!(
        field(&control, "Recommends").contains("gnome-keyring"),
        "a Secret Service provider is recommended:\n{control}"
    );

    run(
        "dpkg-deb -x",
        Command::new("dpkg-deb").arg("-x").arg(deb).arg(root),
    )
    .await?;
    let binary = root.join("usr/bin/satchel");
    let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&binary)?.permissions());
    assert!(mode & 0o111 != 0, "the binary is executable: {mode:o}");
    for size in ICON_SIZES {
        let icon = root.join(format!(
            "usr/share/icons/hicolor/{size}x{size}/apps/satchel.png"
        ));
        assert!(icon.is_file(), "{} is installed", icon.display());
    }
    assert!(
        root.join("usr/share/icons/hicolor/scalable/apps/satchel.svg")
            .is_file()
    );
    let metainfo = root.join("usr/share/metainfo/dev.satchel.wallet.metainfo.xml");
    assert!(metainfo.is_file(), "the AppStream metadata is installed");
    let desktop = root.join("usr/share/applications/Satchel.desktop");
    assert!(desktop.is_file(), "the desktop entry is installed");

    let validated = run(
        "desktop-file-validate",
        Command::new("desktop-file-validate").arg(&desktop),
    )
    .await?;
    assert!(
        !validated.contains("error:"),
        "desktop-file-validate: {validated}"
    );
    // The metadata, and its links into the tree (the desktop entry it launches).
    run(
        "appstreamcli validate-tree",
        Command::new("appstreamcli")
            .args(["validate-tree", "--no-net"])
            .arg(root),
    )
    .await?;
    Ok(desktop)
}

/// The program the desktop entry starts, found as a desktop environment finds
/// it: the first word of `Exec=` (field codes such as `%U` dropped) on `PATH`,
/// here the throwaway root's `/usr/bin`.
fn exec_of(desktop: &Path, root: &Path) -> anyhow::Result<(PathBuf, Vec<String>)> {
    let entry = std::fs::read_to_string(desktop)?;
    let exec = entry
        .lines()
        .find_map(|l| l.strip_prefix("Exec="))
        .context("no Exec= line")?;
    let mut words = exec.split_whitespace().filter(|w| !w.starts_with('%'));
    let program = words.next().context("an empty Exec= line")?;
    let args = words.map(str::to_owned).collect();
    let path = if program.starts_with('/') {
        root.join(program.trim_start_matches('/'))
    } else {
        root.join("usr/bin").join(program)
    };
    ensure!(
        path.is_file(),
        "Exec={exec}: {} is not installed",
        path.display()
    );
    Ok((path, args))
}

/// A signed update the service offers: a small file (it is never installed)
/// signed with the updater key by the Tauri CLI, and Tauri's `latest.json`
/// naming it, in the service's updates folder.
async fn serves_a_signed_update(stack: &LocalStack, key: &Path) -> anyhow::Result<()> {
    let dir = stack.data_dir.join("updates");
    std::fs::create_dir_all(&dir)?;
    let name = format!("Satchel_{UPDATE}_amd64.deb");
    let package = dir.join(&name);
    std::fs::write(&package, b"Satchel 0.2.0, as the update test serves it")?;
    run(
        "tauri signer sign",
        Command::new(tauri_cli())
            .args(["signer", "sign", "--password", "", "--app-version", UPDATE])
            .arg("--private-key-path")
            .arg(key)
            .arg(&package)
            .env_remove("TAURI_SIGNING_PRIVATE_KEY"),
    )
    .await?;
    let signature = std::fs::read_to_string(dir.join(format!("{name}.sig")))?;
    let manifest = serde_json::json!({
        "version": UPDATE,
        "notes": "The packaging test's update",
        "pub_date": "2026-11-23T10:00:00Z",
        "platforms": {
            "linux-x86_64-deb": { "url": name, "signature": signature.trim() },
        },
    });
    std::fs::write(dir.join("latest.json"), manifest.to_string())?;
    Ok(())
}

/// Writes the settings file where the app looks: `~/.config/dev.satchel.wallet/`,
/// with the stack's network table as its `[[networks]]`.
fn write_settings(
    home: &Path,
    service_url: &str,
    stack: &LocalStack,
    keychain: &str,
) -> anyhow::Result<()> {
    let dir = home.join(".config/dev.satchel.wallet");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("settings.toml"),
        format!(
            "service_url = \"{service_url}\"\napp_id = \"{}\"\napp_key = \"{}\"\napp_domain = \"{}\"\nkeychain_service = \"{keychain}\"\n",
            stack.app_id, stack.app_key, stack.domain
        ) + &toml::to_string(&stack.service.network_table())?,
    )?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deb_installs_starts_from_its_menu_entry_with_a_settings_file_and_offers_a_signed_update()
-> anyhow::Result<()> {
    let Some(()) = tools() else {
        return Ok(());
    };
    let work = tempfile::tempdir()?;
    let started = Instant::now();
    let key = updater_key().await?;
    let (deb, rpm) = build_packages(
        &work.path().join("packages"),
        &key.with_extension("key.pub"),
    )
    .await?;
    eprintln!("packaging: .deb and .rpm built in {:?}", started.elapsed());
    checks_the_rpm(&rpm).await?;

    // Validated as unpacked, then installed into the machine as a person does
    // and started from the installed desktop entry.
    let root = work.path().join("root");
    checks_the_package(&deb, &root).await?;
    let installed = Installed::install(&deb).await?;
    let system = Path::new("/");
    let desktop_entry = system.join("usr/share/applications/Satchel.desktop");
    let (binary, args) = exec_of(&desktop_entry, system)?;

    // The e-mail login is all this test signs in with: no OpenID provider (a
    // node process) to start.
    let stack = LocalStack::start(StackOptions {
        identity_providers: false,
        ..StackOptions::on_free_ports(work.path().join("stack"))
    })
    .await?;
    serves_a_signed_update(&stack, &key).await?;
    let home = work.path().join("home");
    let keychain = format!(
        "dev.satchel.wallet.packagetest.{}",
        uuid::Uuid::new_v4().simple()
    );
    let desktop = Desktop::start_in(AppEnv::Session {
        home: &home,
        bin: &system.join("usr/bin"),
    })
    .await?;
    let shots = desktop::screenshots(env!("CARGO_TARGET_TMPDIR"), "packaging");

    // A service that is not there: the offline page says which URL it tried.
    let nowhere = format!("http://127.0.0.1:{}/", satchel_devstack::free_port()?);
    write_settings(&home, &nowhere, &stack, &keychain)?;
    let app = desktop.open_with_args(&binary, &args, &shots).await?;
    app.text_when("#offline-detail", |t| t.contains(&nowhere))
        .await?;
    app.quit().await?;

    // The local stack: log in as the demo user, who registers a wallet.
    write_settings(&home, stack.service.base_url.as_str(), &stack, &keychain)?;
    let app = desktop.open_with_args(&binary, &args, &shots).await?;
    app.type_into("#login-email", DEMO_EMAIL).await?;
    app.type_into("#login-password", DEMO_PASSWORD).await?;
    app.click("#login-submit").await?;
    app.type_into("#register-pin", PIN).await?;
    app.type_into("#register-pin-again", PIN).await?;
    app.click("#register-submit").await?;
    app.click("#phrase-skip").await?;
    app.text_when("[data-testid='balance-ETH']", |t| t == "10")
        .await?;

    // The update the service serves, downloaded and its signature checked.
    app.click("#nav-settings").await?;
    let mut offered = false;
    let deadline = Instant::now() + PATIENCE;
    while !offered && Instant::now() < deadline {
        // Settings asks when it opens: open it again until the check is done.
        offered = app
            .text_now("#settings-update-title")
            .await
            .is_some_and(|t| t.contains(UPDATE));
        if !offered {
            app.click("#nav-wallet").await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
            app.click("#nav-settings").await?;
        }
    }
    ensure!(offered, "Settings never said {UPDATE} is ready");
    app.find("#settings-update-install").await?;
    app.quit().await?;
    eprintln!("packaging: done in {:?}", started.elapsed());

    drop(desktop);
    stack.stop().await?;

    // Removed cleanly: the program, its menu entry and icons are gone.
    drop(installed);
    assert!(
        !system.join("usr/bin/satchel").exists(),
        "the binary is removed"
    );
    assert!(!desktop_entry.exists(), "the desktop entry is removed");
    let status = dpkg().args(["-s", "satchel"]).output()?;
    assert!(!status.status.success(), "dpkg no longer knows satchel");
    Ok(())
}
