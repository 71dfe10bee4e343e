#!/usr/bin/env bash
# The Python package: installs crates/multiblock-py into a fresh virtual
# environment exactly as the README says (pip builds it with maturin, which
# pip fetches from PyPI), then runs its pytest suite. gostcrypto (pure
# Python, PyPI) is installed for the independent cross-check test.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Debian's python3 needs python3-venv for `-m venv` (ensurepip).
if ! python3 -c 'import ensurepip' 2>/dev/null; then
    apt-get update -qq && apt-get install -y -qq python3-venv
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
# The package's own build of the library (its own workspace and target
# directory) in parallel codegen units and without LTO: the same code
# paths as the release wheel, compiled in about half the time on CI's two
# cores. (A user's `pip install` keeps the release profile.)
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_LTO=off
"$work/venv/bin/pip" install --quiet --disable-pip-version-check ./crates/multiblock-py pytest gostcrypto
# From the crate's directory, `import multiblock` finds the installed package
# (the directory holds no Python package of that name).
cd crates/multiblock-py
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider tests
