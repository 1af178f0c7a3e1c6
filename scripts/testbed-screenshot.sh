#!/usr/bin/env bash
# Starts the testbed under Xvfb with Mesa's software OpenGL, lets it draw a
# scene for a number of frames, saves a screenshot and checks it is not blank.
#
# Usage: scripts/testbed-screenshot.sh [OUTPUT.png] [extra testbed arguments...]
# Installs the X and GL runtime packages it needs (Debian/Ubuntu, apt-get) when
# they are missing. Exit status 0 only when a non-blank screenshot was written.
set -euo pipefail

cd "$(dirname "$0")/.."
out="${1:-target/testbed-screenshot.png}"
shift || true

bash scripts/apt-install.sh xvfb xauth libgl1 libglx-mesa0 libgl1-mesa-dri libx11-6 libx11-xcb1 libxi6 libxcursor1

cargo build --release -j"${JOBS:-2}" -p impulse2d-testbed
bin="target/release/impulse2d-testbed"

mkdir -p "$(dirname "$out")"
rm -f "$out"
timeout 120 xvfb-run -a -s "-screen 0 1280x720x24" \
    "$bin" --screenshot "$out" --width 1280 --height 720 "$@"

# Not blank (several colours, over 1% of pixels off the background).
python3 scripts/png_not_blank.py "$out"
