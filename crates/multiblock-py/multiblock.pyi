"""Fast constant-time Kalyna (DSTU 7624:2014), Kuznyechik and Magma
(GOST R 34.12-2015), GOST 28147-89 and uBlock, with their standard modes,
and the hashes Streebog (GOST R 34.11-2012) and Kupyna (DSTU 7564:2014) in
the shape of `hashlib` and `hmac`, and the key derivations over Streebog-256
of RFC 7836 and TLSTREE (RFC 9189, RFC 9367).

Byte arguments take bytes, bytearray, memoryview or any buffer-protocol
object. Inputs of 64 KiB and more are processed with the GIL released.
Errors are ValueError; a wrong tag or key-wrap check is AuthenticationError.
Arguments of the wrong type and unknown keywords raise TypeError.
"""

import sys
from typing import Iterable, List, Literal, Optional, Union

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

__version__: str

CipherName = Literal[
    "kalyna-128-128", "kalyna-128-256", "kalyna-256-256", "kalyna-256-512", "kalyna-512-512",
    "kuznyechik", "magma", "gost89", "ublock-128-128", "ublock-128-256", "ublock-256-256",
]
ModeName = Literal[
    "ecb", "ctr", "ofb", "cbc", "cfb", "mac", "ctr-acpkm", "omac-acpkm", "mgm",
    "cnt", "cmac", "gcm", "gmac", "ccm", "xts", "kw",
]
PaddingName = Literal["none", "gost1", "gost2", "gost3", "pkcs7"]
HashName = Literal["streebog-256", "streebog-512", "kupyna-256", "kupyna-384", "kupyna-512"]
SuiteName = Literal[
    "kuznyechik-ctr-omac", "magma-ctr-omac", "kuznyechik-mgm-l", "kuznyechik-mgm-s", "magma-mgm-l", "magma-mgm-s",
]

class AuthenticationError(ValueError):
    """A tag (MGM, GCM, CCM, a MAC) or key-wrap check failed; nothing was returned."""

def encrypt(
    cipher: Union[CipherName, str],
    mode: Union[ModeName, str],
    key: Buffer,
    data: Buffer,
    iv: Optional[Buffer] = None,
    aad: Optional[Buffer] = None,
    sbox: Optional[str] = None,
    *,
    backend: Optional[str] = None,
    padding: Optional[PaddingName] = None,
    s: Optional[int] = None,
    m: Optional[int] = None,
    mac_bits: Optional[int] = None,
    tag_bits: Optional[int] = None,
    section_bytes: Optional[int] = None,
    key_section_bytes: Optional[int] = None,
    nb: Optional[int] = None,
    key_meshing: Optional[bool] = None,
    data_unit: Optional[int] = None,
    unit: Optional[int] = None,
) -> bytes:
    """Encrypts `data`; AEAD modes (mgm, gcm, ccm) return ciphertext || tag.

    Mode parameters are named as in the test vectors' `params`; each has the
    standard's default when left out. Raises ValueError on bad input.
    """

def decrypt(
    cipher: Union[CipherName, str],
    mode: Union[ModeName, str],
    key: Buffer,
    data: Buffer,
    iv: Optional[Buffer] = None,
    aad: Optional[Buffer] = None,
    sbox: Optional[str] = None,
    *,
    backend: Optional[str] = None,
    padding: Optional[PaddingName] = None,
    s: Optional[int] = None,
    m: Optional[int] = None,
    mac_bits: Optional[int] = None,
    tag_bits: Optional[int] = None,
    section_bytes: Optional[int] = None,
    key_section_bytes: Optional[int] = None,
    nb: Optional[int] = None,
    key_meshing: Optional[bool] = None,
    data_unit: Optional[int] = None,
    unit: Optional[int] = None,
) -> bytes:
    """Decrypts `data` (AEAD: ciphertext || tag; kw: the wrapped key).

    Raises AuthenticationError when the tag or key-wrap check fails.
    """

