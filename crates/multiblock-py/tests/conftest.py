"""Shared helpers: the JSON vectors of crates/multiblock/vectors and the mode table."""

import json
import pathlib

import pytest

VECTOR_DIR = pathlib.Path(__file__).resolve().parents[2] / "multiblock" / "vectors"
VECTOR_FILES = ["kalyna.json", "kuznyechik.json", "magma.json", "gost89.json", "ublock.json"]

MAC_MODES = {"mac", "omac-acpkm", "cmac", "gmac"}
AEAD_MODES = {"mgm", "gcm", "ccm"}
PARAM_NAMES = ["s", "m", "mac_bits", "tag_bits", "section_bytes", "key_section_bytes", "nb"]


def load_vectors():
    """Every vector of every file, each with `_id` naming it for pytest."""
    out = []
    for name in VECTOR_FILES:
        doc = json.loads((VECTOR_DIR / name).read_text())
        for i, v in enumerate(doc["vectors"]):
            v = dict(v)
            v["_id"] = f"{name[:-5]}#{i}-{v['cipher']}-{v['mode']}"
            out.append(v)
    return out


VECTORS = load_vectors()


KEY_BYTES = {"kalyna-128-128": 16, "ublock-128-128": 16, "kalyna-256-512": 64, "kalyna-512-512": 64}


def key_size(cipher, mode=None):
    """Key bytes of a cipher (32 unless listed), or of a mode on it: Kuznyechik's
    xts (IEEE 1619) takes two keys, K1 then K2."""
    if cipher == "kuznyechik" and mode == "xts":
        return 64
    return KEY_BYTES.get(cipher, 32)


def h(v, field):
    """A hex field of a vector as bytes (missing = empty)."""
    return bytes.fromhex(v.get(field, ""))


def call_args(v):
    """The keyword arguments of encrypt/decrypt/mac for a vector: iv, aad,
    sbox and every entry of `params`, named as the vectors name them."""
    kw = {}
    if "iv" in v:
        kw["iv"] = h(v, "iv")
    if "aad" in v:
        kw["aad"] = h(v, "aad")
    if "sbox" in v:
        kw["sbox"] = v["sbox"]
    for k, val in v.get("params", {}).items():
        kw[k] = val
    return kw


@pytest.fixture(scope="session")
def vectors():
    return VECTORS
