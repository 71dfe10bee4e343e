//! Every mode vector in crates/multiblock/vectors through the library's one-shot API:
//! both directions, AEAD tags (and a flipped tag failing), MACs, key wrap.

mod common;
use common::*;
use multiblock::modes::{self, Kind, Mode, Params, Request};
use multiblock::{BackendChoice, CipherId, Error};
use serde_json::Value;

fn param(v: &Value, k: &str) -> Option<usize> {
    v.get("params").and_then(|p| p.get(k)).and_then(Value::as_u64).map(|x| x as usize)
}

fn params(v: &Value) -> Params {
    Params {
        iv: field(v, "iv").map(hex),
        aad: field(v, "aad").map(hex).unwrap_or_default(),
        s: param(v, "s"),
        m: param(v, "m"),
        mac_bits: param(v, "mac_bits"),
        tag_bits: param(v, "tag_bits"),
        section_bytes: param(v, "section_bytes"),
        key_section_bytes: param(v, "key_section_bytes"),
        nb: param(v, "nb"),
        ..Params::default()
    }
}

/// Runs one vector; returns false if the mode is not implemented for the cipher.
fn check(v: &Value) -> bool {
    let id = CipherId::from_name(field(v, "cipher").unwrap()).unwrap();
    let Ok(mode) = Mode::parse(id, field(v, "mode").unwrap()) else { return false };
    let key = hex(field(v, "key").unwrap());
    let req = Request { cipher: id, mode, key: &key, sbox: field(v, "sbox"), backend: BackendChoice::Auto, params: params(v) };
    let pt = hex(field(v, "plaintext").unwrap_or(""));
    let ct = hex(field(v, "ciphertext").unwrap_or(""));
    let tag = hex(field(v, "tag").unwrap_or(""));
    let what = format!("{id} {mode}: {}", field(v, "source").unwrap_or(""));
    match mode.kind() {
        Kind::Cipher | Kind::KeyWrap => {
            assert_eq!(to_hex(&modes::encrypt(&req, &pt).unwrap()), to_hex(&ct), "{what} encrypt");
            assert_eq!(to_hex(&modes::decrypt(&req, &ct).unwrap()), to_hex(&pt), "{what} decrypt");
            if mode.kind() == Kind::KeyWrap {
                let mut bad = ct.clone();
                bad[0] ^= 1;
                assert_eq!(modes::decrypt(&req, &bad).unwrap_err(), Error::Authentication, "{what}");
            }
        }
        Kind::Aead => {
            let sealed = [ct.as_slice(), tag.as_slice()].concat();
            assert_eq!(to_hex(&modes::encrypt(&req, &pt).unwrap()), to_hex(&sealed), "{what} seal");
            assert_eq!(to_hex(&modes::decrypt(&req, &sealed).unwrap()), to_hex(&pt), "{what} open");
            let mut bad = sealed.clone();
            *bad.last_mut().unwrap() ^= 0x80;
            assert_eq!(modes::decrypt(&req, &bad).unwrap_err(), Error::Authentication, "{what} bad tag");
        }
        Kind::Mac => {
            assert_eq!(to_hex(&modes::mac(&req, &pt).unwrap()), to_hex(&tag), "{what} mac");
        }
    }
    true
}

#[test]
fn every_mode_vector_passes() {
    let mut missing = Vec::new();
    let mut ran = 0;
    for v in all_vectors().iter().filter(|v| field(v, "mode") != Some("ecb")) {
        if check(v) {
            ran += 1;
        } else {
            missing.push(format!("{} {}", field(v, "cipher").unwrap(), field(v, "mode").unwrap()));
        }
    }
    assert!(missing.is_empty(), "modes not implemented ({ran} vectors ran): {missing:?}");
}

#[test]
fn every_cipher_offers_the_modes_of_its_standard() {
    let expect: &[(&str, &[&str])] = &[
        ("kuznyechik", &["ecb", "ctr", "ofb", "cbc", "cfb", "mac", "ctr-acpkm", "omac-acpkm", "mgm", "xts"]),
        ("magma", &["ecb", "ctr", "ofb", "cbc", "cfb", "mac", "ctr-acpkm", "omac-acpkm", "mgm"]),
        ("gost89", &["ecb", "cnt", "cfb", "mac"]),
        ("kalyna-128-128", &["ecb", "ctr", "cbc", "cfb", "ofb", "cmac", "gcm", "gmac", "ccm", "xts", "kw"]),
        ("kalyna-512-512", &["ecb", "ctr", "cbc", "cfb", "ofb", "cmac", "gcm", "gmac", "ccm", "xts", "kw"]),
        ("ublock-256-256", &["ecb", "cbc"]),
    ];
    for (cipher, names) in expect {
        let id = CipherId::from_name(cipher).unwrap();
        let mut have: Vec<&str> = Mode::for_cipher(id).iter().map(|m| m.name()).collect();
        let mut want = names.to_vec();
        have.sort();
        want.sort();
        assert_eq!(have, want, "{cipher}");
    }
}

#[test]
fn ecb_padding_round_trips_and_wrong_verbs_are_refused() {
    let key = [9u8; 32];
    for padding in [multiblock::modes::Padding::Gost2, multiblock::modes::Padding::Pkcs7] {
        for len in 0..40 {
            let req = Request {
                cipher: CipherId::Kuznyechik,
                mode: Mode::Ecb,
                key: &key,
                sbox: None,
                backend: BackendChoice::Auto,
                params: Params { padding, ..Params::default() },
            };
            let data: Vec<u8> = (0..len as u8).collect();
            let sealed = modes::encrypt(&req, &data).unwrap();
            assert_eq!(sealed.len() % 16, 0);
            assert_eq!(modes::decrypt(&req, &sealed).unwrap(), data);
        }
    }
    let req = Request { cipher: CipherId::Kuznyechik, mode: Mode::Ecb, key: &key, sbox: None, backend: BackendChoice::Auto, params: Params::default() };
    assert!(matches!(modes::mac(&req, b""), Err(Error::Param(_))));
    assert!(matches!(modes::encrypt(&req, &[0u8; 15]), Err(Error::DataLength { .. })));
}