def mac(
    cipher: Union[CipherName, str],
    mode: Union[ModeName, str],
    key: Buffer,
    data: Buffer,
    iv: Optional[Buffer] = None,
    aad: Optional[Buffer] = None,
    sbox: Optional[str] = None,
    *,
    backend: Optional[str] = None,
    padding: Optional[PaddingName] = None,
    mac_bits: Optional[int] = None,
    tag_bits: Optional[int] = None,
    section_bytes: Optional[int] = None,
    key_section_bytes: Optional[int] = None,
) -> bytes:
    """The MAC of `data` (mac, omac-acpkm, cmac, gmac)."""

def mac_many(
    cipher: Union[CipherName, str],
    mode: Union[ModeName, str],
    key: Buffer,
    messages: Iterable[Buffer],
    iv: Optional[Buffer] = None,
    aad: Optional[Buffer] = None,
    sbox: Optional[str] = None,
    *,
    backend: Optional[str] = None,
    padding: Optional[PaddingName] = None,
    mac_bits: Optional[int] = None,
    tag_bits: Optional[int] = None,
    section_bytes: Optional[int] = None,
    key_section_bytes: Optional[int] = None,
) -> List[bytes]:
    """The MAC of every message under one key, equal to
    `[mac(cipher, mode, key, m, ...) for m in messages]`, computed together:
    one wide cipher call per block step over all the messages (mac,
    omac-acpkm, cmac; other MAC modes one message at a time)."""

def encrypt_many(
    cipher: Union[CipherName, str],
    mode: Union[ModeName, str],
    key: Buffer,
    messages: Iterable[Buffer],
    iv: Optional[Buffer] = None,
    sbox: Optional[str] = None,
    *,
    backend: Optional[str] = None,
    padding: Optional[PaddingName] = None,
    s: Optional[int] = None,
    m: Optional[int] = None,
    section_bytes: Optional[int] = None,
    key_meshing: Optional[bool] = None,
    data_unit: Optional[int] = None,
    unit: Optional[int] = None,
) -> List[bytes]:
    """The encryption of every message under one key and IV, equal to
    `[encrypt(cipher, mode, key, m, iv, ...) for m in messages]`; CBC, CFB
    and OFB with a one-block register run together in the SIMD lanes, the
    other cipher modes one message at a time.

    Not for AEAD (mgm, gcm, ccm) or kw: every message needs its own nonce
    (AEAD) or integrity check (KW), so they raise ValueError; encrypt such
    messages one at a time with encrypt(). No mode it runs authenticates
    data, so it takes no `aad` (TypeError)."""

class StreamContext:
    """An encryption or decryption in progress (encryptor(), decryptor()).

    One thread at a time: a call to any of its methods (`.tag` included)
    while another thread is inside one raises ValueError("this context is
    in use by another thread") instead of waiting."""

    def update(self, data: Buffer) -> bytes:
        """The output ready so far. From an MGM or GCM decryptor: plaintext
        NOT yet authenticated; use none of it unless finalize() succeeds."""
    def finalize(self) -> bytes:
        """The last output; a decryptor raises AuthenticationError on a
        wrong tag. ValueError if called twice."""
    @property
    def tag(self) -> Optional[bytes]:
        """An AEAD encryptor's tag after finalize(); None otherwise."""

class MacStream:
    """A MAC in progress (mac_stream()).

    One thread at a time: a call while another thread is inside update()
    or finalize() raises ValueError("this context is in use by another
    thread") instead of waiting."""

    def update(self, data: Buffer) -> None:
        """Hashes more of the message."""
    def finalize(self) -> bytes:
        """The tag mac() gives for the whole message. ValueError if called
        twice."""

