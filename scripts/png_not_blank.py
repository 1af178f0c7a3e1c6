#!/usr/bin/env python3
"""Checks that a screenshot is not blank: decodes the PNG with the standard
library only (no PIL on a fresh machine) and requires that a real share of
pixels differs from the commonest colour and that several colours appear.

Usage: png_not_blank.py FILE.png   (exit status 1 with a message when blank)
"""
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
