#!/usr/bin/env bash
# BENCHMARKS.md's "default build against x86-64-v3 build" table: builds impulse2d-compare
# twice and times the two binaries against each other, interleaved by process.
#   A: the default build (no RUSTFLAGS; Impulse2D chooses its SIMD path at run time),
#      Box2D in its default SSE2 build (--no-default-features);
#   B: RUSTFLAGS="-C target-cpu=x86-64-v3", Box2D with AVX2 (simd-avx2).
#
#   bash scripts/compare-builds.sh [--repeats N] [--steps N] [--scenes a,b] [--json FILE]
#
# Thread CPU time, medians over repeats. B lives in target/x86-64-v3 (a second build of
# the dependencies, several minutes the first time).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -j2 -p impulse2d-compare --no-default-features
mkdir -p target/compare-builds
cp target/release/impulse2d-compare target/compare-builds/default-sse2
RUSTFLAGS="-C target-cpu=x86-64-v3" CARGO_TARGET_DIR=target/x86-64-v3 \
    cargo build --release -j2 -p impulse2d-compare
cp target/x86-64-v3/release/impulse2d-compare target/compare-builds/v3-avx2
python3 scripts/compare_builds.py target/compare-builds/default-sse2 \
    target/compare-builds/v3-avx2 "$@"
