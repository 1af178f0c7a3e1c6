#!/usr/bin/env bash
# Fuzz the collision layer on the stable toolchain.
#
#   bash scripts/fuzz.sh [TARGET|all] [SECONDS]     (defaults: all, 600)
#
# Installs cargo-fuzz if it is missing (about 3 minutes), builds the target with
# libFuzzer's coverage instrumentation but no sanitizer (`-s none`, which needs no
# nightly; the code under test is safe Rust, so panics are what we look for) and
# runs it for SECONDS. Debug assertions and overflow checks are on. Exits non-zero
# on the first crash; libFuzzer then prints the input's path under
# fuzz/artifacts/TARGET/ and `cargo fuzz run -s none TARGET <file>` replays it.
#
# Environment: FUZZ_SANITIZER=address (nightly only) to use a sanitizer instead;
# FUZZ_JOBS (default 2) for the build.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(hull manifold toi)
target="${1:-all}"
seconds="${2:-600}"
sanitizer="${FUZZ_SANITIZER:-none}"
export CARGO_BUILD_JOBS="${FUZZ_JOBS:-2}"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

if [[ "$target" == all ]]; then
    selected=("${TARGETS[@]}")
else
    selected=("$target")
fi

cd fuzz
for t in "${selected[@]}"; do
    echo "== fuzzing $t for ${seconds}s (sanitizer: $sanitizer)"
    corpora=("corpus/$t")
    mkdir -p "corpus/$t"
    # Saved crashers are replayed first and seed the search.
    if [[ -d "regressions/$t" ]]; then
        corpora+=("regressions/$t")
    fi
    nice cargo fuzz run -s "$sanitizer" "$t" "${corpora[@]}" -- \
        -max_total_time="$seconds" -print_final_stats=1 -max_len=512
done
