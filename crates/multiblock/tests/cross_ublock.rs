//! uBlock cross-checks. There is no independent uBlock crate, so:
//! 1. every ublock ECB vector of crates/multiblock/vectors/ublock.json (with Monte-Carlo
//!    `iterations`), both directions, plus the longer Monte-Carlo runs quoted
//!    in the official uBlock test-vector files (uBlock design document §8);
//! 2. per variant, 1000 random (key, multi-block data) cases: round trip, the
//!    typed types through the `cipher` 0.5 traits == the dynamic `Cipher` on
//!    the reference backend, multi-block == block-by-block;
//! 3. the CBC vectors, by chaining ECB calls here.

mod common;
use common::*;
use multiblock::cipher::{Block, BlockCipherDecrypt, BlockCipherEncrypt, BlockSizeUser, Key, KeyInit};
use multiblock::ublock::{Ublock128_128, Ublock128_256, Ublock256_256};
use multiblock::Cipher;

const NAMES: [&str; 3] = ["ublock-128-128", "ublock-128-256", "ublock-256-256"];

fn reference(name: &str, key: &[u8]) -> Cipher {
    let c = Cipher::new(name, key, None, Some("reference")).unwrap();
    assert_eq!(c.backend().name, "reference");
    c
}

/// Encrypts `iterations` times, compares, then decrypts back.
fn check_ecb(name: &str, key: &str, pt: &str, ct: &str, iterations: u64, what: &str) {
    let c = reference(name, &hex(key));
    let mut buf = hex(pt);
    for _ in 0..iterations {
        c.encrypt_blocks(&mut buf).unwrap();
    }
    assert_eq!(to_hex(&buf), ct, "{name} encrypt ({what})");
    for _ in 0..iterations {
        c.decrypt_blocks(&mut buf).unwrap();
    }
    assert_eq!(to_hex(&buf), pt, "{name} decrypt ({what})");
}

#[test]
fn json_ecb_vectors_both_directions() {
    let mut checked = [0usize; 3];
    for v in vectors("ublock.json").iter().filter(|v| field(v, "mode") == Some("ecb")) {
        let name = field(v, "cipher").unwrap();
        let iterations = v.get("iterations").and_then(|x| x.as_u64()).unwrap_or(1);
        check_ecb(
            name,
            field(v, "key").unwrap(),
            field(v, "plaintext").unwrap(),
            field(v, "ciphertext").unwrap(),
            iterations,
            field(v, "source").unwrap_or(""),
        );
        checked[NAMES.iter().position(|n| *n == name).unwrap()] += 1;
    }
    assert!(checked.iter().all(|&n| n >= 4), "ECB vectors per variant: {checked:?}");
}

/// Monte-Carlo results quoted in the notes but not in ublock.json: the
/// official 10,000-iteration checkpoints and the design document §8
/// 1,000,000-iteration examples.
#[test]
fn long_monte_carlo_from_the_notes() {
    let k = "0123456789abcdeffedcba9876543210";
    let k2 = "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f";
    let cases: [(&str, &str, &str, &str, u64); 6] = [
        ("ublock-128-128", "99e5f7514168423a6d6ecff35f84090e", "3d7cabcffc94a171ca51368f17b27ac8",
         "c2efadee1317a3be1237f7126ffd86ff", 10_000),
        ("ublock-128-256", "d919f0584c1b1b85f7c270ebd821835bcdb6b051b1f85f26c82f87875d887126",
         "b5dd9d66df26aeadda08ce3d99bd1c48", "8d89c21c9521f1015a9ea2c01e510a9a", 10_000),
        ("ublock-256-256", "cf792e2762eb8f188eabc83fe1988d914c73e9f8e29228a6ddd8f4a8e2e4bebe",
         "43270213697bf5a5a817523b271910f74cde635180bd9c6a32f54a9c1ee3a656",
         "efb59325b3eefd0b87af9b302ffc960eb908337f35141f0218739b32dd84c81c", 10_000),
        ("ublock-128-128", k, k, "9d639e31062ffb574646e428f92e08d4", 1_000_000),
        ("ublock-128-256", k2, k, "9fca87e0fbaebc9105e729d3553967ff", 1_000_000),
        ("ublock-256-256", k2, k2,
         "20e148e6ebf9d99b894b2f7e5ccde23fc58c956c7847fad82e0824413576c89f", 1_000_000),
    ];
    for (name, key, pt, ct, n) in cases {
        check_ecb(name, key, pt, ct, n, &format!("{n} iterations"));
    }
}

fn to_blocks<C: BlockSizeUser>(data: &[u8]) -> Vec<Block<C>> {
    data.chunks_exact(C::block_size()).map(|c| Block::<C>::try_from(c).unwrap()).collect()
}

fn flatten<C: BlockSizeUser>(blocks: &[Block<C>]) -> Vec<u8> {
    blocks.iter().flat_map(|b| b.iter().copied()).collect()
}

