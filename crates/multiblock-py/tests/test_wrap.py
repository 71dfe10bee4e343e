"""Key export and key wrap: the published examples (R 1323565.1.017-2018
Appendix B; UAPKI's Dstu7624Wrap self-test), KExp15 rebuilt from the
module's own CTR and GOST MAC as a second construction, random keys there
and back, every changed byte refused, and the errors."""

import os

import pytest

import multiblock

KEY = bytes.fromhex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef")
KEK_MAC = bytes.fromhex("08090a0b0c0d0e0f0001020304050607101112131415161718191a1b1c1d1e1f")
KEK_ENC = bytes.fromhex("202122232425262728292a2b2c2d2e2f38393a3b3c3d3e3f3031323334353637")
EXAMPLES = [
    ("magma", "67bed654",
     "cfd5a12d5b81b6e1e99c916d07900c6ac12703fb3abded55567bf3742c899c755dafe7b42e3a8bd9"),
    ("kuznyechik", "0909472dd9f26be8",
     "e36184e84e8d736ff36cc2e5ae065dc656b23c20f549b02fdff88e1f3f30d8c29a53f3ca554dbad80de152b9a4625b32"),
]

D_KEK = bytes.fromhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
D_IV = bytes.fromhex("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f")
D_KEY = bytes.fromhex("1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100")
D_WRAPPED = bytes.fromhex(
    "7b74fcbf080464f81bf8eaf10621b624a4f053446128396cc2f529bd3e2078da"
    "d6bc0b4c5aaf47711d1be5cdc0d4849ec50dc4484f7cf393bc7f5f3e8a8728ca"
    "13ddaee30c297d6c82c8751e533a3e7591e7d400b89ae64237f692ec892333cd")


@pytest.mark.parametrize("cipher,iv,export", EXAMPLES)
def test_kexp15_examples(cipher, iv, export):
    iv = bytes.fromhex(iv)
    assert multiblock.kexp15(cipher, KEY, KEK_ENC, KEK_MAC, iv).hex() == export
    assert multiblock.kimp15(cipher, bytes.fromhex(export), KEK_ENC, KEK_MAC, iv) == KEY


def test_dstu7624_wrap_example():
    assert multiblock.dstu7624_wrap(D_KEK, D_KEY, iv=D_IV) == D_WRAPPED
    assert multiblock.dstu7624_unwrap(D_KEK, D_WRAPPED) == D_KEY


@pytest.mark.parametrize("cipher,n", [("kuznyechik", 16), ("magma", 8)])
def test_kexp15_is_ctr_over_the_key_and_its_mac(cipher, n):
    for length in (1, 7, n, 32, 33, 100):
        key, enc, mac, iv = os.urandom(length), os.urandom(32), os.urandom(32), os.urandom(n // 2)
        tag = multiblock.mac(cipher, "mac", mac, iv + key)
        want = multiblock.encrypt(cipher, "ctr", enc, key + tag, iv=iv)
        blob = multiblock.kexp15(cipher, bytearray(key), enc, memoryview(mac), iv)
        assert blob == want
        assert multiblock.kimp15(cipher, blob, enc, mac, iv) == key


def test_dstu7624_random_iv_and_round_trip():
    kek, key = os.urandom(32), os.urandom(32)
    a, b = multiblock.dstu7624_wrap(kek, key), multiblock.dstu7624_wrap(kek, key)
    assert a != b and len(a) == len(b) == 96
    assert multiblock.dstu7624_unwrap(kek, a) == multiblock.dstu7624_unwrap(kek, b) == key


def test_every_changed_byte_is_refused():
    cases = [(lambda b, c=c, iv=bytes.fromhex(iv): multiblock.kimp15(c, b, KEK_ENC, KEK_MAC, iv),
              bytes.fromhex(export)) for c, iv, export in EXAMPLES]
    cases.append((lambda b: multiblock.dstu7624_unwrap(D_KEK, b), D_WRAPPED))
    for unwrap, blob in cases:
        for at in range(len(blob)):
            bad = bytearray(blob)
            bad[at] ^= 0x10
            with pytest.raises(multiblock.AuthenticationError):
                unwrap(bytes(bad))


def test_errors():
    with pytest.raises(ValueError, match="kuznyechik.*magma"):
        multiblock.kexp15("kalyna-256-256", KEY, KEK_ENC, KEK_MAC, b"12345678")
    with pytest.raises(ValueError, match="IV of 4 bytes"):
        multiblock.kexp15("magma", KEY, KEK_ENC, KEK_MAC, b"12345678")
    with pytest.raises(ValueError, match="K_mac"):
        multiblock.kimp15("kuznyechik", b"\0" * 48, KEK_ENC, KEK_MAC[:16], b"12345678")
    with pytest.raises(ValueError, match="96 bytes"):
        multiblock.dstu7624_unwrap(D_KEK, D_WRAPPED[:-1])
    with pytest.raises(ValueError, match="key to wrap of 32 bytes"):
        multiblock.dstu7624_wrap(D_KEK, b"short")
    with pytest.raises(TypeError):
        multiblock.dstu7624_wrap(D_KEK, "not bytes")


# UAPKI's GOST 28147-89 key wrap self-test (S-box dstu4145).
G_KEK = bytes.fromhex("01000000010000000100000001000000ffffffffffffffffffffffffffffffff")
G_IV = bytes.fromhex("f477da7aa6424a88")
G_KEY = bytes.fromhex("01020304010203040102030401020304f1f2f3f4f5f6f7f8f1f2f3f4f5f6f7f8")
G_WRAPPED = bytes.fromhex(
    "52a513f1b4172ca6b5f1b8a03ca9a4e0acb6e00e11e5e9bcdd446222eb97238dc3e4e24d2ec03e05a568ec51")


def test_gost28147_wrap_example_random_iv_and_tampering():
    assert multiblock.gost28147_wrap(G_KEK, G_KEY, iv=G_IV) == G_WRAPPED
    assert multiblock.gost28147_unwrap(G_KEK, G_WRAPPED) == G_KEY
    a, b = multiblock.gost28147_wrap(G_KEK, G_KEY), multiblock.gost28147_wrap(G_KEK, G_KEY)
    assert a != b and len(a) == 44
    assert multiblock.gost28147_unwrap(G_KEK, a) == G_KEY
    for i in range(44):
        bad = bytearray(G_WRAPPED)
        bad[i] ^= 1
        with pytest.raises(multiblock.AuthenticationError):
            multiblock.gost28147_unwrap(G_KEK, bytes(bad))
    with pytest.raises(ValueError):
        multiblock.gost28147_unwrap(G_KEK, G_WRAPPED[:43])
    with pytest.raises(ValueError):
        multiblock.gost28147_wrap(G_KEK, G_KEY, sbox="no-such-set")
