#!/usr/bin/env bash
# Machine-code constant-time check (README, "Security"): crates/multiblock-ct's
# `ct-trace` runs every constant-time case (key setup, ECB of one block and of
# a batch and a block, the secret-handling modes) once per secret fill
# (random, all-zero, all-ones keys and data), stepped by the trap flag, and
# requires identical traces: every instruction address and every memory
# operand's effective address, decoded with iced-x86.
#  1. natively, every constant-time backend this CPU runs: nothing may differ;
#  2. natively, every table/table12/reference backend: each must be flagged
#     (this shows the check can fail);
# The constant-time backends this CPU lacks (AVX-512, GFNI) are traced
# inside the emulated Tiger Lake by scripts/ci/emulated.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."

# addr2line (binutils) names the function where traces part; optional.
if ! command -v addr2line >/dev/null && [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq binutils >/dev/null; } || true
fi

# The release build, with line tables so that the reports name the (inlined)
# functions; test.sh sets the same for every release build of CI, so the
# library compiled for the selftest is reused here.
export CARGO_PROFILE_RELEASE_DEBUG=${CARGO_PROFILE_RELEASE_DEBUG:-line-tables-only}
cargo build --quiet --locked --release -p multiblock-ct --bin ct-trace
bin="${CARGO_TARGET_DIR:-target}/release/ct-trace"

echo "ct-trace: constant-time backends on this CPU (every fill must give the same trace)"
# `portable` (the bitsliced plain-Rust backends) is left to Valgrind's
# ct-check (scripts/ci/ct-valgrind.sh): one 128-block batch is millions of
# steps (every portable case together about 10 min on one core of a VM,
# Kalyna-512 alone 2); by hand: `ct-trace ct --backend portable`.
"$bin" ct --except portable
# Kuznyechik's key schedule runs on AVX-512 where the CPU has it, whichever
# backend is keyed: its AVX2 form, and the avx2 backends' one-block tier, as
# an AVX2-only CPU (Zen 2/3, Haswell to Comet Lake) runs them.
echo "ct-trace: Kuznyechik's avx2 backends as an AVX2-only CPU runs them (MULTIBLOCK_DISABLE=avx512f,gfni)"
MULTIBLOCK_DISABLE=avx512f,gfni "$bin" ct --backend avx2,avx2-narrow --filter kuznyechik
# The AVX-512 hash kernels take their form from the class of core (Kupyna's
# T+ carries by lookahead on AMD and rippling on Intel, Streebog's spreads by
# `vpermb` or `vpshufd`, the row kernels' S-boxes by `vpermi2b` or `vpermb`),
# and so do Kalyna's and Kuznyechik's wide kernels (their S-boxes): every
# class's forms, as those CPUs run them.
for class in intel amd-half-zmm amd-full-zmm; do
    echo "ct-trace: the hashes, Kalyna and Kuznyechik on avx512-gfni in the forms for $class (MULTIBLOCK_CORE=$class)"
    for filter in ": hash" kalyna kuznyechik; do
        MULTIBLOCK_CORE=$class "$bin" ct --backend avx512-gfni --filter "$filter"
    done
done
echo "ct-trace: table/table12/reference backends (each must be flagged)"
"$bin" leaky

