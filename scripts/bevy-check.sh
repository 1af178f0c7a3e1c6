#!/usr/bin/env bash
# The Bevy plugin (crates/bevy_impulse2d, a cargo workspace of its own, outside the root
# workspace so that `cargo test/clippy --workspace` never build Bevy): format, its tests
# (MinimalPlugins, headless) with clippy's lints (-D warnings) on the plugin's own code,
# the `pyramid` example under Xvfb with a screenshot checked not to be blank, and
# `cargo package` of the crate.
#
# One build serves everything: the tests and the example build with the `example`
# feature (rendering, winit, gizmos; it includes `debug-draw`, whose tests run then) in
# the dev profile, so Bevy compiles once. The tests themselves need no feature (`cargo
# test` in the crate runs them that way).
#
# Clippy without a second build of Bevy: `cargo clippy` is a check-mode build of every
# dependency (for Bevy with rendering, several minutes more of CI). Instead the test
# build runs clippy-driver as the workspace's rustc wrapper, which is what `cargo clippy`
# itself does (RUSTC_WORKSPACE_WRAPPER=clippy-driver, lint arguments in CLIPPY_ARGS
# separated by `__CLIPPY_HACKERY__`): only this crate's lib, tests and example go through
# clippy, with -D warnings, and the dependencies are the plain build the tests need.
# BEVY_CLIPPY=1 also runs the ordinary `cargo clippy --all-targets` (its own check build).
#
# Usage: scripts/bevy-check.sh [SCREENSHOT.png]
# Installs Xvfb and Mesa's Vulkan driver (lavapipe) when missing (Debian, apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/bevy-pyramid.png}"
case "$out" in /*) ;; *) out="$(pwd)/$out" ;; esac
cd crates/bevy_impulse2d

bash ../../scripts/apt-install.sh xvfb xauth libvulkan1 mesa-vulkan-drivers libx11-6 libx11-xcb1 libxi6 \
    libxcursor1 libxrandr2 libxkbcommon-x11-0

cargo fmt -- --check
if [ "${BEVY_CLIPPY:-0}" = 1 ]; then
    cargo clippy -j2 --all-targets --features example -- -D warnings
fi
clippy_driver="$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver)"
export RUSTC_WORKSPACE_WRAPPER="$clippy_driver"
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
cargo test -j2 --features example
cargo build -j2 --features example --example pyramid
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS

mkdir -p "$(dirname "$out")"
rm -f "$out"
# Vulkan on the CPU (lavapipe); WAYLAND_DISPLAY would make winit try Wayland first.
env -u WAYLAND_DISPLAY timeout 300 xvfb-run -a -s "-screen 0 1280x720x24" \
    target/debug/examples/pyramid --screenshot "$out"
# Not blank (several colours, over 1% of pixels off the background).
python3 ../../scripts/png_not_blank.py "$out"

# Packaging: impulse2d 0.1.0 is not on crates.io yet, so its lock file is resolved against
# the path (a `patch` given on the command line, not in the manifest) and the verification
# build is skipped: the build above is the verification.
cargo package --no-verify --allow-dirty --config 'patch.crates-io.impulse2d.path="../impulse2d"'
