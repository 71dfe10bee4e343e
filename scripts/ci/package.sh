#!/usr/bin/env bash
# The API documentation and the crates as crates.io would get them:
#  1. `cargo doc` of the whole workspace with warnings as errors (broken or
#     private intra-doc links, unescaped brackets; missing docs are denied
#     in the library's source already);
#  2. the library's doctests (every example in its documentation and its
#     README, each checked against a published vector or a round trip);
#     --no-doctest skips them where `cargo test --workspace` has just run
#     them (scripts/test.sh);
#  3. `cargo package` of the two published crates, multiblock and
#     multiblock-cli, WITH the verify build: it builds each crate from its
#     .crate file alone, which is what catches a file the build needs that
#     lies outside the crate (build.rs inputs, include_str! paths). It costs
#     one dev build of both crates (3-6 minutes on 2 cores), well within
#     CI's budget, so it is not skipped. Both crates are packaged in one
#     command: multiblock-cli depends on multiblock 0.1.0, which cargo
#     then takes from the package just made rather than from crates.io.
# Prints each step's time and the total.
#
# Usage: scripts/ci/package.sh [--no-doctest]
set -euo pipefail
cd "$(dirname "$0")/../.."

doctest=1
for arg in "$@"; do
    case "$arg" in
        --no-doctest) doctest=0 ;;
        *) echo "usage: $0 [--no-doctest]" >&2; exit 2 ;;
    esac
done

start=$SECONDS
step() {
    local t=$SECONDS
    "$@"
    echo "package.sh: $* took $((SECONDS - t)) s" >&2
}

step env RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --locked
if [ "$doctest" = 1 ]; then
    step cargo test --doc -p multiblock --locked
fi
# The packaged crates must carry the same license texts as the repository.
for crate in crates/multiblock crates/multiblock-cli; do
    for f in LICENSE-MIT LICENSE-APACHE; do
        cmp -s "$f" "$crate/$f" || { echo "package.sh: $crate/$f differs from $f" >&2; exit 1; }
    done
done
# CI's clone is clean; by hand, uncommitted changes are packaged as they are.
dirty=()
[ -n "$(git status --porcelain 2>/dev/null)" ] && dirty=(--allow-dirty)
# cargo package verifies multiblock-cli against the multiblock it just
# packaged, through a local registry under target/package; but it reuses the
# source it unpacked from such a registry in an earlier run at the same
# path, which would check the CLI against an old library. Drop those copies.
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
rm -rf "$cargo_home"/registry/src/*/multiblock-[0-9]* "$cargo_home"/registry/src/*/multiblock-cli-[0-9]*
# The packaged crates' verification build needs no debug information
# (93 -> 64 s on 2 vCPUs without it).
step env CARGO_PROFILE_DEV_DEBUG=0 cargo package --locked -p multiblock -p multiblock-cli "${dirty[@]}"
echo "package.sh: done in $((SECONDS - start)) s" >&2
