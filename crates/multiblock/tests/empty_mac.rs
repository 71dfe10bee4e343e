//! Every MAC of every family on the empty message: either the standard's
//! answer, which depends on the key, or a one-line refusal that names the
//! rule. Never a constant: GOST 28147-89's MAC used to return 00000000 for
//! every key, a tag anyone could forge.

use cipher::KeyInit as _;
use multiblock::modes::{self, Kind, Mode, Params, Request};
use multiblock::{BackendChoice, CipherId, Error};

fn request(cipher: CipherId, mode: Mode, key: &[u8], params: Params) -> Request<'_> {
    Request { cipher, mode, key, sbox: None, backend: BackendChoice::Auto, params }
}

/// The parameters a MAC needs at the least (GMAC: an IV of one block).
fn params(id: CipherId, mode: Mode) -> Params {
    match mode {
        Mode::Gmac => Params { iv: Some(vec![0x5a; id.block_bytes()]), ..Params::default() },
        _ => Params::default(),
    }
}

#[test]
fn every_mac_of_the_empty_message_depends_on_the_key_or_is_refused() {
    let (key_a, key_b) = ([0x11u8; 64], [0x22u8; 64]);
    let mut refused = Vec::new();
    for id in CipherId::ALL {
        let k = id.key_bytes();
        for mode in Mode::for_cipher(id).into_iter().filter(|m| m.kind() == Kind::Mac) {
            let a = modes::mac(&request(id, mode, &key_a[..k], params(id, mode)), b"");
            let b = modes::mac(&request(id, mode, &key_b[..k], params(id, mode)), b"");
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    assert_ne!(a, b, "{id} {mode}: the empty message has the same tag under two keys");
                    assert!(a.iter().any(|&x| x != 0), "{id} {mode}: an all-zero tag");
                }
                (Err(Error::Param(a)), Err(Error::Param(b))) => {
                    assert_eq!(a, b);
                    assert!(a.contains('§') && !a.contains('\n'), "{id} {mode}: the refusal names no rule: {a}");
                    refused.push(format!("{id} {mode}"));
                }
                (a, b) => panic!("{id} {mode}: {a:?} / {b:?}"),
            }
        }
    }
    // What the standards leave undefined (GOST 28147-89 §5, DSTU 7624 §9.1
    // and §12.1) is refused; GOST R 34.13 and RFC 8645 define it.
    assert!(refused.contains(&"gost89 mac".to_string()), "{refused:?}");
    assert!(!refused.iter().any(|r| r.starts_with("kuznyechik") || r.starts_with("magma")), "{refused:?}");
}

/// GOST R 34.13-2015 §5.6: a last block shorter than n (the empty message
/// is one) is padded with 1 0…0 (procedure 3) and masked with K2, as CMAC
/// (NIST SP 800-38B §6.2) does; RustCrypto's `cmac` computes that.
#[test]
fn gost_r_34_13_mac_of_the_empty_message_is_the_padded_block_under_k2() {
    let key = [0x3cu8; 32];
    let mut k = cmac::Cmac::<kuznyechik::Kuznyechik>::new_from_slice(&key).unwrap();
    cmac::Mac::update(&mut k, b"");
    let expect_k = cmac::Mac::finalize(k).into_bytes().to_vec();
    let mut m = cmac::Cmac::<magma::Magma>::new_from_slice(&key).unwrap();
    cmac::Mac::update(&mut m, b"");
    let expect_m = cmac::Mac::finalize(m).into_bytes().to_vec();
    let mac = |id| modes::mac(&request(id, Mode::Mac, &key, Params::default()), b"").unwrap();
    assert_eq!(mac(CipherId::Kuznyechik), expect_k);
    assert_eq!(mac(CipherId::Magma), expect_m);
}

#[test]
fn gost89_mac_refuses_the_empty_message_with_or_without_key_meshing() {
    for meshing in [false, true] {
        let p = Params { key_meshing: meshing, ..Params::default() };
        let e = modes::mac(&request(CipherId::Gost89, Mode::Mac, &[7; 32], p.clone()), b"").unwrap_err();
        assert!(e.to_string().contains("empty message") && e.to_string().contains("RFC 5830"), "{e}");
        // One byte is a message: zero-padded, then (one block) a zero block after it.
        let one = modes::mac(&request(CipherId::Gost89, Mode::Mac, &[7; 32], p.clone()), b"\x01").unwrap();
        let other = modes::mac(&request(CipherId::Gost89, Mode::Mac, &[8; 32], p), b"\x01").unwrap();
        assert_ne!(one, other);
    }
}
