//! Every ECB vector in crates/multiblock/vectors, both directions, on every backend this
//! CPU runs (each forced by name).

mod common;
use common::*;
use multiblock::{backends, Cipher};

fn check_vector(v: &serde_json::Value, backend: &str) {
    let cipher = field(v, "cipher").unwrap();
    let key = hex(field(v, "key").unwrap());
    let pt = hex(field(v, "plaintext").unwrap());
    let ct = hex(field(v, "ciphertext").unwrap());
    let iterations = v.get("iterations").and_then(|x| x.as_u64()).unwrap_or(1);
    let c = Cipher::new(cipher, &key, field(v, "sbox"), Some(backend)).unwrap();
    assert_eq!(c.backend().name, backend);

    let mut buf = pt.clone();
    for _ in 0..iterations {
        c.encrypt_blocks(&mut buf).unwrap();
    }
    assert_eq!(to_hex(&buf), to_hex(&ct), "{cipher} {backend} encrypt: {}", field(v, "source").unwrap_or(""));
    for _ in 0..iterations {
        c.decrypt_blocks(&mut buf).unwrap();
    }
    assert_eq!(to_hex(&buf), to_hex(&pt), "{cipher} {backend} decrypt: {}", field(v, "source").unwrap_or(""));
}

#[test]
fn ecb_vectors_on_every_available_backend() {
    let mut checked = 0;
    for v in all_vectors().iter().filter(|v| field(v, "mode") == Some("ecb")) {
        let cipher = field(v, "cipher").unwrap();
        for b in backends(cipher).unwrap().iter().filter(|b| b.available) {
            check_vector(v, b.info.name);
            checked += 1;
        }
    }
    // 2 kalyna... the files hold at least one ECB vector per cipher name.
    assert!(checked >= 11, "only {checked} ECB checks ran");
}

#[test]
fn every_cipher_name_has_an_ecb_vector() {
    let vs = all_vectors();
    for id in multiblock::CipherId::ALL {
        assert!(
            vs.iter().any(|v| field(v, "mode") == Some("ecb") && field(v, "cipher") == Some(id.name())),
            "no ECB vector for {id}"
        );
    }
}

#[test]
fn every_gost89_sbox_set_has_an_ecb_vector() {
    let vs = all_vectors();
    // DSTU 4145-2002's DKE No. 1 set has no published ECB example; UAPKI's
    // GOST 28147-89 key-wrap self-test (CFB and the MAC under this set) is
    // its published vector, checked in the library's wrap tests.
    for set in multiblock::magma::SboxSet::ALL.into_iter().filter(|s| s.name() != "dstu4145") {
        assert!(
            vs.iter().any(|v| field(v, "cipher") == Some("gost89")
                && field(v, "mode") == Some("ecb")
                && field(v, "sbox") == Some(set.name())),
            "no gost89 ECB vector for {}", set.name()
        );
    }
}
