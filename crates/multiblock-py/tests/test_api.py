"""Errors (ValueError / AuthenticationError / TypeError with clear one-line
messages), buffer-protocol inputs, listings, and the GIL release."""

import array
import mmap
import threading
import time

import pytest

import multiblock
from conftest import key_size

KEY = bytes(range(32))
IV8 = bytes(8)


def error_text(excinfo):
    text = str(excinfo.value)
    assert "\n" not in text and text, text
    return text


# ------------------------------------------------------------------ errors

def test_wrong_key_length_names_the_expected_size():
    for make in (lambda: multiblock.Cipher("kuznyechik", bytes(31)),
                 lambda: multiblock.encrypt("kuznyechik", "ctr", bytes(16), b"x", iv=IV8)):
        with pytest.raises(ValueError) as e:
            make()
        text = error_text(e)
        assert "32 bytes" in text and ("got 31" in text or "got 16" in text), text


def test_unknown_cipher_lists_the_known_ones():
    with pytest.raises(ValueError) as e:
        multiblock.encrypt("grasshopper", "ctr", KEY, b"")
    text = error_text(e)
    assert "grasshopper" in text and "kuznyechik" in text and "ublock-256-256" in text
    with pytest.raises(ValueError):
        multiblock.Cipher("aes", KEY)
    with pytest.raises(ValueError):
        multiblock.backends("aes")


def test_unknown_mode_lists_the_modes_of_the_cipher():
    with pytest.raises(ValueError) as e:
        multiblock.encrypt("ublock-128-128", "ctr", bytes(16), b"")
    text = error_text(e)
    assert "'ctr'" in text and "ecb" in text and "cbc" in text


def test_bad_iv_length_names_the_iv_and_its_length():
    with pytest.raises(ValueError) as e:
        multiblock.encrypt("kuznyechik", "ctr", KEY, b"abc", iv=bytes(16))
    text = error_text(e)
    assert "iv" in text and "8 bytes" in text and "--" not in text, text
    with pytest.raises(ValueError) as e:
        multiblock.encrypt("kalyna-128-128", "cbc", bytes(16), bytes(16), iv=bytes(15))
    assert "iv" in error_text(e)
    with pytest.raises(ValueError) as e:
        multiblock.encrypt("kuznyechik", "ctr", KEY, b"abc")
    assert "needs iv" in error_text(e)


def test_size_parameters_out_of_range_say_which_bound():
    for value, words in ((-1, "non-negative"), (2**70, "at most")):
        with pytest.raises(ValueError) as e:
            multiblock.encrypt("kuznyechik", "ctr", KEY, b"x", iv=IV8, s=value)
        text = error_text(e)
        assert text.startswith("s must be") and words in text and str(value) in text, text


def test_wrong_tag_raises_authentication_error_a_value_error():
    assert issubclass(multiblock.AuthenticationError, ValueError)
    for cipher, mode, n in (("kuznyechik", "mgm", 16), ("magma", "mgm", 8),
                            ("kalyna-128-128", "gcm", 16), ("kalyna-256-256", "ccm", 32)):
        key = bytes(range(key_size(cipher)))
        sealed = multiblock.encrypt(cipher, mode, key, b"attack at dawn", iv=bytes(n), aad=b"hdr")
        for i in (0, len(sealed) - 1):
            bad = bytearray(sealed)
            bad[i] ^= 1
            with pytest.raises(multiblock.AuthenticationError) as e:
                multiblock.decrypt(cipher, mode, key, bad, iv=bytes(n), aad=b"hdr")
            assert "authentication failed" in error_text(e)
        with pytest.raises(multiblock.AuthenticationError):
            multiblock.decrypt(cipher, mode, key, sealed, iv=bytes(n), aad=b"hdr!")
        assert multiblock.decrypt(cipher, mode, key, sealed, iv=bytes(n), aad=b"hdr") == b"attack at dawn"


def test_other_bad_values_are_value_errors():
    cases = [
        lambda: multiblock.encrypt("kuznyechik", "ecb", KEY, bytes(15)),          # partial block
        lambda: multiblock.Cipher("kuznyechik", KEY).encrypt_blocks(bytes(17)),
        lambda: multiblock.encrypt("kuznyechik", "ecb", KEY, b"", padding="zeros"),
        lambda: multiblock.encrypt("kuznyechik", "ecb", KEY, b"", iv=IV8),         # ECB takes no iv
        lambda: multiblock.encrypt("kuznyechik", "ctr", KEY, b"", iv=IV8, s=12),
        lambda: multiblock.encrypt("kuznyechik", "ctr", KEY, b"", iv=IV8, s=-8),
        lambda: multiblock.encrypt("kuznyechik", "mac", KEY, b""),                 # a MAC mode
        lambda: multiblock.mac("kuznyechik", "ctr", KEY, b"", iv=IV8),             # not a MAC mode
        lambda: multiblock.Cipher("kuznyechik", KEY, sbox="test"),
        lambda: multiblock.Cipher("gost89", KEY, sbox="nonesuch"),
        lambda: multiblock.Cipher("kuznyechik", KEY, backend="nonesuch"),
        lambda: multiblock.encrypt("kalyna-128-128", "ccm", bytes(16), b"x", iv=bytes(16), nb=5),
    ]
    for i, make in enumerate(cases):
        with pytest.raises(ValueError) as e:
            make()
        assert not isinstance(e.value, multiblock.AuthenticationError), i
        error_text(e)


