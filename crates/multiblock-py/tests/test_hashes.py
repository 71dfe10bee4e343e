"""Streebog (GOST R 34.11-2012, RFC 6986) and Kupyna (DSTU 7564:2014) in
the shape of `hashlib`: the published examples, any split of the input
against the one-shot call, copies, many messages, errors, and Python's own
`hmac` module over these hash objects as an independent HMAC."""

import functools
import hmac as std_hmac
import random
import threading

import pytest

import multiblock

NAMES = ["streebog-256", "streebog-512", "kupyna-256", "kupyna-384", "kupyna-512"]
SIZES = {"streebog-256": (32, 64), "streebog-512": (64, 64), "kupyna-256": (32, 64),
         "kupyna-384": (48, 128), "kupyna-512": (64, 128)}

# RFC 6986 §10.1 and §10.2: M1 is these 63 ASCII bytes, M2 the 72 bytes below.
M1 = b"012345678901234567890123456789012345678901234567890123456789012"
M2 = bytes.fromhex(
    "d1e520e2e5f2f0e82c20d1f2f0e8e1eee6e820e2edf3f6e82c20e2e5fef2fa20f120eceef0ff20f1f2f0e5ebe0ece820ede020f5f0e0e1f0fbff20efebfaeafb20c8e3eef0e5e2fb")
STREEBOG = [
    ("streebog-512", M1, "1b54d01a4af5b9d5cc3d86d68d285462b19abc2475222f35c085122be4ba1ffa"
                         "00ad30f8767b3a82384c6574f024c311e2a481332b08ef7f41797891c1646f48"),
    ("streebog-256", M1, "9d151eefd8590b89daa6ba6cb74af9275dd051026bb149a452fd84e5e57b5500"),
    ("streebog-512", M2, "1e88e62226bfca6f9994f1f2d51569e0daf8475a3b0fe61a5300eee46d961376"
                         "035fe83549ada2b8620fcd7c496ce5b33f0cb9dddc2b6460143b03dabac9fb28"),
    ("streebog-256", M2, "9dd2fe4e90409e5da87f53976d7405b0c0cac628fc669a741d50063c557e8f50"),
]

# DSTU 7564:2014 examples (Oliynykov et al., "A New Standard of Ukraine: The
# Kupyna Hash Function", IACR ePrint 2015/885, appendix): the messages are
# the bytes 00 01 02 ... of the given length.
KUPYNA = [
    ("kupyna-256", 64, "08f4ee6f1be6903b324c4e27990cb24ef69dd58dbe84813ee0a52f6631239875"),
    ("kupyna-256", 128, "0a9474e645a7d25e255e9e89fff42ec7eb31349007059284f0b182e452bda882"),
    ("kupyna-256", 0, "cd5101d1ccdf0d1d1f4ada56e888cd724ca1a0838a3521e7131d4fb78d0f5eb6"),
    ("kupyna-384", 95, "d9021692d84e5175735654846ba751e6d0ed0fac36dfbc0841287dcb0b5584c7"
                       "5016c3decc2a6e47c50b2f3811e351b8"),
    ("kupyna-512", 64, "3813e2109118cdfb5a6d5e72f7208dccc80a2dfb3afdfb02f46992b5edbe536b"
                       "3560dd1d7e29c6f53978af58b444e37ba685c0dd910533ba5d78efffc13de62a"),
    ("kupyna-512", 128, "76ed1ac28b1d0143013ffa87213b4090b356441263c13e03fa060a8cada32b97"
                        "9635657f256b15d5fca4a174de029f0b1b4387c878fcc1c00e8705d783fd7ffe"),
    ("kupyna-512", 0, "656b2f4cd71462388b64a37043ea55dbe445d452aecd46c3298343314ef04019"
                      "bcfa3f04265a9857f91be91fce197096187ceda78c9c1c021c294a0689198538"),
]

# RFC 7836 §A.1.1 and §A.1.2: HMAC_GOSTR3411_2012_256 and _512.
HMAC_KEY = bytes(range(32))
HMAC_MSG = bytes.fromhex("0126bdb87800af214341456563780100")
HMAC = [
    ("streebog-256", "a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9"),
    ("streebog-512", "a59bab22ecae19c65fbde6e5f4e9f5d8549d31f037f9df9b905500e171923a77"
                     "3d5f1530f2ed7e964cb2eedc29e9ad2f3afe93b2814f79f5000ffc0366c251e6"),
]

