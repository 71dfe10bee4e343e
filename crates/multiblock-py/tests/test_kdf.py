"""The key derivations over Streebog-256: KDF_GOSTR3411_2012_256 and
KDF_TREE_GOSTR3411_2012_256 (RFC 7836 §4.5, §4.4) against Appendix B of
RFC 7836, TLSTREE (RFC 9189 §8.1) against RFC 9189 Appendix A.1.1, and on
other inputs against independent compositions: KDF_TREE by its formula
over Python's hmac module with Streebog-256 as the hash, and TLSTREE as
the chain of three kdf_256 calls. Every bad argument is a ValueError."""

import functools
import hmac as std_hmac
import random

import pytest

import multiblock

SUITES = ["kuznyechik-ctr-omac", "magma-ctr-omac", "kuznyechik-mgm-l",
          "kuznyechik-mgm-s", "magma-mgm-l", "magma-mgm-s"]

# The masks C_1, C_2, C_3: RFC 9189 §8.1.1 Table 3, RFC 9367 §4.1.2 Table 1.
MASKS = {
    "kuznyechik-ctr-omac": (0xFFFFFFFF00000000, 0xFFFFFFFFFFF80000, 0xFFFFFFFFFFFFFFC0),
    "magma-ctr-omac": (0xFFFFFFC000000000, 0xFFFFFFFFFE000000, 0xFFFFFFFFFFFFF000),
    "kuznyechik-mgm-l": (0xF800000000000000, 0xFFFFFFF000000000, 0xFFFFFFFFFFFFE000),
    "magma-mgm-l": (0xFFE0000000000000, 0xFFFFFFFFC0000000, 0xFFFFFFFFFFFFFF80),
    "kuznyechik-mgm-s": (0xFFFFFFFFE0000000, 0xFFFFFFFFFFFF0000, 0xFFFFFFFFFFFFFFF8),
    "magma-mgm-s": (0xFFFFFFFFFC000000, 0xFFFFFFFFFFFFE000, 0xFFFFFFFFFFFFFFFF),
}

# RFC 7836 Appendix B, examples 9 and 10.
KEY = bytes(range(32))
LABEL = bytes.fromhex("26bdb878")
SEED = bytes.fromhex("af21434145656378")
KDF_256 = "a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9"
KDF_TREE_512 = ("22b6837845c6bef65ea71672b265831086d3c76aebe6dae91cad51d83f79d16b"
                "074c9330599d7f8d712fca54392f4ddde93751206b3584c8f43f9e6dc51531f9")

