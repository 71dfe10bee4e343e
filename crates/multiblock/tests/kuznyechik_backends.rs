//! Every Kuznyechik backend this CPU runs, forced by name, against the
//! `reference` backend (random keys, every length 0..=385 blocks, both
//! directions), on the ECB vectors of crates/multiblock/vectors/kuznyechik.json, and
//! against RustCrypto `kuznyechik` 0.9 on random data.

mod common;
use common::*;
use multiblock::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use multiblock::{backends, BackendStatus, Cipher};

/// Three batches of the widest backend (`portable`, 128 blocks) and one block.
const MAX_BLOCKS: usize = 3 * 128 + 1;

/// The non-reference backends this CPU runs (printed, so a run shows what it
/// covered), and the ones it cannot.
fn backends_under_test() -> Vec<&'static str> {
    let all = backends("kuznyechik").unwrap();
    let (run, skip): (Vec<&BackendStatus>, Vec<&BackendStatus>) = all.iter().partition(|b| b.available);
    eprintln!(
        "kuznyechik backends tested: {:?}; not runnable here: {:?}",
        run.iter().map(|b| b.info.name).collect::<Vec<_>>(),
        skip.iter().map(|b| b.info.name).collect::<Vec<_>>()
    );
    // KUZNYECHIK_TEST_BACKENDS=a,b narrows the run (e.g. under an emulator).
    let only = std::env::var("KUZNYECHIK_TEST_BACKENDS").ok();
    run.iter()
        .map(|b| b.info.name)
        .filter(|&n| n != "reference")
        .filter(|n| only.as_deref().is_none_or(|o| o.split(',').any(|x| x == *n)))
        .collect()
}

fn cipher(key: &[u8], backend: &str) -> Cipher {
    let c = Cipher::new("kuznyechik", key, None, Some(backend)).unwrap();
    assert_eq!(c.backend().name, backend);
    c
}

/// ECB is blockwise, so the reference result on 300 blocks gives the
/// expected result of every prefix.
#[test]
fn every_length_matches_reference_both_ways() {
    let names = backends_under_test();
    let mut rng = Rng::new(0x4b55_5a4e);
    for round in 0..3 {
        let key = rng.bytes(32);
        let data = rng.bytes(16 * MAX_BLOCKS);
        let reference = cipher(&key, "reference");
        let mut enc = data.clone();
        reference.encrypt_blocks(&mut enc).unwrap();
        let mut dec = data.clone();
        reference.decrypt_blocks(&mut dec).unwrap();

        for &name in &names {
            let c = cipher(&key, name);
            for n in 0..=MAX_BLOCKS {
                let len = 16 * n;
                // Work on a copy placed at an odd offset, to catch alignment assumptions.
                let mut buf = vec![0u8; len + 1];
                let buf = &mut buf[1..];
                buf.copy_from_slice(&data[..len]);
                c.encrypt_blocks(buf).unwrap();
                assert!(buf == &enc[..len], "{name} encrypt {n} blocks (key {round})");
                c.decrypt_blocks(buf).unwrap();
                assert!(buf == &data[..len], "{name} round trip {n} blocks (key {round})");
                buf.copy_from_slice(&data[..len]);
                c.decrypt_blocks(buf).unwrap();
                assert!(buf == &dec[..len], "{name} decrypt {n} blocks (key {round})");
            }
        }
    }
}

#[test]
fn ecb_vectors_on_every_backend() {
    let mut names = backends_under_test();
    names.push("reference");
    let vs: Vec<_> = vectors("kuznyechik.json").into_iter().filter(|v| field(v, "mode") == Some("ecb")).collect();
    assert!(!vs.is_empty());
    for v in &vs {
        let key = hex(field(v, "key").unwrap());
        let pt = hex(field(v, "plaintext").unwrap());
        let ct = hex(field(v, "ciphertext").unwrap());
        for &name in &names {
            let c = cipher(&key, name);
            let mut buf = pt.clone();
            c.encrypt_blocks(&mut buf).unwrap();
            assert_eq!(to_hex(&buf), to_hex(&ct), "{name} encrypt {}", field(v, "source").unwrap_or(""));
            c.decrypt_blocks(&mut buf).unwrap();
            assert_eq!(to_hex(&buf), to_hex(&pt), "{name} decrypt");
        }
    }
}

#[test]
fn matches_rustcrypto_kuznyechik() {
    type Block = Array<u8, multiblock::cipher::consts::U16>;
    let names = backends_under_test();
    let mut rng = Rng::new(0x0972_0150);
    for _ in 0..20 {
        let key = rng.bytes(32);
        let data = rng.blocks(16, 200);
        let peer = kuznyechik::Kuznyechik::new(&Array::try_from(&key[..]).unwrap());
        let mut want = data.clone();
        for b in want.chunks_exact_mut(16) {
            let mut blk = Block::try_from(&*b).unwrap();
            peer.encrypt_block(&mut blk);
            b.copy_from_slice(&blk);
        }
        let mut back = want.clone();
        for b in back.chunks_exact_mut(16) {
            let mut blk = Block::try_from(&*b).unwrap();
            peer.decrypt_block(&mut blk);
            b.copy_from_slice(&blk);
        }
        assert_eq!(back, data);
        for &name in &names {
            let c = cipher(&key, name);
            let mut buf = data.clone();
            c.encrypt_blocks(&mut buf).unwrap();
            assert!(buf == want, "{name} encrypt vs RustCrypto, {} blocks", data.len() / 16);
            c.decrypt_blocks(&mut buf).unwrap();
            assert!(buf == data, "{name} decrypt vs RustCrypto");
        }
    }
}

/// Two keys used in turn, on lengths around the batch sizes (1, 64 and 128
/// blocks): each call matches the reference under its own key, so no key
/// material or state of one call leaks into the next.
#[test]
fn alternating_keys_match_reference() {
    let mut rng = Rng::new(0x6b65_7973);
    let keys = [rng.bytes(32), rng.bytes(32)];
    let oracles = keys.each_ref().map(|k| cipher(k, "reference"));
    for name in backends_under_test() {
        let ciphers = keys.each_ref().map(|k| cipher(k, name));
        for (i, n) in [1, 63, 64, 65, 127, 128, 129, 257, 2].into_iter().enumerate() {
            let data = rng.bytes(16 * n);
            let (mut got, mut want) = (data.clone(), data.clone());
            ciphers[i % 2].encrypt_blocks(&mut got).unwrap();
            oracles[i % 2].encrypt_blocks(&mut want).unwrap();
            assert!(got == want, "{name} encrypt {n} blocks, key {}", i % 2);
            ciphers[(i + 1) % 2].decrypt_blocks(&mut got).unwrap();
            oracles[(i + 1) % 2].decrypt_blocks(&mut want).unwrap();
            assert!(got == want, "{name} decrypt {n} blocks, key {}", (i + 1) % 2);
        }
    }
}
