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

# Not blank: decode the PNG with the standard library only (no PIL on a fresh
# machine) and require that a real share of pixels differs from the commonest
# colour and that several colours appear.
python3 - "$out" <<'PY'
import struct, sys, zlib
from collections import Counter

path = sys.argv[1]
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit(f"{path}: not a PNG")
pos, idat, width = 8, b"", None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        if depth != 8 or ctype not in (2, 6) or interlace:
            sys.exit(f"{path}: unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
stride = width * bpp
prev = bytearray(stride)
counts = Counter()
for y in range(height):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    counts.update(bytes(line[i:i + 3]) for i in range(0, stride, bpp))
    prev = line
total = width * height
top, top_count = counts.most_common(1)[0]
share = 1 - top_count / total
print(f"{path}: {width}x{height}, {len(counts)} colours, {share:.1%} of pixels differ from the background #{top.hex()}")
if len(counts) < 4 or share < 0.01:
    sys.exit(f"{path}: the screenshot is blank")
PY