# RFC 9189 Appendix A.1.1.1 (Magma) and A.1.1.2 (Kuznyechik): TLSTREE(K_root, seqnum).
ROOT = bytes.fromhex("00112233445566778899aabbcceeff0a112233445566778899aabbcceeff0a00")
TLSTREE = [
    ("magma-ctr-omac", 0, "19a76ed30f4d6d1f5b7263ec491ad83817c0b57d8a0356127140fb4f7425494d"),
    ("magma-ctr-omac", 4095, "19a76ed30f4d6d1f5b7263ec491ad83817c0b57d8a0356127140fb4f7425494d"),
    ("magma-ctr-omac", 4096, "fb30ee53cfcf89d748fc0c72ef160b8b53cbbbfd031282b026214ab2e07758ff"),
    ("magma-ctr-omac", 33554431, "b85b36dc2282326bc035c572dc93f18d83aa0174f394209a513bb374dc0935ae"),
    ("magma-ctr-omac", 33554432, "0fd7c09efdf8e81573eeccf86e4b95e3af7f34dab1177cfd7db97b6da906408a"),
    ("magma-ctr-omac", 274877906943, "480f9972baf25d4c369a96af91bca4553f79d8f0c5618b19fd44cfdc57fa3733"),
    ("magma-ctr-omac", 274877906944, "2528c1c6a8f0927bf2be27bb78d27f2146d65593b0c7173a06cb9d88df923265"),
    ("kuznyechik-ctr-omac", 0, "19a76ed30f4d6d1f5b7263ec491ad83817c0b57d8a0356127140fb4f7425494d"),
    ("kuznyechik-ctr-omac", 63, "19a76ed30f4d6d1f5b7263ec491ad83817c0b57d8a0356127140fb4f7425494d"),
    ("kuznyechik-ctr-omac", 64, "aebe1ef418713bf044b9fcd9e572d437fb38b5d829567a6f7918396d9f4e096b"),
    ("kuznyechik-ctr-omac", 524287, "6f18d4003ea2cb30f5fec193a234f07d7c4394987f50758de22b220d8a105106"),
    ("kuznyechik-ctr-omac", 524288, "e54b16415b3b663e780b062d24f736c4495463c3a891e1fa46f7ae99fff9f378"),
    ("kuznyechik-ctr-omac", 4294967295, "cf600904c71e7b88a49ac8e245774b3dbeedfb81de9a0e2f4e46c35607bc2f04"),
    ("kuznyechik-ctr-omac", 4294967296, "16180b24645400b836143837d86aac93952ae3eb8244d5ec2ab02cff30781138"),
]
# The intermediate keys the same appendices print: KDF_1 and KDF_2(KDF_1) of
# (suite, seqnum), for the first record and for the first of a new level 1.
LEVELS = [
    ("magma-ctr-omac", 0, "f35589f09bf801b1ca114273b95fd6c1392e78f9fb814da05a7cca089ec86542",
     "5137d5c4a6e6be42c440d10a95eea07f089e740d3890eb52652c0cb93f207bb4"),
    ("magma-ctr-omac", 274877906944, "15600d9e8fa68554cf152dc74fbc425117b03e0976bb28ea9824c3b70f28cbd8",
     "6cc28eb0932472125c7ad3f80973b3c8c4137da573bc171a24edd4a371f1f873"),
    ("kuznyechik-ctr-omac", 524288, "f35589f09bf801b1ca114273b95fd6c1392e78f9fb814da05a7cca089ec86542",
     "f659eb85eebd2a8dcc1bb3f7c60057ff6d33b60f7465dd42b5112cf3a6b1ab66"),
    ("kuznyechik-ctr-omac", 4294967296, "55cc95e0d1fb5485af8ef69acd72b232797cd2e85d86cdfd1de55bd1fa143778",
     "721691e101c42896a640ae183fbb445b76379c57e1fd8a7d49a623e4238c0e1d"),
]


def error_text(excinfo):
    text = str(excinfo.value)
    assert text and "\n" not in text, text
    return text


def hmac_streebog256(key, msg):
    """HMAC_GOSTR3411_2012_256 (RFC 7836 §4.1.1) by Python's hmac module
    over multiblock's Streebog-256 object: independent of the KDF code."""
    return std_hmac.new(key, msg, functools.partial(multiblock.new, "streebog-256")).digest()


