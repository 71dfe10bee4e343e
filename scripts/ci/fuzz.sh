#!/usr/bin/env bash
# A short fuzz run for CI: builds every target of fuzz/ with libFuzzer's
# coverage instrumentation on stable Rust and runs each one for FUZZ_SECONDS
# (default 5) starting from its corpus in fuzz/corpus/<target>. A crash, a
# panic or a timeout fails the run; the input that caused it is written to
# fuzz/artifacts/<target>/ (replay: <binary> <that file>).
#
# No cargo-fuzz and no nightly: the flags below are the ones cargo-fuzz
# passes with `--sanitizer none`, none of them unstable, and libfuzzer-sys
# (crates.io) builds libFuzzer itself with the C++ compiler. Debug
# assertions and overflow checks come from fuzz/Cargo.toml's profile.
#
# Usage: scripts/ci/fuzz.sh [TARGET...]   (default: every target)
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${FUZZ_SECONDS:-5}
if ! command -v c++ >/dev/null; then
    apt-get update -qq && apt-get install -y -qq g++ >/dev/null
fi

host=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-sanitizer-coverage-stack-depth --cfg fuzzing"
# --target keeps RUSTFLAGS (the instrumentation) away from build scripts.
cargo build --release --locked --manifest-path fuzz/Cargo.toml --target "$host" --bins

bin_dir="${CARGO_TARGET_DIR:-fuzz/target}/$host/release"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=($(ls fuzz/fuzz_targets | sed -n 's/\.rs$//p'))
fi

passed=0
failed=0
for t in "${targets[@]}"; do
    scratch=$(mktemp -d)   # new inputs go here, not into the repository's corpus
    mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
    dict=()
    if [ -f "fuzz/dicts/$t.dict" ]; then dict=(-dict="fuzz/dicts/$t.dict"); fi
    if "$bin_dir/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 "${dict[@]}" \
        -artifact_prefix="fuzz/artifacts/$t/" "$scratch" "fuzz/corpus/$t" >"$scratch.log" 2>&1; then
        echo "fuzz $t: ok ($(grep -o 'Done [0-9]* runs' "$scratch.log" | tail -1 | cut -d' ' -f2) runs in ${seconds}s)"
        passed=$((passed + 1))
    else
        echo "fuzz $t: FAILED"
        grep -v '^#\|^INFO' "$scratch.log" | tail -40
        failed=$((failed + 1))
    fi
    rm -rf "$scratch" "$scratch.log"
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
