//! The published vectors (R 1323565.1.017-2018 Appendix B; UAPKI's
//! Dstu7624Wrap self-test), random keys cross-checked against formats
//! rebuilt from independent implementations of the modes (RustCrypto
//! `ctr` and `cmac` over `kuznyechik`/`magma`; dstu-core's Kalyna and its CFB),
//! tampering, and the length errors.

use super::*;
use crate::test_rng::Rng;
use crate::test_util::hex;

const KEY: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
const KEK_MAC: &str = "08090a0b0c0d0e0f0001020304050607101112131415161718191a1b1c1d1e1f";
const KEK_ENC: &str = "202122232425262728292a2b2c2d2e2f38393a3b3c3d3e3f3031323334353637";

#[test]
fn kexp15_gives_the_recommendations_examples() {
    let cases = [
        // Appendix B.1 (Magma) and B.2 (Kuznyechik).
        (Kexp15Cipher::Magma, "67bed654",
         "cfd5a12d5b81b6e1e99c916d07900c6ac12703fb3abded55567bf3742c899c755dafe7b42e3a8bd9"),
        (Kexp15Cipher::Kuznyechik, "0909472dd9f26be8",
         "e36184e84e8d736ff36cc2e5ae065dc656b23c20f549b02fdff88e1f3f30d8c29a53f3ca554dbad80de152b9a4625b32"),
    ];
    let (key, enc, mac) = (hex(KEY), hex(KEK_ENC), hex(KEK_MAC));
    for (c, iv, want) in cases {
        let blob = kexp15(c, &key, &enc, &mac, &hex(iv)).unwrap();
        assert_eq!(blob, hex(want), "{c:?}");
        assert_eq!(kimp15(c, &blob, &enc, &mac, &hex(iv)).unwrap()[..], key[..], "{c:?}");
    }
}

#[test]
fn dstu7624_wrap_gives_uapkis_self_test_vector() {
    let kek = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    let iv = hex("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f");
    let key = hex("1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100");
    let want = hex(
        "7b74fcbf080464f81bf8eaf10621b624a4f053446128396cc2f529bd3e2078da\
         d6bc0b4c5aaf47711d1be5cdc0d4849ec50dc4484f7cf393bc7f5f3e8a8728ca\
         13ddaee30c297d6c82c8751e533a3e7591e7d400b89ae64237f692ec892333cd",
    );
    assert_eq!(dstu7624_wrap_with_iv(&kek, &key, &iv).unwrap(), want);
    assert_eq!(dstu7624_unwrap(&kek, &want).unwrap()[..], key[..]);
}

/// KExp15 rebuilt from RustCrypto's CTR (a big-endian counter over the
/// whole block from IV ‖ 0^{n/2}) and CMAC (= the GOST R 34.13-2015 MAC).
fn kexp15_oracle(c: Kexp15Cipher, key: &[u8], enc: &[u8], mac: &[u8], iv: &[u8]) -> Vec<u8> {
    use cmac::{KeyInit, Mac};
    use ctr::cipher::{KeyIvInit, StreamCipher};
    let msg = [iv, key].concat();
    let full = [iv, &vec![0; iv.len()]].concat();
    let mut out = key.to_vec();
    match c {
        Kexp15Cipher::Kuznyechik => {
            let mut m = <cmac::Cmac<kuznyechik::Kuznyechik> as KeyInit>::new_from_slice(mac).unwrap();
            m.update(&msg);
            out.extend_from_slice(&m.finalize().into_bytes());
            ctr::Ctr128BE::<kuznyechik::Kuznyechik>::new_from_slices(enc, &full).unwrap().apply_keystream(&mut out);
        }
        Kexp15Cipher::Magma => {
            let mut m = <cmac::Cmac<magma::Magma> as KeyInit>::new_from_slice(mac).unwrap();
            m.update(&msg);
            out.extend_from_slice(&m.finalize().into_bytes());
            ctr::Ctr64BE::<magma::Magma>::new_from_slices(enc, &full).unwrap().apply_keystream(&mut out);
        }
    }
    out
}

