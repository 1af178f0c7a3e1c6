#!/usr/bin/env bash
# Fuzz the collision layer and the world API on the stable toolchain.
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
# Saved crashers in fuzz/regressions/TARGET/ are replayed first (so a known, unfixed
# crash fails the run at once).
#
# Environment: FUZZ_SANITIZER=address (nightly only) to use a sanitizer instead;
# FUZZ_JOBS (default 2) for the build; FUZZ_KEEP_GOING=1 to run the full time
# despite crashes (libFuzzer fork mode; every crash is saved, the count printed,
# and the script still exits non-zero if there was any); FUZZ_NO_REGRESSIONS=1 to
# skip replaying fuzz/regressions/.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(hull manifold toi world)
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
    if [[ -d "regressions/$t" && -z "${FUZZ_NO_REGRESSIONS:-}" ]]; then
        corpora+=("regressions/$t")
    fi
    extra=()
    if [[ -n "${FUZZ_KEEP_GOING:-}" ]]; then
        extra=(-fork=1 -ignore_crashes=1)
        # (The directory must exist: under `set -o pipefail` a failing `find`
        # would end the script silently.)
        mkdir -p "artifacts/$t"
        before=$(find "artifacts/$t" -name 'crash-*' | wc -l)
    fi
    # A world input is a sequence of API calls: give it room for a few hundred.
    max_len=512
    if [[ "$t" == world ]]; then
        max_len=4096
    fi
    nice cargo fuzz run -s "$sanitizer" "$t" "${corpora[@]}" -- \
        -max_total_time="$seconds" -print_final_stats=1 -max_len="$max_len" "${extra[@]}"
    if [[ -n "${FUZZ_KEEP_GOING:-}" ]]; then
        after=$(find "artifacts/$t" -name 'crash-*' | wc -l)
        echo "== $t: $((after - before)) new crash file(s) in fuzz/artifacts/$t/"
        if ((after > before)); then
            exit 1
        fi
    fi
done
