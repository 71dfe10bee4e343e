#!/usr/bin/env python3
"""Turns crates/multiblock/vectors/*.json into lines that test_vectors.c reads (C has no
JSON parser). One vector per line, space-separated `name=value` fields:

    cipher=kuznyechik mode=mgm key=<hex> iv=<hex> aad=<hex> pt=<hex> ct=<hex>
    tag=<hex> sbox=<name> iterations=<n> s=<n> ... nb=<n> src=<file>#<index>

A field that the vector lacks is left out (an empty hex string is `pt=`).
Any field or parameter this script does not know stops it with an error, so
a new kind of vector cannot be skipped silently.

Usage: vectors_to_lines.py VECTOR_DIR > vectors.txt
"""

import json
import pathlib
import re
import sys

HEX_FIELDS = {"key": "key", "iv": "iv", "aad": "aad", "plaintext": "pt", "ciphertext": "ct", "tag": "tag"}
NAME_FIELDS = {"cipher", "mode", "sbox"}
PARAMS = ["s", "m", "mac_bits", "tag_bits", "section_bytes", "key_section_bytes", "nb"]
IGNORED = {"source", "verified_by"}


def convert(path, index, v):
    where = f"{path.name}#{index}"
    fields = []
    for k in ("cipher", "mode"):
        if k not in v:
            sys.exit(f"{where}: no '{k}'")
    for k, value in v.items():
        if k in IGNORED:
            continue
        if k in NAME_FIELDS:
            if not re.fullmatch(r"[a-z0-9-]+", value):
                sys.exit(f"{where}: odd {k} '{value}'")
            fields.append(f"{k}={value}")
        elif k in HEX_FIELDS:
            h = "".join(value.split()).lower()
            if len(h) % 2 or not re.fullmatch(r"[0-9a-f]*", h):
                sys.exit(f"{where}: {k} is not hex")
            fields.append(f"{HEX_FIELDS[k]}={h}")
        elif k == "iterations":
            fields.append(f"iterations={int(value)}")
        elif k == "params":
            for p, x in value.items():
                if p not in PARAMS or not isinstance(x, int) or x <= 0:
                    sys.exit(f"{where}: unknown parameter {p}={x!r}")
                fields.append(f"{p}={x}")
        else:
            sys.exit(f"{where}: unknown field '{k}'")
    fields.append(f"src={where}")
    return " ".join(fields)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    files = sorted(pathlib.Path(sys.argv[1]).glob("*.json"))
    if not files:
        sys.exit(f"no *.json in {sys.argv[1]}")
    for path in files:
        doc = json.loads(path.read_text())
        for i, v in enumerate(doc["vectors"]):
            print(convert(path, i, v))


if __name__ == "__main__":
    main()
