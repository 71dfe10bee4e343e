"""Kuznyechik and Magma in the GOST R 34.13-2015 modes, Streebog and its
HMAC (R 50.1.113-2016) against `gostcrypto`,
the pure-Python package on PyPI (an independent implementation), on random
keys, IVs and lengths. Skipped where gostcrypto is not installed.

gostcrypto 1.2.5 has three bugs that bound what is compared: its CTR counter
does not carry out of the last byte (so only the first 256 blocks agree with
the standard), its MAC fails on messages that are not whole blocks, and its
HMAC of an empty message differs from RFC 2104's (Python's own `hmac` over
its Streebog agrees with ours there), so HMAC messages start at one byte.
(Its ECB and CBC pad an empty message to a block, so lengths start at one.)"""

import random

import pytest

import multiblock

gostcrypto = pytest.importorskip("gostcrypto")
gc = gostcrypto.gostcipher

CIPHERS = [("kuznyechik", "kuznechik", 16), ("magma", "magma", 8)]


def theirs(alg, key, mode, **kw):
    return gc.new(alg, bytearray(key), mode, **{k: bytearray(v) for k, v in kw.items()})


@pytest.mark.parametrize("ours,alg,n", CIPHERS, ids=[c[0] for c in CIPHERS])
def test_modes_match_gostcrypto(ours, alg, n):
    rng = random.Random(ours)
    for blocks in [1, 2, 3, 7, 16, 33, 70]:
        key = rng.randbytes(32)
        whole = rng.randbytes(blocks * n)
        odd = rng.randbytes(blocks * n + rng.randrange(1, n))
        c = multiblock.Cipher(ours, key)
        assert c.encrypt_blocks(whole) == bytes(theirs(alg, key, gc.MODE_ECB).encrypt(bytearray(whole)))
        for z in (1, 2):
            iv = rng.randbytes(z * n)
            got = multiblock.encrypt(ours, "cbc", key, whole, iv=iv)
            assert got == bytes(theirs(alg, key, gc.MODE_CBC, init_vect=iv).encrypt(bytearray(whole))), ("cbc", z)
            for mode, gmode in (("ofb", gc.MODE_OFB), ("cfb", gc.MODE_CFB)):
                got = multiblock.encrypt(ours, mode, key, odd, iv=iv)
                assert got == bytes(theirs(alg, key, gmode, init_vect=iv).encrypt(bytearray(odd))), (mode, z)
        iv = rng.randbytes(n // 2)
        got = multiblock.encrypt(ours, "ctr", key, odd, iv=iv)
        assert got == bytes(theirs(alg, key, gc.MODE_CTR, init_vect=iv).encrypt(bytearray(odd))), "ctr"
        tag = theirs(alg, key, gc.MODE_MAC, data=whole).digest(n)
        assert multiblock.mac(ours, "mac", key, whole) == bytes(tag), "mac"


@pytest.mark.parametrize("ours,alg", [("streebog-256", "streebog256"), ("streebog-512", "streebog512")])
def test_streebog_matches_gostcrypto(ours, alg):
    rng = random.Random(ours)
    for n in [0, 1, 63, 64, 65, 127, 128, 129, 200, 511]:
        msg = rng.randbytes(n)
        theirs = gostcrypto.gosthash.new(alg, data=bytearray(msg)).digest()
        assert multiblock.hash(ours, msg) == bytes(theirs), n


@pytest.mark.parametrize("ours,alg", [("streebog-256", "HMAC_GOSTR3411_2012_256"), ("streebog-512", "HMAC_GOSTR3411_2012_512")])
def test_hmac_streebog_matches_gostcrypto(ours, alg):
    rng = random.Random(alg)
    for n in [1, 63, 64, 100]:
        key = rng.randbytes(32)
        msg = rng.randbytes(n)
        theirs = gostcrypto.gosthmac.new(alg, bytearray(key), data=bytearray(msg)).digest()
        assert multiblock.hmac_digest(key, msg, ours) == bytes(theirs), n
