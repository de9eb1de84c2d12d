#!/usr/bin/env bash
# Installs whatever is missing, builds the viewer and serves it with the demo loaded:
#   http://127.0.0.1:8080/?demo
# When a built viewer is newer than every input of the build (src/, static/, index.html,
# Trunk.toml, Cargo.toml, Cargo.lock, www/worker-loader.js, www/start.js, www/csp.mjs) it is served as it is, without
# running trunk again: dist/ (the release build, `trunk build --release`) first, else the last
# development build. Otherwise trunk builds and serves a development variant of index.html
# (profile `wasm-dev`: no LTO, no wasm-opt — larger modules, built in about a minute and a
# half; see BENCHMARKS.md) into target/serve-dist/, never into dist/: trunk's live-reload
# script stays out of the folder that is published. `--watch` always runs trunk;
# `--release-build` builds the release variant (LTO + wasm-opt) into target/serve-dist/.
# (Any static file server works for dist/.)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
port="${PORT:-8080}"
dev_dist=target/serve-dist
fresh() {
  [ -f "$1/index.html" ] &&
    [ -z "$(find src static index.html Trunk.toml Cargo.toml Cargo.lock www/worker-loader.js www/start.js www/csp.mjs -newer "$1/index.html" -print -quit 2>/dev/null)" ]
}
mode="${1:-}"
if [ "$mode" != "--watch" ] && [ "$mode" != "--release-build" ]; then
  for dir in dist "$dev_dist"; do
    if fresh "$dir"; then
      exec node www/serve-dist.mjs "$port" "$dir"
    fi
  done
fi
target=index.html
if [ "$mode" != "--release-build" ]; then
  # The development variant: the same page, profile wasm-dev and no wasm-opt.
  target=.serve-index.html
  sed -e 's/data-cargo-profile-release="wasm-[a-z]*"/data-cargo-profile-release="wasm-dev"/g' \
      -e 's/data-wasm-opt="[0-9a-z]*"/data-wasm-opt="0"/g' index.html > "$target"
fi
echo "memaudit viewer: http://127.0.0.1:$port/?demo"
# --no-autoreload: trunk's live-reload script is inline, which the page's Content-Security-Policy
# (www/csp.mjs) forbids; the hook refuses to build a page with an inline script. Reload by hand.
exec trunk serve "$target" --release --dist "$dev_dist" --address 127.0.0.1 --port "$port" --no-autoreload
