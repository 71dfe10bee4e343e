"""Every vector in crates/multiblock/vectors through the Python API: ECB (with the
Monte-Carlo `iterations`) through Cipher on every backend this CPU runs and
through encrypt(mode="ecb"); every mode vector through encrypt / decrypt /
mac with its params, AEAD and key-wrap checks failing on a flipped bit."""

import pytest

import multiblock
from conftest import AEAD_MODES, MAC_MODES, VECTORS, call_args, h

ECB = [v for v in VECTORS if v["mode"] == "ecb"]
MODES = [v for v in VECTORS if v["mode"] != "ecb"]


def test_the_vector_files_were_read():
    assert len(ECB) >= 11 and len(MODES) >= 60
    # Every cipher has an ECB vector and every mode of every family has one.
    assert {v["cipher"] for v in ECB} == set(multiblock.ciphers())
    covered = {(v["cipher"], v["mode"]) for v in VECTORS}
    for family, cipher in [("kuznyechik", "kuznyechik"), ("magma", "magma"), ("gost89", "gost89")]:
        for mode in multiblock.modes(cipher):
            if (cipher, mode) == ("kuznyechik", "xts"):
                continue  # no published vector: test_xts.py checks it against XTS over gostcrypto
            assert (cipher, mode) in covered, f"{family}: no vector for {mode}"


@pytest.mark.parametrize("v", ECB, ids=[v["_id"] for v in ECB])
def test_ecb_vector_on_every_backend(v):
    key, pt, ct = h(v, "key"), h(v, "plaintext"), h(v, "ciphertext")
    n = v.get("iterations", 1)
    for backend in multiblock.backends(v["cipher"]):
        c = multiblock.Cipher(v["cipher"], key, sbox=v.get("sbox"), backend=backend)
        assert c.backend == backend
        buf = pt
        for _ in range(n):
            buf = c.encrypt_blocks(buf)
        assert buf.hex() == ct.hex(), f"{backend} encrypt"
        for _ in range(n):
            buf = c.decrypt_blocks(buf)
        assert buf.hex() == pt.hex(), f"{backend} decrypt"


@pytest.mark.parametrize("v", ECB, ids=[v["_id"] for v in ECB])
def test_ecb_vector_through_encrypt(v):
    key, pt, ct = h(v, "key"), h(v, "plaintext"), h(v, "ciphertext")
    kw = call_args(v)
    buf = pt
    for _ in range(v.get("iterations", 1)):
        buf = multiblock.encrypt(v["cipher"], "ecb", key, buf, **kw)
    assert buf.hex() == ct.hex()
    for _ in range(v.get("iterations", 1)):
        buf = multiblock.decrypt(v["cipher"], "ecb", key, buf, **kw)
    assert buf.hex() == pt.hex()


@pytest.mark.parametrize("v", MODES, ids=[v["_id"] for v in MODES])
def test_mode_vector(v):
    cipher, mode, key = v["cipher"], v["mode"], h(v, "key")
    pt, ct, tag = h(v, "plaintext"), h(v, "ciphertext"), h(v, "tag")
    kw = call_args(v)
    if mode in MAC_MODES:
        assert multiblock.mac(cipher, mode, key, pt, **kw).hex() == tag.hex()
        return
    if mode in AEAD_MODES:
        sealed = ct + tag
        assert multiblock.encrypt(cipher, mode, key, pt, **kw).hex() == sealed.hex()
        assert multiblock.decrypt(cipher, mode, key, sealed, **kw).hex() == pt.hex()
        bad = bytearray(sealed)
        bad[-1] ^= 0x80
        with pytest.raises(multiblock.AuthenticationError):
            multiblock.decrypt(cipher, mode, key, bad, **kw)
        return
    assert multiblock.encrypt(cipher, mode, key, pt, **kw).hex() == ct.hex()
    assert multiblock.decrypt(cipher, mode, key, ct, **kw).hex() == pt.hex()
    if mode == "kw":
        bad = bytearray(ct)
        bad[0] ^= 1
        with pytest.raises(multiblock.AuthenticationError):
            multiblock.decrypt(cipher, mode, key, bad, **kw)


FORCED = [v for v in MODES if v["mode"] in ("ctr", "cbc", "mgm", "gcm")]


@pytest.mark.parametrize("v", FORCED, ids=[v["_id"] for v in FORCED])
def test_mode_vector_on_the_reference_backend(v):
    """The same bytes when a backend is forced (the `backend` keyword)."""
    cipher, mode, key, pt = v["cipher"], v["mode"], h(v, "key"), h(v, "plaintext")
    want = h(v, "ciphertext") + h(v, "tag")
    got = multiblock.encrypt(cipher, mode, key, pt, backend="reference", **call_args(v))
    assert got.hex() == want.hex()
