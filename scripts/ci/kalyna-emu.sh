#!/usr/bin/env bash
# CI step for the Kalyna `avx512-gfni` and `avx2-gfni` backends. The CI CPU
# (AMD Zen 3) has neither AVX-512 nor GFNI, so they run under the Bochs Tiger
# Lake emulator of scripts/emu-avx512.sh (which installs what it needs from
# Debian): the built-in selftest on both (every Kalyna ECB vector, and every
# length 0..=2·ways+3 blocks plus 97, 4·ways+1 and 300 against `reference`,
# all five variants), then from the kalyna_backends test the vectors on every
# backend, the repeated-block check and every length 0..=300 blocks of
# Kalyna-512/512. (The whole kalyna_backends test, all five variants, takes
# ≈ 20 min in the emulator here: run it by hand after kernel changes.)
# Measured here: ≈ 340 s wall with the builds cached.
#
# On a CPU that has AVX-512 F/BW/VL/VBMI and GFNI itself, the emulator is not
# booted: `cargo test --workspace` has already run kalyna_backends natively on
# every backend, and the selftest below runs natively too.
set -euo pipefail
cd "$(dirname "$0")/../.."
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
native=1
for f in avx512f avx512bw avx512vl avx512vbmi gfni; do
    [[ $flags == *" $f "* ]] || native=0
done
if [ $native = 1 ]; then
    echo "kalyna-emu: this CPU has AVX-512 VBMI and GFNI: checking natively"
    cargo run --quiet --release --locked -p multiblock-cli -- selftest --thorough --backend avx512-gfni avx2-gfni
    exit 0
fi
EMU_TIMEOUT=${EMU_TIMEOUT:-1800} scripts/emu-avx512.sh --test kalyna_backends \
    -- kalyna_backends --test-threads=1 every_length_512_512 ecb_vectors repeated \
    -- multiblock selftest --thorough --backend avx512-gfni avx2-gfni
