#!/usr/bin/env bash
# Checks that the CLI built by the README's command runs on an x86-64 CPU without
# AVX2 and computes the same bits there: runs it natively and under qemu-user as a
# Nehalem (SSE4.2, no AVX), and compares the printed state hashes. The native run
# takes the AVX2 path where the CPU has it, the emulated one the baseline path.
# Installs Debian's qemu-user when qemu-x86_64 is missing. About a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v qemu-x86_64 >/dev/null; then
    sudo=""
    if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then sudo=sudo; fi
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq qemu-user >/dev/null
fi
cargo build --release -j2 -p impulse2d-cli
bin=target/release/impulse2d
args=(run tumbler --steps 100)
native=$("$bin" "${args[@]}")
emulated=$(qemu-x86_64 -cpu Nehalem "$bin" "${args[@]}")
field() { awk -v key="$1" '$0 ~ "^" key { print $NF }'; }
native_hash=$(field "state hash" <<<"$native")
emulated_hash=$(field "state hash" <<<"$emulated")
echo "native:            simd path $(field "simd path" <<<"$native"), state hash $native_hash"
echo "qemu -cpu Nehalem: simd path $(field "simd path" <<<"$emulated"), state hash $emulated_hash"
if [ -z "$native_hash" ] || [ "$native_hash" != "$emulated_hash" ]; then
    echo "FAIL: the state hashes differ (or are missing)" >&2
    exit 1
fi
if [ "$(field "simd path" <<<"$emulated")" != baseline ]; then
    echo "FAIL: the emulated Nehalem did not run the baseline path" >&2
    exit 1
fi
echo "ok: same state hash"
