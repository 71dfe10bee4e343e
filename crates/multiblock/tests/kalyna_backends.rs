//! Every Kalyna backend this CPU runs, forced by name, against the
//! `reference` backend: all five variants, random keys, every length
//! 0..=385 blocks, both directions; the ECB vectors on each backend; and the
//! default backend against dstu-core 0.7 on random data.

mod common;
use common::Rng;

use multiblock::Cipher;

const VARIANTS: [(&str, usize, usize); 5] = [
    ("kalyna-128-128", 16, 16),
    ("kalyna-128-256", 32, 16),
    ("kalyna-256-256", 32, 32),
    ("kalyna-256-512", 64, 32),
    ("kalyna-512-512", 64, 64),
];

/// Three batches of the widest backend (`portable`, 128 blocks) and one block.
const MAX_BLOCKS: usize = 3 * 128 + 1;

/// The backends of `cipher` that this CPU runs, except the oracle itself.
fn runnable(cipher: &str) -> Vec<&'static str> {
    multiblock::backends(cipher)
        .unwrap()
        .iter()
        .filter(|b| b.available && b.info.name != "reference")
        .map(|b| b.info.name)
        .collect()
}

fn check_backend(name: &str, key_bytes: usize, block_bytes: usize, backend: &str, seed: u64) {
    let mut rng = Rng::new(seed);
    // One long random buffer; every length is a prefix of it, so the
    // reference runs once per key and direction.
    for round in 0..2 {
        let key = rng.bytes(key_bytes);
        let oracle = Cipher::new(name, &key, None, Some("reference")).unwrap();
        let c = Cipher::new(name, &key, None, Some(backend)).unwrap();
        assert_eq!(c.backend().name, backend);
        let data = rng.bytes(MAX_BLOCKS * block_bytes);
        let mut want_ct = data.clone();
        oracle.encrypt_blocks(&mut want_ct).unwrap();
        let mut want_pt = data.clone();
        oracle.decrypt_blocks(&mut want_pt).unwrap();
        // ECB is per block, so the oracle's output for the whole buffer
        // holds the answer for every prefix and every offset.
        for blocks in 0..=MAX_BLOCKS {
            // Alternate offsets so lengths do not all start at block 0.
            let off = if round == 0 { 0 } else { (MAX_BLOCKS - blocks) / 2 };
            let r = off * block_bytes..(off + blocks) * block_bytes;
            let mut buf = data[r.clone()].to_vec();
            c.encrypt_blocks(&mut buf).unwrap();
            assert!(buf == want_ct[r.clone()], "{name} {backend}: encrypt {blocks} blocks at {off}");
            let mut buf = data[r.clone()].to_vec();
            c.decrypt_blocks(&mut buf).unwrap();
            assert!(buf == want_pt[r.clone()], "{name} {backend}: decrypt {blocks} blocks at {off}");
        }
    }
}

macro_rules! per_variant {
    ($($test:ident => $idx:expr),* $(,)?) => {$(
        #[test]
        fn $test() {
            let (name, kb, bb) = VARIANTS[$idx];
            let backends = runnable(name);
            assert!(!backends.is_empty());
            for (i, b) in backends.iter().enumerate() {
                check_backend(name, kb, bb, b, 0x7624_0000 + 16 * $idx as u64 + i as u64);
            }
        }
    )*};
}

per_variant! {
    every_length_128_128 => 0,
    every_length_128_256 => 1,
    every_length_256_256 => 2,
    every_length_256_512 => 3,
    every_length_512_512 => 4,
}