def encryptor(
    cipher: Union[CipherName, str],
    mode: Union[ModeName, str],
    key: Buffer,
    iv: Optional[Buffer] = None,
    aad: Optional[Buffer] = None,
    sbox: Optional[str] = None,
    *,
    backend: Optional[str] = None,
    padding: Optional[PaddingName] = None,
    s: Optional[int] = None,
    m: Optional[int] = None,
    mac_bits: Optional[int] = None,
    tag_bits: Optional[int] = None,
    section_bytes: Optional[int] = None,
    key_section_bytes: Optional[int] = None,
    nb: Optional[int] = None,
    key_meshing: Optional[bool] = None,
    data_unit: Optional[int] = None,
    unit: Optional[int] = None,
) -> StreamContext:
    """Incremental encrypt(): the outputs of update() and finalize(),
    joined, are encrypt()'s for any split (AEAD: followed by `.tag`).
    CCM and KW collect the input and output it all in finalize()."""

def decryptor(
    cipher: Union[CipherName, str],
    mode: Union[ModeName, str],
    key: Buffer,
    iv: Optional[Buffer] = None,
    aad: Optional[Buffer] = None,
    sbox: Optional[str] = None,
    *,
    tag: Optional[Buffer] = None,
    backend: Optional[str] = None,
    padding: Optional[PaddingName] = None,
    s: Optional[int] = None,
    m: Optional[int] = None,
    mac_bits: Optional[int] = None,
    tag_bits: Optional[int] = None,
    section_bytes: Optional[int] = None,
    key_section_bytes: Optional[int] = None,
    nb: Optional[int] = None,
    key_meshing: Optional[bool] = None,
    data_unit: Optional[int] = None,
    unit: Optional[int] = None,
) -> StreamContext:
    """Incremental decrypt(). AEAD: the tag is `tag`, or the input's last
    bytes when not given; finalize() raises AuthenticationError if wrong."""

def mac_stream(
    cipher: Union[CipherName, str],
    mode: Union[ModeName, str],
    key: Buffer,
    iv: Optional[Buffer] = None,
    sbox: Optional[str] = None,
    *,
    backend: Optional[str] = None,
    padding: Optional[PaddingName] = None,
    s: Optional[int] = None,
    m: Optional[int] = None,
    mac_bits: Optional[int] = None,
    tag_bits: Optional[int] = None,
    section_bytes: Optional[int] = None,
    key_section_bytes: Optional[int] = None,
    nb: Optional[int] = None,
    key_meshing: Optional[bool] = None,
    data_unit: Optional[int] = None,
    unit: Optional[int] = None,
) -> MacStream:
    """Incremental mac(): update(data) in pieces, finalize() -> the tag."""

class Cipher:
    """`cipher` keyed with `key` for ECB over whole blocks."""

    def __init__(
        self,
        cipher: Union[CipherName, str],
        key: Buffer,
        sbox: Optional[str] = None,
        backend: Optional[str] = None,
    ) -> None: ...
    def encrypt_blocks(self, data: Buffer) -> bytes:
        """ECB-encrypts whole blocks (ValueError on a partial block)."""
    def decrypt_blocks(self, data: Buffer) -> bytes:
        """ECB-decrypts whole blocks (ValueError on a partial block)."""
    @property
    def backend(self) -> str:
        """The backend this cipher runs on, e.g. "avx2"."""
    @property
    def name(self) -> str:
        """The cipher's name, e.g. "kalyna-128-256"."""
    @property
    def block_size(self) -> int:
        """Block size in bytes."""
    @property
    def key_size(self) -> int:
        """Key size in bytes."""

def ciphers() -> list[str]:
    """Every cipher name."""

def modes(cipher: str) -> list[str]:
    """The modes of `cipher`, "ecb" first."""

def backends(name: str) -> list[str]:
    """The backends of the cipher or hash `name` this CPU runs, fastest first."""

class Hash:
    """A hash in progress (new()), shaped as hashlib's objects.

    One thread at a time: a call while another thread is inside one (a
    large update runs with the GIL released) raises ValueError("this
    context is in use by another thread") instead of waiting."""

    def update(self, data: Buffer) -> None:
        """Hashes the next piece of the message."""
    def digest(self) -> bytes:
        """The digest of everything so far; updates may go on."""
    def hexdigest(self) -> str:
        """digest() in lowercase hex."""
    def copy(self) -> "Hash":
        """An independent copy of the state."""
    @property
    def name(self) -> str:
        """The hash's name, e.g. "streebog-256"."""
    @property
    def digest_size(self) -> int:
        """The digest length in bytes."""
    @property
    def block_size(self) -> int:
        """The compression block in bytes (64, or 128 for Kupyna over 256 bits)."""
    @property
    def backend(self) -> str:
        """The backend the hash runs on."""

