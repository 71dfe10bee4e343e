#!/usr/bin/env bash
# Runs every test of the project: the documentation's wording, links and
# shell examples; the library's vectors, cross-checks and doctests; the
# packaging (cargo doc, cargo package); the CLI end to end; the built-in
# selftest on every backend this CPU has; the Python package (its abi3
# wheel in a fresh venv); the C library and the OpenSSL provider on
# OpenSSL 3.0, 3.5 and 4.0 (with gostprov interop on 3.0, and misuse
# batteries under Valgrind and ASan); the constant-time checks (Valgrind
# memcheck with secrets marked; differential machine-code traces of every
# constant-time backend); a short fuzz run of every target; the backends
# this CPU lacks (AVX-512, GFNI) under an emulated Tiger Lake CPU, their
# selftest and traces; the portable fallbacks
# with every CPU feature disabled (MULTIBLOCK_DISABLE=all);
# and the aarch64 build with its NEON backends under qemu-user. Each
# scripts/ci/ step installs what it needs (apt-get, pip, cargo); .ci/run
# calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Python package and the fuzz targets have lockfiles of their own: fail
# fast (and say so) when a library dependency changed without them.
for m in crates/multiblock-py/Cargo.toml fuzz/Cargo.toml; do
  cargo metadata --locked --offline --format-version 1 --manifest-path "$m" >/dev/null 2>&1 ||
    cargo metadata --locked --format-version 1 --manifest-path "$m" >/dev/null
done
# A fresh build gains nothing from incremental compilation's caches; and
# every release build of CI carries line tables, which the constant-time
# checks need for their reports, so one build of the library serves the
# selftest, the C library, the provider and both checks.
export CARGO_INCREMENTAL=0
export CARGO_PROFILE_RELEASE_DEBUG=line-tables-only
# Each step's wall time goes to stderr, to keep the whole run under CI's budget.
step() {
  local start=$SECONDS
  "$@"
  echo "test.sh: $* took $((SECONDS - start)) s" >&2
}
# Steps install Debian packages as they need them, and one step runs in the
# background: apt waits for another's lock instead of failing.
apt_config=$(mktemp)
echo 'DPkg::Lock::Timeout "900";' >"$apt_config"
export APT_CONFIG=$apt_config
# The backends this CPU lacks (AVX-512, GFNI) run in an emulator that keeps
# one core busy for about eleven minutes (scripts/ci/emulated.sh), on the
# release build of the CLI and ct-trace: it starts in the background once
# they are built (below), at the lowest priority (the other steps come
# first when more threads want to run than there are cores; on a 2-vCPU VM
# the two still slow each other), and is collected after the last step.
# On a CPU with every backend it ends at once.
emulated_log=$(mktemp)
emulated_pid=
trap '[ -z "$emulated_pid" ] || kill -- "-$emulated_pid" 2>/dev/null || true' EXIT
start_emulated() {
  nice -n 19 setsid bash scripts/ci/emulated.sh >"$emulated_log" 2>&1 </dev/null &
  emulated_pid=$!
}
collect_emulated() {
  local rc=0
  wait "$emulated_pid" || rc=$?
  cat "$emulated_log"
  return $rc
}
# The documentation first (seconds): no history in the product, every
# relative link and anchor resolves.
step bash scripts/ci/history.sh
step python3 scripts/ci/links.py
step python3 scripts/ci/module-cycles.py crates/multiblock/src crates/multiblock-cli/src crates/multiblock-bench/src crates/multiblock-c/src crates/multiblock-py/src crates/multiblock-ct/src
# inside the library's directory modules that are free of cycles
step python3 scripts/ci/module-cycles.py crates/multiblock/src --inside modes --inside modes::dstu --inside modes::gost --inside modes::gf --inside modes::many --inside magma --inside bitslice --inside kernel --inside hash --inside kdf --inside wrap
step cargo test --workspace --locked
step bash scripts/ci/package.sh --no-doctest   # docs with -D warnings, cargo package (doctests ran above)
# Two calls, each as the later steps build it (one call would unify the
# two packages' dependency features and build the library a second time).
step cargo build --quiet --release --locked -p multiblock-cli
step cargo build --quiet --release --locked -p multiblock-ct --bin ct-trace
start_emulated
step cargo run --quiet --release --locked -p multiblock-cli -- selftest --thorough
step bash scripts/ci/doc-examples.sh   # the shell examples of README.md and docs/, verbatim
step bash scripts/ci/python.sh
step bash scripts/ci/c.sh
# OpenSSL 3.5 and 4.0 for the provider, built from source once and cached
# in ~/.cache/multiblock (then each step takes no time); the provider step
# tests on them and on the system's 3.0.
step bash scripts/ci/openssl-build.sh 3.5
step bash scripts/ci/openssl-build.sh 4.0
step bash scripts/ci/openssl-provider.sh
step bash scripts/ci/fallback.sh
step bash scripts/ci/ct-valgrind.sh
step bash scripts/ci/ct-trace.sh
step bash scripts/ci/fuzz.sh
step bash scripts/ci/aarch64.sh
step collect_emulated
