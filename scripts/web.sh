#!/usr/bin/env bash
# The web build and its checks: builds the engine for wasm32-unknown-unknown
# (Debian's Rust with -Zbuild-std, since rustup here has only the x86-64
# standard library), generates the JavaScript bindings with wasm-bindgen-cli
# into crates/impulse2d-wasm/pkg (the npm package), then
#   1. checks that `npm pack` accepts the package,
#   2. runs the node tests (node --test): the API tests and the cross-platform
#      determinism test (every scene's state hash, native CLI vs wasm),
#   3. loads the web testbed in headless Chromium from a localhost server, runs
#      a scene for some frames and checks the screenshot is not blank.
#
# Usage: scripts/web.sh [build|all]   (default all; build = package only)
# The module is built with WebAssembly's 128-bit SIMD (simd128: every current
# browser, node >= 16.4): the compiler vectorises the engine's lanes, about twice
# as fast on contact-heavy scenes with the same bits (BENCHMARKS.md).
# WASM_SIMD128=0 builds without it, for engines that lack simd128.
# Installs what it lacks: Debian's rustc-web, cargo-web, rust-web-src, lld and
# chromium (apt-get), wasm-bindgen-cli at the version of the wasm-bindgen crate
# in crates/impulse2d-wasm/Cargo.lock (cargo install --locked).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode="${1:-all}"
jobs="${JOBS:-2}"

# --- tools -----------------------------------------------------------------
packages=(rustc-web cargo-web rust-web-src lld)
if [ "$mode" != build ]; then packages+=(chromium fonts-liberation); fi
bash scripts/apt-install.sh "${packages[@]}"

bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' \
    crates/impulse2d-wasm/Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }')" != "$bindgen_version" ]; then
    echo "installing wasm-bindgen-cli $bindgen_version"
    cargo install --locked -j"$jobs" wasm-bindgen-cli --version "$bindgen_version"
fi

# --- lint (native: the bindings' Rust, outside the root workspace) -------------
(
    cd crates/impulse2d-wasm
    cargo fmt --check
    CARGO_TARGET_DIR="$root/target" cargo clippy --locked -j"$jobs" --all-targets -- -D warnings
)

# --- build ------------------------------------------------------------------
echo "building the wasm module (Debian's Rust $(/usr/bin/rustc --version | awk '{ print $2 }'), -Zbuild-std)"
wasm_target=target/wasm
wasm_flags=""
if [ "${WASM_SIMD128:-1}" = 1 ]; then
    wasm_target=target/wasm-simd128
    wasm_flags="-C target-feature=+simd128"
fi
(
    cd crates/impulse2d-wasm
    # Debian's cargo and rustc (rustup's stay first on PATH otherwise).
    PATH="/usr/bin:$PATH" CARGO_TARGET_DIR="$root/$wasm_target" RUSTC_BOOTSTRAP=1 \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$wasm_flags" \
        /usr/bin/cargo build --release -j"$jobs" --locked \
        -Zbuild-std=std,panic_abort --target wasm32-unknown-unknown
)
pkg=crates/impulse2d-wasm/pkg
rm -rf "$pkg"
wasm-bindgen --target web --weak-refs --out-dir "$pkg" \
    "$wasm_target/wasm32-unknown-unknown/release/impulse2d_wasm.wasm"
cp crates/impulse2d-wasm/npm/* crates/impulse2d-wasm/README.md "$pkg/"
echo "package: $pkg ($(du -k "$pkg/impulse2d_wasm_bg.wasm" | cut -f1) KiB of wasm)"
(cd "$pkg" && npm pack --dry-run --json >/dev/null) && echo "npm pack accepts the package"
if [ "$mode" = build ]; then exit 0; fi

# --- node tests ---------------------------------------------------------------
cargo build --release -j"$jobs" -p impulse2d-cli
IMPULSE2D_CLI="$root/target/release/impulse2d" node --test crates/impulse2d-wasm/tests/

# --- browser ------------------------------------------------------------------
bash scripts/web-browser.sh target/web-testbed.png
