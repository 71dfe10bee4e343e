//! What the fuzz targets share: the oracle check "every backend this CPU runs
//! gives what `reference` gives", for the dynamic [`Cipher`] and for the
//! typed RustCrypto `cipher` types.

use multiblock::cipher::{Block, BlockCipherDecrypt, BlockCipherEncrypt};
use multiblock::{backends, BackendChoice, Cipher, CipherId, Error};

/// The names of the backends of `id` that this CPU runs (`reference` among them).
pub fn available_backends(id: CipherId) -> Vec<&'static str> {
    backends(id.name())
        .expect("every CipherId has backends")
        .into_iter()
        .filter(|b| b.available)
        .map(|b| b.info.name)
        .collect()
}

/// `id` keyed with `key` on backend `name`.
pub fn keyed(id: CipherId, key: &[u8], sbox: Option<&str>, name: &str) -> Cipher {
    Cipher::with_id(id, key, sbox, BackendChoice::Named(name))
        .unwrap_or_else(|e| panic!("{id} on {name}: keying failed: {e}"))
}

/// ECB of `data` (whole blocks) by `c`, one direction.
pub fn ecb(c: &Cipher, data: &[u8], encrypt: bool) -> Vec<u8> {
    let mut buf = data.to_vec();
    let r = if encrypt { c.encrypt_blocks(&mut buf) } else { c.decrypt_blocks(&mut buf) };
    r.unwrap_or_else(|e| panic!("{} on {}: {e}", c.id(), c.backend().name));
    buf
}

/// What `reference` makes of `data`: (the whole blocks of data, their
/// encryption, their decryption). Also checks that a ragged tail is refused.
pub struct Expected {
    pub plain: Vec<u8>,
    pub encrypted: Vec<u8>,
    pub decrypted: Vec<u8>,
}

pub fn expected(id: CipherId, key: &[u8], sbox: Option<&str>, data: &[u8]) -> Expected {
    let reference = keyed(id, key, sbox, "reference");
    let n = id.block_bytes();
    if data.len() % n != 0 {
        let mut ragged = data.to_vec();
        assert!(matches!(reference.encrypt_blocks(&mut ragged), Err(Error::DataLength { .. })));
        assert!(matches!(reference.decrypt_blocks(&mut ragged), Err(Error::DataLength { .. })));
    }
    let plain = data[..data.len() / n * n].to_vec();
    Expected { encrypted: ecb(&reference, &plain, true), decrypted: ecb(&reference, &plain, false), plain }
}

/// Every available backend of `id` equals `reference` both ways, and
/// decrypt(encrypt(x)) == x on each.
pub fn check_backends(id: CipherId, key: &[u8], sbox: Option<&str>, data: &[u8]) -> Expected {
    let want = expected(id, key, sbox, data);
    for name in available_backends(id) {
        let c = keyed(id, key, sbox, name);
        let enc = ecb(&c, &want.plain, true);
        assert!(enc == want.encrypted, "{id} {name}: encryption differs from reference");
        assert!(ecb(&c, &want.plain, false) == want.decrypted, "{id} {name}: decryption differs from reference");
        assert!(ecb(&c, &enc, false) == want.plain, "{id} {name}: decrypt(encrypt(x)) != x");
    }
    want
}

/// The typed `cipher`-trait path (par-blocks plus tail split) of one
/// backend gives `want` too.
pub fn check_typed<T: BlockCipherEncrypt + BlockCipherDecrypt>(t: &T, what: &str, want: &Expected) {
    let blocks = |bytes: &[u8]| -> Vec<Block<T>> {
        bytes.chunks_exact(T::block_size()).map(|c| Block::<T>::try_from(c).expect("block size")).collect()
    };
    let flat = |blocks: &[Block<T>]| -> Vec<u8> { blocks.iter().flat_map(|b| b.iter().copied()).collect() };
    let mut enc = blocks(&want.plain);
    t.encrypt_blocks(&mut enc);
    assert!(flat(&enc) == want.encrypted, "{what}: typed encryption differs from reference");
    let mut dec = blocks(&want.plain);
    t.decrypt_blocks(&mut dec);
    assert!(flat(&dec) == want.decrypted, "{what}: typed decryption differs from reference");
}

/// A key of `len` bytes from the fuzzer's key material (zero-extended).
pub fn key_of(material: &[u8], len: usize) -> Vec<u8> {
    let mut k = material.iter().copied().take(len).collect::<Vec<u8>>();
    k.resize(len, 0);
    k
}
