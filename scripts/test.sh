#!/usr/bin/env bash
# Runs every test of the project: the library's vectors and cross-checks,
# the CLI end to end, and the built-in selftest on every backend this CPU has.
# Installs nothing that a machine with Rust lacks; .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace --locked
cargo run --quiet --release --locked -p multiblock-cli -- selftest --thorough
bash scripts/ci/python.sh
bash scripts/ci/c.sh
bash scripts/ci/ct-valgrind.sh
bash scripts/ci/fuzz.sh
bash scripts/ci/kalyna-emu.sh
