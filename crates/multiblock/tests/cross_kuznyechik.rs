//! Kuznyechik against the independent RustCrypto `kuznyechik` 0.9 crate:
//! random keys and multi-block messages, through the by-name [`Cipher`] on
//! every backend this CPU runs and through the typed
//! `multiblock::kuznyechik::Kuznyechik` via the `cipher` 0.5 traits.

mod common;
use common::*;
use multiblock::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use multiblock::{backends, Cipher};

type Block = Array<u8, multiblock::cipher::consts::U16>;

const CASES: usize = 1200;

fn to_blocks(data: &[u8]) -> Vec<Block> {
    data.chunks_exact(16).map(|c| Block::try_from(c).unwrap()).collect()
}

fn from_blocks(blocks: &[Block]) -> Vec<u8> {
    blocks.iter().flat_map(|b| b.iter().copied()).collect()
}

/// ECB by the peer crate, one block at a time.
fn peer_encrypt(key: &[u8], data: &[u8]) -> Vec<u8> {
    let peer = kuznyechik::Kuznyechik::new(&Array::try_from(key).unwrap());
    let mut blocks = to_blocks(data);
    for b in blocks.iter_mut() {
        peer.encrypt_block(b);
    }
    from_blocks(&blocks)
}

fn peer_decrypt(key: &[u8], data: &[u8]) -> Vec<u8> {
    let peer = kuznyechik::Kuznyechik::new(&Array::try_from(key).unwrap());
    let mut blocks = to_blocks(data);
    for b in blocks.iter_mut() {
        peer.decrypt_block(b);
    }
    from_blocks(&blocks)
}

fn available_backends() -> Vec<&'static str> {
    let names: Vec<&'static str> = backends("kuznyechik")
        .unwrap()
        .into_iter()
        .filter(|b| b.available)
        .map(|b| b.info.name)
        .collect();
    assert!(names.contains(&"reference"), "no reference backend: {names:?}");
    names
}

/// Checks one (key, plaintext) against the peer in both directions.
fn check(key: &[u8], pt: &[u8], names: &[&str], what: &str) {
    let expected = peer_encrypt(key, pt);
    assert_eq!(peer_decrypt(key, &expected), pt, "peer round trip {what}");

    for &name in names {
        let c = Cipher::new("kuznyechik", key, None, Some(name)).unwrap();
        assert_eq!(c.backend().name, name);
        let mut buf = pt.to_vec();
        c.encrypt_blocks(&mut buf).unwrap();
        assert_eq!(to_hex(&buf), to_hex(&expected), "{name} encrypt {what}");
        c.decrypt_blocks(&mut buf).unwrap();
        assert_eq!(to_hex(&buf), to_hex(pt), "{name} decrypt {what}");
        // Decrypting the peer's ciphertext, not only our own.
        let mut buf = expected.clone();
        c.decrypt_blocks(&mut buf).unwrap();
        assert_eq!(to_hex(&buf), to_hex(pt), "{name} decrypt of peer ciphertext {what}");
    }

    let typed = multiblock::kuznyechik::Kuznyechik::new(&Array::try_from(key).unwrap());
    let mut blocks = to_blocks(pt);
    typed.encrypt_blocks(&mut blocks);
    assert_eq!(to_hex(&from_blocks(&blocks)), to_hex(&expected), "typed encrypt_blocks {what}");
    typed.decrypt_blocks(&mut blocks);
    assert_eq!(to_hex(&from_blocks(&blocks)), to_hex(pt), "typed decrypt_blocks {what}");
    // Block by block through the same traits.
    let mut blocks = to_blocks(pt);
    for b in blocks.iter_mut() {
        typed.encrypt_block(b);
    }
    assert_eq!(to_hex(&from_blocks(&blocks)), to_hex(&expected), "typed encrypt_block {what}");
}

#[test]
fn random_keys_and_messages_match_the_kuznyechik_crate() {
    let names = available_backends();
    let mut rng = Rng::new(0x4b55_5a4e);
    let mut total_blocks = 0;
    for case in 0..CASES {
        let key = rng.bytes(32);
        let n = rng.below(21); // 0..=20 blocks
        let pt = rng.bytes(16 * n);
        check(&key, &pt, &names, &format!("case {case}, {n} blocks"));
        total_blocks += n;
    }
    assert!(total_blocks > CASES * 8, "lengths look wrong: {total_blocks} blocks");
}

#[test]
fn every_length_up_to_a_few_hundred_blocks() {
    let names = available_backends();
    let mut rng = Rng::new(7801);
    let key = rng.bytes(32);
    for n in (0..=40).chain([63, 64, 65, 127, 128, 129, 255, 256, 257, 300]) {
        let pt = rng.bytes(16 * n);
        check(&key, &pt, &names, &format!("{n} blocks"));
    }
}

#[test]
fn monte_carlo_chain_matches() {
    // Each output fed back as the next input, 1000 times, on every backend.
    let mut rng = Rng::new(34122015);
    let key = rng.bytes(32);
    let pt = rng.bytes(16);
    let expected = (0..1000).fold(pt.clone(), |b, _| peer_encrypt(&key, &b));
    for name in available_backends() {
        let c = Cipher::new("kuznyechik", &key, None, Some(name)).unwrap();
        let mut buf = pt.clone();
        for _ in 0..1000 {
            c.encrypt_blocks(&mut buf).unwrap();
        }
        assert_eq!(to_hex(&buf), to_hex(&expected), "{name}");
        for _ in 0..1000 {
            c.decrypt_blocks(&mut buf).unwrap();
        }
        assert_eq!(to_hex(&buf), to_hex(&pt), "{name}");
    }
}

#[test]
fn standard_vector_through_every_path() {
    let key = hex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
    let pt = hex("1122334455667700ffeeddccbbaa9988");
    assert_eq!(to_hex(&peer_encrypt(&key, &pt)), "7f679d90bebc24305a468d42b9d4edcd");
    check(&key, &pt, &available_backends(), "GOST R 34.12-2015 A.1");
}

#[test]
fn bad_lengths_are_errors_not_panics() {
    let key = [0u8; 32];
    let c = Cipher::new("kuznyechik", &key, None, Some("reference")).unwrap();
    for len in [1, 15, 17, 31, 33] {
        let mut buf = vec![0u8; len];
        assert!(c.encrypt_blocks(&mut buf).is_err(), "encrypt {len} bytes");
        assert!(c.decrypt_blocks(&mut buf).is_err(), "decrypt {len} bytes");
    }
    for len in [0, 16, 31, 33, 64] {
        assert!(Cipher::new("kuznyechik", &vec![0u8; len], None, None).is_err(), "{len}-byte key");
    }
}
