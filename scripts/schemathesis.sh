#!/usr/bin/env bash
# Checks that the service's OpenAPI document is exact: Schemathesis (every check)
# against a local stack of its own (anvil with the demo contracts, the service on
# SQLite in a temporary folder, free ports) with two users, each with a funded
# wallet and an access token. User A sends the requests; user B is the peer whose
# objects A must not get, and B's ids are among the values the parameters take.
# Any failure, or any 5xx, fails the run. Logout, which ends the session it is
# called with, runs last, as a third user.
#
# Knobs (environment): SATCHEL_SCHEMATHESIS_EXAMPLES (test cases per operation and
# phase, default 150), SATCHEL_SCHEMATHESIS_SEED (default 1),
# SATCHEL_SCHEMATHESIS_VENV (the virtualenv to use or make; default under
# ~/.cache), SATCHEL_SCHEMATHESIS_KEEP=1 (keep the temporary folder: the stack's
# log and the reports).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/stack.sh

# The version this document was last checked with; a newer one may bring checks
# of its own, so it moves on purpose.
schemathesis_version=4.32.5
examples=${SATCHEL_SCHEMATHESIS_EXAMPLES:-150}
seed=${SATCHEL_SCHEMATHESIS_SEED:-1}

command -v python3 >/dev/null || {
  echo "schemathesis.sh: python3 is needed (or set SATCHEL_SKIP_SCHEMATHESIS=1 to skip)" >&2
  exit 1
}
venv=${SATCHEL_SCHEMATHESIS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/satchel/schemathesis-$schemathesis_version}
if ! "$venv/bin/st" --version 2>/dev/null | grep -qF "$schemathesis_version"; then
  echo "schemathesis.sh: installing schemathesis $schemathesis_version into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version"
fi

cargo_build_as_tested --quiet --bin satchel-service --bin satchel-devstack
service_bin="$(target_dir)/debug/satchel-service"

work=$(mktemp -d /tmp/satchel-schemathesis.XXXXXX)
finish() {
  stack_stop
  if [ "${SATCHEL_SCHEMATHESIS_KEEP:-}" = 1 ]; then
    echo "schemathesis.sh: kept $work"
  else
    rm -rf "$work"
  fi
}
trap finish EXIT

# The whole check on one engine: a stack of its own with two funded wallets,
# their users, Schemathesis. `engine` is sqlite or postgres. (The body is not
# indented: its here-documents end at the start of a line.)
check_on() {
engine=$1
here="$work/$engine"
mkdir -p "$here"
database=()
if [ "$engine" = postgres ]; then
  # A fresh database on the server the test command started.
  local name="satchel_schemathesis_$RANDOM$RANDOM"
  psql "$SATCHEL_TEST_POSTGRES_URL" -qc "CREATE DATABASE $name" >/dev/null
  database=(--database-url "${SATCHEL_TEST_POSTGRES_URL%/*}/$name")
fi
echo "schemathesis.sh: on $engine"
# Both wallets get what a demo wallet has (ether, both tokens, NFTs, one a video),
# so every response schema is met with real data.
address_a=0x00000000000000000000000000000000000a11ce
address_b=0x0000000000000000000000000000000000000b0b
data="$work/$engine/stack"
# Port 0: the stack picks free ports and writes the service's URL into app.env.
stack_start "$data" "$work/$engine/stack.log" --anvil-port 0 --service-port 0 --dapp-port 0 \
  --fund "$address_a" --fund "$address_b" "${database[@]}"
stack_wait "$work/$engine/stack.log"
env_value() { stack_env "$data" "$1"; }
base_url=$(env_value SATCHEL_SERVICE_URL)
base_url=${base_url%/}
app_id=$(env_value SATCHEL_APP_ID)
app_key=$(env_value SATCHEL_APP_KEY)
domain=$(env_value SATCHEL_APP_DOMAIN)
sdk_type=desktop_rest_api

admin() { RUST_LOG=warn "$service_bin" --config "$data/service.toml" admin "$@"; }
value_of() { sed -n "s/^$1=//p"; }
declare -A user wallet token
for who in a b c; do
  user[$who]=$(SATCHEL_NEW_USER_PASSWORD="schemathesis-$who-1" \
    admin create-user --app "$app_id" --email "user-$who@schemathesis.example" | value_of user_id)
  token[$who]=$(admin mint-token --user "${user[$who]}" --ttl 3600)
done
for who in a b; do
  address_var="address_$who"
  wallet[$who]=$(admin create-wallet --user "${user[$who]}" --address "${!address_var}" | value_of wallet_id)
done

# A's and B's account ids (operation 1), and each wallet's NFTs read once (operation
# 4), so operation 3 lists them.
api() {
  curl --silent --show-error --fail-with-body \
    -H "X-API-KEY: $app_key" -H "X-API-DOMAIN: $domain" -H "X-SDK-TYPE: $sdk_type" \
    -H "Authorization: Bearer $2" "$base_url$1"
}
accounts=()
for who in a b; do
  query="userId=${user[$who]}&walletId=${wallet[$who]}"
  mapfile -t -O "${#accounts[@]}" accounts < <(api "/v1/account?$query" "${token[$who]}" |
    python3 -c 'import json, sys; print("\n".join(sorted({a["accountId"] for a in json.load(sys.stdin)["accounts"]})))')
  api "/v1/nft/refresh?$query" "${token[$who]}" >/dev/null
done

json_list() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@"; }
wfc_user() {
  cat <<EOF
    {"name": "user-$1", "fixedHeaders": [
      {"name": "X-API-KEY", "value": "$app_key"},
      {"name": "Authorization", "value": "Bearer ${token[$1]}"}]}
EOF
}
cat >"$here/auth.json" <<EOF
{"schemaVersion": "1.0", "auth": [
$(wfc_user a),
$(wfc_user b),
$(wfc_user c)
]}
EOF
# User A sends every request; B is the peer A's reads are replayed as. The ids
# parameters are drawn from both users' (or generated, half of the time), the
# app's domain mostly from the app's (X-SDK-TYPE is generated).
cat >"$here/schemathesis.toml" <<EOF
[auth]
auto-signup = false

[auth.wfc]
path = "$here/auth.json"
user = "user-a"
peers = ["user-a", "user-b"]

[dictionaries.domains]
values = $(json_list "$domain")
[dictionaries.users]
values = $(json_list "${user[a]}" "${user[b]}")
[dictionaries.wallets]
values = $(json_list "${wallet[a]}" "${wallet[b]}")
[dictionaries.accounts]
values = $(json_list "${accounts[@]}")

# A body past the service's 64 KiB is refused as too large (413, documented on
# every operation that takes one).
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]

