#!/usr/bin/env bash
# The many-streams MACs against ECB, measured through the CLI in one run:
# `multiblock mac FILE...` over 64 files of 256 KiB against `multiblock
# encrypt --mode ecb` over one 16 MiB file (same bytes in total), for every
# serial MAC with a wide form. Prints, per job, the best of --reps runs of
# CPU time (`perf stat -e task-clock`, in µs: robust to other jobs on the
# machine, unlike wall time; wall time if perf is missing) and the ratio to ECB of the same
# cipher. Files live in a temporary directory (page cache warm after the
# first run).
#   scripts/mac-files-target.sh [REPS]     (default 7; needs a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-7}"
bin=./target/release/multiblock
[ -x "$bin" ] || { echo "build first: cargo build --release -p multiblock-cli" >&2; exit 2; }

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
for i in $(seq -w 0 63); do head -c $((256 << 10)) /dev/urandom > "$dir/f$i"; done
cat "$dir"/f* > "$dir/big"

use_perf=1
perf stat -e task-clock -x, true 2>&1 >/dev/null | grep -q '^[0-9.]*,msec,task-clock' || use_perf=0

# The best of $reps runs of "$@" (stdout discarded): CPU or wall microseconds.
best() {
    local b="" v
    "$@" > /dev/null # a failing command stops the script (set -e), not a fast "result"
    for _ in $(seq "$reps"); do
        if [ "$use_perf" = 1 ]; then
            v="$(perf stat -e task-clock -x, "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ { printf "%d", $1 * 1000 }')"
        else
            local t0 t1
            t0="$(date +%s%N)"; "$@" > /dev/null; t1="$(date +%s%N)"; v=$(((t1 - t0) / 1000))
        fi
        if [ -z "$b" ] || [ "$v" -lt "$b" ]; then b="$v"; fi
    done
    echo "$b"
}

unit=$([ "$use_perf" = 1 ] && echo "µs CPU (task-clock)" || echo "µs wall")
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $reps runs each, best; $unit"
printf '%-16s %-11s %14s %14s %7s\n' cipher mode "mac 64x256KiB" "ecb 16MiB" ratio
for job in kuznyechik:mac kuznyechik:omac-acpkm magma:mac magma:omac-acpkm \
           kalyna-128-128:cmac kalyna-256-256:cmac kalyna-512-512:cmac; do
    cipher="${job%%:*}" mode="${job#*:}"
    case "$cipher" in kalyna-*-128) kb=16 ;; kalyna-*-512) kb=64 ;; *) kb=32 ;; esac
    key="$(head -c "$kb" /dev/zero | tr '\0' '\021' | od -An -v -tx1 | tr -d ' \n')"
    ecb="$(best "$bin" encrypt --cipher "$cipher" --mode ecb --key "$key" --in "$dir/big")"
    mac="$(best "$bin" mac --cipher "$cipher" --mode "$mode" --key "$key" "$dir"/f*)"
    printf '%-16s %-11s %14s %14s %7s\n' "$cipher" "$mode" "$mac" "$ecb" \
        "$(python3 -c "import sys; print(f'{int(sys.argv[1]) / int(sys.argv[2]):.2f}')" "$mac" "$ecb")"
done
