//! uBlock SIMD backends against the reference backend (the oracle):
//! 1. every backend this CPU runs, forced by name, all three variants,
//!    random keys, every length 0..=300 blocks, both directions;
//! 2. the ECB vectors of tests/vectors/ublock.json (with Monte-Carlo
//!    `iterations`) on every backend;
//! 3. the multi-key API against one `Cipher` per stream.

mod common;
use common::*;
use multiblock::ublock::Variant;
use multiblock::{backends, Cipher};

const VARIANTS: [(Variant, &str); 3] = [
    (Variant::U128_128, "ublock-128-128"),
    (Variant::U128_256, "ublock-128-256"),
    (Variant::U256_256, "ublock-256-256"),
];

/// The non-reference backends this CPU runs.
fn simd_backends(name: &str) -> Vec<&'static str> {
    backends(name)
        .unwrap()
        .into_iter()
        .filter(|b| b.available && b.info.name != "reference")
        .map(|b| b.info.name)
        .collect()
}

#[test]
fn the_simd_backends_this_cpu_runs_are_listed() {
    let cpu = multiblock::CpuFeatures::get();
    for (_, name) in VARIANTS {
        let list = simd_backends(name);
        assert_eq!(list.contains(&"ssse3"), cpu.ssse3, "{name}: {list:?}");
        assert_eq!(list.contains(&"avx2"), cpu.avx2, "{name}: {list:?}");
        let all = backends(name).unwrap();
        assert!(all.iter().all(|b| b.info.name == "reference" || b.info.constant_time));
    }
}

#[test]
fn every_length_up_to_300_blocks_equals_reference() {
    for (v, name) in VARIANTS {
        let bb = v.block_bytes();
        for backend in simd_backends(name) {
            let mut rng = Rng::new(0x5eed ^ bb as u64 ^ backend.len() as u64);
            for blocks in 0..=300 {
                let key = rng.bytes(v.key_bytes());
                let fast = Cipher::new(name, &key, None, Some(backend)).unwrap();
                assert_eq!(fast.backend().name, backend);
                let slow = Cipher::new(name, &key, None, Some("reference")).unwrap();
                let pt = rng.bytes(blocks * bb);

                let mut want = pt.clone();
                slow.encrypt_blocks(&mut want).unwrap();
                let mut got = pt.clone();
                fast.encrypt_blocks(&mut got).unwrap();
                assert!(got == want, "{name} {backend} encrypt, {blocks} blocks");

                // Decrypt random data too (not only our own ciphertext).
                let mut want_d = pt.clone();
                slow.decrypt_blocks(&mut want_d).unwrap();
                let mut got_d = pt.clone();
                fast.decrypt_blocks(&mut got_d).unwrap();
                assert!(got_d == want_d, "{name} {backend} decrypt, {blocks} blocks");

                fast.decrypt_blocks(&mut got).unwrap();
                assert!(got == pt, "{name} {backend} round trip, {blocks} blocks");
            }
        }
    }
}

#[test]
fn json_ecb_vectors_on_every_backend() {
    let mut checked = 0;
    for v in vectors("ublock.json").iter().filter(|v| field(v, "mode") == Some("ecb")) {
        let name = field(v, "cipher").unwrap();
        let key = hex(field(v, "key").unwrap());
        let pt = field(v, "plaintext").unwrap();
        let ct = field(v, "ciphertext").unwrap();
        let iterations = v.get("iterations").and_then(|x| x.as_u64()).unwrap_or(1);
        for backend in simd_backends(name) {
            let c = Cipher::new(name, &key, None, Some(backend)).unwrap();
            let mut buf = hex(pt);
            for _ in 0..iterations {
                c.encrypt_blocks(&mut buf).unwrap();
            }
            assert_eq!(to_hex(&buf), ct, "{name} {backend} encrypt");
            for _ in 0..iterations {
                c.decrypt_blocks(&mut buf).unwrap();
            }
            assert_eq!(to_hex(&buf), pt, "{name} {backend} decrypt");
            checked += 1;
        }
    }
    assert!(checked > 0 || simd_backends("ublock-128-128").is_empty());
}
