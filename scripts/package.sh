#!/usr/bin/env bash
# Builds Satchel's Linux packages (.deb, .rpm, AppImage) with the Tauri CLI, in
# Cargo's `desktop` profile (release with smaller code, see Cargo.toml; --debug:
# the debug profile), and prints each package's size beside the
# .deb of the minimal Tauri window (tests/perf/minimal-window) built the same way.
#
# The service a package points at when the person has no settings file is baked in
# at build time, from an env file of SATCHEL_* lines (.devstack/app.env has that
# shape) and/or options; see docs/packaging.md: Building the packages.
#
#   scripts/package.sh [--debug] [--bundles deb,rpm,appimage] [--out DIR]
#                      [--defaults FILE] [--service-url URL] [--app-id ID]
#                      [--app-key KEY] [--app-domain DOMAIN]
#                      [--updater-pubkey KEY|FILE] [--networks FILE] [--no-compare] [--ui-built]
#                      [--as-tested]
#
# --ui-built: ui/dist is already built (the test command builds it once), so the
# Tauri CLI does not build the pages again.
# --as-tested: the app is built with the Cargo features of the test build
# (scripts/lib/stack.sh: cargo_as_tested), so only tauri and what depends on it
# are compiled again (for the bundled pages), not every dependency; the packaging
# test passes it. Packages for people are built without it.
#
# With TAURI_SIGNING_PRIVATE_KEY (and TAURI_SIGNING_PRIVATE_KEY_PASSWORD) in the
# environment, each package also gets the .sig the updater checks (createUpdaterArtifacts).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die() { echo "package: $*" >&2; exit 1; }
# The first existing file of a glob's matches, or nothing.
first() { local f; for f in "$@"; do [ -e "$f" ] && { echo "$f"; return; }; done; true; }
size() { stat -c %s "$1"; }
human() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1000000 }'; }
row() { printf '%-10s %-44s %12s   %s\n' "$@"; }

profile=desktop
debug_flag=()
bundles=deb,rpm,appimage
# Cargo's target folder (CARGO_TARGET_DIR when set): where the bundles land.
. "$root/scripts/lib/stack.sh"
target_dir=$(target_dir)
out="$target_dir/packages"
compare=1
ui_built=0
# What the Tauri CLI passes on to cargo (after its `--`).
cargo_tail=()
declare -A baked=()

read_defaults() {
  local file=$1 name value
  [ -f "$file" ] || die "no such file: $file"
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%$'\r'}
    case $line in ''|'#'*) continue ;; esac
    name=${line%%=*}
    value=${line#*=}
    # Quotes around a value, as env files often have them.
    value=${value#\"}; value=${value%\"}; value=${value#\'}; value=${value%\'}
    case $name in
      SATCHEL_SERVICE_URL|SATCHEL_APP_ID|SATCHEL_APP_KEY|SATCHEL_APP_DOMAIN|SATCHEL_UPDATER_PUBKEY|SATCHEL_NETWORKS_FILE) baked[$name]=$value ;;
      *) echo "package: $file: $name is not a setting a package takes; ignored" >&2 ;;
    esac
  done < "$file"
}

while [ $# -gt 0 ]; do
  case $1 in
    --debug) profile=debug; debug_flag=(--debug) ;;
    --bundles) bundles=${2:?--bundles needs a list}; shift ;;
    --out) out=${2:?--out needs a folder}; shift ;;
    --defaults) read_defaults "${2:?--defaults needs a file}"; shift ;;
    --service-url) baked[SATCHEL_SERVICE_URL]=${2:?}; shift ;;
    --app-id) baked[SATCHEL_APP_ID]=${2:?}; shift ;;
    --app-key) baked[SATCHEL_APP_KEY]=${2:?}; shift ;;
    --app-domain) baked[SATCHEL_APP_DOMAIN]=${2:?}; shift ;;
    --updater-pubkey) baked[SATCHEL_UPDATER_PUBKEY]=${2:?}; shift ;;
    --networks) baked[SATCHEL_NETWORKS_FILE]=${2:?}; shift ;;
    --no-compare) compare=0 ;;
    --ui-built) ui_built=1 ;;
    # The Tauri CLI adds --bins: with --workspace, every package's programs; the
    # others are the test build's own (built already, nothing to do), but for the
    # minimal window, whose tauri would get custom-protocol: it is left out (its
    # features add nothing to the others'), so its test build stays as it is.
    --as-tested) cargo_tail=("${cargo_as_tested[@]}" --exclude satchel-minimal-window) ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
  esac
  shift
