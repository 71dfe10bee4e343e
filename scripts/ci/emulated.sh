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
# It runs the release build the other steps use (target/release, the
# guest gets the host's shared libraries): the emulator keeps one core busy
# for about eleven minutes, so scripts/test.sh builds both programs, starts
# this step in the background and collects it at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Every feature a constant-time backend needs (`multiblock info`: avx2+gfni,
# avx512f+avx512bw, +avx512vl+avx512vbmi, +gfni): a CPU with all of them
# leaves nothing to emulate.
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
native=1
for f in avx2 avx512f avx512bw avx512vl avx512vbmi gfni; do
    [[ $flags == *" $f "* ]] || native=0
done
if [ $native = 1 ]; then
    echo "emulated: this CPU runs every constant-time backend: nothing to emulate"
    exit 0
fi

target_dir=${CARGO_TARGET_DIR:-target}
export CARGO_PROFILE_RELEASE_DEBUG=${CARGO_PROFILE_RELEASE_DEBUG:-line-tables-only}
# As scripts/test.sh builds them (then there is nothing left to do), one
# package per call as the other steps do.
cargo build --quiet --locked --release -p multiblock-cli
cargo build --quiet --locked --release -p multiblock-ct --bin ct-trace
ct_trace="$(realpath "$target_dir/release/ct-trace")"
cli="$(realpath "$target_dir/release/multiblock")"

missing=$("$ct_trace" missing)
if [ -z "$missing" ]; then
    echo "emulated: ct-trace finds every constant-time backend available: nothing to emulate"
    exit 0
fi
echo "emulated: not on this CPU, run in the emulator: $missing"
EMU_TIMEOUT=${EMU_TIMEOUT:-3600} scripts/emu-avx512.sh \
    -- "$cli" selftest --thorough --backend ${missing//,/ } \
    -- "$ct_trace" ct --backend "$missing" --kernels-once --fills 2 --jobs 1