# Kupyna's MAC, DSTU 7564:2014 (ePrint 2015/885, appendix): the message is
# the bytes 00..1e, the key the bytes of the tag's length counting down to 00.
KUPYNA_MAC = [
    (256, "b60594d56fa79ba210314c72c2495087ccd0a99fc04acfe2a39ef669925d98ee"),
    (384, "bebfd8d730336f043abacb41829e79a4d320aeddd8d14024d5b805da70c396fa"
          "295c281a38b30ae728a304b3f5ae490e"),
    (512, "f270043c06a5c37e65d9d791c5fbfb966e5ee709f8f54019c9a55b76ca40b701"
          "00579f269cec24e347a9d864614cf3abbf6610742e4db3bd2abc000387c49d24"),
]


@pytest.mark.parametrize("name,msg,want", STREEBOG, ids=["512-M1", "256-M1", "512-M2", "256-M2"])
def test_rfc6986_examples(name, msg, want):
    assert multiblock.hash(name, msg).hex() == want
    assert multiblock.new(name, msg).hexdigest() == want
    h = multiblock.new(name)
    for i in range(0, len(msg), 7):
        h.update(msg[i:i + 7])
    assert h.digest() == bytes.fromhex(want)
    assert multiblock.hash_many(name, [b"", msg, msg[:1]])[1].hex() == want


@pytest.mark.parametrize("name,n,want", KUPYNA, ids=[f"{k[0]}-{k[1]}B" for k in KUPYNA])
def test_dstu7564_examples(name, n, want):
    msg = bytes(range(n))
    assert multiblock.hash(name, msg).hex() == want
    assert multiblock.new(name, msg).hexdigest() == want
    assert multiblock.hash_many(name, [msg, b"x"])[0].hex() == want


