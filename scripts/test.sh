#!/usr/bin/env bash
# The project's test command (README): every test of the workspace, release build
# (the scene tests simulate thousands of steps), with impulse2d's optional features
# (glam, mint and serde interop) on, so that their tests (tests/interop.rs, compiled
# out without them) run in the same build. A second build with only those features
# on rebuilt glam, nalgebra, parry2d and Rapier besides impulse2d (glam's feature set
# changes): about 4 minutes of CI. The default-feature build is linted (clippy in
# .ci/run) and built by every other stage.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --release -j2 --features impulse2d/glam,impulse2d/mint,impulse2d/serde "$@"
