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

# Clippy lints while the tests are built, not in a build of its own: clippy-driver is the
# workspace's compiler wrapper (what `cargo clippy` sets up for `cargo check`), so every crate of
# this package is linted (-D warnings) as it is compiled for the tests, and the dependencies are
# compiled once instead of once checked and once built (BENCHMARKS.md, "CI's steps").
CLIPPY_DRIVER="$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver)"
with_clippy() { RUSTC_WORKSPACE_WRAPPER="$CLIPPY_DRIVER" CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" "$@"; }

# Natively the crate builds with both features (the CLI and the viewer's code): one build of
# every target (core, CLI, the viewer's code, tests, benches) linted by clippy, then the tests.
step "native build, linted by clippy (core, CLI, viewer's code, tests, benches)"
with_clippy cargo test --locked --features web --all-targets --no-run

# The release CLI (the binary the hostile corpus and the browser test run) is built while the
# test binaries run, which leave a core idle much of the time: in a target directory of its own,
# because cargo locks one directory per build. tests/hostile.rs runs last, once it is there
# (its large inputs take minutes through a debug build).
CLI_TARGET="$PWD/target/cli"
MEMAUDIT_BIN="$CLI_TARGET/release/memaudit"
export MEMAUDIT_BIN
step "native tests (unit, integration, property, doc; the viewer's engine without a browser), the release CLI built beside them"
mkdir -p "$CLI_TARGET"
CARGO_TARGET_DIR="$CLI_TARGET" cargo build --locked --release --bin memaudit >"$CLI_TARGET/build.log" 2>&1 &
cli_build=$!
# Every test but the hostile corpus's, by exact name (listed from its own binary).
hostile=$(with_clippy cargo test --locked --features web --test hostile -- --list --format terse | sed -n 's/: test$//p')
skip=()
for t in $hostile; do skip+=(--skip "$t"); done
# With the web feature the library is built once for the core's and the viewer's unit tests.
with_clippy cargo test --locked --features web -- --exact "${skip[@]}"
step "the hostile corpus through the release CLI"
if ! wait "$cli_build"; then cat "$CLI_TARGET/build.log"; echo "release build of the CLI failed"; exit 1; fi
with_clippy cargo test --locked --features web --test hostile

step "wasm tests in headless Chromium (the viewer's library and modules linted by clippy for wasm32)"
with_clippy cargo test --locked --target wasm32-unknown-unknown --features web --no-default-features --test web

# On a CI machine (.ci/run sets MEMAUDIT_FREE_DISK=1) the debug builds are not needed again:
# free their disk before the release builds (about 8 GB).
if [ "${MEMAUDIT_FREE_DISK:-0}" = 1 ]; then
  step "freeing the debug builds' disk"
  rm -rf target/debug target/wasm32-unknown-unknown/debug target/cli/release/build target/cli/release/deps
fi

step "release build of the viewer"
trunk build --release

step "browser end-to-end test"
npm run e2e

step "all tests passed"
