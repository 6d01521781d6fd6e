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

# The SATCHEL_SKIP_* switches leave a suite out on a machine that cannot run
# it; CI runs everything, so there a skip is refused rather than counted.
if [ -n "${CI:-}" ]; then
  skips=$(env | grep -o '^SATCHEL_SKIP_[A-Z_]*=1' || true)
  if [ -n "$skips" ]; then
    echo "test.sh: CI runs every suite; unset ${skips//$'\n'/ }" >&2
    exit 2
  fi
fi

# Each step runs whatever an earlier one did (a failed lint hides no test
# result); the run fails when any step failed. Each step's duration and the
# summary are printed on every exit, a failed or interrupted one too.
step_names=() step_secs=() step_results=() failed_steps=()
results=$(mktemp /tmp/satchel-results.XXXXXX)
export SATCHEL_SKIPPED_FILE=$(mktemp /tmp/satchel-skipped.XXXXXX)
# step NAME FUNCTION: runs FUNCTION (a `set -e` subshell: its first failing
# command ends it) and records its time and result.
step() {
  local name=$1 started=$SECONDS rc=0
  shift
  printf '\n== %s\n' "$name"
  # Not `( … ) || rc=$?`: bash ignores `set -e` inside a subshell that is
  # part of an || list, and a step would go on past its failure.
  set +e
  ( set -euo pipefail; "$@" )
  rc=$?
  set -e
  step_names+=("${name%%:*}")
  step_secs+=($((SECONDS - started)))
  if [ "$rc" -eq 0 ]; then
    step_results+=(ok)
  else
    step_results+=("FAILED ($rc)")
    failed_steps+=("${name%%:*}")
    printf '\n== FAILED (exit %s): %s\n' "$rc" "$name"
  fi
}
# A step the rest cannot go without (the set-up): its failure ends the run.
required_step() {
  step "$@"
  if [ "${step_results[-1]}" != ok ]; then exit 1; fi
}
summary() {
  local rc=$?
  trap - EXIT
  if [ -n "${stop_pg_on_exit:-}" ]; then stop_pg; fi
  printf '\nstep times (s):\n'
  local i
  for i in "${!step_names[@]}"; do
    printf '%6d  %-10s %s\n' "${step_secs[$i]}" "${step_results[$i]}" "${step_names[$i]}"
  done
  printf '%6d  in all\n' "$SECONDS"
  # One closing line for the whole run: cargo's test binaries, Vitest's and
  # node's test runner (the last runner to print is a doc-test binary with
  # nothing in it, which says nothing about the suite).
  sed 's/\x1b\[[0-9;]*m//g' "$results" | awk -v s="$(wc -l < "$SATCHEL_SKIPPED_FILE")" '
    /^test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed/) p += $(i-1); if ($i ~ /^failed/) f += $(i-1) } }
    /^ *Tests +[0-9]/ { for (i = 1; i <= NF; i++) { if ($i == "passed") p += $(i-1); if ($i == "failed") f += $(i-1) } }
    /^# pass [0-9]/ { p += $3 }
    /^# fail [0-9]/ { f += $3 }
    END { printf "\ntests: %d passed, %d failed, %d skipped\n", p, f, s }'
  if [ -s "$SATCHEL_SKIPPED_FILE" ]; then
    printf 'skipped:\n'; sed 's/^/  /' "$SATCHEL_SKIPPED_FILE"
  fi
  rm -f "$results" "$SATCHEL_SKIPPED_FILE"
  if [ ${#failed_steps[@]} -gt 0 ]; then
    printf 'failed steps: %s\n' "${failed_steps[*]}"
    rc=1
  fi
  exit "$rc"
}
trap summary EXIT

setup() { scripts/setup.sh; }
required_step "set-up: system and npm packages, tauri-driver (scripts/setup.sh)" setup
. scripts/lib/stack.sh

# The one Vite build of the run, before any cargo build: the widget plugin
# embeds ui/dist (and the packaging test packages it as it is).
build_pages() {
  npm --prefix ui run --silent build >/dev/null
  # The example dapp (served by the local stack in the dapp's end-to-end test).
  npm --prefix examples/dapp run --silent build >/dev/null
  # The wagmi dapp (the extension's end-to-end test).
  npm --prefix examples/wagmi-dapp run --silent build >/dev/null
  # The example Tauri host's page (embedded in its binary, built below).
  npm --prefix examples/tauri-host run --silent build >/dev/null
  # Satchel Connector, for Chromium and Firefox, unpacked and zipped (the
  # extension's desktop test loads the Chromium build).
  npm --prefix extension run --silent build >/dev/null
}
required_step "the widget's pages and the example dapp, built (Vite)" build_pages

# The workspace's one build for its tests, which is also its Rust lint: Cargo
# runs Clippy's driver on the workspace's own crates (.cargo/config.toml), with
# every lint capped at a warning, so a lint never stops the build or hides a
# test; here any warning, rustc's or Clippy's, fails the step. The later steps
# find every test binary built. (A separate `cargo clippy` would check every
# dependency once more: docs/testing.md, "How long it takes".)
rust_build_and_lints() {
  local messages warnings
  messages=$(mktemp /tmp/satchel-build.XXXXXX)
  cargo test --workspace --all-targets --locked --no-run \
    --message-format=json-diagnostic-rendered-ansi >"$messages"
  warnings=$(python3 - "$messages" <<'PY'
import json, re, sys
count = 0
for line in open(sys.argv[1]):
    if not line.startswith("{"):
        continue
    message = json.loads(line)
    if message.get("reason") == "compiler-message" and message["message"]["level"] in ("warning", "error"):
        # rustc's own tally ("2 warnings emitted") is not one more.
        if re.fullmatch(r"\d+ warnings? emitted", message["message"]["message"]):
            continue
        count += 1
        sys.stderr.write(message["message"]["rendered"])
print(count)
PY
)
  rm -f "$messages"
  if [ "$warnings" -gt 0 ]; then
    echo "$warnings warnings from rustc and Clippy (above): fix them or allow one where it is meant, with the reason" >&2
    return 1
  fi
}

lints() {
  local rc=0
  cargo fmt --all -- --check || rc=1
  npm --prefix ui run --silent typecheck || rc=1
  npm --prefix ui run --silent lint || rc=1
  npm --prefix examples/dapp run --silent typecheck || rc=1
  npm --prefix examples/wagmi-dapp run --silent typecheck || rc=1
  npm --prefix packages/provider run --silent typecheck || rc=1
  npm --prefix packages/widget run --silent typecheck || rc=1
  npm --prefix examples/tauri-host run --silent typecheck || rc=1
  # The extension: the Firefox linter (addons-linter) on its build, warnings
  # as errors, and each script parsed.
  npm --prefix extension run --silent lint || rc=1
  return $rc
}
step "format, lints and the UI type check" lints
step "the workspace's test build, with Clippy's lints (warnings fail the step)" rust_build_and_lints

docs() { node --test tests/docs/ 2>&1 | tee -a "$results"; }
step "the docs name only paths that exist and the bounds the code has (node --test tests/docs)" docs

vitest() { npm --prefix ui test --silent -- --reporter=default 2>&1 | tee -a "$results"; }
step "the widget's component tests (Vitest)" vitest

provider_package() { npm --prefix packages/provider test --silent -- --reporter=default 2>&1 | tee -a "$results"; }
step "the provider package for applications (packages/provider: EIP-1193 over HTTP and WebSocket, EIP-6963, viem)" provider_package

extension_tests() { npm --prefix extension test --silent 2>&1 | tee -a "$results"; }
step "the browser extension's link, against the same known answers as Satchel's (extension/test)" extension_tests

widget_package() { npm --prefix packages/widget test --silent -- --reporter=default 2>&1 | tee -a "$results"; }
step "the widget SDK for applications (packages/widget: the spec's methods over the Tauri plugin)" widget_package

bench_smoke() { SATCHEL_BENCH_QUICK=1 cargo test --workspace --locked --no-fail-fast --bench "$1"; }
step "benchmark smoke run, unoptimised (figures: cargo bench -p satchel-tests --bench rest)" bench_smoke rest
step "the signing benchmark's smoke run: each step from the PIN to the broadcast told (figures: cargo bench -p satchel-tests --bench signing)" bench_smoke signing
step "the provider benchmark's smoke run: eth_call three ways, every answer the node's; newHeads to WebSocket subscribers (figures: cargo bench -p satchel-tests --bench provider)" bench_smoke provider

# A PostgreSQL server for the PostgreSQL half of the contract suite and of
# Schemathesis; every later step needs it, so it is started here, not in a step.
printf '\n== a PostgreSQL server (stopped at the end)\n'
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pg_dir=$(mktemp -d /tmp/satchel-pg.XXXXXX)
pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
chown postgres "$pg_dir"
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
stop_pg() { as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$pg_dir"; }
stop_pg_on_exit=1
as_postgres "$pg_bin/initdb" -D "$pg_dir/data" -A trust -U satchel >/dev/null
as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w start \
  -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400" >/dev/null
export SATCHEL_TEST_POSTGRES_URL="postgres://satchel@127.0.0.1:$pg_port/postgres"

# skippable NAME COMMAND…: COMMAND, unless SATCHEL_SKIP_<NAME>=1, which is
# written to the skipped file and counted as a skip.
skippable() {
  local name=$1 switch="SATCHEL_SKIP_${1^^}"
  shift
  if [ "${!switch:-}" = 1 ]; then
    echo "$name ($switch=1)" >> "$SATCHEL_SKIPPED_FILE"; echo "skipped: $name"
  else
    "$@"
  fi
}
step "the OpenAPI document against the service: Schemathesis, every check, on SQLite and PostgreSQL (scripts/schemathesis.sh)" skippable schemathesis scripts/schemathesis.sh

step "the scale benchmark's smoke run, both engines (figures: cargo bench -p satchel-tests --bench scale)" bench_smoke scale
step "the NFT indexer benchmark's smoke run: 5 s of mints, every listing checked against the receipts (figures: cargo bench -p satchel-tests --bench indexer)" bench_smoke indexer

workspace_tests() {
  # Three programs, in one build (their crates compile side by side), here
  # where no D-Bus is needed:
  # - the desktop benchmark's baseline (the bench runs after the tests): the
  #   minimal window declares the app's tauri features, so it shares the app's
  #   build of tauri and only its own crate is compiled (the packaging test's
  #   build leaves it out: see scripts/package.sh);
  # - its host, the minimal window with the widget plugin (the benchmark's
  #   embedded widget);
  # - the example Tauri host, built as a developer builds it, for the
  #   embedding test (tests/ui/embed.rs).
  cargo_build_as_tested --bin satchel-minimal-window --bin satchel-minimal-host \
    --bin satchel-example-launcher
  # The desktop UI tests (tests/ui) start their own Xvfb and tauri-driver. A
  # test whose real dependency is missing fails, unless SATCHEL_SKIP_<NAME>=1
  # (POSTGRES, KEYCHAIN, UI, BROWSER: headless Chromium for the OAuth logins,
  # PACKAGING: the packaged-launch test's tools) was set; each skip is written
  # to SATCHEL_SKIPPED_FILE and counted at the end. A keyring of its own in a
  # fresh folder, so no keyring left on the machine (with another password) is
  # in the way.
  local keyring_home rc=0
  keyring_home=$(mktemp -d /tmp/satchel-keyring.XXXXXX)
  dbus-run-session -- env XDG_DATA_HOME="$keyring_home" sh -c '
    rc=0
    echo -n satchel-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    cargo test --workspace --locked --no-fail-fast || rc=1
    # The desktop benchmark, once and unoptimised, so it keeps working
    # (figures: scripts/perf.sh).
    SATCHEL_BENCH_QUICK=1 cargo test --workspace --locked --bench desktop || rc=1
    exit $rc
  ' 2> >(grep -v "Failed to set fd limit" >&2) | tee -a "$results" || rc=$?
  rm -rf "$keyring_home"
  return "$rc"
}
step "unit, end-to-end and desktop UI tests, with a Secret Service keychain on a private D-Bus" workspace_tests

step "Wepin's own web client (@wepin/fetch-js) against the service, real and localhost domains (scripts/interop.sh)" skippable interop scripts/interop.sh
