#!/usr/bin/env bash
# Fuzz the collision layer and the world API on the stable toolchain.
#
#   bash scripts/fuzz.sh [TARGET|all] [SECONDS]     (defaults: all, 600)
#
# Builds the target with libFuzzer's coverage instrumentation but no sanitizer
# (what `cargo fuzz build -s none` builds, which needs no nightly; the code under
# test is safe Rust, so panics are what we look for) and runs it for SECONDS. Debug
# assertions and overflow checks are on. No cargo-fuzz is needed: the script passes
# cargo the instrumentation flags that cargo-fuzz 0.13 passes (installing cargo-fuzz
# took CI about 3 minutes) and runs the binary as cargo-fuzz does. Exits non-zero
# on the first crash; libFuzzer then prints the input's path under
# fuzz/artifacts/TARGET/, and `fuzz/target/x86_64-unknown-linux-gnu/release/TARGET
# <file>` (or, with cargo-fuzz, `cargo fuzz run -s none TARGET <file>`) replays it.
#
# Saved crashers in fuzz/regressions/TARGET/ are replayed first (so a known, unfixed
# crash fails the run at once).
#
# Environment: FUZZ_SANITIZER=address (nightly only) to use a sanitizer instead
# (through cargo-fuzz, installed if missing);
# FUZZ_JOBS (default 2) for the build; FUZZ_KEEP_GOING=1 to run the full time
# despite crashes (libFuzzer fork mode; every crash is saved, the count printed,
# and the script still exits non-zero if there was any); FUZZ_NO_REGRESSIONS=1 to
# skip replaying fuzz/regressions/; FUZZ_PARALLEL=N to run up to N targets at
# once (each for SECONDS of wall time, its output in fuzz/artifacts/TARGET.log,
# printed when it ends; `.ci/run` uses 2 for its smoke run of every target);
# FUZZ_SMOKE=1 (CI): replay fuzz/regressions/ as a fatal check, then explore for
# SECONDS and report a new crash without failing (kept in fuzz/artifacts/);
# FUZZ_NICE (default 10) the niceness the fuzzers run at (0: normal priority);
# FUZZ_CPU_SECONDS=N to stop each target once its fuzzer process has used N CPU
# seconds (user + sys, read from /proc; fork mode's reaped children included), so
# that a CPU-hour can be shown on a loaded machine: SECONDS then only caps the wall
# time (e.g. `FUZZ_CPU_SECONDS=3600 bash scripts/fuzz.sh toi 36000`). Outside the
# smoke run every target prints the CPU seconds its fuzzer used when it ends.
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
niceness="${FUZZ_NICE:-10}"
cpu_budget="${FUZZ_CPU_SECONDS:-0}"
export CARGO_BUILD_JOBS="${FUZZ_JOBS:-2}"

if [[ "$sanitizer" != none ]] && ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi
triple="$(rustc -vV | sed -n 's/^host: //p')"
# cargo-fuzz 0.13's flags for `build -s none` (its defaults: coverage level 4,
# compare tracing, `--cfg fuzzing`, debug assertions, one codegen unit).
fuzz_rustflags=(
    -Cpasses=sancov-module
    -Cllvm-args=-sanitizer-coverage-level=4
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters
    -Cllvm-args=-sanitizer-coverage-pc-table
    -Cllvm-args=-sanitizer-coverage-trace-compares
    --cfg fuzzing
    -Cllvm-args=-simplifycfg-branch-fold-threshold=0
    -Cllvm-args=-sanitizer-coverage-stack-depth
    -Cdebug-assertions
    -Ccodegen-units=1
)

# Builds the fuzz targets "$@" (run from fuzz/).
fuzz_build() {
    if [[ "$sanitizer" != none ]]; then
        local t
        for t in "$@"; do
            nice cargo fuzz build -s "$sanitizer" "$t"
        done
        return
    fi
    local bins=() t
    for t in "$@"; do
        bins+=(--bin "$t")
    done
    RUSTFLAGS="${fuzz_rustflags[*]}${RUSTFLAGS:+ $RUSTFLAGS}" \
        nice cargo build --release --target "$triple" "${bins[@]}"
}