def new(name: Union[HashName, str], data: Optional[Buffer] = None, *, backend: Optional[str] = None) -> Hash:
    """A hash object as hashlib.new: streebog-256, streebog-512, kupyna-256,
    kupyna-384, kupyna-512, or kupyna-N (N from 8 to 512 in steps of 8).
    ValueError names the known hashes when `name` is none of them."""

def hash(name: Union[HashName, str], data: Buffer, *, backend: Optional[str] = None) -> bytes:
    """The digest of one message."""

def hash_many(name: Union[HashName, str], messages: Iterable[Buffer], *, backend: Optional[str] = None) -> List[bytes]:
    """The digest of every message, equal to `[hash(name, m) for m in
    messages]`, computed together (in the SIMD lanes where the backend
    can)."""

def hashes() -> list[str]:
    """The hash names protocols use (kupyna-N takes other N besides)."""

class HMAC:
    """An HMAC in progress (hmac_new()), shaped as Python's hmac objects.
    One thread at a time, as Hash."""

    def update(self, msg: Buffer) -> None:
        """MACs the next piece of the message."""
    def digest(self) -> bytes:
        """The tag of everything so far; updates may go on."""
    def hexdigest(self) -> str:
        """digest() in lowercase hex."""
    def verify(self, tag: Buffer) -> None:
        """Raises AuthenticationError unless `tag` is digest() (compared in
        constant time)."""
    def copy(self) -> "HMAC":
        """An independent copy of the keyed state."""
    @property
    def name(self) -> str:
        """"hmac-" and the hash's name, e.g. "hmac-streebog-256"."""
    @property
    def digest_size(self) -> int:
        """The tag length in bytes."""
    @property
    def block_size(self) -> int:
        """The hash's block in bytes."""

def hmac_new(
    key: Buffer,
    msg: Optional[Buffer] = None,
    digestmod: Union[HashName, str] = "streebog-256",
    *,
    backend: Optional[str] = None,
) -> HMAC:
    """HMAC (RFC 2104; over Streebog, RFC 7836 §4.1) as hmac.new, with
    `digestmod` a hash name and `backend` one of backends(digestmod)."""

def hmac_digest(
    key: Buffer,
    msg: Buffer,
    digestmod: Union[HashName, str] = "streebog-256",
    *,
    backend: Optional[str] = None,
) -> bytes:
    """The HMAC tag of one message, as hmac.digest."""

class KupynaMAC:
    """Kupyna's MAC in progress (kupyna_mac_new()), shaped as HMAC. One
    thread at a time, as Hash."""

    def update(self, msg: Buffer) -> None:
        """MACs the next piece of the message."""
    def digest(self) -> bytes:
        """The tag of everything so far; updates may go on."""
    def hexdigest(self) -> str:
        """digest() in lowercase hex."""
    def verify(self, tag: Buffer) -> None:
        """Raises AuthenticationError unless `tag` is digest() (compared in
        constant time)."""
    def copy(self) -> "KupynaMAC":
        """An independent copy of the keyed state."""
    @property
    def name(self) -> str:
        """"kupyna-mac-" and the tag bits, e.g. "kupyna-mac-256"."""
    @property
    def digest_size(self) -> int:
        """The tag length in bytes."""
    @property
    def block_size(self) -> int:
        """The hash's block in bytes."""

def kupyna_mac_new(
    key: Buffer,
    msg: Optional[Buffer] = None,
    tag_bits: Optional[int] = None,
    *,
    backend: Optional[str] = None,
) -> KupynaMAC:
    """Kupyna's MAC (DSTU 7564:2014) with a tag of 256, 384 or 512 bits (by
    default the key's length); the key is as long as the tag."""

