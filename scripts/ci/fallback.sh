#!/usr/bin/env bash
# The portable fallbacks (docs/security.md): with MULTIBLOCK_DISABLE=all
# detection sees no CPU feature, so every cipher and hash runs its portable
# constant-time backend. `info` must show a constant-time default for every
# cipher and hash (Magma, GOST 28147-89, uBlock and the hashes: `portable`),
# and `selftest` must pass that way; then the same without AVX2 alone. Quick: one release build of the CLI, which test.sh has
# already made.
set -euo pipefail
cd "$(dirname "$0")/../.."

cargo build --quiet --release --locked -p multiblock-cli
bin="${CARGO_TARGET_DIR:-target}/release/multiblock"

info=$(MULTIBLOCK_DISABLE=all "$bin" info)
echo "$info"
grep -q '^MULTIBLOCK_DISABLE: treated as absent: all$' <<<"$info"
# Columns: cipher or hash, backend, constant-time, ways, status (11 ciphers, 5 hashes).
defaults=$(awk '$5 == "default" && NF == 5' <<<"$info")
[ "$(wc -l <<<"$defaults")" -eq 16 ] || { echo "fallback: not one default per cipher and hash" >&2; exit 1; }
if awk '$3 != "yes"' <<<"$defaults" | grep -q .; then
    echo "fallback: a default that is not constant-time:" >&2
    awk '$3 != "yes"' <<<"$defaults" >&2
    exit 1
fi
for c in magma gost89 ublock-128-128 ublock-128-256 ublock-256-256 streebog-256 streebog-512 kupyna-256 kupyna-384 kupyna-512; do
    awk -v c="$c" '$1 == c && $2 == "portable"' <<<"$defaults" | grep -q . ||
        { echo "fallback: $c's default is not portable" >&2; exit 1; }
done
MULTIBLOCK_DISABLE=all "$bin" selftest
echo "fallback: every default constant-time with MULTIBLOCK_DISABLE=all; selftest passed"

# Without AVX2 (an x86 CPU of SSSE3 only): the hashes' default is `ssse3`,
# and selftest passes that way.
if grep -qw ssse3 /proc/cpuinfo 2>/dev/null; then
    info=$(MULTIBLOCK_DISABLE=avx2 "$bin" info)
    defaults=$(awk '$5 == "default" && NF == 5' <<<"$info")
    for h in streebog-256 streebog-512 kupyna-256 kupyna-384 kupyna-512; do
        awk -v h="$h" '$1 == h && $2 == "ssse3" && $3 == "yes"' <<<"$defaults" | grep -q . ||
            { echo "fallback: without AVX2, $h's default is not ssse3" >&2; awk -v h="$h" '$1 == h' <<<"$defaults" >&2; exit 1; }
    done
    MULTIBLOCK_DISABLE=avx2 "$bin" selftest
    echo "fallback: without AVX2 every hash defaults to ssse3; selftest passed"
fi
