#!/usr/bin/env bash
# The Python package (crates/impulse2d-py): lints of its Rust code, then a
# virtualenv with maturin, numpy and pytest, the package built (release) and
# installed into it, and its pytest suite. The crate is its own cargo workspace
# (see ARCHITECTURE.md); it builds into the root's target/ (one place to clean
# and cache), though cargo compiles the engine once more for it: a package's
# fingerprint includes its path from the workspace root.
# Usage: bash scripts/python-test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TARGET_DIR="$root/target"
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"
manifest=crates/impulse2d-py/Cargo.toml

cargo fmt --manifest-path "$manifest" -- --check
cargo clippy --manifest-path "$manifest" --all-targets -j2 -- -D warnings

venv="$root/target/py-venv"
# A virtualenv; where the system Python lacks the venv module (Debian without
# python3-venv), install it with apt, or fall back to the virtualenv package.
make_venv() {
    python3 -m venv "$venv" 2>/dev/null && return 0
    rm -rf "$venv"
    if command -v apt-get >/dev/null 2>&1; then
        { apt-get install -y -qq python3-venv || { apt-get update -qq && apt-get install -y -qq python3-venv; }; } >/dev/null 2>&1 &&
            python3 -m venv "$venv" && return 0
        rm -rf "$venv"
    fi
    python3 -m pip install -q --user virtualenv && python3 -m virtualenv -q "$venv"
}
[ -x "$venv/bin/python" ] || make_venv
"$venv/bin/pip" install -q --disable-pip-version-check maturin numpy pytest gymnasium
# --no-build-isolation: use the maturin just installed rather than fetching
# another copy into a throw-away environment.
PATH="$venv/bin:$PATH" "$venv/bin/pip" install -q --disable-pip-version-check \
    --no-build-isolation --force-reinstall --no-deps ./crates/impulse2d-py
# The CLI, for the test that compares state hashes with the Rust world (a no-op
# when scripts/test.sh built it already).
cargo build --release -j2 -p impulse2d-cli
export IMPULSE2D_CLI="$root/target/release/impulse2d"
cd crates/impulse2d-py
"$venv/bin/python" -m pytest -q tests "$@"
