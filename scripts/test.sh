#!/usr/bin/env bash
# Runs every test of memaudit (the command CI runs, via .ci/run):
#   formatting and lints, native unit + integration + property tests (incl. the real LoCoMo
#   and LongMemEval fixtures in ../shared), wasm unit tests in headless Chromium, the release
#   build of the viewer, and the browser end-to-end test that checks the numbers on screen
#   against the CLI's JSON.
# Installs what is missing first (see scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"

# No incremental caches: nothing here is rebuilt after an edit, and they double the disk used.
export CARGO_INCREMENTAL=0

# Each step says when it starts and how long the run has taken (CI's budget is 40 minutes).
start=$SECONDS
step() { printf '\n\033[1m==> %s\033[0m (at %ss)\n' "$*" "$((SECONDS - start))"; df -h . | tail -1; }

step "cargo fmt --check"
cargo fmt --all --check

step "the core's floors (scripts/floors.sh)"
./scripts/floors.sh

# Natively the crate builds with both features (the CLI and the viewer's code), so one check
# covers the core, the CLI, the viewer's code, the tests and the benches.
step "clippy (core, CLI and viewer natively; the viewer for wasm32)"
cargo clippy --all-targets --features web --locked -- -D warnings
cargo clippy --locked --target wasm32-unknown-unknown --features web --no-default-features --lib --bins --tests -- -D warnings

step "release build of the CLI (the binary the browser test and the hostile runs check)"
cargo build --locked --release --bin memaudit

step "native tests (unit, integration, property, doc; the viewer's engine without a browser)"
# tests/hostile.rs runs its large inputs through the release binary (minutes in a debug build).
# With the web feature the library is built once for the core's and the viewer's unit tests.
MEMAUDIT_BIN="$PWD/target/release/memaudit" cargo test --locked --features web

step "wasm tests in headless Chromium"
cargo test --locked --target wasm32-unknown-unknown --features web --no-default-features --test web

# On a CI machine (.ci/run sets MEMAUDIT_FREE_DISK=1) the debug builds are not needed again:
# free their disk before the release builds (about 8 GB).
if [ "${MEMAUDIT_FREE_DISK:-0}" = 1 ]; then
  step "freeing the debug builds' disk"
  rm -rf target/debug target/wasm32-unknown-unknown/debug
fi

step "release build of the viewer"
trunk build --release

step "browser end-to-end test"
MEMAUDIT_BIN="$PWD/target/release/memaudit" npm run e2e

step "all tests passed"
