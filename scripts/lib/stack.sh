# Sourced by the scripts that need Cargo's target folder (run.sh, interop.sh,
# schemathesis.sh, package.sh), that build with the test build's Cargo features
# (those and test.sh) and that run Satchel's local stack (run.sh, interop.sh,
# schemathesis.sh): one copy of each.
#
#   target_dir                      Cargo's target folder (CARGO_TARGET_DIR when set)
#   cargo_build_as_tested [ARG…]    `cargo build ARG…` with the test build's features
#                                   (cargo_as_tested: the same options, for a
#                                   command that runs cargo build itself)
#   stack_start DATA LOG [OPTION…]  satchel-devstack in the background, its output
#                                   into LOG (and the terminal too when LOG_ECHO=1);
#                                   sets stack_pid
#   stack_wait LOG                  until the stack says it is up (2 minutes at most);
#                                   its log and a failure otherwise
#   stack_env DATA NAME             a value of the stack's app.env
#   stack_stop                      stops the stack (safe to call twice)

# Read once, where the script is sourced (the repository), so it holds after a cd.
satchel_target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
target_dir() { echo "$satchel_target_dir"; }

# The Cargo features `cargo test --workspace` builds with: every package of the
# workspace selected, dev-dependencies included (a test target brings those in:
# `--test chain`, a small one the test build builds anyway; the rest of what is
# built is what ARG… names, e.g. `--bin satchel-service`). Built another way
# (`cargo build -p satchel-service`, `tauri build`), crates the packages share
# (serde, syn, tokio, reqwest, satchel-api…) resolve to other features, and the
# test command would build most of the dependencies once more for each.
cargo_as_tested=(--locked --workspace --test chain)
cargo_build_as_tested() { cargo build "${cargo_as_tested[@]}" "$@"; }

stack_pid=
stack_start() {
  local data=$1 log=$2
  shift 2
  local devstack
  devstack="$(target_dir)/debug/satchel-devstack"
  if [ "${LOG_ECHO:-}" = 1 ]; then
    "$devstack" --data-dir "$data" "$@" > >(tee "$log") 2>&1 &
  else
    "$devstack" --data-dir "$data" "$@" >"$log" 2>&1 &
  fi
  stack_pid=$!
}

stack_wait() {
  local log=$1
  for _ in $(seq 600); do
    grep -q 'local stack is up' "$log" 2>/dev/null && return 0
    kill -0 "$stack_pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "the local stack did not start; its log:" >&2
  cat "$log" >&2
  return 1
}

stack_env() { sed -n "s/^$2=//p" "$1/app.env"; }

stack_stop() {
  if [ -n "$stack_pid" ]; then
    kill "$stack_pid" 2>/dev/null || true
    wait "$stack_pid" 2>/dev/null || true
    stack_pid=
  fi
}
