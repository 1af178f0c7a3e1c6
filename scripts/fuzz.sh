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
# skip replaying fuzz/regressions/; FUZZ_PARALLEL=N to run up to N targets at
# once (each for SECONDS of wall time, its output in fuzz/artifacts/TARGET.log,
# printed when it ends; `.ci/run` uses 2 for its smoke run of every target);
# FUZZ_SMOKE=1 (CI): replay fuzz/regressions/ as a fatal check, then explore for
# SECONDS and report a new crash without failing (kept in fuzz/artifacts/).
#
# Targets: hull, manifold, toi, world (sequences of world API calls),
# world_2_workers (the same on a world with 2 worker threads) and snapshot
# (Snapshot::from_bytes + World::restore on raw and on corrupted, resealed bytes)
# and replay (Recording::from_bytes + Replay on raw and on corrupted, resealed bytes).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(hull manifold toi world world_2_workers snapshot replay)
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
# Build every selected target first (the library compiles once, for the first).
echo "== building ${selected[*]}"
for t in "${selected[@]}"; do
    nice cargo fuzz build -s "$sanitizer" "$t"
done

# Runs target $1 for $seconds; returns non-zero on a crash.
fuzz_one() {
    local t="$1"
    echo "== fuzzing $t for ${seconds}s (sanitizer: $sanitizer)"
    local corpora=("corpus/$t")
    mkdir -p "corpus/$t"
    # world_2_workers reads the same inputs as world: it replays world's
    # regressions and starts from world's corpus too (new inputs go to its own).
    local base="$t"
    if [[ "$t" == world_2_workers ]]; then
        base=world
        if [[ -d corpus/world ]]; then
            corpora+=(corpus/world)
        fi
    fi
    if [[ -d "regressions/$base" && -z "${FUZZ_NO_REGRESSIONS:-}" ]]; then
        corpora+=("regressions/$base")
    fi
    local extra=()
    local before=0
    if [[ -n "${FUZZ_KEEP_GOING:-}" ]]; then
        extra=(-fork=1 -ignore_crashes=1)
        # (The directory must exist: under `set -o pipefail` a failing `find`
        # would end the script silently.)
        mkdir -p "artifacts/$t"
        before=$(find "artifacts/$t" -name 'crash-*' | wc -l)
    fi
    # A world input is a sequence of API calls: give it room for a few hundred.
    local max_len=512
    if [[ "$t" == world* ]]; then
        max_len=4096
    fi
    if [[ -n "${FUZZ_SMOKE:-}" ]]; then
        # CI's smoke: the saved regressions must pass (fatal); then explore for
        # $seconds, where a new crash is reported loudly and kept in
        # fuzz/artifacts/ but does not fail the run (random exploration would make
        # CI's verdict depend on luck; the hour-long runs outside CI are the gate).
        if [[ -d "regressions/$base" && -z "${FUZZ_NO_REGRESSIONS:-}" ]]; then
            nice cargo fuzz run -s "$sanitizer" "$t" "regressions/$base" -- \
                -runs=0 -max_len="$max_len"
        fi
        if ! nice cargo fuzz run -s "$sanitizer" "$t" "${corpora[@]}" -- \
            -max_total_time="$seconds" -print_final_stats=1 -max_len="$max_len"; then
            echo "== NEW FUZZ FAILURE in $t (not fatal in the smoke run): see the input above under fuzz/artifacts/$t/"
        fi
        return 0
    fi
    nice cargo fuzz run -s "$sanitizer" "$t" "${corpora[@]}" -- \
        -max_total_time="$seconds" -print_final_stats=1 -max_len="$max_len" "${extra[@]}"
    if [[ -n "${FUZZ_KEEP_GOING:-}" ]]; then
        local after
        after=$(find "artifacts/$t" -name 'crash-*' | wc -l)
        echo "== $t: $((after - before)) new crash file(s) in fuzz/artifacts/$t/"
        if ((after > before)); then
            return 1
        fi
    fi
}

parallel="${FUZZ_PARALLEL:-1}"
if ((parallel <= 1)); then
    for t in "${selected[@]}"; do
        fuzz_one "$t"
    done
    exit 0
fi

# Up to $parallel targets at a time, each logging to artifacts/TARGET.log.
mkdir -p artifacts
failed=()
pids=()
names=()
finish() {
    local pid="$1" t="$2"
    if wait "$pid"; then
        tail -n 12 "artifacts/$t.log"
    else
        cat "artifacts/$t.log"
        failed+=("$t")
    fi
}
for t in "${selected[@]}"; do
    if ((${#pids[@]} >= parallel)); then
        finish "${pids[0]}" "${names[0]}"
        pids=("${pids[@]:1}")
        names=("${names[@]:1}")
    fi
    fuzz_one "$t" >"artifacts/$t.log" 2>&1 &
    pids+=("$!")
    names+=("$t")
done
for i in "${!pids[@]}"; do
    finish "${pids[$i]}" "${names[$i]}"
done
if ((${#failed[@]} > 0)); then
    echo "== fuzzing failed: ${failed[*]}"
    exit 1
fi
echo "== fuzzing: no failure in ${selected[*]}"
