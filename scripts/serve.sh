#!/usr/bin/env bash
# Installs whatever is missing, builds the viewer and serves it with the demo loaded:
#   http://127.0.0.1:8080/?demo
# When dist/ is newer than every input of the build (src/, static/, index.html, Trunk.toml,
# Cargo.toml, Cargo.lock, www/worker-loader.js), dist/ is served as it is, without running
# trunk (and its wasm-opt) again; `--watch` always runs `trunk serve`, which rebuilds on change.
# (Any static file server works for dist/.)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
port="${PORT:-8080}"
changed() {
  [ ! -f dist/index.html ] && return 0
  [ -n "$(find src static index.html Trunk.toml Cargo.toml Cargo.lock www/worker-loader.js -newer dist/index.html -print -quit 2>/dev/null)" ]
}
if [ "${1:-}" != "--watch" ] && ! changed; then
  exec node www/serve-dist.mjs "$port"
fi
echo "memaudit viewer: http://127.0.0.1:$port/?demo"
exec trunk serve --release --address 127.0.0.1 --port "$port"