/// Dstu7624Wrap rebuilt from dstu-core's Kalyna-256/256 block cipher and
/// CFB. dstu-core's MAC gives only 16 bytes, so the 32-byte MAC of a
/// one-block message is built from the cipher by §9's definition:
/// E(X ⊕ E(0)) (one whole block: no chain, K* = E(0)).
fn dstu7624_oracle(kek: &[u8], key: &[u8], iv: &[u8]) -> Vec<u8> {
    use dstu_core::hazmat::{kalyna::Kalyna256_256ExpandedKey, kalyna_cfb::Kalyna256_256Cfb};
    let cfb = |iv: &[u8], data: &mut [u8]| {
        Kalyna256_256Cfb::new(kek.try_into().unwrap(), iv.try_into().unwrap(), 32)
            .unwrap()
            .encrypt_in_place(data)
            .unwrap()
    };
    let e = Kalyna256_256ExpandedKey::new(kek.try_into().unwrap());
    let mut x = e.encrypt_block(&[0; 32]);
    x.iter_mut().zip(key).for_each(|(a, b)| *a ^= b);
    let mut body = [key, &e.encrypt_block(&x)[..]].concat();
    cfb(iv, &mut body);
    let mut w = [iv, &body].concat();
    w.reverse();
    cfb(&super::dstu7624::FIXED_IV, &mut w);
    w
}

#[test]
fn kexp15_matches_an_independent_construction_on_random_keys() {
    let mut rng = Rng(0x6b65_7870_3135);
    for c in [Kexp15Cipher::Kuznyechik, Kexp15Cipher::Magma] {
        for len in (1..=80).chain([127, 128, 129, 512, 1000]) {
            let (key, enc, mac, iv) = (rng.bytes(len), rng.bytes(32), rng.bytes(32), rng.bytes(c.iv_bytes()));
            let blob = kexp15(c, &key, &enc, &mac, &iv).unwrap();
            assert_eq!(blob, kexp15_oracle(c, &key, &enc, &mac, &iv), "{c:?} {len}");
            assert_eq!(blob.len(), len + c.mac_bytes());
            assert_eq!(kimp15(c, &blob, &enc, &mac, &iv).unwrap()[..], key[..], "{c:?} {len}");
        }
    }
}

#[test]
fn dstu7624_wrap_matches_an_independent_construction_on_random_keys() {
    let mut rng = Rng(0x6473_7475_7772);
    for round in 0..64 {
        let (kek, key, iv) = (rng.bytes(32), rng.bytes(32), rng.bytes(32));
        let wrapped = dstu7624_wrap_with_iv(&kek, &key, &iv).unwrap();
        assert_eq!(wrapped, dstu7624_oracle(&kek, &key, &iv), "round {round}");
        assert_eq!(dstu7624_unwrap(&kek, &wrapped).unwrap()[..], key[..], "round {round}");
    }
}

#[test]
fn every_flipped_bit_and_every_wrong_key_is_rejected() {
    let mut rng = Rng(0x7461_6d70);
    for c in [Kexp15Cipher::Kuznyechik, Kexp15Cipher::Magma] {
        let (key, enc, mac, iv) = (rng.bytes(32), rng.bytes(32), rng.bytes(32), rng.bytes(c.iv_bytes()));
        let blob = kexp15(c, &key, &enc, &mac, &iv).unwrap();
        for bit in 0..8 * blob.len() {
            let mut bad = blob.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(kimp15(c, &bad, &enc, &mac, &iv), Err(Error::Authentication), "{c:?} bit {bit}");
        }
        let mut other = iv.clone();
        other[0] ^= 1;
        assert_eq!(kimp15(c, &blob, &enc, &mac, &other), Err(Error::Authentication));
        assert_eq!(kimp15(c, &blob, &mac, &enc, &iv), Err(Error::Authentication), "{c:?} swapped KEKs");
    }
    let (kek, key) = (rng.bytes(32), rng.bytes(32));
    let wrapped = dstu7624_wrap(&kek, &key).unwrap();
    for bit in 0..8 * wrapped.len() {
        let mut bad = wrapped.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert_eq!(dstu7624_unwrap(&kek, &bad), Err(Error::Authentication), "dstu7624 bit {bit}");
    }
    let mut other = kek.clone();
    other[31] ^= 1;
    assert_eq!(dstu7624_unwrap(&other, &wrapped), Err(Error::Authentication));
}

