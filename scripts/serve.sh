#!/usr/bin/env bash
# Installs whatever is missing, builds the viewer and serves it with the demo loaded:
#   http://127.0.0.1:8080/?demo
# (Any static file server works for dist/; this one rebuilds on change.)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
port="${PORT:-8080}"
echo "memaudit viewer: http://127.0.0.1:$port/?demo"
exec trunk serve --release --address 127.0.0.1 --port "$port"
