//! Kalyna against the independent dstu-core crate: random keys and
//! multi-block data, through the by-name API (`Cipher`, reference backend)
//! and the typed `cipher` 0.5 API, plus round trips of every length 0..=20.

mod common;
use common::Rng;

use multiblock::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use multiblock::kalyna::{Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512, Kalyna512_512};
use multiblock::Cipher;

const CASES: usize = 1000;

/// The other implementation: one block at a time via dstu-core.
type Oracle = fn(&[u8], &mut [u8], bool);

macro_rules! oracle {
    ($ek:ident, $kb:literal, $bb:literal) => {
        |key: &[u8], data: &mut [u8], encrypt: bool| {
            let key: [u8; $kb] = key.try_into().unwrap();
            let ek = dstu_core::hazmat::kalyna::$ek::new(&key);
            for chunk in data.chunks_exact_mut($bb) {
                let block: [u8; $bb] = (&*chunk).try_into().unwrap();
                let out = if encrypt { ek.encrypt_block(&block) } else { ek.decrypt_block(&block) };
                chunk.copy_from_slice(&out);
            }
        }
    };
}

/// The typed type through `KeyInit` + `encrypt_blocks` / `decrypt_blocks`.
fn typed<C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt>(key: &[u8], data: &mut [u8], encrypt: bool) {
    let c = C::new_from_slice(key).unwrap();
    let n = C::block_size();
    let mut blocks: Vec<Array<u8, C::BlockSize>> =
        data.chunks_exact(n).map(|b| Array::try_from(b).unwrap()).collect();
    if encrypt {
        c.encrypt_blocks(&mut blocks);
    } else {
        c.decrypt_blocks(&mut blocks);
    }
    for (d, b) in data.chunks_exact_mut(n).zip(&blocks) {
        d.copy_from_slice(b);
    }
}

struct Case {
    name: &'static str,
    key_bytes: usize,
    block_bytes: usize,
    oracle: Oracle,
    typed: fn(&[u8], &mut [u8], bool),
}

fn cases() -> [Case; 5] {
    [
        Case {
            name: "kalyna-128-128",
            key_bytes: 16,
            block_bytes: 16,
            oracle: oracle!(Kalyna128_128ExpandedKey, 16, 16),
            typed: typed::<Kalyna128_128>,
        },
        Case {
            name: "kalyna-128-256",
            key_bytes: 32,
            block_bytes: 16,
            oracle: oracle!(Kalyna128_256ExpandedKey, 32, 16),
            typed: typed::<Kalyna128_256>,
        },
        Case {
            name: "kalyna-256-256",
            key_bytes: 32,
            block_bytes: 32,
            oracle: oracle!(Kalyna256_256ExpandedKey, 32, 32),
            typed: typed::<Kalyna256_256>,
        },
        Case {
            name: "kalyna-256-512",
            key_bytes: 64,
            block_bytes: 32,
            oracle: oracle!(Kalyna256_512ExpandedKey, 64, 32),
            typed: typed::<Kalyna256_512>,
        },
        Case {
            name: "kalyna-512-512",
            key_bytes: 64,
            block_bytes: 64,
            oracle: oracle!(Kalyna512_512ExpandedKey, 64, 64),
            typed: typed::<Kalyna512_512>,
        },
    ]
}

fn cross_check(case: &Case, seed: u64) {
    let mut rng = Rng::new(seed);
    for i in 0..CASES {
        let key = rng.bytes(case.key_bytes);
        let blocks = 1 + rng.below(8);
        let pt = rng.bytes(blocks * case.block_bytes);
        let ctx = format!("{} case {i} ({blocks} blocks)", case.name);

        let mut want = pt.clone();
        (case.oracle)(&key, &mut want, true);

        let c = Cipher::new(case.name, &key, None, Some("reference")).unwrap();
        assert_eq!(c.backend().name, "reference");
        let mut got = pt.clone();
        c.encrypt_blocks(&mut got).unwrap();
        assert_eq!(got, want, "{ctx}: encrypt");

        let mut typed_ct = pt.clone();
        (case.typed)(&key, &mut typed_ct, true);
        assert_eq!(typed_ct, want, "{ctx}: typed encrypt");

        // Decrypt random data too, so decryption is checked on its own.
        let ct = rng.bytes(blocks * case.block_bytes);
        let mut want_pt = ct.clone();
        (case.oracle)(&key, &mut want_pt, false);
        let mut got_pt = ct.clone();
        c.decrypt_blocks(&mut got_pt).unwrap();
        assert_eq!(got_pt, want_pt, "{ctx}: decrypt");
        let mut typed_pt = ct.clone();
        (case.typed)(&key, &mut typed_pt, false);
        assert_eq!(typed_pt, want_pt, "{ctx}: typed decrypt");

        // And our decryption undoes our encryption.
        c.decrypt_blocks(&mut got).unwrap();
        assert_eq!(got, pt, "{ctx}: round trip");
    }
}

