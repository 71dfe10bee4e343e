"""mac_many / encrypt_many against mac / encrypt one message at a
time (pinned by the vector tests): every cipher and MAC mode, the serial
cipher modes, 1 to 80 messages of random lengths; the vectors' own results
in their place among other messages; errors as the one-message calls."""

import random

import pytest

import multiblock
from conftest import MAC_MODES, VECTORS, key_size
from test_roundtrip import CASES, block_size, configs

MAC_CASES = [(c, m) for c in multiblock.ciphers() for m in multiblock.modes(c) if m in MAC_MODES]
SERIAL = [(c, m) for c, m in CASES if m in ("cbc", "cfb", "ofb", "ctr", "cnt")]


def lengths(rng, n, count, whole, shortest):
    """Empty, one byte, around one and two blocks, up to 40 blocks."""
    out = []
    for _ in range(count):
        length = rng.choice([0, 1, n - 1, n, n + 1, 2 * n + 3, rng.randrange(40 * n)])
        out.append(max(shortest, length - length % n if whole else length))
    return out


@pytest.mark.parametrize("cipher,mode", MAC_CASES, ids=[f"{c}-{m}" for c, m in MAC_CASES])
def test_mac_many_equals_mac(cipher, mode):
    rng = random.Random(f"many/{cipher}/{mode}")
    n = block_size(cipher)
    kw = {"iv": rng.randbytes(n)} if mode == "gmac" else {}
    # The DSTU cmac and gmac and GOST 28147-89's MAC refuse an empty message.
    refuses_empty = mode in ("cmac", "gmac") or cipher == "gost89"
    shortest = 1 if refuses_empty else 0
    for _ in range(3):
        key = rng.randbytes(key_size(cipher))
        msgs = [rng.randbytes(l) for l in lengths(rng, n, 1 + rng.randrange(80), False, shortest)]
        got = multiblock.mac_many(cipher, mode, key, msgs, **kw)
        assert got == [multiblock.mac(cipher, mode, key, m, **kw) for m in msgs]
    if refuses_empty:
        with pytest.raises(ValueError) as many:
            multiblock.mac_many(cipher, mode, key, [b"x" * n, b""], **kw)
        with pytest.raises(ValueError) as one:
            multiblock.mac(cipher, mode, key, b"", **kw)
        assert str(many.value) == str(one.value)


@pytest.mark.parametrize("cipher,mode", SERIAL, ids=[f"{c}-{m}" for c, m in SERIAL])
def test_encrypt_many_equals_encrypt(cipher, mode):
    rng = random.Random(f"many/{cipher}/{mode}")
    n = block_size(cipher)
    for kw, partial, shortest in configs(cipher, mode, n, rng):
        key = rng.randbytes(key_size(cipher))
        msgs = [rng.randbytes(l) for l in lengths(rng, n, 1 + rng.randrange(80), not partial, shortest)]
        # Buffers of other kinds than bytes are read as the one-message calls read them.
        msgs = [bytearray(m) if i % 3 == 0 else memoryview(m) if i % 3 == 1 else m for i, m in enumerate(msgs)]
        got = multiblock.encrypt_many(cipher, mode, key, msgs, **kw)
        assert got == [multiblock.encrypt(cipher, mode, key, bytes(m), **kw) for m in msgs], kw


SERIAL_VECTORS = [v for v in VECTORS if v["mode"] in ("cbc", "cfb", "ofb", "mac", "omac-acpkm", "cmac")
                  and v.get("iterations", 1) == 1]


@pytest.mark.parametrize("v", SERIAL_VECTORS, ids=[v["_id"] for v in SERIAL_VECTORS])
def test_vector_among_other_messages(v):
    """The standard's result at its place among random messages of related
    lengths (whole blocks stay whole)."""
    rng = random.Random(v["_id"])
    pt = bytes.fromhex(v["plaintext"])
    n = block_size(v["cipher"])
    msgs = [rng.randbytes(len(pt) + n), pt, rng.randbytes(3 * len(pt) + 5 * n)]
    kw = dict(v.get("params", {}))
    if v.get("iv"):
        kw["iv"] = bytes.fromhex(v["iv"])
    if v.get("sbox"):
        kw["sbox"] = v["sbox"]
    key = bytes.fromhex(v["key"])
    if v["mode"] in MAC_MODES:
        got = multiblock.mac_many(v["cipher"], v["mode"], key, msgs, **kw)
        assert got[1] == bytes.fromhex(v["tag"])
    else:
        got = multiblock.encrypt_many(v["cipher"], v["mode"], key, msgs, **kw)
        assert got[1] == bytes.fromhex(v["ciphertext"])


def test_errors_are_the_one_message_errors():
    key = bytes(32)
    with pytest.raises(ValueError) as e:
        multiblock.mac_many("kuznyechik", "mac", bytes(31), [b"x"])
    assert "32 bytes" in str(e.value)
    with pytest.raises(ValueError) as e:
        multiblock.encrypt_many("kuznyechik", "cbc", key, [bytes(16), bytes(5)], iv=bytes(16))
    assert "whole 16-byte blocks" in str(e.value)
    with pytest.raises(ValueError):
        multiblock.encrypt_many("kuznyechik", "mac", key, [b""])
    with pytest.raises(TypeError):
        multiblock.mac_many("kuznyechik", "mac", key, [b"ok", 5])
    assert multiblock.mac_many("kuznyechik", "mac", key, []) == []


@pytest.mark.parametrize("cipher,mode,kw", [
    ("kuznyechik", "mgm", {"iv": bytes(16)}),
    ("kalyna-128-128", "gcm", {"iv": bytes(16)}),
    ("kalyna-128-128", "ccm", {"iv": bytes(16)}),
    ("kalyna-128-128", "kw", {}),
])
def test_encrypt_many_refuses_aead_and_kw(cipher, mode, kw):
    """Each AEAD message needs its own nonce and each wrapped key its own
    check: encrypt_many sends them to encrypt(), one message at a time."""
    key = bytes(key_size(cipher))
    # The same messages one at a time are fine.
    msgs = [bytes(range(32)), bytes(48)]
    assert [multiblock.encrypt(cipher, mode, key, m, **kw) for m in msgs]
    with pytest.raises(ValueError, match="one at a time"):
        multiblock.encrypt_many(cipher, mode, key, msgs, **kw)


def test_encrypt_many_takes_no_aad():
    with pytest.raises(TypeError, match="aad"):
        multiblock.encrypt_many("kuznyechik", "cbc", bytes(32), [bytes(16)], iv=bytes(16), aad=b"header")