[parameters]
"header.X-API-DOMAIN" = { dictionary = "domains", probability = 0.9 }
"query.userId" = { dictionary = "users", probability = 0.5 }
"query.walletId" = { dictionary = "wallets", probability = 0.5 }
"path.walletId" = { dictionary = "wallets", probability = 0.5 }
"path.accountId" = { dictionary = "accounts", probability = 0.5 }
"body.accountId" = { dictionary = "accounts", probability = 0.5 }

# Well-formed requests these operations refuse with a 400 for what no schema can
# say: a challenge nonce and a signature by the wallet's key, a signed
# transaction, an address's EIP-55 checksum, the chain's state (balance, the network's tokens, a pending
# transaction to replace, whether a contract is an ERC-20 token), the secret token of an e-mailed link,
# the wallet's next account index, an account's name that is blank once trimmed.
[[operations]]
include-operation-id = ["register", "reset", "prepare", "prepare_call", "broadcast", "verify", "unlock", "password_reset_page", "password_reset_confirm", "read_token", "add_token", "remove_token", "add_account", "rename_account"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "423", "429"]

# Well-formed requests refused by the state they meet, as documented: a login of
# an address signed up but not yet verified (428 RequiredEmailVerified), a PIN
# that ten wrong proofs locked (423 PinLocked).
[[operations]]
include-operation-id = ["email_login"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "428", "429"]
# Logins through someone else's identity, refused for what the app allows and
# holds, which no schema can say: a provider the app does not allow or has not
# registered (400 InvalidLoginProvider), a code, token or sign the provider or
# the app's backend did not issue (401), an account without e-mail (428), the
# secret token of an e-mailed link.
[[operations]]
include-operation-id = ["oauth_token", "id_token", "access_token", "send_verify_email", "verify_link", "resume", "service_login"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "428", "429"]
[[operations]]
include-operation-id = ["change", "send_unlock_email"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "423", "429"]
EOF

cd "$work"
st_run() {
  "$venv/bin/st" --config-file "$1" run "$base_url/v1/openapi.json" \
    --checks all \
    --max-examples "$examples" \
    --seed "$seed" \
    --workers 1 \
    --no-color \
    --report "${SATCHEL_SCHEMATHESIS_REPORTS:-junit}" --report-dir "$here/report" "${@:2}"
}
status=0
st_run "$here/schemathesis.toml" --exclude-operation-id logout || status=$?
sed -e 's/^user = "user-a"/user = "user-c"/' -e '/^peers = /d' "$here/schemathesis.toml" >"$here/logout.toml"
st_run "$here/logout.toml" --include-operation-id logout || status=$?
stack_stop
return "$status"
}

# SQLite, and PostgreSQL when SATCHEL_TEST_POSTGRES_URL names a server (the test
# command starts one): the document holds on both engines. The two run at once,
# each with its own stack, into its own log (printed one after the other): each
# waits on its service and database as much as on the CPU. Each Schemathesis
# runs one worker: CPython 3.11's compile() is not safe from several threads at
# once (a SystemError, "AST constructor recursion depth mismatch", CPython
# gh-106905), which two engines of two workers each once met in CI.
engine_run() {
  # A subshell of its own: its stack is stopped however it ends, and a failing
  # step inside stops only it (check_on is called plainly, not in a || list).
  (
    trap stack_stop EXIT
    check_on "$1"
  ) >"$work/$1.out" 2>&1
}
engines=(sqlite)
[ -n "${SATCHEL_TEST_POSTGRES_URL:-}" ] && engines+=(postgres)
pids=()
for engine in "${engines[@]}"; do
  engine_run "$engine" &
  pids+=($!)
done
status=0
for i in "${!engines[@]}"; do
  wait "${pids[$i]}" || status=1
  cat "$work/${engines[$i]}.out"
done
exit "$status"
