#!/usr/bin/env bash
# The browser test of the web testbed: serves crates/impulse2d-wasm (the
# testbed page and the built package in pkg/) from a localhost static server,
# loads the testbed in Debian's headless Chromium through playwright-core (npm),
# runs a scene for some frames, saves a screenshot and checks it is not blank.
# Build the package first (scripts/web.sh build).
#
# Usage: scripts/web-browser.sh [OUT.png] [SCENE] [FRAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/web-testbed.png}"
scene="${2:-ragdolls}"
frames="${3:-120}"
dev=crates/impulse2d-wasm/dev
if [ ! -f crates/impulse2d-wasm/pkg/index.js ]; then
    echo "no package: run scripts/web.sh build first" >&2
    exit 1
fi
(cd "$dev" && npm ci --no-audit --no-fund --loglevel=error)

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory crates/impulse2d-wasm >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/testbed/')" 2>/dev/null && break
    sleep 0.1
done

mkdir -p "$(dirname "$out")"
rm -f "$out"
timeout 180 node "$dev/browser-test.mjs" "http://127.0.0.1:$port/testbed/?scene=$scene&frames=$frames" "$out"
python3 scripts/png_not_blank.py "$out"
