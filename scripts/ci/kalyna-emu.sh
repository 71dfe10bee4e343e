#!/usr/bin/env bash
# CI step for the Kalyna `avx512-gfni` and `avx2-gfni` backends. The CI CPU
# (AMD Zen 3) has neither AVX-512 nor GFNI, so they run under the Bochs Tiger
# Lake emulator of scripts/emu-avx512.sh (which installs what it needs from
# Debian): the built-in selftest on both (every Kalyna ECB vector and every
# length 0..=2·ways+3 plus longer ones against `reference`), then the
# kalyna_backends test (every backend, every length 0..=300 blocks, both
# directions, all five variants, against `reference`).
set -euo pipefail
cd "$(dirname "$0")/../.."
EMU_TIMEOUT=${EMU_TIMEOUT:-2400} scripts/emu-avx512.sh --test kalyna_backends \
    -- multiblock selftest --thorough --backend avx512-gfni avx2-gfni \
    -- kalyna_backends --test-threads=1
