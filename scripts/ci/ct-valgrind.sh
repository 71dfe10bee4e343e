#!/usr/bin/env bash
# Constant-time check (README, "Security"): runs crates/multiblock-ct's
# `ct-check` under Valgrind memcheck with keys and data marked undefined, so
# every branch or memory address that depends on them is reported.
#  1. every backend flagged constant_time that this CPU runs, every cipher
#     (every gost89 S-box set), key setup + encrypt + decrypt, and the modes
#     that handle secrets: memcheck must report nothing (--error-exitcode);
#     `portable` also once more in SSE2's encoding (it runs in AVX's where
#     the CPU has AVX, simd/baseline.rs);
#  2. every backend not flagged constant_time (table, table12, reference):
#     memcheck must report each one, which shows the check can fail.
# Needs valgrind (and its header valgrind/memcheck.h, same Debian package).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v valgrind >/dev/null || [ ! -f /usr/include/valgrind/memcheck.h ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
fi

# The release build, with line tables so that the reports name the (inlined)
# functions; test.sh sets the same for every release build of CI, so the
# library compiled for the selftest is reused here.
export CARGO_PROFILE_RELEASE_DEBUG=${CARGO_PROFILE_RELEASE_DEBUG:-line-tables-only}
cargo build --quiet --locked --release -p multiblock-ct --bin ct-check
bin="${CARGO_TARGET_DIR:-target}/release/ct-check"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
vg=(valgrind --quiet --tool=memcheck --num-callers=16 --suppressions=scripts/ci/ct-valgrind.supp)

echo "ct-valgrind: constant-time backends and modes (memcheck must report nothing)"
"${vg[@]}" --error-exitcode=1 "$bin" ct

echo "ct-valgrind: portable in SSE2's encoding (MULTIBLOCK_DISABLE=avx: what CPUs without AVX run)"
MULTIBLOCK_DISABLE=avx "${vg[@]}" --error-exitcode=1 "$bin" ct "on portable"

echo "ct-valgrind: table/table12/reference backends (memcheck must flag each one)"
if ! "${vg[@]}" --log-file="$log" "$bin" leaky; then
    echo "ct-valgrind: the check did not flag a non-constant-time backend; valgrind log:" >&2
    tail -n 60 "$log" >&2
    exit 1
fi
