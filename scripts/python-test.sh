#!/usr/bin/env bash
# The Python package (crates/impulse2d-py): lints of its Rust code, then a
# virtualenv with maturin, numpy and pytest, the package built (release) and
# installed into it, and its pytest suite. The crate is its own cargo workspace
# (see ARCHITECTURE.md); it shares the root's target/ so the engine's release
# build is reused. Usage: bash scripts/python-test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TARGET_DIR="$root/target"
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"
manifest=crates/impulse2d-py/Cargo.toml

cargo fmt --manifest-path "$manifest" -- --check
cargo clippy --manifest-path "$manifest" --all-targets -j2 -- -D warnings

venv="$root/target/py-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check maturin numpy pytest
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
