#!/usr/bin/env bash
# Installs what Satchel needs to build, run and test on Debian: system packages,
# the npm packages of devstack/, ui/, packages/provider, packages/widget,
# examples/dapp, examples/wagmi-dapp, examples/tauri-host, examples/node-host and
# extension/, and tauri-driver. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  # the desktop build
  libwebkit2gtk-4.1-dev libsoup-3.0-dev libayatana-appindicator3-dev librsvg2-dev
  libxdo-dev libssl-dev libgtk-3-dev pkg-config build-essential
  # tests: PostgreSQL, a virtual display, WebKit's WebDriver, the Secret Service keychain
  postgresql xvfb webkit2gtk-driver imagemagick gnome-keyring dbus dbus-x11 libdbus-1-dev libsecret-1-dev
  curl ca-certificates
  # scripts/schemathesis.sh: a virtualenv for Schemathesis
  python3 python3-venv
  # the OAuth logins: a real browser completes the local OpenID provider's login page
  chromium chromium-driver
  # packages (scripts/package.sh, tests/packaging): checks of the desktop entry and
  # the AppStream metadata, rpm to read an .rpm back, and what the AppImage
  # bundler's linuxdeploy (itself an AppImage) runs with
  desktop-file-utils appstream rpm file libfuse2
  # the browser extension's zips (extension/build.mjs)
  zip
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

command -v cargo >/dev/null || { echo "setup: Rust (cargo) is required: https://rustup.rs" >&2; exit 1; }
command -v npm >/dev/null || { echo "setup: Node.js and npm are required" >&2; exit 1; }

# Installs a folder's npm packages as its package-lock.json pins them, when the
# lock changed since the last install. (`npm install`, not `npm ci`: npm 11 leaves
# other platforms' optional packages, like anvil's, out of the lock and `npm ci`
# then refuses it.)
npm_install() {
  local dir=$1
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error)
  fi
}
npm_install devstack
npm_install ui
# The provider package for applications, built (the example dapp takes its dist/),
# and the example dapp that uses it.
npm_install packages/provider
npm --prefix packages/provider run --silent build
npm_install examples/dapp
# A dapp written for any wallet (wagmi with EIP-6963), which finds Satchel only
# through the extension.
npm_install examples/wagmi-dapp
# The widget SDK for applications (packages/widget), built (the example
# Tauri host takes its dist/), and the example hosts that use it: a Tauri
# app and a command-line program (Node) that uses the installed Satchel app.
npm_install packages/widget
npm --prefix packages/widget run --silent build
npm_install examples/tauri-host
npm_install examples/node-host
# Satchel Connector, the browser extension (extension/): built for Chromium and
# Firefox (the desktop test loads extension/dist/chromium).
npm_install extension
npm --prefix extension run --silent build >/dev/null

# tauri-driver: the WebDriver server the desktop UI tests drive the app through
# (2.x, for Tauri 2; its 3.0 alphas are not for a product).
if ! command -v tauri-driver >/dev/null && [ ! -x "${CARGO_HOME:-$HOME/.cargo}/bin/tauri-driver" ]; then
  echo "setup: installing tauri-driver"
  cargo install tauri-driver --version 2.1.0 --locked --quiet
fi
