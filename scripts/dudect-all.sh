#!/usr/bin/env bash
# dudect on every constant-time backend this CPU runs (on demand, not in CI:
# statistics need minutes of quiet machine). Prints a Markdown table of the
# largest |t| per backend, over the data_*, key_*, hash_* and hmac_* tests of every cipher and hash
# that has the backend, and the test that gave it. |t| > 5 means the two
# input classes are told apart by timing.
#
#   bash scripts/dudect-all.sh [SAMPLES]      # default 100000 per test
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-100000}
cargo build --quiet --release --locked -p multiblock-cli -p multiblock-ct --features multiblock-ct/dudect --bin multiblock --bin dudect
bin="${CARGO_TARGET_DIR:-target}/release"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
# Constant-time backends this CPU runs, from `multiblock info`.
backends=$("$bin/multiblock" info | awk '$3 == "yes" && $5 != "unavailable" { print $2 }' | sort -u)
echo "dudect, $samples samples per test, on $cpu"
echo
echo "| backend | tests | max \|t\| | in test |"
echo "|---|---|---|---|"
for b in $backends; do
    out=$("$bin/dudect" --backend "$b" --samples "$samples" 2>&1)
    echo "$out" | awk -v b="$b" '
        / max t = / {
            n++; t = $0; sub(/.*max t = /, "", t); sub(/,.*/, "", t); t = t + 0; a = t < 0 ? -t : t
            if (a >= best) { best = a; test = $2 }
        }
        END { printf "| `%s` | %d | %.2f | %s |\n", b, n, best, test }'
done
