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

packages=(xvfb xauth libgl1 libglx-mesa0 libgl1-mesa-dri libx11-6 libx11-xcb1 libxi6 libxcursor1)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cargo build --release -j"${JOBS:-2}" -p impulse2d-testbed
bin="target/release/impulse2d-testbed"

mkdir -p "$(dirname "$out")"
rm -f "$out"
timeout 120 xvfb-run -a -s "-screen 0 1280x720x24" \
    "$bin" --screenshot "$out" --width 1280 --height 720 "$@"

python3 scripts/png-not-blank.py "$out"