/// 1000 random cases for one variant, 0..=40 blocks each (more than the
/// typed types' parallel-block count, so full and tail batches both run).
fn random_cases<C>(name: &str, seed: u64)
where
    C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt,
{
    let mut rng = Rng::new(seed);
    let bs = C::block_size();
    for case in 0..1000 {
        let key = rng.bytes(C::key_size());
        let nblocks = rng.below(41);
        let pt = rng.bytes(nblocks * bs);
        let what = format!("{name} case {case}: key {} blocks {nblocks}", to_hex(&key));

        // Dynamic API on the reference backend, whole buffer.
        let dynamic = reference(name, &key);
        let mut ct = pt.clone();
        dynamic.encrypt_blocks(&mut ct).unwrap();

        // Block by block.
        let mut one_by_one = pt.clone();
        for b in one_by_one.chunks_exact_mut(bs) {
            dynamic.encrypt_blocks(b).unwrap();
        }
        assert_eq!(one_by_one, ct, "{what}: multi-block != block-by-block");

        // Typed type through the cipher traits.
        let typed = C::new(&Key::<C>::try_from(&key[..]).unwrap());
        let mut blocks = to_blocks::<C>(&pt);
        typed.encrypt_blocks(&mut blocks);
        assert_eq!(flatten::<C>(&blocks), ct, "{what}: typed encrypt_blocks != Cipher");
        let mut single = to_blocks::<C>(&pt);
        single.iter_mut().for_each(|b| typed.encrypt_block(b));
        assert_eq!(flatten::<C>(&single), ct, "{what}: typed encrypt_block != Cipher");

        // And back.
        typed.decrypt_blocks(&mut blocks);
        assert_eq!(flatten::<C>(&blocks), pt, "{what}: typed decrypt");
        let mut back = ct.clone();
        dynamic.decrypt_blocks(&mut back).unwrap();
        assert_eq!(back, pt, "{what}: decrypt(encrypt(x)) != x");
        let mut back = ct.clone();
        for b in back.chunks_exact_mut(bs) {
            dynamic.decrypt_blocks(b).unwrap();
        }
        assert_eq!(back, pt, "{what}: block-by-block decrypt");

        // Encryption changes something (guards against an identity kernel).
        if nblocks > 0 {
            assert_ne!(ct, pt, "{what}: ciphertext == plaintext");
        }
    }
}

#[test]
fn random_ublock_128_128() {
    random_cases::<Ublock128_128>("ublock-128-128", 0x0b1c_0128_0128);
}

#[test]
fn random_ublock_128_256() {
    random_cases::<Ublock128_256>("ublock-128-256", 0x0b1c_0128_0256);
}

#[test]
fn random_ublock_256_256() {
    random_cases::<Ublock256_256>("ublock-256-256", 0x0b1c_0256_0256);
}

/// CBC with the vector's IV (all zero for the official files), built here
/// from single-block ECB calls: C_i = E(P_i ⊕ C_{i−1}), P_i = D(C_i) ⊕ C_{i−1}.
#[test]
fn cbc_vectors_by_chaining_ecb() {
    let mut checked = 0;
    for v in vectors("ublock.json").iter().filter(|v| field(v, "mode") == Some("cbc")) {
        let name = field(v, "cipher").unwrap();
        let c = reference(name, &hex(field(v, "key").unwrap()));
        let bs = c.block_bytes();
        let iv = hex(field(v, "iv").unwrap());
        let pt = hex(field(v, "plaintext").unwrap());
        let ct = hex(field(v, "ciphertext").unwrap());
        assert_eq!(iv.len(), bs);
        assert!(!pt.is_empty() && pt.len() % bs == 0 && pt.len() == ct.len());

        let mut out = Vec::new();
        let mut prev = iv.clone();
        for p in pt.chunks_exact(bs) {
            let mut b: Vec<u8> = p.iter().zip(&prev).map(|(x, y)| x ^ y).collect();
            c.encrypt_blocks(&mut b).unwrap();
            out.extend_from_slice(&b);
            prev = b;
        }
        assert_eq!(to_hex(&out), to_hex(&ct), "{name} CBC encrypt");

        let mut back = Vec::new();
        let mut prev = iv.clone();
        for cb in ct.chunks_exact(bs) {
            let mut b = cb.to_vec();
            c.decrypt_blocks(&mut b).unwrap();
            back.extend(b.iter().zip(&prev).map(|(x, y)| x ^ y));
            prev = cb.to_vec();
        }
        assert_eq!(to_hex(&back), to_hex(&pt), "{name} CBC decrypt");
        checked += 1;
    }
    assert_eq!(checked, 3, "one CBC vector per variant");
}

#[test]
fn wrong_lengths_are_errors() {
    for (name, key_bytes, block_bytes) in [("ublock-128-128", 16, 16), ("ublock-128-256", 32, 16), ("ublock-256-256", 32, 32)] {
        assert!(Cipher::new(name, &vec![0; key_bytes + 1], None, None).is_err());
        assert!(Cipher::new(name, &vec![0; key_bytes - 1], None, None).is_err());
        let c = reference(name, &vec![0; key_bytes]);
        assert_eq!(c.block_bytes(), block_bytes);
        assert!(c.encrypt_blocks(&mut vec![0; block_bytes + 1]).is_err());
        assert!(c.decrypt_blocks(&mut vec![0; block_bytes - 1]).is_err());
        assert!(c.encrypt_blocks(&mut []).is_ok());
    }
}