# Runs fuzz target $1 on the corpora "${@:2}" up to "--", with libFuzzer's options
# after it (run from fuzz/), as `cargo fuzz run -s SANITIZER` does, at FUZZ_NICE.
fuzz_run() {
    local t="$1" corpora=()
    shift
    while (($# > 0)) && [[ "$1" != -- ]]; do
        corpora+=("$1")
        shift
    done
    if (($# > 0)); then
        shift
    fi
    if [[ "$sanitizer" != none ]]; then
        nice -n "$niceness" cargo fuzz run -s "$sanitizer" "$t" "${corpora[@]}" -- "$@"
        return
    fi
    mkdir -p "artifacts/$t"
    nice -n "$niceness" "target/$triple/release/$t" -artifact_prefix="$(pwd)/artifacts/$t/" \
        "$@" "${corpora[@]}"
}

if [[ "$target" == all ]]; then
    selected=("${TARGETS[@]}")
else
    selected=("$target")
fi

cd fuzz
# Build every selected target first (the library compiles once, for the first).
echo "== building ${selected[*]}"
fuzz_build "${selected[@]}"

# "TICKS PID": the CPU time in clock ticks (user + sys, and reaped children's) of
# every process running the target binary $2 among the descendants of process $1,
# and the first such process found (the fuzzer itself, above fork mode's children).
fuzzer_ticks() {
    local name="$2" total=0 first="" pid ticks
    local queue=("$1")
    while ((${#queue[@]} > 0)); do
        pid="${queue[0]}"
        queue=("${queue[@]:1}")
        if [[ "$(readlink "/proc/$pid/exe" 2>/dev/null)" == */"$name" ]]; then
            # Fields after the command name: utime, stime, cutime, cstime are 12-15.
            ticks=$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{print $12 + $13 + $14 + $15}')
            total=$((total + ${ticks:-0}))
            first="${first:-$pid}"
        fi
        # (Word splitting is wanted: one child pid per word.)
        # shellcheck disable=SC2207
        queue+=($(cat /proc/"$pid"/task/*/children 2>/dev/null || true))
    done
    echo "$total ${first:-0}"
}

# Runs the fuzzer command "$@" for target $t, polling its CPU time; with
# FUZZ_CPU_SECONDS set, ends it with SIGTERM (libFuzzer then prints its final
# stats and exits) once it has used that much. Prints the CPU seconds used;
# returns the command's status, or 0 when it was stopped at the budget without
# leaving a new crash file.
run_fuzzer() {
    local t="$1"
    shift
    local hz
    hz=$(getconf CLK_TCK)
    # (The directory must exist: under `set -o pipefail` a failing `find` would
    # end the script silently.)
    mkdir -p "artifacts/$t"
    local crashes_before
    crashes_before=$(find "artifacts/$t" -type f | wc -l)
    local start=$SECONDS used=0 stopped="" now pid
    "$@" &
    local job=$!
    while kill -0 "$job" 2>/dev/null; do
        read -r now pid < <(fuzzer_ticks "$job" "$t")
        # (The fuzzer's last sample before it exits stands.)
        if ((now > used)); then
            used=$now
        fi
        if ((cpu_budget > 0 && used >= cpu_budget * hz)) && [[ -z "$stopped" && "$pid" != 0 ]]; then
            stopped=1
            kill -TERM "$pid" 2>/dev/null || true
        fi
        sleep 1
    done
    local rc=0
    wait "$job" || rc=$?
    local crashes_after
    crashes_after=$(find "artifacts/$t" -type f | wc -l)
    echo "== $t: $((used / hz)).$(printf '%02d' $((used % hz * 100 / hz))) CPU s (user + sys of the fuzzer) in $((SECONDS - start)) s wall${stopped:+, stopped at the CPU budget of $cpu_budget s; status 72 above: libFuzzer interrupted}"
    if [[ -n "$stopped" ]] && ((crashes_after == crashes_before)); then
        return 0
    fi
    return "$rc"
}

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
            fuzz_run "$t" "regressions/$base" -- \
                -runs=0 -max_len="$max_len"
        fi
        if ! fuzz_run "$t" "${corpora[@]}" -- \
            -max_total_time="$seconds" -print_final_stats=1 -max_len="$max_len"; then
            echo "== NEW FUZZ FAILURE in $t (not fatal in the smoke run): see the input above under fuzz/artifacts/$t/"
        fi
        return 0
    fi
    run_fuzzer "$t" fuzz_run "$t" "${corpora[@]}" -- \
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
