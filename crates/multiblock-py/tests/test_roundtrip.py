"""Random round trips over many lengths for every cipher and mode, and
properties that tie the paths together: a stream mode's output for a prefix
is the prefix of its output (also across the 64 KiB GIL-release size), ECB
through encrypt() equals Cipher.encrypt_blocks, every backend agrees."""

import random

import pytest

import multiblock
from conftest import AEAD_MODES, MAC_MODES, key_size

CIPHERS = multiblock.ciphers()
LENGTHS = list(range(0, 70)) + [127, 128, 129, 255, 256, 257, 1000, 4099]
STREAM_MODES = {"ctr", "ofb", "cfb", "cnt", "ctr-acpkm"}


def block_size(cipher):
    return multiblock.Cipher(cipher, bytes(key_size(cipher))).block_size


def configs(cipher, mode, n, rng):
    """(keyword arguments, takes partial blocks, shortest length) of a mode."""
    gost_r = cipher in ("kuznyechik", "magma")
    iv = rng.randbytes(n)
    if mode == "ecb":
        return [({}, False, 0), ({"padding": "pkcs7"}, True, 0), ({"padding": "gost2"}, True, 0)]
    if mode == "cbc":
        ivs = [iv, rng.randbytes(3 * n)] if gost_r else [iv]
        return [({"iv": i}, False, 0) for i in ivs] + [({"iv": iv, "padding": "pkcs7"}, True, 0)]
    if mode in ("ctr", "ctr-acpkm") and gost_r:
        half = rng.randbytes(n // 2)
        extra = {"section_bytes": 2 * n} if mode == "ctr-acpkm" else {"s": 8}
        return [({"iv": half}, True, 0), ({"iv": half, **extra}, True, 0)]
    if mode in ("ofb", "cfb") and gost_r:
        return [({"iv": iv}, True, 0), ({"iv": rng.randbytes(2 * n), "s": 8}, True, 0)]
    if mode == "mgm":
        nonce = bytes([iv[0] & 0x7F]) + iv[1:]
        return [({"iv": nonce, "aad": rng.randbytes(rng.randrange(40))}, True, 0),
                ({"iv": nonce, "tag_bits": 32}, True, 0)]
    if mode in ("cnt", "cfb") and cipher == "gost89":
        return [({"iv": iv}, True, 0), ({"iv": iv, "key_meshing": True}, True, 0)]
    if mode in ("ctr", "ofb"):
        return [({"iv": iv}, True, 0)]
    if mode == "cfb":
        return [({"iv": iv}, True, 0), ({"iv": iv, "s": 64}, True, 0)]
    if mode == "xts" and cipher == "kuznyechik":
        # IEEE 1619: one unit with the tweak as IV; 64-byte data units from 2^64 - 1.
        return [({"iv": iv}, True, n), ({"data_unit": 64, "unit": 2**64 - 1}, False, n)]
    if mode == "xts":
        return [({"iv": iv}, True, n)]
    if mode == "gcm":
        return [({"iv": iv, "aad": rng.randbytes(1 + rng.randrange(2 * n))}, True, 0),
                ({"iv": iv, "tag_bits": 64}, True, 1)]
    if mode == "ccm":
        return [({"iv": iv, "aad": rng.randbytes(rng.randrange(2 * n)), "nb": 4, "tag_bits": 64}, True, 1),
                ({"iv": iv}, True, 1)]
    if mode == "kw":
        return [({}, False, n)]
    raise AssertionError(f"no round-trip configuration for {cipher} {mode}")


CASES = [(c, m) for c in CIPHERS for m in multiblock.modes(c) if m not in MAC_MODES]


@pytest.mark.parametrize("cipher,mode", CASES, ids=[f"{c}-{m}" for c, m in CASES])
def test_round_trip_at_many_lengths(cipher, mode):
    rng = random.Random(f"{cipher}/{mode}")
    n = block_size(cipher)
    for kw, partial, shortest in configs(cipher, mode, n, rng):
        key = rng.randbytes(key_size(cipher, mode))
        for length in LENGTHS:
            if length < shortest or (not partial and length % n):
                continue
            data = rng.randbytes(length)
            out = multiblock.encrypt(cipher, mode, key, data, **kw)
            if mode in AEAD_MODES:
                assert len(out) == length + kw.get("tag_bits", 8 * n) // 8
            elif mode == "kw":
                assert len(out) == length + n
            elif kw.get("padding", "none") != "none":
                assert len(out) == (length // n + 1) * n
            else:
                assert len(out) == length
            if length >= 8:
                assert out[:length] != data, f"{kw} {length}: output = input"
            assert multiblock.decrypt(cipher, mode, key, out, **kw) == data, f"{kw} {length}"


@pytest.mark.parametrize("cipher", CIPHERS)
def test_stream_mode_prefixes_agree_across_the_gil_release_size(cipher):
    rng = random.Random(cipher)
    n = block_size(cipher)
    key = rng.randbytes(key_size(cipher))
    data = rng.randbytes(70 * 1024 + 5)
    for mode in STREAM_MODES & set(multiblock.modes(cipher)):
        (kw, _, _), *_ = configs(cipher, mode, n, rng)
        whole = multiblock.encrypt(cipher, mode, key, data, **kw)
        for cut in (0, 1, n, 1000, 64 * 1024 - 1, 64 * 1024):
            if mode == "cfb" and cipher.startswith("kalyna"):
                cut -= cut % n  # DSTU CFB ends a partial block with the gamma's trailing bytes
            assert multiblock.encrypt(cipher, mode, key, data[:cut], **kw) == whole[:cut], f"{mode} {cut}"


@pytest.mark.parametrize("cipher", CIPHERS)
def test_encrypt_blocks_equals_ecb_mode_and_every_backend_agrees(cipher):
    rng = random.Random(cipher + "/ecb")
    n = block_size(cipher)
    key = rng.randbytes(key_size(cipher))
    default = multiblock.Cipher(cipher, key)
    for blocks in list(range(0, 40)) + [255, 4097]:
        data = rng.randbytes(blocks * n)
        want = multiblock.encrypt(cipher, "ecb", key, data)
        assert default.encrypt_blocks(data) == want
        assert default.decrypt_blocks(want) == data
        for backend in multiblock.backends(cipher):
            if backend == "reference" and blocks > 300:
                continue  # the oracle is slow; short lengths cover it
            c = multiblock.Cipher(cipher, key, backend=backend)
            assert c.encrypt_blocks(data) == want, f"{backend} {blocks}"
            assert c.decrypt_blocks(want) == data, f"{backend} {blocks}"


@pytest.mark.parametrize("cipher,mode", [(c, m) for c in CIPHERS for m in multiblock.modes(c) if m in MAC_MODES])
def test_macs_depend_on_the_message_and_key(cipher, mode):
    rng = random.Random(f"{cipher}/{mode}")
    n = block_size(cipher)
    key = rng.randbytes(key_size(cipher))
    kw = {"iv": bytes(n)} if mode == "gmac" else {}
    msg = rng.randbytes(3 * n)
    tag = multiblock.mac(cipher, mode, key, msg, **kw)
    assert tag == multiblock.mac(cipher, mode, bytearray(key), memoryview(msg), **kw)
    for i in (0, len(msg) // 2, len(msg) - 1):
        other = bytearray(msg)
        other[i] ^= 0x04
        assert multiblock.mac(cipher, mode, key, other, **kw) != tag, i
    assert multiblock.mac(cipher, mode, rng.randbytes(len(key)), msg, **kw) != tag
