#!/usr/bin/env bash
# The desktop benchmark (tests/perf): builds Satchel and the minimal Tauri window
# the same way (release, bundled pages), then measures both side by side: start
# to balances shown vs first page, and PSS with 20 NFT thumbnails vs the page.
# Needs a D-Bus session and an unlocked Secret Service, as the app does; this
# script gives it a private one.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
npm --prefix ui run --silent build >/dev/null
cargo build --release --locked -p satchel-minimal-window --features custom-protocol
keyring_home=$(mktemp -d /tmp/satchel-keyring.XXXXXX)
trap 'rm -rf "$keyring_home"' EXIT
dbus-run-session -- env XDG_DATA_HOME="$keyring_home" sh -c '
  echo -n satchel-bench | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec cargo bench --locked --features custom-protocol --bench desktop
'
