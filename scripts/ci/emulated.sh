#!/usr/bin/env bash
# CI step for the constant-time backends this CPU cannot run (AVX-512,
# VBMI, GFNI: on AMD Zen 3 every avx512* backend and avx2-gfni). They run
# in one boot of the Bochs Tiger Lake emulator of scripts/emu-avx512.sh
# (which installs what it needs from Debian):
#  1. `multiblock selftest --thorough` on exactly those backends: every
#     cipher's ECB vectors and every hash's vectors, and each backend
#     against `reference` on every length from 0 to 2·ways+3 blocks and a
#     few longer ones (the hashes: the lengths of the hash selftest);
#  2. `ct-trace ct --kernels-once --fills 2` on them: each backend's kernels
#     once (key setup and ECB of one block more than a batch, GOST 28147-89
#     under one S-box set, the hashes whole and many at once), each traced
#     with random and with all-zero secrets (the modes' own code, the
#     hashers' buffering and the other S-box sets are traced natively on
#     this CPU's backends by scripts/ci/ct-trace.sh; the one-block ECB call
#     and the all-ones fill as well, on a CPU that runs these backends
#     natively).
# On a CPU that runs every backend, nothing is left to emulate and this
# step ends at once, before any build: cargo test and ct-trace.sh have
# covered them natively.
#
# The emulator keeps one core busy for about a quarter of an hour, so
# scripts/test.sh starts this step in the background at its beginning (with
# CARGO_TARGET_DIR set to a directory of its own, so that it never waits for
# the main build's lock) and collects it at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Every feature a constant-time backend needs (`multiblock info`: avx2+gfni,
# avx512f+avx512bw, +avx512vl+avx512vbmi, +gfni): a CPU with all of them
# leaves nothing to emulate, and the static build below would be wasted.
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
native=1
for f in avx2 avx512f avx512bw avx512vl avx512vbmi gfni; do
    [[ $flags == *" $f "* ]] || native=0
done
if [ $native = 1 ]; then
    echo "emulated: this CPU runs every constant-time backend: nothing to emulate"
    exit 0
fi

target=x86_64-unknown-linux-gnu
target_dir=${CARGO_TARGET_DIR:-target}
export CARGO_PROFILE_RELEASE_DEBUG=${CARGO_PROFILE_RELEASE_DEBUG:-line-tables-only}
# One cargo call for both programs: the library is compiled once for them.
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static" \
    cargo build --quiet --locked --release --target "$target" \
    -p multiblock-ct --bin ct-trace -p multiblock-cli --bin multiblock
ct_trace="$target_dir/$target/release/ct-trace"
cli="$target_dir/$target/release/multiblock"

missing=$("$ct_trace" missing)
if [ -z "$missing" ]; then
    echo "emulated: ct-trace finds every constant-time backend available: nothing to emulate"
    exit 0
fi
echo "emulated: not on this CPU, run in the emulator: $missing"
EMU_TIMEOUT=${EMU_TIMEOUT:-3600} scripts/emu-avx512.sh \
    -- "$cli" selftest --thorough --backend ${missing//,/ } \
    -- "$ct_trace" ct --backend "$missing" --kernels-once --fills 2 --jobs 1
