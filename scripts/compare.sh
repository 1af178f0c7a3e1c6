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
# OUT_DIR (default docs/benchmarks) receives compare.md (the tables as printed: time,
# stability, p95/max per engine with our serial fraction and its Amdahl speed-ups, and
# our per-stage profile beside Box2D's b2World_GetProfile), compare.svg, compare.json,
# the same at 2 threads in OUT_DIR/2-threads/ (compare.md, .svg, .json), scaling.md,
# scaling.svg and scaling.json.
# One thread: the thread CPU clock (steadier than wall time when the machine is shared).
# Two threads: wall time (the stepping thread's CPU time misses the helper's work).
# THREADS=0 skips the 2-thread run; SCALING=0 skips the scaling run.
# Takes about 15 minutes on a quiet 2-core machine after the first build.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/benchmarks}"
shift || true
mkdir -p "$out"
cargo build --release -j2 -p impulse2d-compare
bin=target/release/impulse2d-compare
"$bin" --clock cpu --out "$out" "$@" | tee "$out/compare.md"
if [ "${THREADS:-2}" != 0 ]; then
    mkdir -p "$out/2-threads"
    "$bin" --threads 2 --clock wall --out "$out/2-threads" "$@" | tee "$out/2-threads/compare.md"
fi
if [ "${SCALING:-1}" != 0 ]; then
    "$bin" --scaling --clock cpu --out "$out" "$@" | tee "$out/scaling.md"
fi
