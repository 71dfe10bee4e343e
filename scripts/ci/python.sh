#!/usr/bin/env bash
# The Python package: builds the abi3 wheel of crates/multiblock-py with
# maturin (installed from PyPI into a build venv), checks what the wheel
# holds, installs that wheel (not the source tree) into a fresh venv and
# runs the pytest suite against it. gostcrypto (pure Python, PyPI) is
# installed for the independent cross-check test.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Debian's python3 needs python3-venv for `-m venv` (ensurepip).
if ! python3 -c 'import ensurepip' 2>/dev/null; then
    apt-get update -qq && apt-get install -y -qq python3-venv
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pip_quiet=(--quiet --disable-pip-version-check)

python3 -m venv "$work/build"
"$work/build/bin/pip" install "${pip_quiet[@]}" 'maturin>=1.8,<2.0'
# The package's own build of the library (its own workspace and target
# directory) in parallel codegen units and without LTO: the same code
# paths as the release wheel, compiled in about half the time on CI's two
# cores. (A user's `maturin build --release` keeps the release profile.)
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_LTO=off
"$work/build/bin/maturin" build --release --quiet -m crates/multiblock-py/Cargo.toml --out "$work/wheels"

# One wheel for every CPython from 3.9 on, with its type stub and marker.
wheel="$(echo "$work"/wheels/multiblock-*.whl)"
python3 - "$wheel" <<'EOF'
import sys, zipfile
path = sys.argv[1]
name = path.rsplit("/", 1)[-1]
assert "-cp39-abi3-" in name, f"not an abi3 wheel for CPython >= 3.9: {name}"
files = set(zipfile.ZipFile(path).namelist())
for want in ("multiblock/__init__.pyi", "multiblock/py.typed"):
    assert want in files, f"{name} lacks {want}: {sorted(files)}"
print(f"wheel: {name}")
EOF

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install "${pip_quiet[@]}" "$wheel" pytest gostcrypto
# From the crate's directory, `import multiblock` finds the installed wheel
# (the directory holds no Python package of that name).
cd crates/multiblock-py
"$work/venv/bin/python" -c 'import multiblock, sys; print("testing", multiblock.__file__, "on Python", sys.version.split()[0])'
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider tests
