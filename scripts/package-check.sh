#!/usr/bin/env bash
# The crates meant for crates.io (impulse2d, impulse2d-scenes, impulse2d-cli): the rustdoc
# of all three with -D warnings and every feature (as docs.rs builds it), the examples of
# `impulse2d` (release, each a few hundred steps at most), then `cargo package` and
# `cargo publish --dry-run` on the three crates together.
#
# Packaging them together matters: impulse2d-scenes and impulse2d-cli depend on
# impulse2d 0.1.0, which is not on crates.io yet, so packaging either alone fails at
# verification. Since cargo 1.90, packaging or publishing several workspace crates in one
# command verifies each against the others' freshly packed .crate files (a local registry
# overlay in target/package/tmp-registry), in dependency order.
#
# Extra arguments go to both cargo commands (e.g. --allow-dirty for uncommitted work).
set -euo pipefail
cd "$(dirname "$0")/.."
crates=(-p impulse2d -p impulse2d-scenes -p impulse2d-cli)

# Libraries only, as docs.rs documents them (the CLI's binary is also named `impulse2d`,
# whose page would collide with the engine's).
RUSTDOCFLAGS="-D warnings" cargo doc -j2 --all-features --no-deps --lib "${crates[@]}"
for example in hello_world events joints queries threads; do
    echo "-- example $example"
    cargo run --release -j2 -q -p impulse2d --example "$example"
done
# Cargo treats the overlay's crates as registry crates, which never change: it unpacks
# them into $CARGO_HOME/registry/src/-<hash of the overlay path>/ and reuses both that
# copy and their compiled artifacts on the next run, so a second run from the same
# checkout would verify against the first run's sources (seen with cargo 1.95). So the
# packages are verified in a target directory of their own, and the unpacked copies and
# compiled artifacts of our crates are removed first (nothing else lives there).
verify_target="$(pwd)/target/package-check"
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/impulse2d-[0-9]* \
    "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/impulse2d-scenes-[0-9]* \
    "$verify_target"/debug/.fingerprint/impulse2d* "$verify_target"/debug/deps/*impulse2d* \
    "$verify_target"/debug/build/impulse2d*
CARGO_TARGET_DIR="$verify_target" cargo package -j2 "${crates[@]}" "$@"
# `cargo package` above built each packaged crate from its .crate file; the dry run
# checks what publishing adds (the manifest's fields for crates.io) without building
# them all again (about a minute of CI).
CARGO_TARGET_DIR="$verify_target" cargo publish --dry-run --no-verify -j2 "${crates[@]}" "$@"
