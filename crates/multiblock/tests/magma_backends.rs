//! Every Magma / GOST 28147-89 backend this CPU runs against `reference`:
//! magma and gost89 with each S-box set, random keys, every length from 0 to
//! 300 blocks, both directions; plus the ECB vectors of crates/multiblock/vectors on
//! every backend, and the name/availability contract of the backend list.

mod common;
use common::*;
use multiblock::magma::SboxSet;
use multiblock::{backends, Cipher, Error};

const MAX_BLOCKS: usize = 300;

/// (cipher, S-box) pairs: magma, then gost89 with every set.
fn configurations() -> Vec<(&'static str, Option<&'static str>)> {
    let mut v = vec![("magma", None)];
    v.extend(SboxSet::ALL.iter().map(|s| ("gost89", Some(s.name()))));
    v
}

fn runnable(cipher: &str) -> Vec<&'static str> {
    backends(cipher).unwrap().iter().filter(|b| b.available).map(|b| b.info.name).collect()
}

/// Encrypts and decrypts `data` on `backend`.
fn both_ways(cipher: &str, sbox: Option<&str>, key: &[u8], backend: &str, data: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let c = Cipher::new(cipher, key, sbox, Some(backend)).unwrap();
    assert_eq!(c.backend().name, backend);
    let mut enc = data.to_vec();
    let mut dec = data.to_vec();
    c.encrypt_blocks(&mut enc).unwrap();
    c.decrypt_blocks(&mut dec).unwrap();
    (enc, dec)
}

fn cross_check(backend: &str, seed: u64) {
    let mut rng = Rng::new(seed);
    for (cipher, sbox) in configurations() {
        for blocks in 0..=MAX_BLOCKS {
            let key = rng.bytes(32);
            let data = rng.bytes(8 * blocks);
            let (enc, dec) = both_ways(cipher, sbox, &key, backend, &data);
            let (ref_enc, ref_dec) = both_ways(cipher, sbox, &key, "reference", &data);
            assert!(enc == ref_enc, "{cipher}/{sbox:?} {backend}: encrypt differs at {blocks} blocks");
            assert!(dec == ref_dec, "{cipher}/{sbox:?} {backend}: decrypt differs at {blocks} blocks");
        }
    }
}

/// One test per backend, so each can be run alone (e.g. under an emulator);
/// a backend this CPU cannot run is skipped with a note.
macro_rules! cross_check_tests {
    ($($test:ident => $name:literal, $seed:literal;)*) => {
        const CHECKED: &[&str] = &[$($name),*];
        $(
            #[test]
            fn $test() {
                if runnable("magma").contains(&$name) {
                    cross_check($name, $seed);
                } else {
                    eprintln!("skipped: this CPU does not run {}", $name);
                }
            }
        )*
    };
}

cross_check_tests! {
    avx512_vbmi_matches_reference => "avx512-vbmi", 101;
    avx512_vbmi_narrow_matches_reference => "avx512-vbmi-narrow", 109;
    avx512_matches_reference => "avx512", 102;
    avx2_matches_reference => "avx2", 103;
    ssse3_matches_reference => "ssse3", 104;
    portable_matches_reference => "portable", 107;
    neon_matches_reference => "neon", 108;
    table_matches_reference => "table", 105;
    table12_matches_reference => "table12", 106;
}

#[test]
fn every_backend_is_cross_checked() {
    assert_eq!(runnable("magma"), runnable("gost89"));
    for b in backends("magma").unwrap() {
        assert!(b.info.name == "reference" || CHECKED.contains(&b.info.name), "{} has no cross-check", b.info.name);
    }
}

