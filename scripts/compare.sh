#!/usr/bin/env bash
# Reproduces BENCHMARKS.md's side-by-side table, its bar chart and the scaling run:
# Impulse2D, Box2D v3 (C, AVX2, -DNDEBUG) and Rapier, interleaved in one process.
# Impulse2D is the default build (no RUSTFLAGS: it runs on any x86-64 and picks its
# AVX2 kernels at run time); the tables' notes say which SIMD path ran. For Box2D's SSE2
# build add --no-default-features to the cargo command below; scripts/compare-builds.sh
# times the default build against a forced x86-64-v3 build.
#
#   bash scripts/compare.sh [OUT_DIR] [extra impulse2d-compare options...]
#
# OUT_DIR (default docs/benchmarks) receives compare.md (the table as printed),
# compare.svg, compare.json, scaling.md, scaling.svg and scaling.json.
# Uses the thread CPU clock (steadier than wall time when the machine is shared).
# Takes about 10 minutes on a quiet 2-core machine after the first build.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/benchmarks}"
shift || true
mkdir -p "$out"
cargo build --release -j2 -p impulse2d-compare
bin=target/release/impulse2d-compare
"$bin" --clock cpu --out "$out" "$@" | tee "$out/compare.md"
"$bin" --scaling --clock cpu --out "$out" "$@" | tee "$out/scaling.md"