def kdf_tree_by_formula(key, label, seed, length, r):
    """RFC 7836 §4.4: K(i) = HMAC(key, [i]_b | label | 0x00 | seed | [L]_b),
    [i]_b in r bytes, [L]_b the bits of output big-endian without leading zeros."""
    bits = 8 * length
    l_b = bits.to_bytes((bits.bit_length() + 7) // 8, "big")
    out = b""
    for i in range(1, (length + 31) // 32 + 1):
        out += hmac_streebog256(key, i.to_bytes(r, "big") + label + b"\x00" + seed + l_b)
    return out[:length]


def tlstree_by_chain(root, suite, seq):
    """RFC 9189 §8.1: KDF_3(KDF_2(KDF_1(K_root, STR_8(i & C_1)), ...)), each
    KDF_j = KDF_GOSTR3411_2012_256(K, "levelj", D)."""
    key = root
    for level, mask in enumerate(MASKS[suite], 1):
        key = multiblock.kdf_256(key, b"level%d" % level, (seq & mask).to_bytes(8, "big"))
    return key


# ------------------------------------------------------------ the vectors

def test_rfc7836_kdf_256():
    assert multiblock.kdf_256(KEY, LABEL, SEED).hex() == KDF_256
    # RFC 7836 Appendix B, example 1: the same value as the HMAC of the KDF's message.
    assert multiblock.hmac_digest(KEY, b"\x01" + LABEL + b"\x00" + SEED + b"\x01\x00").hex() == KDF_256
    for buf in (bytearray, memoryview):
        assert multiblock.kdf_256(buf(KEY), buf(LABEL), buf(SEED)).hex() == KDF_256


def test_rfc7836_kdf_tree_256():
    assert multiblock.kdf_tree_256(KEY, LABEL, SEED, 64).hex() == KDF_TREE_512
    assert multiblock.kdf_tree_256(KEY, LABEL, SEED, 64, r=1).hex() == KDF_TREE_512
    assert multiblock.kdf_tree_256(bytearray(KEY), memoryview(LABEL), bytearray(SEED), 64, 1).hex() == KDF_TREE_512
    # A different R changes [i]_b and so every block.
    assert multiblock.kdf_tree_256(KEY, LABEL, SEED, 64, r=2).hex() != KDF_TREE_512


@pytest.mark.parametrize("suite,seq,want", TLSTREE, ids=[f"{s}-{n}" for s, n, _ in TLSTREE])
def test_rfc9189_tlstree(suite, seq, want):
    assert multiblock.tlstree(ROOT, suite, seq).hex() == want
    assert multiblock.TlsTree(ROOT, suite).key(seq).hex() == want
    assert multiblock.tlstree(bytearray(ROOT), suite, seq).hex() == want
    assert multiblock.TlsTree(memoryview(ROOT), suite).key(seq).hex() == want


@pytest.mark.parametrize("suite,seq,level1,level2", LEVELS, ids=[f"{v[0]}-{v[1]}" for v in LEVELS])
def test_rfc9189_intermediate_keys_by_kdf_256(suite, seq, level1, level2):
    c1, c2, _ = MASKS[suite]
    k1 = multiblock.kdf_256(ROOT, b"level1", (seq & c1).to_bytes(8, "big"))
    assert k1.hex() == level1
    assert multiblock.kdf_256(k1, b"level2", (seq & c2).to_bytes(8, "big")).hex() == level2


def test_one_tree_walks_the_rfc9189_records_in_order():
    trees = {}
    for suite, seq, want in TLSTREE:
        tree = trees.setdefault(suite, multiblock.TlsTree(ROOT, suite))
        assert tree.key(seq).hex() == want, (suite, seq)


# ------------------------------------------- against independent compositions

def test_kdf_tree_matches_its_formula():
    rng = random.Random("kdf-tree")
    for length in [1, 31, 32, 33, 64, 100, 255, 256, 257, 1000]:
        for r in (1, 2, 3, 4):
            key, label, seed = rng.randbytes(32), rng.randbytes(rng.randrange(0, 20)), rng.randbytes(rng.randrange(0, 40))
            want = kdf_tree_by_formula(key, label, seed, length, r)
            assert multiblock.kdf_tree_256(key, label, seed, length, r=r) == want, (length, r)


def test_kdf_256_is_its_hmac_and_differs_from_a_longer_tree():
    rng = random.Random("kdf-256")
    for _ in range(20):
        key, label, seed = rng.randbytes(32), rng.randbytes(rng.randrange(0, 20)), rng.randbytes(rng.randrange(0, 40))
        got = multiblock.kdf_256(key, label, seed)
        assert got == hmac_streebog256(key, b"\x01" + label + b"\x00" + seed + b"\x01\x00")
        # RFC 7836 §4.5: KDF_TREE with R = 1 and L = 256.
        assert got == multiblock.kdf_tree_256(key, label, seed, 32)
        # L is part of the message: the first block of 64 bytes is another key.
        assert got != multiblock.kdf_tree_256(key, label, seed, 64)[:32]


@pytest.mark.parametrize("suite", SUITES)
def test_tlstree_matches_the_chain_of_kdfs(suite):
    rng = random.Random(suite)
    root = rng.randbytes(32)
    for seq in [0, 1, 2**64 - 1] + [rng.getrandbits(64) for _ in range(10)]:
        assert multiblock.tlstree(root, suite, seq) == tlstree_by_chain(root, suite, seq), seq


@pytest.mark.parametrize("suite", SUITES)
def test_the_cached_tree_equals_the_one_shot(suite):
    rng = random.Random("tree-" + suite)
    root = rng.randbytes(32)
    tree = multiblock.TlsTree(root, suite)
    assert tree.suite == suite
    c1, c2, c3 = MASKS[suite]
    # Records in order across level-3 and level-2 boundaries, then jumps
    # backwards and anywhere.
    span3, span2 = 2**64 - c3, 2**64 - c2
    seqs = list(range(0, 300)) + [span3 - 1, span3, span3 + 1, span2 - 1, span2, span2 + 1]
    seqs += [0, 5, span2 * 3 + 7, span3 * 2, 2**64 - 1, 2**64 - 2, 1]
    seqs += [rng.getrandbits(64) for _ in range(50)]
    keys = set()
    for seq in seqs:
        got = tree.key(seq)
        assert got == multiblock.tlstree(root, suite, seq), seq
        keys.add(got)
    # Records in different level-3 spans have different keys.
    assert len(keys) > 10
    assert tree.key(0) != tree.key(span3)
    assert tree.key(span3 - 1) == tree.key(0)


def test_tree_repr_names_the_suite_and_no_key():
    tree = multiblock.TlsTree(ROOT, "magma-mgm-s")
    key = tree.key(7)
    assert repr(tree) == "<multiblock.TlsTree magma-mgm-s>"
    assert key.hex()[:8] not in repr(tree) and ROOT.hex()[:8] not in repr(tree)


# ------------------------------------------------------------------ errors

@pytest.mark.parametrize("n", [0, 16, 31, 33, 64])
def test_keys_must_be_32_bytes(n):
    key = bytes(n)
    cases = [
        ("kdf_256", lambda: multiblock.kdf_256(key, LABEL, SEED)),
        ("kdf_tree_256", lambda: multiblock.kdf_tree_256(key, LABEL, SEED, 32)),
        ("tlstree", lambda: multiblock.tlstree(key, "magma-mgm-l", 0)),
        ("TlsTree", lambda: multiblock.TlsTree(key, "magma-mgm-l")),
    ]
    for who, call in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert error_text(e) == f"{who} needs a key of 32 bytes, got {n} bytes"


@pytest.mark.parametrize("bad", ["", "kuznyechik", "KUZNYECHIK-MGM-L", "kuznyechik_mgm_l", "magma-mgm", "aes-gcm"])
def test_unknown_suite_lists_the_suites(bad):
    for call in (lambda: multiblock.tlstree(ROOT, bad, 0), lambda: multiblock.TlsTree(ROOT, bad)):
        with pytest.raises(ValueError) as e:
            call()
        assert error_text(e) == f"unknown TLSTREE suite '{bad}' (expected one of: {', '.join(SUITES)})"


def test_kdf_tree_length_is_1_byte_to_1_mib():
    assert len(multiblock.kdf_tree_256(KEY, LABEL, SEED, 1)) == 1
    assert len(multiblock.kdf_tree_256(KEY, LABEL, SEED, 2**20, r=3)) == 2**20
    with pytest.raises(ValueError) as e:
        multiblock.kdf_tree_256(KEY, LABEL, SEED, 0)
    assert "at least one byte" in error_text(e)
    for n in (2**20 + 1, 2**31, -1, 2**70):
        with pytest.raises(ValueError) as e:
            multiblock.kdf_tree_256(KEY, LABEL, SEED, n, r=4)
        assert error_text(e) == f"kdf_tree_256 derives 1 to 1048576 bytes at once, got length {n}"


def test_kdf_tree_length_is_bounded_by_the_counter():
    # RFC 7836 §4.4: L <= 256 * (2^(8R) - 1); R = 1 allows 255 blocks.
    assert multiblock.kdf_tree_256(KEY, LABEL, SEED, 255 * 32)[:64].hex() != KDF_TREE_512
    with pytest.raises(ValueError) as e:
        multiblock.kdf_tree_256(KEY, LABEL, SEED, 255 * 32 + 1)
    assert error_text(e) == ("KDF_TREE_GOSTR3411_2012_256 with R = 1 derives at most 8160 bytes "
                             "(255 blocks of 32), got 8161 bytes")
    assert len(multiblock.kdf_tree_256(KEY, LABEL, SEED, 255 * 32 + 1, r=2)) == 255 * 32 + 1


@pytest.mark.parametrize("r", [0, 5, 8, -1, 2**64])
def test_kdf_tree_counter_is_1_to_4_bytes(r):
    with pytest.raises(ValueError) as e:
        multiblock.kdf_tree_256(KEY, LABEL, SEED, 32, r=r)
    assert error_text(e) == f"KDF_TREE_GOSTR3411_2012_256 needs a counter of R = 1 to 4 bytes, got R = {r}"


@pytest.mark.parametrize("seq", [-1, 2**64, 2**100])
def test_sequence_numbers_are_64_bits(seq):
    tree = multiblock.TlsTree(ROOT, "kuznyechik-mgm-l")
    for call in (lambda: multiblock.tlstree(ROOT, "kuznyechik-mgm-l", seq), lambda: tree.key(seq)):
        with pytest.raises(ValueError) as e:
            call()
        assert error_text(e) == f"seq must be an integer from 0 to 2**64 - 1, got {seq}"
    # The tree still works after a refused call.
    assert tree.key(5) == multiblock.tlstree(ROOT, "kuznyechik-mgm-l", 5)


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError):
        multiblock.kdf_256("a str key is not bytes" + "x" * 10, LABEL, SEED)
    with pytest.raises(TypeError):
        multiblock.kdf_256(KEY, "label", SEED)
    with pytest.raises(TypeError):
        multiblock.kdf_tree_256(KEY, LABEL, SEED, 32.0)
    with pytest.raises(TypeError):
        multiblock.kdf_tree_256(KEY, LABEL, SEED, True)
    with pytest.raises(TypeError):
        multiblock.kdf_tree_256(KEY, LABEL, SEED, 32, r="1")
    with pytest.raises(TypeError):
        multiblock.tlstree(ROOT, "magma-mgm-l", "0")
    with pytest.raises(TypeError):
        multiblock.TlsTree(ROOT, "magma-mgm-l").key(1.0)
    with pytest.raises(TypeError):
        multiblock.TlsTree(ROOT, None)


def test_the_stub_and_docstrings_describe_the_derivations():
    import pathlib
    text = (pathlib.Path(__file__).resolve().parents[1] / "multiblock.pyi").read_text()
    for name in ("kdf_256", "kdf_tree_256", "tlstree"):
        assert f"def {name}(" in text and getattr(multiblock, name).__doc__
    assert "class TlsTree:" in text and multiblock.TlsTree.__doc__ and multiblock.TlsTree.key.__doc__
    assert multiblock.kdf_tree_256.__text_signature__ == "(key, label, seed, length, r=1)"
    assert "RFC 7836 §4.4" in multiblock.kdf_tree_256.__doc__
