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
# Each step's wall time goes to stderr, to keep the whole run under CI's
# budget, with how busy the cores were meanwhile: the share of the run's
# own steps and the share of the background jobs below (niced), from
# /proc/stat.
cpu_ticks() { awk '/^cpu /{print $2 + $4 + $7 + $8, $3, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat 2>/dev/null || echo 0 0 0; }
step() {
  local start=$SECONDS before after
  before=$(cpu_ticks)
  "$@"
  after=$(cpu_ticks)
  echo "test.sh: $* took $((SECONDS - start)) s$(awk -v b="$before" -v a="$after" 'BEGIN {
    split(b, x, " "); split(a, y, " "); t = y[3] - x[3]
    if (t > 0) printf " (cores busy: %d%% steps, %d%% background)", 100 * (y[1] - x[1]) / t, 100 * (y[2] - x[2]) / t }')" >&2
}
# Steps install Debian packages as they need them, and the background jobs
# do too: apt waits for another's lock instead of failing.
apt_config=$(mktemp)
echo 'DPkg::Lock::Timeout "900";' >"$apt_config"
export APT_CONFIG=$apt_config
# Two long jobs that need no core of their own run in the background at the
# lowest priority, so that they fill the time in which the steps leave a
# core idle (the single-threaded parts of every build, the test runs, the
# Valgrind steps): the steps come first whenever more threads want to run
# than there are cores. Each is collected (waited for, its output printed)
# before the first step that needs it:
#  - `openssl`: OpenSSL 3.5 and 4.0 built from source for the provider's
#    tests (scripts/ci/openssl-build.sh; about 3 minutes of both cores
#    each, nothing once cached in ~/.cache/multiblock);
#  - `emulated`: the backends this CPU lacks (AVX-512, GFNI) in an emulator
#    that keeps one core busy for about eleven minutes
#    (scripts/ci/emulated.sh), on the release build of the CLI and
#    ct-trace, so it starts once they are built; on a CPU with every
#    backend it ends at once.
declare -A bg_pid bg_log
trap 'for p in "${bg_pid[@]}"; do kill -- "-$p" 2>/dev/null || true; done' EXIT
background() {
  local name=$1
  shift
  bg_log[$name]=$(mktemp)
  # setsid gives the job a process group the trap can end as a whole;
  # where the kernel schedules by setsid group (autogroup), that group is
  # also a scheduling group of its own: it gets the lowest priority too,
  # or it would take a core's worth of time from the steps' group
  # whatever its tasks' nice value.
  setsid bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 "$@"' background "$@" \
    >"${bg_log[$name]}" 2>&1 </dev/null &
  bg_pid[$name]=$!
}
collect() {
  local rc=0
  wait "${bg_pid[$1]}" || rc=$?
  cat "${bg_log[$1]}"
  unset "bg_pid[$1]"
  return $rc
}
# The documentation first (seconds): no history in the product, every
# relative link and anchor resolves.
step bash scripts/ci/history.sh
step python3 scripts/ci/links.py
# Layers: no import cycle among the top-level modules of each crate, nor
# among the children of any directory module.
step python3 scripts/ci/module-cycles.py --every crates/multiblock/src crates/multiblock-cli/src crates/multiblock-bench/src crates/multiblock-c/src crates/multiblock-py/src crates/multiblock-ct/src
background openssl bash -c 'bash scripts/ci/openssl-build.sh 3.5 && bash scripts/ci/openssl-build.sh 4.0'
step cargo test --workspace --locked
step bash scripts/ci/package.sh --no-doctest   # docs with -D warnings, cargo package (doctests ran above)
# Two calls, each as the later steps build it (one call would unify the
# two packages' dependency features and build the library a second time).
step cargo build --quiet --release --locked -p multiblock-cli
step cargo build --quiet --release --locked -p multiblock-ct --bin ct-trace
background emulated bash scripts/ci/emulated.sh
step cargo run --quiet --release --locked -p multiblock-cli -- selftest --thorough
step bash scripts/ci/doc-examples.sh   # the shell examples of README.md and docs/, verbatim
step bash scripts/ci/python.sh
step bash scripts/ci/c.sh
step bash scripts/ci/fallback.sh
step bash scripts/ci/ct-valgrind.sh
step bash scripts/ci/ct-trace.sh
step bash scripts/ci/fuzz.sh
# The provider on the system's OpenSSL 3.0 and on the two built above.
step collect openssl
step bash scripts/ci/openssl-provider.sh
step bash scripts/ci/aarch64.sh
step collect emulated
