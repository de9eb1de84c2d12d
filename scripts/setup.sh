#!/usr/bin/env bash
# Installs what memaudit needs to build the viewer and run every test, skipping whatever is
# already installed at the right version:
#   - the wasm32-unknown-unknown Rust target
#   - trunk 0.21.14 (the last release that builds with rustc 1.95)
#   - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock
#   - npm packages (binaryen's wasm-opt, playwright-core, axe-core) from package-lock.json
#   - with --browser: Debian's chromium and chromium-driver (for wasm and end-to-end tests)
# Nothing is downloaded by trunk itself (Trunk.toml: offline = true, pinned tool versions).
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
for a in "$@"; do
  case "$a" in
    --browser) want_browser=1 ;;
    *) echo "usage: $0 [--browser]" >&2; exit 2 ;;
  esac
done

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$WASM_BINDGEN_VERSION" ] || { echo "cannot read the wasm-bindgen version from Cargo.lock" >&2; exit 1; }
export PATH="$HOME/.cargo/bin:$PATH"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# trunk's own release profile is fat LTO with one codegen unit (~10 min on 2 cores); the
# override halves it and the binary works the same. Without its default features (TLS for
# `trunk serve --tls` and for downloading tools, the update check) it builds no TLS stack:
# Trunk.toml is offline and the viewer is served over plain HTTP.
if ! (have trunk && trunk --version | grep -q " $TRUNK_VERSION\$"); then
  say "installing trunk $TRUNK_VERSION (about 8 minutes on 2 cores)"
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install trunk --version "$TRUNK_VERSION" --locked --no-default-features
fi

# Without --locked: the registry here does not serve every locked dependency version.
if ! (have wasm-bindgen && wasm-bindgen --version | grep -q " $WASM_BINDGEN_VERSION\$" \
      && have wasm-bindgen-test-runner); then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes)"
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages (binaryen, playwright-core, axe-core)"
  npm ci --no-audit --no-fund
fi

if [ "$want_browser" = 1 ] && ! (have chromium && have chromedriver); then
  say "installing Debian chromium and chromium-driver"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver >/dev/null
fi
say "tools ready: $(trunk --version), $(wasm-bindgen --version), $(node_modules/.bin/wasm-opt --version)"
