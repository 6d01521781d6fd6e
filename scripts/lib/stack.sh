# Sourced by the scripts that need Cargo's target folder (run.sh, interop.sh,
# schemathesis.sh, perf.sh, package.sh) and by those that run Satchel's local
# stack (run.sh, interop.sh, schemathesis.sh): one copy of each.
#
#   target_dir                      Cargo's target folder (CARGO_TARGET_DIR when set)
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