def test_kupyna_digests_of_any_length_are_the_tail_of_the_state():
    # DSTU 7564:2014 §7: the initial value depends only on the state size
    # and the digest is the last n bits of the final state, so kupyna-N is
    # the tail of kupyna-256 (N <= 256) or kupyna-512 (N > 256).
    msg = bytes(range(200))
    full = {64: multiblock.hash("kupyna-256", msg), 128: multiblock.hash("kupyna-512", msg)}
    for bits in range(8, 513, 8):
        got = multiblock.hash(f"kupyna-{bits}", msg)
        want = full[64 if bits <= 256 else 128][-(bits // 8):]
        assert got == want, bits
        h = multiblock.new(f"kupyna-{bits}")
        assert (h.digest_size, h.block_size) == (bits // 8, 64 if bits <= 256 else 128)


@pytest.mark.parametrize("name", NAMES)
def test_any_split_matches_the_one_shot(name):
    rng = random.Random(name)
    for n in [0, 1, 31, 63, 64, 65, 127, 128, 129, 255, 1000, 4096 + 3, 70000]:
        msg = rng.randbytes(n)
        want = multiblock.hash(name, msg)
        h = multiblock.new(name)
        at = 0
        while at < n:
            step = rng.choice([1, 2, 7, 63, 64, 65, 200, 5000, 70000])
            h.update(msg[at:at + step])
            at += step
        assert h.digest() == want, n
        assert multiblock.new(name, memoryview(msg)).digest() == want
        assert multiblock.hash(name, bytearray(msg)) == want


@pytest.mark.parametrize("name", NAMES)
def test_hash_many_equals_one_at_a_time(name):
    rng = random.Random(name + "many")
    msgs = [rng.randbytes(rng.randrange(0, 600)) for _ in range(37)]
    assert multiblock.hash_many(name, msgs) == [multiblock.hash(name, m) for m in msgs]
    assert multiblock.hash_many(name, []) == []
    assert multiblock.hash_many(name, (bytearray(m) for m in msgs[:3])) == [multiblock.hash(name, m) for m in msgs[:3]]


@pytest.mark.parametrize("name", NAMES)
def test_the_object_is_hashlib_shaped(name):
    h = multiblock.new(name, b"abc")
    assert h.name == name
    assert (h.digest_size, h.block_size) == SIZES[name]
    assert len(h.digest()) == h.digest_size
    assert h.hexdigest() == h.digest().hex()
    assert h.backend in multiblock.backends(name)
    assert name in repr(h)
    # digest() does not end the hash: updates may go on.
    h.update(b"def")
    assert h.digest() == multiblock.hash(name, b"abcdef")


@pytest.mark.parametrize("name", NAMES)
def test_copies_are_independent(name):
    h = multiblock.new(name, b"shared prefix ")
    c = h.copy()
    h.update(b"one")
    c.update(b"two")
    assert h.digest() == multiblock.hash(name, b"shared prefix one")
    assert c.digest() == multiblock.hash(name, b"shared prefix two")
    assert c.copy().digest() == c.digest()


@pytest.mark.parametrize("name", NAMES)
def test_copies_after_a_first_update_of_whole_blocks(name):
    # Python's hmac keys an object this way (its K ^ ipad block compressed
    # at once) and copies it for every message.
    rng = random.Random(name + "prefix")
    block = multiblock.new(name).block_size
    for first in [block, 2 * block]:
        h = multiblock.new(name)
        prefix = rng.randbytes(first)
        h.update(prefix)
        for rest in [b"", b"x", rng.randbytes(block), rng.randbytes(100)]:
            c = h.copy()
            c.update(rest)
            assert c.digest() == multiblock.hash(name, prefix + rest), (first, len(rest))
        assert h.digest() == multiblock.new(name, prefix).digest() == multiblock.hash(name, prefix)


def test_hashes_and_backends_list_names():
    assert multiblock.hashes() == NAMES
    for name in NAMES:
        backends = multiblock.backends(name)
        assert backends
        for b in backends:
            assert multiblock.new(name, b"x", backend=b).backend == b
            assert multiblock.hash(name, b"x", backend=b) == multiblock.hash(name, b"x")
            assert multiblock.hash_many(name, [b"x"], backend=b) == [multiblock.hash(name, b"x")]


def test_errors():
    for bad in ["sha256", "streebog-384", "kupyna-7", "kupyna-520", ""]:
        with pytest.raises(ValueError, match=r"^unknown hash '.*' \(expected one of: streebog-256, "):
            multiblock.new(bad)
        with pytest.raises(ValueError, match="unknown hash"):
            multiblock.hash(bad, b"")
        with pytest.raises(ValueError, match="unknown hash"):
            multiblock.hash_many(bad, [b""])
        with pytest.raises(ValueError, match="unknown hash"):
            multiblock.hmac_new(b"k", digestmod=bad)
    with pytest.raises(ValueError):
        multiblock.new("streebog-256", backend="no-such-backend")
    with pytest.raises(TypeError):
        multiblock.new("streebog-256", "text is not bytes")
    with pytest.raises(TypeError):
        multiblock.new("streebog-256").update(12)


@pytest.mark.parametrize("name,want", HMAC, ids=["256", "512"])
def test_rfc7836_hmac(name, want):
    assert multiblock.hmac_digest(HMAC_KEY, HMAC_MSG, name).hex() == want
    m = multiblock.hmac_new(HMAC_KEY, digestmod=name)
    m.update(HMAC_MSG[:5])
    m.update(HMAC_MSG[5:])
    assert m.hexdigest() == want
    m.verify(bytes.fromhex(want))
    with pytest.raises(multiblock.AuthenticationError):
        m.verify(bytes.fromhex(want)[:-1] + b"\0")
    assert multiblock.hmac_new(HMAC_KEY, HMAC_MSG, name).digest() == bytes.fromhex(want)


def test_hmac_default_is_streebog_256():
    m = multiblock.hmac_new(HMAC_KEY, HMAC_MSG)
    assert m.hexdigest() == HMAC[0][1]
    assert (m.name, m.digest_size, m.block_size) == ("hmac-streebog-256", 32, 64)


@pytest.mark.parametrize("name", NAMES)
def test_hmac_matches_pythons_hmac_over_these_hashes(name):
    # Python's hmac module builds HMAC (RFC 2104) itself from any object
    # with update / digest / copy / block_size: an independent composition.
    rng = random.Random(name + "hmac")
    for key_len in [0, 1, 32, 63, 64, 65, 127, 128, 129, 300]:
        key = rng.randbytes(key_len)
        msg = rng.randbytes(rng.randrange(0, 500))
        theirs = std_hmac.new(key, msg, digestmod=functools.partial(multiblock.new, name)).digest()
        ours = multiblock.hmac_new(key, msg, digestmod=name)
        assert ours.digest() == theirs, key_len
        assert multiblock.hmac_digest(key, msg, name) == theirs
        assert (ours.digest_size, ours.block_size, ours.name) == (SIZES[name][0], SIZES[name][1], "hmac-" + name)


def test_hmac_runs_on_every_backend_of_its_hash():
    for name, want in HMAC:
        for b in multiblock.backends(name):
            assert multiblock.hmac_new(HMAC_KEY, HMAC_MSG, name, backend=b).hexdigest() == want, b
            assert multiblock.hmac_digest(HMAC_KEY, HMAC_MSG, name, backend=b).hex() == want, b
    with pytest.raises(ValueError):
        multiblock.hmac_new(HMAC_KEY, digestmod="streebog-256", backend="no-such-backend")


def test_hmac_copies_are_independent():
    m = multiblock.hmac_new(b"key", b"prefix ", "kupyna-256")
    c = m.copy()
    m.update(b"a")
    c.update(b"b")
    assert m.digest() == multiblock.hmac_digest(b"key", b"prefix a", "kupyna-256")
    assert c.digest() == multiblock.hmac_digest(b"key", b"prefix b", "kupyna-256")
    # digest() does not end the MAC.
    m.update(b"c")
    assert m.digest() == multiblock.hmac_digest(b"key", b"prefix ac", "kupyna-256")


@pytest.mark.parametrize("bits,want", KUPYNA_MAC, ids=["256", "384", "512"])
def test_dstu7564_mac(bits, want):
    key = bytes(reversed(range(bits // 8)))
    msg = bytes(range(31))
    assert multiblock.kupyna_mac(key, msg).hex() == want
    m = multiblock.kupyna_mac_new(key)
    m.update(msg[:10])
    m.update(msg[10:])
    assert m.hexdigest() == want
    m.verify(bytes.fromhex(want))
    with pytest.raises(multiblock.AuthenticationError):
        m.verify(bytes(bits // 8))
    assert (m.name, m.digest_size) == (f"kupyna-mac-{bits}", bits // 8)
    assert multiblock.kupyna_mac_new(key, msg, tag_bits=bits).digest() == bytes.fromhex(want)


def test_kupyna_mac_key_and_tag_lengths_are_checked():
    with pytest.raises(ValueError, match=r"^Kupyna's MAC takes a key of 32, 48 or 64 bytes \(the tag's length\), got 5$"):
        multiblock.kupyna_mac_new(b"short")
    with pytest.raises(ValueError, match=r"^Kupyna's MAC takes a key of 32, 48 or 64 bytes"):
        multiblock.kupyna_mac(b"", b"msg")
    with pytest.raises(ValueError, match=r"^kupyna-mac needs a key of 48 bytes, got 32 bytes$"):
        multiblock.kupyna_mac_new(bytes(32), tag_bits=384)
    with pytest.raises(ValueError, match="not 100"):
        multiblock.kupyna_mac_new(bytes(32), tag_bits=100)


def test_kupyna_mac_splits_and_copies():
    rng = random.Random("kupyna-mac")
    key = rng.randbytes(32)
    m = multiblock.kupyna_mac_new(key)
    for n in [0, 1, 63, 64, 65, 1000, 70000]:
        msg = rng.randbytes(n)
        want = multiblock.kupyna_mac(key, msg)
        m = multiblock.kupyna_mac_new(key)
        for i in range(0, n, 97):
            m.update(msg[i:i + 97])
        assert m.digest() == want, n
        c = m.copy()
        c.update(b"more")
        assert c.digest() == multiblock.kupyna_mac(key, msg + b"more")
        assert m.digest() == want


def test_kupyna_mac_errors():
    with pytest.raises(ValueError, match="32, 48 or 64 bytes"):
        multiblock.kupyna_mac_new(bytes(16))
    with pytest.raises(ValueError, match="256, 384 or 512"):
        multiblock.kupyna_mac(bytes(32), b"", tag_bits=128)


def test_kupyna_mac_key_must_be_as_long_as_the_tag():
    multiblock.kupyna_mac_new(bytes(32))
    with pytest.raises(ValueError):
        multiblock.kupyna_mac_new(bytes(31), tag_bits=256)


def test_large_updates_from_threads():
    # Updates of 64 KiB and more release the GIL; each thread's own object
    # must still get its own right digest.
    rng = random.Random("threads")
    msgs = [rng.randbytes(300_000 + i) for i in range(4)]
    want = [multiblock.hash("streebog-512", m) for m in msgs]
    got = [None] * len(msgs)

    def work(i):
        h = multiblock.new("streebog-512")
        for at in range(0, len(msgs[i]), 100_000):
            h.update(msgs[i][at:at + 100_000])
        got[i] = h.digest()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(msgs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want
