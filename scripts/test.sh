#!/usr/bin/env bash
# The project's test command (README): every test of the workspace, release build
# (the scene tests simulate thousands of steps).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --release -j2 "$@"