#[test]
fn the_convenience_wrap_draws_a_fresh_iv() {
    let (kek, key) = ([5u8; 32], [6u8; 32]);
    let a = dstu7624_wrap(&kek, &key).unwrap();
    let b = dstu7624_wrap(&kek, &key).unwrap();
    assert_ne!(a, b);
    assert_eq!(dstu7624_unwrap(&kek, &a).unwrap(), dstu7624_unwrap(&kek, &b).unwrap());
}

fn param_message<T: std::fmt::Debug>(r: Result<T>) -> String {
    match r {
        Err(Error::Param(msg)) => {
            assert!(!msg.contains('\n'), "{msg:?}");
            msg
        }
        other => panic!("expected a parameter error, got {other:?}"),
    }
}

#[test]
fn wrong_lengths_are_one_line_errors_that_name_the_value() {
    let k = Kexp15Cipher::Kuznyechik;
    let (key, kek, iv) = ([1u8; 32], [2u8; 32], [3u8; 8]);
    assert_eq!(
        param_message(kexp15(k, &key, &kek[..16], &kek, &iv)),
        "kuznyechik-kexp15 needs an encryption KEK (K_enc) of 32 bytes (64 hex digits), got 16 bytes"
    );
    assert!(param_message(kexp15(k, &key, &kek, &kek[..31], &iv)).contains("MAC KEK (K_mac)"));
    assert_eq!(
        param_message(kexp15(Kexp15Cipher::Magma, &key, &kek, &kek, &iv)),
        "magma-kexp15 needs an IV of 4 bytes (8 hex digits), got 8 bytes"
    );
    assert!(param_message(kexp15(k, &[], &kek, &kek, &iv)).contains("at least 1 byte"));
    assert_eq!(
        param_message(kimp15(k, &[0; 16], &kek, &kek, &iv)),
        "kuznyechik-kexp15 import needs the key and its 16-byte MAC: more than 16 bytes, got 16 bytes"
    );
    assert!(param_message(kimp15(k, &[0; 17], &kek, &kek, &iv[..7])).contains("IV of 8 bytes"));

    assert_eq!(
        param_message(dstu7624_wrap(&kek[..16], &key)),
        "dstu7624-wrap needs a KEK of 32 bytes (64 hex digits), got 16 bytes"
    );
    assert!(param_message(dstu7624_wrap(&kek, &key[..16])).contains("a key to wrap of 32 bytes"));
    assert!(param_message(dstu7624_wrap_with_iv(&kek, &key, &iv)).contains("an IV of 32 bytes"));
    for len in [0, 32, 64, 95, 97, 128] {
        assert_eq!(
            param_message(dstu7624_unwrap(&kek, &vec![0; len])),
            format!("dstu7624-wrap needs a wrapped key of 96 bytes (192 hex digits), got {len} bytes")
        );
    }
}

