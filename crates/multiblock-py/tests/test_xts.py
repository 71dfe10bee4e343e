"""Kuznyechik XTS (IEEE 1619) through the `data_unit` and `unit` keywords:
against XTS written out here over gostcrypto's Kuznyechik ECB (skipped
where gostcrypto is not installed), and, everywhere, sub-ranges that start
at unit N, streams equal to one shot, and the refused parameters."""

import random

import pytest

import multiblock


def double(t):
    """x * t in GF(2^128), IEEE 1619's little-endian order (t an int)."""
    t <<= 1
    return (t ^ 0x87) & ((1 << 128) - 1) if t >> 128 else t


def oracle(ecb, key, data, data_unit, first):
    """IEEE 1619 XTS encryption of whole blocks in units of `data_unit` bytes,
    with `ecb(key, block)` the Kuznyechik encryption of one block."""
    out = bytearray()
    for u, at in enumerate(range(0, len(data), data_unit)):
        t = int.from_bytes(ecb(key[32:], (first + u).to_bytes(16, "little")), "little")
        for j in range(at, min(at + data_unit, len(data)), 16):
            tb = t.to_bytes(16, "little")
            x = bytes(a ^ b for a, b in zip(data[j:j + 16], tb))
            out += bytes(a ^ b for a, b in zip(ecb(key[:32], x), tb))
            t = double(t)
    return bytes(out)


def test_data_units_match_xts_over_gostcrypto():
    gostcrypto = pytest.importorskip("gostcrypto")
    gc = gostcrypto.gostcipher

    def ecb(k, block):
        return bytes(gc.new("kuznechik", bytearray(k), gc.MODE_ECB).encrypt(bytearray(block)))

    rng = random.Random("xts/gostcrypto")
    for data_unit, first, blocks in [(512, 0, 64), (512, 2**64 - 2, 70), (16, 2**32 - 1, 5), (64, 7, 9)]:
        key = rng.randbytes(64)
        data = rng.randbytes(16 * blocks)
        got = multiblock.encrypt("kuznyechik", "xts", key, data, data_unit=data_unit, unit=first)
        assert got == oracle(ecb, key, data, data_unit, first), (data_unit, first)


def test_a_range_from_unit_n_decrypts_on_its_own_and_streams_equal_one_shot():
    rng = random.Random("xts/range")
    key = rng.randbytes(64)
    volume = rng.randbytes(20 * 512)
    first = 2**64 - 4
    sealed = multiblock.encrypt("kuznyechik", "xts", key, volume, data_unit=512, unit=first)
    part = sealed[5 * 512:13 * 512]
    assert multiblock.decrypt("kuznyechik", "xts", key, part, data_unit=512, unit=first + 5) == volume[5 * 512:13 * 512]
    enc = multiblock.encryptor("kuznyechik", "xts", key, data_unit=512, unit=first)
    out = b"".join(enc.update(volume[a:a + 1000]) for a in range(0, len(volume), 1000)) + enc.finalize()
    assert out == sealed
    # A partial last unit (ciphertext stealing) round-trips.
    odd = volume[:3 * 512 + 40]
    ct = multiblock.encrypt("kuznyechik", "xts", key, odd, data_unit=512)
    assert ct[:512] == multiblock.encrypt("kuznyechik", "xts", key, odd[:512], data_unit=512, unit=0)
    assert multiblock.decrypt("kuznyechik", "xts", key, ct, data_unit=512) == odd


@pytest.mark.parametrize("kw,data,word", [
    ({"data_unit": 500}, bytes(512), "multiple of 16"),
    ({"data_unit": 512}, bytes(15), "16-byte block"),
    ({"data_unit": 512}, bytes(520), "last data unit is 8 bytes"),
    ({}, bytes(512), "data_unit"),
    ({"data_unit": 512, "iv": bytes(16)}, bytes(512), "not both"),
])
def test_bad_layouts_are_value_errors(kw, data, word):
    with pytest.raises(ValueError, match=word):
        multiblock.encrypt("kuznyechik", "xts", bytes(64), data, **kw)


def test_bad_keys_and_unit_numbers():
    with pytest.raises(ValueError, match="64 bytes"):
        multiblock.encrypt("kuznyechik", "xts", bytes(32), bytes(512), data_unit=512)
    with pytest.raises(ValueError, match="unit"):
        multiblock.encrypt("kuznyechik", "xts", bytes(64), bytes(512), data_unit=512, unit=-1)
    with pytest.raises(ValueError, match="unit"):
        multiblock.encrypt("kuznyechik", "xts", bytes(64), bytes(512), data_unit=512, unit=2**128)
    with pytest.raises(TypeError, match="unit"):
        multiblock.encrypt("kuznyechik", "xts", bytes(64), bytes(512), data_unit=512, unit="3")
    with pytest.raises(ValueError, match="128-bit blocks"):
        multiblock.encrypt("magma", "xts", bytes(32), bytes(16))
    assert "xts" in multiblock.modes("kuznyechik") and "xts" not in multiblock.modes("magma")
