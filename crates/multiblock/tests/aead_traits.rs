//! The RustCrypto `aead` trait types (modes::aead) against the MGM and GCM
//! vectors (a vector's shorter tag must be the prefix of the full tag), and
//! against the one-shot API on random inputs, with tampering rejected.

mod common;
use aead::{Aead, AeadInOut, KeyInit, Payload};
use common::*;
use multiblock::modes::aead::*;
use multiblock::modes::{self, Mode, Params, Request};
use multiblock::{BackendChoice, CipherId};

/// Seal/open through the trait type `A`; `(ciphertext, full tag)`.
fn seal<A: KeyInit + AeadInOut + Aead>(key: &[u8], nonce: &[u8], aad: &[u8], pt: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let a = A::new_from_slice(key).expect("key length");
    let nonce = nonce.try_into().expect("nonce length");
    let sealed = a.encrypt(nonce, Payload { msg: pt, aad }).expect("seal");
    let opened = a.decrypt(nonce, Payload { msg: &sealed, aad }).expect("open");
    assert_eq!(opened, pt);
    let mut bad = sealed.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert!(a.decrypt(nonce, Payload { msg: &bad, aad }).is_err(), "a flipped tag bit must fail");
    assert_eq!(sealed.len(), pt.len() + nonce.len(), "a full-block tag");
    (sealed[..pt.len()].to_vec(), sealed[pt.len()..].to_vec())
}

fn seal_by_id(id: CipherId, key: &[u8], nonce: &[u8], aad: &[u8], pt: &[u8]) -> (Vec<u8>, Vec<u8>) {
    match id {
        CipherId::Kuznyechik => seal::<KuznyechikMgm>(key, nonce, aad, pt),
        CipherId::Magma => seal::<MagmaMgm>(key, nonce, aad, pt),
        CipherId::Kalyna128_128 => seal::<Kalyna128_128Gcm>(key, nonce, aad, pt),
        CipherId::Kalyna128_256 => seal::<Kalyna128_256Gcm>(key, nonce, aad, pt),
        CipherId::Kalyna256_256 => seal::<Kalyna256_256Gcm>(key, nonce, aad, pt),
        CipherId::Kalyna256_512 => seal::<Kalyna256_512Gcm>(key, nonce, aad, pt),
        CipherId::Kalyna512_512 => seal::<Kalyna512_512Gcm>(key, nonce, aad, pt),
        _ => unreachable!("no AEAD trait type for {id}"),
    }
}

#[test]
fn vectors_through_the_traits() {
    let mut seen = 0;
    for v in all_vectors() {
        let mode = field(&v, "mode").unwrap_or("");
        if mode != "mgm" && mode != "gcm" {
            continue;
        }
        let id = CipherId::from_name(field(&v, "cipher").unwrap()).unwrap();
        let (ct, tag) = seal_by_id(
            id,
            &hex(field(&v, "key").unwrap()),
            &hex(field(&v, "iv").unwrap()),
            &hex(field(&v, "aad").unwrap_or("")),
            &hex(field(&v, "plaintext").unwrap_or("")),
        );
        assert_eq!(to_hex(&ct), field(&v, "ciphertext").unwrap(), "{id} {mode} ciphertext");
        let want = field(&v, "tag").unwrap();
        assert!(to_hex(&tag).starts_with(want), "{id} {mode}: tag {} does not start with {want}", to_hex(&tag));
        seen += 1;
    }
    assert!(seen >= 7, "expected MGM and GCM vectors for every AEAD type, saw {seen}");
}

#[test]
fn traits_equal_the_one_shot_api() {
    let mut rng = Rng::new(0xaead);
    let ids = [
        CipherId::Kuznyechik,
        CipherId::Magma,
        CipherId::Kalyna128_128,
        CipherId::Kalyna128_256,
        CipherId::Kalyna256_256,
        CipherId::Kalyna256_512,
        CipherId::Kalyna512_512,
    ];
    for id in ids {
        let n = id.block_bytes();
        for len in [1usize, 7, n, 3 * n + 5, 40 * n + 1] {
            let key = rng.bytes(id.key_bytes());
            let mut nonce = rng.bytes(n);
            nonce[0] &= 0x7f; // MGM: 0 || ICN
            let aad = rng.bytes(len % 37);
            let pt = rng.bytes(len);
            let mode = if id == CipherId::Kuznyechik || id == CipherId::Magma { Mode::Mgm } else { Mode::Gcm };
            let req = Request {
                cipher: id,
                mode,
                key: &key,
                sbox: None,
                backend: BackendChoice::Auto,
                params: Params { iv: Some(nonce.clone()), aad: aad.clone(), ..Params::default() },
            };
            let (ct, tag) = seal_by_id(id, &key, &nonce, &aad, &pt);
            assert_eq!([ct, tag].concat(), modes::encrypt(&req, &pt).unwrap(), "{id} len {len}");
        }
    }
}