#[test]
fn gost28147_wrap_gives_uapkis_self_test_vector() {
    let kek = hex("01000000010000000100000001000000ffffffffffffffffffffffffffffffff");
    let iv = hex("f477da7aa6424a88");
    let key = hex("01020304010203040102030401020304f1f2f3f4f5f6f7f8f1f2f3f4f5f6f7f8");
    let want = hex("52a513f1b4172ca6b5f1b8a03ca9a4e0acb6e00e11e5e9bcdd446222eb97238dc3e4e24d2ec03e05a568ec51");
    let set = crate::magma::SboxSet::Dstu4145;
    let wrapped = gost28147_wrap_with_iv(set, &kek, &key, &iv).unwrap();
    assert_eq!(wrapped, want);
    assert_eq!(gost28147_unwrap(set, &kek, &wrapped).unwrap()[..], key[..]);
}

/// The GOST 28147-89 wrap rebuilt by its definition: CFB (§4) from the
/// reference backend's single-block encryption, the MAC from the reference
/// backend's imitovstavka.
fn gost28147_wrap_by_definition(set: crate::magma::SboxSet, kek: &[u8], key: &[u8], iv: &[u8]) -> Vec<u8> {
    use crate::modes::{self, Mode, Params, Request};
    let req = |mode, params| Request {
        cipher: crate::CipherId::Gost89,
        mode,
        key: kek,
        sbox: Some(set.name()),
        backend: crate::BackendChoice::Named("reference"),
        params,
    };
    let block = |b: &[u8]| modes::encrypt(&req(Mode::Ecb, Params::default()), b).unwrap();
    let cfb = |iv: &[u8], data: &[u8]| {
        let (mut prev, mut out) = (iv.to_vec(), Vec::new());
        for chunk in data.chunks(8) {
            let c: Vec<u8> = chunk.iter().zip(block(&prev)).map(|(p, g)| p ^ g).collect();
            out.extend_from_slice(&c);
            prev = c;
        }
        out
    };
    let mac = modes::mac(&req(Mode::Mac, Params { mac_bits: Some(32), ..Params::default() }), key).unwrap();
    let mut w = iv.to_vec();
    w.extend(cfb(iv, &[key, &mac[..]].concat()));
    w.reverse();
    cfb(&[0x4a, 0xdd, 0xa2, 0x2c, 0x79, 0xe8, 0x21, 0x05], &w)
}

#[test]
fn gost28147_wrap_matches_its_definition_for_every_sbox_set() {
    let mut rng = Rng(0x676f_7374_7772);
    for set in crate::magma::SboxSet::ALL {
        for _ in 0..8 {
            let (kek, key, iv) = (rng.bytes(32), rng.bytes(32), rng.bytes(8));
            let wrapped = gost28147_wrap_with_iv(set, &kek, &key, &iv).unwrap();
            assert_eq!(wrapped, gost28147_wrap_by_definition(set, &kek, &key, &iv), "{}", set.name());
            assert_eq!(gost28147_unwrap(set, &kek, &wrapped).unwrap()[..], key[..]);
        }
    }
}

#[test]
fn gost28147_unwrap_rejects_tampering_and_bad_lengths() {
    let set = crate::magma::SboxSet::Dstu4145;
    let (kek, key) = ([3u8; 32], [4u8; 32]);
    let wrapped = gost28147_wrap(set, &kek, &key).unwrap();
    for i in 0..GOST28147_WRAPPED_BYTES {
        let mut bad = wrapped.clone();
        bad[i] ^= 1;
        assert_eq!(gost28147_unwrap(set, &kek, &bad), Err(crate::Error::Authentication), "byte {i}");
    }
    let mut other_kek = kek;
    other_kek[31] ^= 1;
    assert_eq!(gost28147_unwrap(set, &other_kek, &wrapped), Err(crate::Error::Authentication));
    assert!(gost28147_unwrap(crate::magma::SboxSet::Tc26Z, &kek, &wrapped).is_err());
    assert!(gost28147_unwrap(set, &kek, &wrapped[..43]).is_err());
    assert!(gost28147_wrap_with_iv(set, &kek, &key, &[0; 7]).is_err());
    assert!(gost28147_wrap(set, &kek, &key[..31]).is_err());
}