#[test]
fn kalyna_128_128_vs_dstu_core() {
    cross_check(&cases()[0], 0x128_128);
}

#[test]
fn kalyna_128_256_vs_dstu_core() {
    cross_check(&cases()[1], 0x128_256);
}

#[test]
fn kalyna_256_256_vs_dstu_core() {
    cross_check(&cases()[2], 0x256_256);
}

#[test]
fn kalyna_256_512_vs_dstu_core() {
    cross_check(&cases()[3], 0x256_512);
}

#[test]
fn kalyna_512_512_vs_dstu_core() {
    cross_check(&cases()[4], 0x512_512);
}

/// Every length 0..=20 blocks, on every backend this CPU runs: matches the
/// oracle and round-trips; a partial block is rejected.
#[test]
fn every_length_and_backend() {
    let mut rng = Rng::new(7624);
    for case in cases() {
        for b in multiblock::backends(case.name).unwrap().iter().filter(|b| b.available) {
            for blocks in 0..=20 {
                let key = rng.bytes(case.key_bytes);
                let pt = rng.bytes(blocks * case.block_bytes);
                let c = Cipher::new(case.name, &key, None, Some(b.info.name)).unwrap();
                let mut want = pt.clone();
                (case.oracle)(&key, &mut want, true);
                let mut buf = pt.clone();
                c.encrypt_blocks(&mut buf).unwrap();
                assert_eq!(buf, want, "{} {} {blocks} blocks", case.name, b.info.name);
                let mut typed_ct = pt.clone();
                (case.typed)(&key, &mut typed_ct, true);
                assert_eq!(typed_ct, want, "{} typed {blocks} blocks", case.name);
                c.decrypt_blocks(&mut buf).unwrap();
                assert_eq!(buf, pt, "{} {} {blocks} blocks round trip", case.name, b.info.name);
            }
            let c = Cipher::new(case.name, &rng.bytes(case.key_bytes), None, Some(b.info.name)).unwrap();
            let mut odd = vec![0u8; case.block_bytes + 1];
            assert!(c.encrypt_blocks(&mut odd).is_err());
            assert!(c.decrypt_blocks(&mut odd).is_err());
        }
    }
}

/// Wrong key lengths are errors, not panics.
#[test]
fn wrong_key_length_is_an_error() {
    for case in cases() {
        for len in [0, case.key_bytes - 1, case.key_bytes + 1] {
            assert!(Cipher::new(case.name, &vec![0u8; len], None, None).is_err(), "{} key {len}", case.name);
        }
    }
}

/// The Kalyna ECB vectors of crates/multiblock/vectors/kalyna.json on every available
/// backend (tests/ecb_vectors.rs runs them too, once every family exists).
#[test]
fn kalyna_ecb_vectors() {
    use common::{field, hex, to_hex, vectors};
    let mut checked = 0;
    for v in vectors("kalyna.json").iter().filter(|v| field(v, "mode") == Some("ecb")) {
        let name = field(v, "cipher").unwrap();
        let key = hex(field(v, "key").unwrap());
        let pt = hex(field(v, "plaintext").unwrap());
        let ct = hex(field(v, "ciphertext").unwrap());
        let iterations = v.get("iterations").and_then(|x| x.as_u64()).unwrap_or(1);
        for b in multiblock::backends(name).unwrap().iter().filter(|b| b.available) {
            let c = Cipher::new(name, &key, None, Some(b.info.name)).unwrap();
            let mut buf = pt.clone();
            for _ in 0..iterations {
                c.encrypt_blocks(&mut buf).unwrap();
            }
            assert_eq!(to_hex(&buf), to_hex(&ct), "{name} {} encrypt", b.info.name);
            for _ in 0..iterations {
                c.decrypt_blocks(&mut buf).unwrap();
            }
            assert_eq!(buf, pt, "{name} {} decrypt", b.info.name);
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} Kalyna ECB checks ran");
}
