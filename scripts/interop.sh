#!/usr/bin/env bash
# Wepin's own web client against Satchel's service: tests/interop/wepin-fetch.mjs
# drives the four REST operations through the published @wepin/fetch-js (pinned in
# tests/interop/package-lock.json) against a local stack of its own (anvil with
# the demo contracts, the service on SQLite in a temporary folder, free ports),
# for two apps of that stack:
#   - one registered for a real domain (wallet.example): the client sends it;
#   - the demo app, registered for localhost alone: the client sends an empty
#     X-API-DOMAIN, which the service takes for such an app only.
# Each app gets a user with a wallet funded with the demo assets (ether, both
# tokens, the NFTs) and an access token. Any failure fails the run.
#
# Needs Node.js (20 or newer) and npm. SATCHEL_INTEROP_KEEP=1 keeps the
# temporary folder (the stack's log).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/stack.sh

command -v node >/dev/null && command -v npm >/dev/null || {
  echo "interop.sh: Node.js and npm are needed (or set SATCHEL_SKIP_INTEROP=1 to skip)" >&2
  exit 1
}
started=$SECONDS

(cd tests/interop && npm ci --no-audit --no-fund --loglevel=error >/dev/null)

cargo_build_as_tested --quiet --bin satchel-service --bin satchel-devstack
service_bin="$(target_dir)/debug/satchel-service"

work=$(mktemp -d /tmp/satchel-interop.XXXXXX)
finish() {
  stack_stop
  if [ "${SATCHEL_INTEROP_KEEP:-}" = 1 ]; then
    echo "interop.sh: kept $work"
  else
    rm -rf "$work"
  fi
}
trap finish EXIT

# One wallet address per app, each given what a demo wallet gets.
address_real=0x0000000000000000000000000000000000001e01
address_local=0x0000000000000000000000000000000000001e02
data="$work/stack"
# Port 0: the stack picks free ports and writes the service's URL into app.env.
stack_start "$data" "$work/stack.log" --anvil-port 0 --service-port 0 --dapp-port 0 --domain localhost \
  --fund "$address_real" --fund "$address_local"
stack_wait "$work/stack.log"
env_value() { stack_env "$data" "$1"; }
value_of() { sed -n "s/^$1=//p"; }
admin() { "$service_bin" --config "$data/service.toml" admin "$@" 2>>"$work/admin.log"; }
base_url=$(env_value SATCHEL_SERVICE_URL)

# The demo app is the localhost-only one; the other is made here.
local_app_id=$(env_value SATCHEL_APP_ID)
local_app_key=$(env_value SATCHEL_APP_KEY)
real_app=$(admin create-app --name "Interop" --domain wallet.example)
real_app_id=$(value_of app_id <<<"$real_app")
real_app_key=$(value_of app_key <<<"$real_app")

status=0
run_client() { # name app_id app_key domain address
  local user wallet token
  user=$(SATCHEL_NEW_USER_PASSWORD="interop-$1-1" \
    admin create-user --app "$2" --email "$1@interop.example" | value_of user_id)
  wallet=$(admin create-wallet --user "$user" --address "$5" | value_of wallet_id)
  token=$(admin mint-token --user "$user" --ttl 600)
  echo "interop.sh: @wepin/fetch-js for an app of domain $4"
  SATCHEL_INTEROP_BASE_URL=$base_url SATCHEL_INTEROP_APP_ID=$2 SATCHEL_INTEROP_APP_KEY=$3 \
    SATCHEL_INTEROP_DOMAIN=$4 SATCHEL_INTEROP_USER_ID=$user SATCHEL_INTEROP_WALLET_ID=$wallet \
    SATCHEL_INTEROP_ACCESS_TOKEN=$token node tests/interop/wepin-fetch.mjs || status=1
}
run_client real "$real_app_id" "$real_app_key" wallet.example "$address_real"
run_client local "$local_app_id" "$local_app_key" localhost "$address_local"

if [ "$status" -ne 0 ]; then
  echo "interop.sh: FAILED; the stack's log:" >&2
  tail -n 40 "$work/stack.log" >&2
fi
echo "interop.sh: $((SECONDS - started)) s"
exit "$status"
