#!/usr/bin/env bash
# Starts Satchel on the local stack: anvil with the demo contracts, the service on
# SQLite with a demo app, and the desktop app. Ctrl-C (or closing the app) stops all.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
npm --prefix ui run --silent build >/dev/null
cargo build --locked -p satchel -p satchel-devstack -p satchel-service
# Cargo's target folder (CARGO_TARGET_DIR when set).
target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')

rm -f .devstack/app.env
"$target_dir/debug/satchel-devstack" --data-dir .devstack &
devstack=$!
trap 'kill "$devstack" 2>/dev/null || true; wait "$devstack" 2>/dev/null || true' EXIT

# Wait until the stack has written the app's settings and the service answers.
for _ in $(seq 1 1200); do
  if [ -f .devstack/app.env ] && curl -sf http://127.0.0.1:8787/health >/dev/null; then break; fi
  kill -0 "$devstack" 2>/dev/null || { echo "run: the local stack did not start" >&2; exit 1; }
  sleep 0.1
done
set -a; . .devstack/app.env; set +a
"$target_dir/debug/satchel"
