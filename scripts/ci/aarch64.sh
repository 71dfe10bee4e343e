#!/usr/bin/env bash
# CI step for aarch64 (the `neon` backends): cross-builds for
# aarch64-unknown-linux-gnu (Debian's gcc-aarch64-linux-gnu links) and runs
# under qemu-user: the library's unit and integration tests (every backend
# of every family against `reference` and the official vectors), then the
# CLI's `selftest --thorough` and `info` (every cipher's and hash's
# default must be `neon`), then the constant-time check of the aarch64 machine code (scripts/ct-qemu.py).
# The linker and runner come from .cargo/config.toml; the environment
# variables below say the same for a checkout without it.
# Installs what it needs: the rustup target and the Debian packages.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=aarch64-unknown-linux-gnu
if ! command -v qemu-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null \
    || [ ! -d /usr/aarch64-linux-gnu/lib ]; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross >/dev/null
fi
rustup target list --installed | grep -qx "$target" || rustup target add "$target"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"

# The unit tests (the Neon machine against the emulator, the kernels on
# emulated registers, the key schedules), the official ECB vectors on every
# backend, and every backend against `reference` on every length (the
# *_backends tests). The rest of the integration tests (modes, cross-checks)
# run the same backends through the same engine; run them by hand with
# `--tests` (slow under qemu). Two unit tests of the modes' own buffering
# are skipped here, 90 s each under qemu and nothing NEON-specific in them
# (the key-wrap temporary store and random splits of every streaming mode
# across threads); the modes' PMULL products keep their tests.
tests=(--test ecb_vectors --test kalyna_backends --test kuznyechik_backends --test magma_backends --test ublock_backends)
# The CLI and the constant-time cases (`ct-emu`) are built in the same cargo
# call as the tests, and the test call names them again (which adds their
# few unit tests): cargo resolves the dependencies' features for the
# packages a call names, so calls that named different packages would
# compile a dozen dependencies, the library and the integration tests a
# second time.
packages=(-p multiblock-cli --bin multiblock -p multiblock-ct --bin ct-emu -p multiblock)
cargo build --locked --profile cross-test --target "$target" "${packages[@]}" "${tests[@]}"
cargo test --locked --profile cross-test --target "$target" "${packages[@]}" --lib "${tests[@]}" \
    -- --skip modes::dstu::kw::tests::store_passes_equal_the_in_memory_wrap \
    --skip modes::stream::tests::every_streaming_mode_equals_one_shot_on_random_splits_and_threads
cli=(qemu-aarch64 -L /usr/aarch64-linux-gnu "${CARGO_TARGET_DIR:-target}/$target/cross-test/multiblock")
"${cli[@]}" selftest --thorough
info=$("${cli[@]}" info)
echo "$info"
# Every cipher's default must be its NEON backend (5 Kalyna, Kuznyechik,
# Magma, GOST 28147-89, 3 uBlock), and so must every hash's (kupyna-256,
# -384, -512, streebog-256, -512).
neon=$(awk '$5 == "default" && $2 == "neon"' <<<"$info" | wc -l)
neon_hashes=$(awk '$5 == "default" && $2 == "neon" && $1 ~ /^(kupyna|streebog)-/' <<<"$info" | wc -l)
defaults=$(awk '$5 == "default"' <<<"$info" | wc -l)
if [ "$neon" != 16 ] || [ "$neon_hashes" != 5 ] || [ "$defaults" != 16 ]; then
    echo "aarch64: $neon of $defaults defaults are neon ($neon_hashes of them the hashes'); expected 16 (5) of 16" >&2
    exit 1
fi
echo "aarch64: the 11 cipher and 5 hash defaults are neon"

# Constant time on aarch64: every case of the x86 machine-code check (key
# setup, ECB of 1 block and of more than a batch, the secret-handling modes,
# here on every backend) under QEMU with a plugin that records every
# instruction and memory address; the three secret fills must agree; then
# the table and reference backends, each of which must be flagged.
if ! command -v cc >/dev/null; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get install -y -qq gcc >/dev/null
fi
ct_emu="${CARGO_TARGET_DIR:-target}/$target/cross-test/ct-emu"
python3 scripts/ct-qemu.py ct "$ct_emu" --all-modes --quiet
python3 scripts/ct-qemu.py leaky "$ct_emu" --quiet
