#!/usr/bin/env bash
# The CLI's streaming speed against `multiblock-bench --threads N`,
# in the same run: CTR encryption of a page-cached file to
# stdout (/dev/null and a pipe into cat), and to --out with and without
# the time of the fsync before the rename; then MGM of a 1 GiB file with
# its peak RSS. Best of REPS runs each. Usage:
#   scripts/cli-stream-speed.sh [THREADS] [MIB] [REPS]
set -euo pipefail
threads=${1:-2}
mib=${2:-512}
reps=${3:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${MULTIBLOCK_BIN:-$root/target/release/multiblock}
bench_bin=${MULTIBLOCK_BENCH_BIN:-$root/target/release/multiblock-bench}
[ -x "$bin" ] || cargo build --release -q -p multiblock-cli --manifest-path "$root/Cargo.toml"
[ -x "$bench_bin" ] || cargo build --release -q -p multiblock-bench --manifest-path "$root/Cargo.toml"
dir=$(mktemp -d "${TMPDIR:-/tmp}/mb-speed.XXXXXX")
trap 'rm -rf "$dir"' EXIT
key=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
head -c "${mib}M" /dev/urandom >"$dir/in"
cat "$dir/in" >/dev/null
bytes=$((mib * 1048576))

# Best wall time in seconds of `reps` runs of the command.
best() {
    local b=""
    for _ in $(seq "$reps"); do
        local s e
        s=$(date +%s%N)
        "$@"
        e=$(date +%s%N)
        local t=$((e - s))
        if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
    done
    echo "$b" | awk '{ printf "%.3f", $1 / 1e9 }'
}
best_once() {
    local s e
    s=$(date +%s%N)
    "$@"
    e=$(date +%s%N)
    echo $((e - s)) | awk '{ printf "%.3f", $1 / 1e9 }'
}
rate() { awk -v b="$bytes" -v s="$1" 'BEGIN { printf "%.0f", b / s / 1e6 }'; }

enc=(encrypt --cipher kuznyechik --mode ctr --key "$key" --iv 0011223344556677 --threads "$threads" --quiet --in "$dir/in")
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
# The library's own rate over the same number of bytes, best of as many runs.
bench_rate() { "$bench_bin" --threads "$threads" --cipher kuznyechik --bytes "$bytes" --reps "$reps" --csv | tail -1 | cut -d, -f6; }
bench=$(bench_rate)
to_null() { "$bin" "${enc[@]}" >/dev/null; }
to_pipe() { "$bin" "${enc[@]}" | cat >/dev/null; }
to_file() { "$bin" "${enc[@]}" --out "$dir/out"; }
one() { "$bin" encrypt --cipher kuznyechik --mode ctr --key "$key" --iv 0011223344556677 --threads 1 --quiet --in "$dir/in" >/dev/null; }
# Pairs run back to back (bench over the same bytes, then the CLI to
# /dev/null), so that a busy neighbour weighs on both: the median ratio.
ratios=()
for _ in $(seq "$reps"); do
    b=$("$bench_bin" --threads "$threads" --cipher kuznyechik --bytes "$bytes" --reps 1 --csv | tail -1 | cut -d, -f6)
    t=$(best_once to_null)
    ratios+=("$(awk -v b="$b" -v r="$(rate "$t")" 'BEGIN { printf "%.3f", r / b }')")
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
t1=$(best one)
tn=$(best to_null)
tp=$(best to_pipe)
tf=$(best to_file)
bench2=$(bench_rate)
printf 'multiblock-bench --threads %s (before, after): %s, %s MB/s\n' "$threads" "$bench" "$bench2"
printf 'CLI 1 thread to /dev/null:            %s s  %s MB/s\n' "$t1" "$(rate "$t1")"
printf 'CLI %s threads to /dev/null:           %s s  %s MB/s  (%s%% of bench)\n' "$threads" "$tn" "$(rate "$tn")" \
    "$(awk -v r="$(rate "$tn")" -v b="$bench" -v c="$bench2" 'BEGIN { m = b > c ? b : c; printf "%.0f", 100 * r / m }')"
printf 'CLI / bench in back-to-back pairs: %s (median of %s: %s)\n' "$median" "$reps" "${ratios[*]}"
printf 'CLI %s threads | cat >/dev/null:       %s s  %s MB/s\n' "$threads" "$tp" "$(rate "$tp")"
printf 'CLI %s threads --out (with fsync):     %s s  %s MB/s\n' "$threads" "$tf" "$(rate "$tf")"
# The same write without the fsync: to a file through the shell, not --out.
tw=$(best sh -c '"$0" "$@" > "'"$dir"'/plain-out"' "$bin" "${enc[@]}")
printf 'CLI %s threads > file (no fsync):      %s s  %s MB/s  (fsync + rename: ~%s s)\n' "$threads" "$tw" "$(rate "$tw")" \
    "$(awk -v a="$tf" -v b="$tw" 'BEGIN { printf "%.2f", a - b }')"
# MGM, 1 GiB, sparse input: peak RSS.
truncate -s 1G "$dir/big"
rm -f "$dir/out"
/usr/bin/time -f 'MGM 1 GiB encrypt --out: %e s, peak RSS %M KiB' "$bin" encrypt --cipher kuznyechik --mode mgm \
    --key "$key" --iv 00112233445566778899aabbccddeeff --threads "$threads" --quiet --in "$dir/big" --out "$dir/out"
/usr/bin/time -f 'MGM 1 GiB decrypt to stdout (spooled): %e s, peak RSS %M KiB' "$bin" decrypt --cipher kuznyechik \
    --mode mgm --key "$key" --iv 00112233445566778899aabbccddeeff --threads "$threads" --quiet --in "$dir/out" >/dev/null