/// The Kalyna ECB vectors (crates/multiblock/vectors/kalyna.json, with Monte-Carlo
/// iterations) on every backend this CPU runs.
#[test]
fn ecb_vectors_on_every_backend() {
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

/// The same plaintext block repeated: every lane of a wide kernel must give
/// the vector's ciphertext (catches lane mix-ups that random data might hide
/// only if two lanes were swapped consistently).
#[test]
fn repeated_vector_block_in_every_lane() {
    use common::{field, hex, vectors};
    for v in vectors("kalyna.json").iter().filter(|v| field(v, "mode") == Some("ecb")) {
        if v.get("iterations").is_some() {
            continue;
        }
        let name = field(v, "cipher").unwrap();
        let key = hex(field(v, "key").unwrap());
        let pt = hex(field(v, "plaintext").unwrap());
        let ct = hex(field(v, "ciphertext").unwrap());
        if pt.len() != ct.len() || pt.len() > 64 {
            continue;
        }
        for b in runnable(name) {
            let c = Cipher::new(name, &key, None, Some(b)).unwrap();
            let mut buf = pt.repeat(67);
            c.encrypt_blocks(&mut buf).unwrap();
            assert_eq!(buf, ct.repeat(67), "{name} {b}");
            c.decrypt_blocks(&mut buf).unwrap();
            assert_eq!(buf, pt.repeat(67), "{name} {b}");
        }
    }
}

/// The default backend against dstu-core 0.7 on random keys and data.
#[test]
fn default_backend_vs_dstu_core() {
    macro_rules! vs {
        ($name:literal, $ek:ident, $kb:literal, $bb:literal, $seed:literal) => {{
            let mut rng = Rng::new($seed);
            for case in 0..50 {
                let key: [u8; $kb] = rng.bytes($kb).try_into().unwrap();
                let ek = dstu_core::hazmat::kalyna::$ek::new(&key);
                let c = Cipher::new($name, &key, None, None).unwrap();
                let blocks = 1 + rng.below(100);
                let data = rng.bytes(blocks * $bb);
                let (mut ct, mut pt) = (data.clone(), data.clone());
                c.encrypt_blocks(&mut ct).unwrap();
                c.decrypt_blocks(&mut pt).unwrap();
                for ((d, e), p) in data.chunks_exact($bb).zip(ct.chunks_exact($bb)).zip(pt.chunks_exact($bb)) {
                    let block: [u8; $bb] = d.try_into().unwrap();
                    assert_eq!(ek.encrypt_block(&block)[..], e[..], "{} case {case}", $name);
                    assert_eq!(ek.decrypt_block(&block)[..], p[..], "{} case {case}", $name);
                }
            }
        }};
    }
    vs!("kalyna-128-128", Kalyna128_128ExpandedKey, 16, 16, 1);
    vs!("kalyna-128-256", Kalyna128_256ExpandedKey, 32, 16, 2);
    vs!("kalyna-256-256", Kalyna256_256ExpandedKey, 32, 32, 3);
    vs!("kalyna-256-512", Kalyna256_512ExpandedKey, 64, 32, 4);
    vs!("kalyna-512-512", Kalyna512_512ExpandedKey, 64, 64, 5);
}

/// Two keys used in turn, on lengths around the batch sizes (1, 64 and 128
/// blocks), every variant and backend: each call matches the reference
/// under its own key, so no key material or state of one call leaks into
/// the next.
#[test]
fn alternating_keys_match_reference() {
    let mut rng = Rng::new(0x6b65_7973);
    for (name, kb, bb) in VARIANTS {
        let keys = [rng.bytes(kb), rng.bytes(kb)];
        let make = |k: &Vec<u8>, b: &str| Cipher::new(name, k, None, Some(b)).unwrap();
        let oracles = keys.each_ref().map(|k| make(k, "reference"));
        for backend in runnable(name) {
            let ciphers = keys.each_ref().map(|k| make(k, backend));
            for (i, n) in [1, 63, 64, 65, 127, 128, 129, 257, 2].into_iter().enumerate() {
                let data = rng.bytes(bb * n);
                let (mut got, mut want) = (data.clone(), data.clone());
                ciphers[i % 2].encrypt_blocks(&mut got).unwrap();
                oracles[i % 2].encrypt_blocks(&mut want).unwrap();
                assert!(got == want, "{name} {backend}: encrypt {n} blocks, key {}", i % 2);
                ciphers[(i + 1) % 2].decrypt_blocks(&mut got).unwrap();
                oracles[(i + 1) % 2].decrypt_blocks(&mut want).unwrap();
                assert!(got == want, "{name} {backend}: decrypt {n} blocks, key {}", (i + 1) % 2);
            }
        }
    }
}
