#!/usr/bin/env bash
# Starts Satchel on the local stack: anvil with the demo contracts, the service on
# SQLite with a demo app, and the desktop app. Ctrl-C (or closing the app) stops all.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/stack.sh
scripts/setup.sh
npm --prefix ui run --silent build >/dev/null
npm --prefix examples/dapp run --silent build >/dev/null
# With the test build's features, so a run after scripts/test.sh builds nothing again.
cargo_build_as_tested --bin satchel --bin satchel-devstack --bin satchel-service

rm -f .devstack/app.env
mkdir -p .devstack
# The stack's banner (where everything is) on the terminal, and in its log,
# beside its data folder: the stack empties that folder as it starts.
LOG_ECHO=1 stack_start .devstack .devstack.log
trap stack_stop EXIT
stack_wait .devstack.log
set -a; . .devstack/app.env; set +a
"$(target_dir)/debug/satchel"