#[test]
fn in_place_batches_do_not_touch_their_neighbours() {
    // A backend must write exactly the blocks it is given.
    let mut rng = Rng::new(7);
    let key = rng.bytes(32);
    for backend in runnable("magma") {
        let c = Cipher::new("magma", &key, None, Some(backend)).unwrap();
        for blocks in [1, 3, 15, 16, 17, 63, 64, 65, 130] {
            let mut buf = rng.bytes(8 * (blocks + 2));
            let before = buf.clone();
            c.encrypt_blocks(&mut buf[8..8 * (blocks + 1)]).unwrap();
            assert_eq!(buf[..8], before[..8], "{backend} {blocks}");
            assert_eq!(buf[8 * (blocks + 1)..], before[8 * (blocks + 1)..], "{backend} {blocks}");
            c.decrypt_blocks(&mut buf[8..8 * (blocks + 1)]).unwrap();
            assert_eq!(buf, before, "{backend} {blocks}");
        }
    }
}

#[test]
fn ecb_vectors_on_every_backend() {
    let mut checked = 0;
    for file in ["magma.json", "gost89.json"] {
        for v in vectors(file).iter().filter(|v| field(v, "mode") == Some("ecb")) {
            let cipher = field(v, "cipher").unwrap();
            let key = hex(field(v, "key").unwrap());
            let pt = hex(field(v, "plaintext").unwrap());
            let ct = hex(field(v, "ciphertext").unwrap());
            let iterations = v.get("iterations").and_then(|x| x.as_u64()).unwrap_or(1);
            for backend in runnable(cipher) {
                let c = Cipher::new(cipher, &key, field(v, "sbox"), Some(backend)).unwrap();
                let mut buf = pt.clone();
                for _ in 0..iterations {
                    c.encrypt_blocks(&mut buf).unwrap();
                }
                assert_eq!(to_hex(&buf), to_hex(&ct), "{cipher} {backend} encrypt: {:?}", field(v, "source"));
                for _ in 0..iterations {
                    c.decrypt_blocks(&mut buf).unwrap();
                }
                assert_eq!(to_hex(&buf), to_hex(&pt), "{cipher} {backend} decrypt: {:?}", field(v, "source"));
                checked += 1;
            }
        }
    }
    assert!(checked >= 2 * 7, "only {checked} checks ran");
}

#[test]
fn every_listed_backend_runs_or_says_it_is_unavailable() {
    let expected = ["avx512-vbmi", "avx512", "avx2", "ssse3", "table", "table12", "reference"];
    for cipher in ["magma", "gost89"] {
        let list = backends(cipher).unwrap();
        for name in expected {
            #[cfg(not(target_arch = "x86_64"))]
            if !["table", "table12", "reference"].contains(&name) {
                continue;
            }
            assert!(list.iter().any(|b| b.info.name == name), "{cipher}: {name} is not listed");
        }
        for b in &list {
            match Cipher::new(cipher, &[0x5a; 32], None, Some(b.info.name)) {
                Ok(c) => {
                    assert!(b.available, "{cipher}: {} ran but is listed unavailable", b.info.name);
                    assert_eq!(c.backend(), b.info);
                    let mut block = [1u8; 8];
                    c.encrypt_blocks(&mut block).unwrap();
                }
                Err(Error::BackendUnavailable { name, needs, .. }) => {
                    assert!(!b.available, "{cipher}: {name} is available but refused");
                    assert_eq!(needs, b.info.needs);
                }
                Err(e) => panic!("{cipher}: {}: {e}", b.info.name),
            }
        }
        // The default is the first available constant-time backend, and one of the SIMD ones.
        let default = list.iter().find(|b| b.is_default).unwrap();
        assert!(default.info.constant_time);
        assert_eq!(Some(default.info.name), list.iter().find(|b| b.available && b.info.constant_time).map(|b| b.info.name));
        #[cfg(target_arch = "x86_64")]
        assert_ne!(default.info.name, "reference", "{cipher}: no SIMD backend on an x86-64 CPU");
        // Table backends are never the default and say so.
        for b in list.iter().filter(|b| b.info.name.starts_with("table")) {
            assert!(!b.info.constant_time && !b.is_default);
        }
    }
}