done

# The profile, for cargo (the Tauri CLI itself knows only release and --debug).
profile_args=()
[ "$profile" = debug ] || profile_args=(--profile "$profile")
cargo_args=()
rest=("${profile_args[@]}" "${cargo_tail[@]}")
[ ${#rest[@]} -eq 0 ] || cargo_args=(-- "${rest[@]}")

# A public key given as a file (`tauri signer generate` writes KEY.pub).
if [ -n "${baked[SATCHEL_UPDATER_PUBKEY]:-}" ] && [ -f "${baked[SATCHEL_UPDATER_PUBKEY]}" ]; then
  baked[SATCHEL_UPDATER_PUBKEY]=$(tr -d '\n' < "${baked[SATCHEL_UPDATER_PUBKEY]}")
fi

want() { [[ ",$bundles," == *",$1,"* ]]; }
for b in ${bundles//,/ }; do
  case $b in deb|rpm|appimage) ;; *) die "--bundles takes deb, rpm and appimage, not $b" ;; esac
done

command -v cargo >/dev/null || die "Rust (cargo) is required: https://rustup.rs"
command -v npm >/dev/null || die "Node.js and npm are required"
# The ui's npm packages (the pages and the Tauri CLI, @tauri-apps/cli 2.x), as
# scripts/setup.sh installs them, on a clean checkout.
if [ ! -x ui/node_modules/.bin/tauri ]; then
  (cd ui && npm install --no-audit --no-fund --loglevel=error)
fi
tauri=$root/ui/node_modules/.bin/tauri

# The build-time defaults (src-tauri/src/config.rs reads them with option_env!).
# Set or cleared explicitly, so a value left in the shell never slips in.
for name in SATCHEL_SERVICE_URL SATCHEL_APP_ID SATCHEL_APP_KEY SATCHEL_APP_DOMAIN; do
  value=${baked[$name]:-}
  export "SATCHEL_DEFAULT_${name#SATCHEL_}=$value"
  [ -n "$value" ] && echo "package: baked in: ${name#SATCHEL_}=$( [ "$name" = SATCHEL_APP_KEY ] && echo '<key>' || echo "$value")"
done
# The network table (a TOML file of [[networks]]): what the device signs for.
if [ -n "${baked[SATCHEL_NETWORKS_FILE]:-}" ]; then
  [ -f "${baked[SATCHEL_NETWORKS_FILE]}" ] || die "no such network table: ${baked[SATCHEL_NETWORKS_FILE]}"
  export SATCHEL_DEFAULT_NETWORKS=$(cat "${baked[SATCHEL_NETWORKS_FILE]}")
  echo "package: baked in: the network table ${baked[SATCHEL_NETWORKS_FILE]}"
else
  export SATCHEL_DEFAULT_NETWORKS=
fi
export SATCHEL_UPDATER_PUBKEY=${baked[SATCHEL_UPDATER_PUBKEY]:-}
[ -n "$SATCHEL_UPDATER_PUBKEY" ] && echo "package: baked in: the updater's public key"

# Signed updater artifacts when a signing key is given (the Tauri CLI reads it
# from TAURI_SIGNING_PRIVATE_KEY); the CLI checks it against the public key.
config=()
if [ -n "${TAURI_SIGNING_PRIVATE_KEY:-}" ]; then
  [ -n "$SATCHEL_UPDATER_PUBKEY" ] || die "TAURI_SIGNING_PRIVATE_KEY is set: give the matching --updater-pubkey too"
  config=(--config "{\"bundle\":{\"createUpdaterArtifacts\":true},\"plugins\":{\"updater\":{\"pubkey\":\"$SATCHEL_UPDATER_PUBKEY\"}}}")
fi
if [ "$ui_built" = 1 ]; then
  [ -f ui/dist/index.html ] || die "--ui-built, but ui/dist has no index.html"
  config+=(--config '{"build":{"beforeBuildCommand":""}}')
fi

bundle_dir=$target_dir/$profile/bundle
linux_bundles=()
want deb && linux_bundles+=(deb)
want rpm && linux_bundles+=(rpm)
mkdir -p "$out"

if [ ${#linux_bundles[@]} -gt 0 ]; then
  echo "package: building Satchel ($profile): $(IFS=,; echo "${linux_bundles[*]}")"
  rm -rf "$bundle_dir/deb" "$bundle_dir/rpm"
  "$tauri" build "${debug_flag[@]}" --ci --bundles "$(IFS=,; echo "${linux_bundles[*]}")" "${config[@]}" "${cargo_args[@]}"
fi

# AppImage: the bundler downloads linuxdeploy and its plugins from GitHub the
# first time (into ~/.cache/tauri). Without them and without a network it cannot
# be made: say so and go on.
appimage_note=""
if want appimage; then
  echo "package: bundling the AppImage"
  rm -rf "$bundle_dir/appimage"
  log=$(mktemp /tmp/satchel-appimage.XXXXXX)
  # `tauri build` (not `bundle`, which knows no profile): after the .deb and
  # .rpm, cargo has nothing left to build.
  if "$tauri" build "${debug_flag[@]}" --ci --bundles appimage "${config[@]}" "${cargo_args[@]}" >"$log" 2>&1; then
    :
  else
    appimage_note="skipped (no linuxdeploy: offline?)"
    tail -n 5 "$log" | sed 's/^/  appimage: /' >&2
    echo "package: AppImage skipped: the AppImage bundler failed (it downloads linuxdeploy from GitHub the first time; offline it cannot); its log is $log" >&2
  fi
fi

# The minimal Tauri window's .deb, built the same way, to compare with.
minimal_deb=""
if [ "$compare" = 1 ]; then
  echo "package: building the minimal Tauri window ($profile) for comparison"
  rm -rf "$bundle_dir/deb/Satchel Minimal Window"_*
  (cd tests/perf/minimal-window &&
    "$tauri" build "${debug_flag[@]}" --ci --bundles deb \
      --config '{"bundle":{"active":true,"targets":["deb"]}}' ${profile_args[@]:+-- "${profile_args[@]}"})
  minimal_deb=$(first "$bundle_dir"/deb/Satchel\ Minimal\ Window_*.deb)
fi


echo
echo "Satchel packages ($profile), beside the minimal Tauri window's .deb built the same way:"
row kind file size "minimal window"
for kind in deb rpm appimage; do
  want "$kind" || continue
  case $kind in
    deb) file=$(first "$bundle_dir"/deb/Satchel_*.deb) ;;
    rpm) file=$(first "$bundle_dir"/rpm/Satchel-*.rpm) ;;
    appimage) file=$(first "$bundle_dir"/appimage/Satchel_*.AppImage) ;;
  esac
  minimal="-"
  [ "$kind" = deb ] && [ -n "$minimal_deb" ] && minimal="$(human "$(size "$minimal_deb")") ($(basename "$minimal_deb"))"
  if [ -z "$file" ]; then
    [ "$kind" = appimage ] && row "$kind" "${appimage_note:-not built}" "" "$minimal" && continue
    die "no $kind was made"
  fi
  cp "$file" "$out/"
  [ -f "$file.sig" ] && cp "$file.sig" "$out/"
  row "$kind" "$(basename "$file")" "$(human "$(size "$file")")" "$minimal"
done
echo
echo "Packages in $out"
