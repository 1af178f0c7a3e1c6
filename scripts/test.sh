#!/usr/bin/env bash
# The project's test command (README): every test of the workspace, release build
# (the scene tests simulate thousands of steps), then the tests of the optional
# features (glam, mint and serde interop), which only build with them on.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --release -j2 "$@"
cargo test --release -j2 -p impulse2d --features glam,mint,serde --test interop