def kupyna_mac(
    key: Buffer,
    msg: Buffer,
    tag_bits: Optional[int] = None,
    *,
    backend: Optional[str] = None,
) -> bytes:
    """Kupyna's MAC of one message."""

def kdf_256(key: Buffer, label: Buffer, seed: Buffer) -> bytes:
    """KDF_GOSTR3411_2012_256 (RFC 7836 §4.5): the 32-byte key
    HMAC_GOSTR3411_2012_256(key, 0x01 | label | 0x00 | seed | 0x01 | 0x00)
    under the 32-byte `key`."""

def kdf_tree_256(key: Buffer, label: Buffer, seed: Buffer, length: int, r: int = 1) -> bytes:
    """KDF_TREE_GOSTR3411_2012_256 (RFC 7836 §4.4): `length` bytes (1 to
    1 MiB; L = 8 * length bits) under the 32-byte `key`, with a block counter
    of `r` bytes (1 to 4). R = 1 gives at most 255 blocks of 32 bytes
    (8160 bytes); a larger `length` needs a larger `r`."""

def tlstree(key: Buffer, suite: Union[SuiteName, str], seq: int) -> bytes:
    """TLSTREE (RFC 9189 §8.1, RFC 9367 §4.1.2): the 32-byte key of record
    `seq` (0 to 2**64 - 1) under the 32-byte root `key` with the masks of
    `suite`. For a run of records TlsTree reuses the upper levels."""

class TlsTree:
    """TLSTREE over one 32-byte root key with each level's last key cached:
    key(seq) derives only the levels whose masked sequence number changed
    since the last call, and equals tlstree(key, suite, seq) for any order
    of sequence numbers. The root and the cached keys are wiped when the
    object is freed. One thread at a time, as Hash."""

    def __init__(self, key: Buffer, suite: Union[SuiteName, str]) -> None: ...
    def key(self, seq: int) -> bytes:
        """TLSTREE(K_root, seq): the 32-byte key of record `seq` (0 to 2**64 - 1)."""
    @property
    def suite(self) -> str:
        """The suite's name, e.g. "kuznyechik-mgm-l"."""

def kexp15(cipher: Literal["kuznyechik", "magma"], key: Buffer, kek_enc: Buffer, kek_mac: Buffer, iv: Buffer) -> bytes:
    """KExp15 (R 1323565.1.017-2018): exports `key` (any non-empty length)
    under the 32-byte encryption and MAC keys with an IV of half a block (8
    bytes for kuznyechik, 4 for magma); the key's length plus one block out."""

def kimp15(cipher: Literal["kuznyechik", "magma"], blob: Buffer, kek_enc: Buffer, kek_mac: Buffer, iv: Buffer) -> bytes:
    """KImp15: the key exported in `blob`; AuthenticationError if its MAC
    does not match."""

def dstu7624_wrap(kek: Buffer, key: Buffer, iv: Optional[Buffer] = None) -> bytes:
    """Dstu7624Wrap (the Ukrainian CMS profile, Kalyna-256/256): wraps the
    32-byte key under the 32-byte KEK, 96 bytes out; the 32-byte IV is drawn
    from the operating system unless given (only to reproduce a vector)."""

def dstu7624_unwrap(kek: Buffer, wrapped: Buffer) -> bytes:
    """The 32-byte key in the 96-byte `wrapped`; AuthenticationError if its
    MAC does not match."""

def gost28147_wrap(kek: Buffer, key: Buffer, iv: Optional[Buffer] = None, sbox: str = "dstu4145") -> bytes:
    """The GOST 28147-89 key wrap of the Ukrainian CMS profile: wraps the
    32-byte key under the 32-byte KEK, 44 bytes out; the 8-byte IV is drawn
    from the operating system unless given (only to reproduce a vector)."""

def gost28147_unwrap(kek: Buffer, wrapped: Buffer, sbox: str = "dstu4145") -> bytes:
    """The 32-byte key in the 44-byte `wrapped`; AuthenticationError if its
    MAC does not match."""
