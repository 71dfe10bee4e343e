"""The quick-start examples of docs/python.md, each as it is printed there,
checked against a published vector or a round trip. Each test body is
the example, imports included."""


def test_one_shot_aead():
    import multiblock

    # Kuznyechik MGM, the example of RFC 9058 (R 1323565.1.026-2019, Appendix A).
    key = bytes.fromhex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef")
    nonce = bytes.fromhex("1122334455667700ffeeddccbbaa9988")
    aad = bytes.fromhex("0202020202020202010101010101010104040404040404040303030303030303ea0505050505050505")
    plaintext = bytes.fromhex(
        "1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a"
        "112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011aabbcc")

    sealed = multiblock.encrypt("kuznyechik", "mgm", key, plaintext, iv=nonce, aad=aad)
    assert sealed[-16:].hex() == "cf5d656f40c34f5c46e8bb0e29fcdb4c"  # ciphertext || tag
    assert multiblock.decrypt("kuznyechik", "mgm", key, sealed, iv=nonce, aad=aad) == plaintext

    tampered = sealed[:-1] + bytes([sealed[-1] ^ 1])
    try:
        multiblock.decrypt("kuznyechik", "mgm", key, tampered, iv=nonce, aad=aad)
    except multiblock.AuthenticationError:  # a ValueError; no plaintext is returned
        pass
    else:
        raise AssertionError("a wrong tag was accepted")


def test_mac():
    import multiblock

    # GOST R 34.13-2015 A.1.6: the MAC of Kuznyechik, 64 bits.
    key = bytes.fromhex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef")
    message = bytes.fromhex(
        "1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a"
        "112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011")

    tag = multiblock.mac("kuznyechik", "mac", key, message, mac_bits=64)
    assert tag.hex() == "336f4d296059fbe3"


def test_streaming_encryptor():
    import multiblock

    # GOST R 34.13-2015 A.1.2 (Kuznyechik CTR), fed in pieces of any size.
    key = bytes.fromhex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef")
    iv = bytes.fromhex("1234567890abcef0")
    plaintext = bytes.fromhex(
        "1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a"
        "112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011")

    enc = multiblock.encryptor("kuznyechik", "ctr", key, iv=iv)
    ciphertext = enc.update(plaintext[:5]) + enc.update(plaintext[5:40]) + enc.update(plaintext[40:])
    ciphertext += enc.finalize()
    assert ciphertext.hex() == (
        "f195d8bec10ed1dbd57b5fa240bda1b885eee733f6a13e5df33ce4b33c45dee4"
        "a5eae88be6356ed3d5e877f13564a3a5cb91fab1f20cbab6d1c6d15820bdba73")

    dec = multiblock.decryptor("kuznyechik", "ctr", key, iv=iv)
    assert dec.update(ciphertext) + dec.finalize() == plaintext


def test_encrypt_many():
    import multiblock

    # Kalyna-128-128 CBC: DSTU 7624:2014 B.6.1 as the second of three messages.
    key = bytes.fromhex("000102030405060708090a0b0c0d0e0f")
    iv = bytes.fromhex("101112131415161718191a1b1c1d1e1f")
    messages = [bytes(64), bytes(range(0x20, 0x50)), b"sixteen byte msg"]

    ciphertexts = multiblock.encrypt_many("kalyna-128-128", "cbc", key, messages, iv=iv)
    assert ciphertexts[1].hex() == (
        "a73625d7be994e85469a9faabcedaab6dbc5f65dd77bb35e"
        "06bd7d1d8eafc8624d6cb31ce189c82b8979f2936de9bf14")
    for m, c in zip(messages, ciphertexts):
        assert multiblock.decrypt("kalyna-128-128", "cbc", key, c, iv=iv) == m


def test_cipher_object():
    import multiblock

    # GOST R 34.12-2015 A.1: one Kuznyechik block.
    c = multiblock.Cipher("kuznyechik", bytes.fromhex(
        "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef"))
    block = bytes.fromhex("1122334455667700ffeeddccbbaa9988")

    assert c.encrypt_blocks(block).hex() == "7f679d90bebc24305a468d42b9d4edcd"
    assert c.decrypt_blocks(c.encrypt_blocks(block)) == block
    assert (c.name, c.block_size, c.key_size) == ("kuznyechik", 16, 32)
    assert c.backend in multiblock.backends("kuznyechik")
