#!/usr/bin/env bash
# Runs the shell examples of the documentation as a user would type them.
#
# Which blocks run: every fenced code block whose info string is `sh`,
# `bash` or `shell` in README.md and docs/*.md (or in the FILEs given).
# Python, C, Rust, INI and text blocks are not run.
#
# Convention to skip a block: put an HTML comment that starts with
# "not run" on the line right before its opening fence, with the reason:
#
#     <!-- not run: builds and installs -->
#     ```sh
#     cargo install --path crates/multiblock-cli
#     ```
#
# It is invisible on GitHub. Use it for blocks that install or build things
# (cargo install, pip, maturin, the C library, the OpenSSL provider), that
# run the benchmark or the test suite, or that need the repository's tree.
#
# How a block runs: in a fresh scratch directory outside the repository
# (mktemp -d, removed afterwards), by `bash -e -o pipefail`, with the release
# `multiblock` binary first on PATH (built with `cargo build --release
# --locked -p multiblock-cli` if it is absent; MULTIBLOCK_BIN=path to use
# another one). So every block must define what it uses (keys, nonces,
# input files) and every command in it must succeed: show an expected
# failure as `cmd || echo "exit status $?"`.
#
# The run fails, naming the block's file and line, when a block exits
# non-zero, and fails when `git status --porcelain` differs before and
# after (the examples must not write into the repository).
#
# Usage: scripts/ci/doc-examples.sh [FILE...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

if [ $# -gt 0 ]; then
    files=("$@")
else
    files=(README.md)
    for f in docs/*.md; do [ -f "$f" ] && files+=("$f"); done
fi

bin="${MULTIBLOCK_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/multiblock}"
if [ ! -x "$bin" ]; then
    echo "doc-examples.sh: building the release binary" >&2
    cargo build --release --locked -p multiblock-cli >&2
fi
[ -x "$bin" ] || { echo "doc-examples.sh: no binary at $bin" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/blocks"
ln -s "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" "$work/bin/multiblock"

before="$(git status --porcelain)"

# Cut the blocks out: one file per block, and an index line
# FILE, LINE, run|skip, REASON, BLOCKFILE separated by the unit separator
# (0x1f: not whitespace, so an empty reason stays a field).
python3 - "$work/blocks" "${files[@]}" > "$work/index" <<'PY'
import re, sys
out, paths = sys.argv[1], sys.argv[2:]
fence_re = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)")
skip_re = re.compile(r"^\s*<!--\s*not run\b:?\s*(.*?)\s*-->\s*$")
count = 0
for path in paths:
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    i = 0
    while i < len(lines):
        m = fence_re.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(2), m.group(3).lower(), i
        body = []
        i += 1
        while i < len(lines) and not (lines[i].strip().startswith(fence) and lines[i].strip().strip(fence[0]) == ""):
            body.append(lines[i][len(m.group(1)):] if lines[i].startswith(m.group(1)) else lines[i])
            i += 1
        i += 1
        if lang not in ("sh", "bash", "shell"):
            continue
        skip = skip_re.match(lines[start - 1]) if start > 0 else None
        count += 1
        name = f"{out}/block{count}.sh"
        with open(name, "w", encoding="utf-8") as b:
            b.write("\n".join(body) + "\n")
        reason = skip.group(1) if skip else ""
        print("\x1f".join([path, str(start + 1), "skip" if skip else "run", reason, name]))
PY

ran=0 skipped=0 failed=0
while IFS=$'\x1f' read -r file line action reason block; do
    if [ "$action" = skip ]; then
        skipped=$((skipped + 1))
        echo "skip $file:$line (${reason:-not run})"
        continue
    fi
    ran=$((ran + 1))
    scratch="$(mktemp -d)"
    if (cd "$scratch" && PATH="$work/bin:$PATH" timeout 600 bash -e -o pipefail "$block") </dev/null >"$work/out" 2>&1; then
        echo "ok   $file:$line"
    else
        status=$?
        failed=$((failed + 1))
        echo "FAIL $file:$line (exit status $status); the block and its output:"
        sed 's/^/    | /' "$block"
        sed 's/^/    > /' "$work/out"
    fi
    rm -rf "$scratch"
done < "$work/index"

after="$(git status --porcelain)"
if [ "$before" != "$after" ]; then
    echo "doc-examples.sh: the examples changed the repository (git status --porcelain before and after):" >&2
    diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") >&2 || true
    failed=$((failed + 1))
fi

echo "doc-examples.sh: $ran run, $skipped skipped, $failed failed"
[ "$failed" -eq 0 ]
