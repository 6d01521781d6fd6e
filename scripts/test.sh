#!/usr/bin/env bash
# Runs every test of Satchel on a fresh Debian machine: formatting and lints, the
# unit tests, and the end-to-end suites against a real dev chain, SQLite and a
# PostgreSQL server this script starts (and stops) itself.
set -euo pipefail
cd "$(dirname "$0")/.."

# One set of Cargo features for every build of the run (and of the scripts it
# runs: schemathesis.sh, interop.sh, the packaging test's package.sh): the
# whole workspace with its dev-dependencies, as `cargo test --workspace`
# resolves them. A build of one package alone (`cargo build -p …`, a plain
# `tauri build`) resolves the crates the packages share (serde, syn, tokio,
# reqwest, satchel-api, satchel-sdk…) to other features, and builds nearly every
# dependency once more. So: every `cargo test` below takes --workspace, and every
# `cargo build` is cargo_build_as_tested (scripts/lib/stack.sh).

# A clean clone builds everything once: incremental state would only add to the
# target folder, on a disk CI shares with other work (for the same reason the dev
# profile keeps line tables only: the clone's target/ is about 4 GB, where full
# debug info in every test binary made it 13 GB and more).
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}

# Each step's duration, printed at the end (the test command's own cost).
step_names=() step_secs=() current_step="" step_started=$SECONDS
end_step() {
  if [ -n "$current_step" ]; then
    step_names+=("$current_step")
    step_secs+=($((SECONDS - step_started)))
  fi
  current_step=""
}
step() { end_step; current_step=$1; step_started=$SECONDS; printf '\n== %s\n' "$*"; }
print_times() {
  end_step
  printf '\nstep times (s):\n'
  local i
  for i in "${!step_names[@]}"; do
    printf '%6d  %s\n' "${step_secs[$i]}" "${step_names[$i]%%:*}"
  done
  printf '%6d  in all\n' "$SECONDS"
}

step "set-up: system and npm packages, tauri-driver (scripts/setup.sh)"
scripts/setup.sh
. scripts/lib/stack.sh

step "format, lints and the UI type check"
cargo fmt --all -- --check
# The one type check and the one Vite build of the run (the packaging test
# packages this ui/dist as it is).
npm --prefix ui run --silent typecheck
npm --prefix ui run --silent lint
npm --prefix ui run --silent build >/dev/null
# The example dapp (served by the local stack in the dapp's end-to-end test).
npm --prefix examples/dapp run --silent typecheck
npm --prefix examples/dapp run --silent build >/dev/null
npm --prefix packages/provider run --silent typecheck
cargo clippy --workspace --all-targets --locked -- -D warnings

step "the widget's component tests (Vitest)"
results=$(mktemp /tmp/satchel-results.XXXXXX)
npm --prefix ui test --silent -- --reporter=default 2>&1 | tee "$results"

step "the provider package for applications (packages/provider: EIP-1193 over HTTP and WebSocket, EIP-6963, viem)"
npm --prefix packages/provider test --silent -- --reporter=default 2>&1 | tee -a "$results"

step "benchmark smoke run, unoptimised (figures: cargo bench -p satchel-tests --bench rest)"
SATCHEL_BENCH_QUICK=1 cargo test --workspace --locked --bench rest

step "the signing benchmark's smoke run: each step from the PIN to the broadcast told (figures: cargo bench -p satchel-tests --bench signing)"
SATCHEL_BENCH_QUICK=1 cargo test --workspace --locked --bench signing

step "the provider benchmark's smoke run: eth_call three ways, every answer the node's; newHeads to WebSocket subscribers (figures: cargo bench -p satchel-tests --bench provider)"
SATCHEL_BENCH_QUICK=1 cargo test --workspace --locked --bench provider

step "a PostgreSQL server for the PostgreSQL half of the contract suite and of Schemathesis"
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pg_dir=$(mktemp -d /tmp/satchel-pg.XXXXXX)
pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
chown postgres "$pg_dir"
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
as_postgres "$pg_bin/initdb" -D "$pg_dir/data" -A trust -U satchel >/dev/null
as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w start \
  -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400" >/dev/null
stop_pg() { as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$pg_dir"; }
trap stop_pg EXIT
export SATCHEL_TEST_POSTGRES_URL="postgres://satchel@127.0.0.1:$pg_port/postgres"

step "the OpenAPI document against the service: Schemathesis, every check, on SQLite and PostgreSQL (scripts/schemathesis.sh)"
if [ "${SATCHEL_SKIP_SCHEMATHESIS:-}" = 1 ]; then echo "skipped: schemathesis"; else scripts/schemathesis.sh; fi

step "the scale benchmark's smoke run, both engines (figures: cargo bench -p satchel-tests --bench scale)"
SATCHEL_BENCH_QUICK=1 cargo test --workspace --locked --bench scale

step "the NFT indexer benchmark's smoke run: 5 s of mints, every listing checked against the receipts (figures: cargo bench -p satchel-tests --bench indexer)"
SATCHEL_BENCH_QUICK=1 cargo test --workspace --locked --bench indexer

step "unit, end-to-end and desktop UI tests, with a Secret Service keychain on a private D-Bus"
# The desktop benchmark's baseline (the bench runs after the tests), built here
# where no D-Bus is needed. The minimal window declares the app's tauri
# features, so it shares the app's build of tauri: only its own crate is
# compiled. (The packaging test's build leaves it out: see scripts/package.sh.)
cargo_build_as_tested --bin satchel-minimal-window
# The desktop UI tests (tests/ui) start their own Xvfb and tauri-driver. A test
# whose real dependency is missing fails, unless SATCHEL_SKIP_<NAME>=1 (POSTGRES,
# KEYCHAIN, UI, BROWSER: headless Chromium for the OAuth logins, PACKAGING: the
# packaged-launch test's tools) was set; each skip is written here and counted at the end.
export SATCHEL_SKIPPED_FILE=$(mktemp /tmp/satchel-skipped.XXXXXX)
# A keyring of its own in a fresh folder, so no keyring left on the machine (with
# another password) is in the way.
keyring_home=$(mktemp -d /tmp/satchel-keyring.XXXXXX)
dbus-run-session -- env XDG_DATA_HOME="$keyring_home" sh -c '
  set -e
  echo -n satchel-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  cargo test --workspace --locked
  # The desktop benchmark, once and unoptimised, so it keeps working (figures:
  # scripts/perf.sh).
  SATCHEL_BENCH_QUICK=1 cargo test --workspace --locked --bench desktop
' 2> >(grep -v "Failed to set fd limit" >&2) | tee -a "$results"
rm -rf "$keyring_home"

step "Wepin's own web client (@wepin/fetch-js) against the service, real and localhost domains (scripts/interop.sh)"
if [ "${SATCHEL_SKIP_INTEROP:-}" = 1 ]; then echo "skipped: interop"; else scripts/interop.sh; fi

print_times

# One closing line for the whole run: cargo's test binaries and Vitest's (the
# last runner to print is a doc-test binary with nothing in it, which says
# nothing about the suite).
sed 's/\x1b\[[0-9;]*m//g' "$results" | awk -v s="$(wc -l < "$SATCHEL_SKIPPED_FILE")" '
  /^test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed/) p += $(i-1); if ($i ~ /^failed/) f += $(i-1) } }
  /^ *Tests +[0-9]/ { for (i = 1; i <= NF; i++) { if ($i == "passed") p += $(i-1); if ($i == "failed") f += $(i-1) } }
  END { printf "\ntests: %d passed, %d failed, %d skipped\n", p, f, s }'
rm -f "$results" "$SATCHEL_SKIPPED_FILE"
