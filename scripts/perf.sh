#!/usr/bin/env bash
# The desktop benchmark (tests/perf): builds Satchel and the minimal Tauri window
# the same way (Cargo's desktop profile, as packages are; bundled pages), then
# measures both side by side for a
# wallet of 10,000 NFTs, from an empty cache and again warm: start to balances
# shown vs the minimal page, PSS of the wallet page and of the NFT tab vs the
# page, the NFT tab's first row of thumbnails, and PSS after scrolling through
# all 10,000 vs the wallet page. About 15 minutes on 2 cores.
# Needs a D-Bus session and an unlocked Secret Service, as the app does; this
# script gives it a private one.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
npm --prefix ui run --silent build >/dev/null
cargo build --profile desktop --locked -p satchel-minimal-window --features custom-protocol
# The minimal host (the minimal window with the widget plugin), as a developer
# builds an application that embeds it.
cargo build --profile desktop --locked -p satchel-minimal-host --features custom-protocol
keyring_home=$(mktemp -d /tmp/satchel-keyring.XXXXXX)
trap 'rm -rf "$keyring_home"' EXIT
dbus-run-session -- env XDG_DATA_HOME="$keyring_home" sh -c '
  echo -n satchel-bench | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec cargo bench --profile desktop --locked --features custom-protocol --bench desktop
'