def test_wrong_types_and_unknown_keywords_are_type_errors():
    with pytest.raises(TypeError) as e:
        multiblock.encrypt("kuznyechik", "ctr", KEY, b"", iv=IV8, tagbits=64)
    assert "tagbits" in str(e.value) and "tag_bits" in str(e.value)
    for bad in ("text", 5, [1, 2], None):
        with pytest.raises(TypeError):
            multiblock.encrypt("kuznyechik", "ctr", KEY, bad, iv=IV8)
    with pytest.raises(TypeError):
        multiblock.encrypt("kuznyechik", "ctr", "00" * 32, b"", iv=IV8)
    with pytest.raises(TypeError):
        multiblock.encrypt("kuznyechik", "ctr", KEY, b"", iv=IV8, s="8")
    with pytest.raises(TypeError):
        multiblock.encrypt("kuznyechik", "ecb", KEY, b"", padding=1)


def test_params_given_as_none_take_the_default():
    a = multiblock.encrypt("kuznyechik", "ctr", KEY, b"abcdef", iv=IV8)
    assert multiblock.encrypt("kuznyechik", "ctr", KEY, b"abcdef", iv=IV8, s=None, aad=None, sbox=None,
                              backend=None) == a


# ------------------------------------------------------------------ buffers

def test_every_buffer_type_gives_the_same_bytes(tmp_path):
    data = bytes(range(256)) * 4
    want = multiblock.encrypt("kuznyechik", "ctr", KEY, data, iv=IV8)
    as_u32 = array.array("I")
    as_u32.frombytes(data)
    path = tmp_path / "data"
    path.write_bytes(data)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        strided = memoryview(bytes(b for b in data for _ in (0, 1)))[::2]  # not contiguous
        for buf in (bytearray(data), memoryview(data), memoryview(bytearray(data)), as_u32, mapped, strided):
            got = multiblock.encrypt("kuznyechik", "ctr", memoryview(KEY), buf, iv=bytearray(IV8))
            assert got == want, type(buf)
            assert isinstance(got, bytes)
    c = multiblock.Cipher("kuznyechik", bytearray(KEY))
    assert c.encrypt_blocks(bytearray(data)) == c.encrypt_blocks(memoryview(data)) == \
        multiblock.encrypt("kuznyechik", "ecb", KEY, data)


def test_inputs_are_not_modified():
    data = bytearray(b"\x11" * 64)
    multiblock.Cipher("kuznyechik", KEY).encrypt_blocks(data)
    multiblock.encrypt("kuznyechik", "cbc", KEY, data, iv=bytes(16))
    assert data == bytearray(b"\x11" * 64)


# ------------------------------------------------------------------ listings

def test_listings():
    assert multiblock.ciphers()[0] == "kalyna-128-128" and len(multiblock.ciphers()) == 11
    assert multiblock.modes("gost89") == ["ecb", "cnt", "cfb", "mac"]
    for cipher in multiblock.ciphers():
        names = multiblock.backends(cipher)
        assert "reference" in names
        c = multiblock.Cipher(cipher, bytes(key_size(cipher)))
        assert c.key_size == key_size(cipher)
        assert c.backend in names and c.name == cipher
        assert c.backend != "table", "the default must be constant-time"
        assert repr(c).startswith("<multiblock.Cipher " + cipher)


def test_the_stub_lists_what_the_module_has():
    import pathlib
    stub = pathlib.Path(__file__).resolve().parents[1] / "multiblock.pyi"
    text = stub.read_text()
    for name in ("encrypt", "decrypt", "mac", "backends", "ciphers", "modes"):
        assert f"def {name}(" in text and callable(getattr(multiblock, name))
        assert getattr(multiblock, name).__doc__
    assert "class Cipher" in text and "class AuthenticationError(ValueError)" in text


# ------------------------------------------------------------------ the GIL

def test_large_inputs_release_the_gil():
    """While one thread encrypts 1 MiB on the slow reference backend (about
    a second), this thread keeps running Python: its longest pause is far
    shorter than the call. Were the GIL held, one pause would span it all."""
    data = bytes(1 << 20)
    took = []

    def work():
        t0 = time.perf_counter()
        multiblock.encrypt("kuznyechik", "ctr", KEY, data, iv=IV8, backend="reference")
        took.append(time.perf_counter() - t0)

    t = threading.Thread(target=work)
    last = time.perf_counter()
    longest = 0.0
    t.start()
    while t.is_alive():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
        time.sleep(0.001)
    t.join()
    assert took[0] > 0.05, "the call was too short to tell"
    assert longest < took[0] / 2, (longest, took[0])
