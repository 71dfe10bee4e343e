"""encryptor / decryptor / mac_stream against the one-shot
encrypt / decrypt / mac (pinned by the vector tests): every cipher, every
mode, random chunk sizes (empty chunks included, some above the 64 KiB
GIL-release size); AEAD tags in the input and apart, wrong tags refused."""

import random

import pytest

import multiblock
from conftest import AEAD_MODES, MAC_MODES, key_size
from test_roundtrip import CASES, block_size, configs

LENGTHS = [0, 1, 15, 16, 17, 64, 1000, 4099, 70 * 1024 + 3]


def chunks(rng, data):
    """`data` cut at random points: empty, tiny, medium and large pieces."""
    out, at = [], 0
    while at < len(data):
        step = rng.choice([0, 1 + rng.randrange(40), rng.randrange(3000), rng.randrange(len(data) - at + 1)])
        out.append(data[at:at + step])
        at += step
    return out + [b""]


def feed(ctx, rng, data):
    return b"".join(ctx.update(c) for c in chunks(rng, data)) + ctx.finalize()


@pytest.mark.parametrize("cipher,mode", CASES, ids=[f"{c}-{m}" for c, m in CASES])
def test_chunked_equals_one_shot(cipher, mode):
    rng = random.Random(f"stream/{cipher}/{mode}")
    n = block_size(cipher)
    for kw, partial, shortest in configs(cipher, mode, n, rng):
        key = rng.randbytes(key_size(cipher, mode))
        for length in LENGTHS:
            length = length if partial else length - length % n
            if length < shortest:
                continue
            data = rng.randbytes(length)
            want = multiblock.encrypt(cipher, mode, key, data, **kw)
            enc = multiblock.encryptor(cipher, mode, key, **kw)
            got = feed(enc, rng, data)
            if mode in AEAD_MODES:
                assert got + enc.tag == want, f"{kw} {length}"
                body, tag = want[:length], want[length:]
                # The tag as the input's end, or given apart.
                assert feed(multiblock.decryptor(cipher, mode, key, **kw), rng, want) == data
                assert feed(multiblock.decryptor(cipher, mode, key, tag=tag, **kw), rng, body) == data
                bad = bytearray(want)
                bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
                with pytest.raises(multiblock.AuthenticationError):
                    feed(multiblock.decryptor(cipher, mode, key, **kw), rng, bytes(bad))
            else:
                assert got == want and enc.tag is None, f"{kw} {length}"
                assert feed(multiblock.decryptor(cipher, mode, key, **kw), rng, want) == data, f"{kw} {length}"


MAC_CASES = [(c, m) for c in multiblock.ciphers() for m in multiblock.modes(c) if m in MAC_MODES]


@pytest.mark.parametrize("cipher,mode", MAC_CASES, ids=[f"{c}-{m}" for c, m in MAC_CASES])
def test_mac_stream_equals_mac(cipher, mode):
    rng = random.Random(f"mac/{cipher}/{mode}")
    n = block_size(cipher)
    kws = [{"iv": rng.randbytes(n)}] if mode == "gmac" else [{}]
    kws.append({**kws[0], ("mac_bits" if mode in ("mac", "omac-acpkm") else "tag_bits"): 64})
    for kw in kws:
        key = rng.randbytes(key_size(cipher))
        for length in LENGTHS[1:]:
            data = rng.randbytes(length)
            m = multiblock.mac_stream(cipher, mode, key, **kw)
            for c in chunks(rng, data):
                assert m.update(c) is None
            assert m.finalize() == multiblock.mac(cipher, mode, key, data, **kw), f"{kw} {length}"


def test_misuse_is_a_clear_error():
    key = bytes(32)
    enc = multiblock.encryptor("kuznyechik", "ctr", key, iv=bytes(8))
    enc.finalize()
    with pytest.raises(ValueError, match="finalized"):
        enc.update(b"x")
    with pytest.raises(ValueError, match="finalized"):
        enc.finalize()
    with pytest.raises(ValueError, match="takes no tag"):
        multiblock.decryptor("kuznyechik", "ctr", key, iv=bytes(8), tag=bytes(16))
    with pytest.raises(ValueError, match="iv"):
        multiblock.encryptor("kuznyechik", "mgm", key)
    m = multiblock.mac_stream("kuznyechik", "mac", key)
    m.finalize()
    with pytest.raises(ValueError, match="finalized"):
        m.update(b"x")
    # A decryptor whose input is shorter than the tag.
    dec = multiblock.decryptor("kuznyechik", "mgm", key, iv=bytes(16))
    dec.update(b"short")
    with pytest.raises(ValueError, match="tag"):
        dec.finalize()
