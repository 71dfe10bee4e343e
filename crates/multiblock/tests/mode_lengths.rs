//! Every mode of every family, swept over message lengths with the
//! default parameters (no `--padding`, no extra flags): each length the
//! mode's standard allows must work (and decrypt back), each length it
//! forbids must be a one-line `Error::Param`/`Error::DataLength` that names
//! the rule. The rules, per standard:
//! - ECB and CBC (GOST R 34.13 §5.1/§5.4, RFC 5830, DSTU 7624 §6/§8,
//!   uBlock): whole blocks, zero included;
//! - CTR, OFB, CFB, CTR-ACPKM (GOST R 34.13, RFC 8645), CNT and CFB
//!   (RFC 5830), DSTU CTR/OFB/CFB: any length, zero included;
//! - the GOST MACs (GOST R 34.13 §5.6, OMAC-ACPKM, RFC 5830 imitovstavka):
//!   any length from one byte (the empty message is another issue's
//!   subject: here it may be either a tag or a one-line error);
//! - DSTU CMAC (§9) and GMAC (§12.1): from one byte; GCM: plaintext or AAD
//!   non-empty (§12.1, checked here without AAD); CCM (§13.1): from one
//!   byte; MGM (RFC 9058 §3): any length, the empty message included only
//!   with AAD (here without: from one byte, or a one-line error at zero);
//! - DSTU XTS (§14) and IEEE 1619 XTS (Kuznyechik, one data unit with the
//!   tweak as IV): at least one whole block, then any length;
//! - DSTU KW (§15.1): whole blocks, at least one (§15.4's padded form for
//!   other lengths is not implemented: those lengths are refused with a
//!   message that says so).

mod common;
use common::*;

use multiblock::modes::{self, Kind, Mode, Params, Request};
use multiblock::{BackendChoice, CipherId, Error, Family};

/// What a length must give.
#[derive(Debug, PartialEq)]
enum Rule {
    Works,
    /// A one-line error containing this text.
    Refused(&'static str),
    /// Either (decided elsewhere).
    Either,
}

fn rule(id: CipherId, mode: Mode, len: usize) -> Rule {
    let n = id.block_bytes();
    let whole = len % n == 0;
    match mode {
        Mode::Ecb | Mode::Cbc if whole => Rule::Works,
        Mode::Ecb | Mode::Cbc => Rule::Refused("whole"),
        Mode::Ctr | Mode::Ofb | Mode::Cfb | Mode::CtrAcpkm | Mode::Cnt => Rule::Works,
        Mode::Mac | Mode::OmacAcpkm if len == 0 => Rule::Either,
        Mode::Mac | Mode::OmacAcpkm => Rule::Works,
        Mode::Mgm if len == 0 => Rule::Either,
        Mode::Mgm => Rule::Works,
        Mode::Cmac if len == 0 => Rule::Refused("§9"),
        Mode::Gmac | Mode::Gcm if len == 0 => Rule::Refused("§12.1"),
        Mode::Ccm if len == 0 => Rule::Refused("§13.1"),
        Mode::Cmac | Mode::Gmac | Mode::Gcm | Mode::Ccm => Rule::Works,
        Mode::Xts if len < n => Rule::Refused("block"),
        Mode::Xts => Rule::Works,
        Mode::Kw if whole && len > 0 => Rule::Works,
        Mode::Kw => Rule::Refused("§15.1"),
    }
}

/// The IV each mode needs by default (none where it takes none).
fn iv_len(id: CipherId, mode: Mode) -> Option<usize> {
    let n = id.block_bytes();
    let gost_r = matches!(id.family(), Family::Kuznyechik | Family::Magma);
    match mode {
        Mode::Ecb | Mode::Mac | Mode::OmacAcpkm | Mode::Cmac | Mode::Gmac | Mode::Kw => None,
        Mode::Ctr | Mode::CtrAcpkm if gost_r => Some(n / 2),
        _ => Some(n),
    }
}

fn one_line(e: &Error, needle: &str, what: &str) {
    assert!(matches!(e, Error::Param(_) | Error::DataLength { .. }), "{what}: {e:?}");
    let msg = e.to_string();
    assert!(!msg.contains('\n'), "{what}: not one line: {msg:?}");
    assert!(msg.contains(needle), "{what}: {msg:?} should name the rule ({needle:?})");
}

#[test]
fn every_mode_takes_what_its_standard_allows_and_names_the_rule_otherwise() {
    let mut checked = 0;
    for id in CipherId::ALL {
        let n = id.block_bytes();
        let lens: Vec<usize> = (0..=3 * n + 1).collect();
        for mode in Mode::for_cipher(id) {
            // IEEE 1619 XTS takes two keys, K1 ‖ K2.
            let key: Vec<u8> = (0..mode.key_bytes(id) as u8).collect();
            // Zero is a valid MGM nonce (the top bit must be clear) and IV.
            let params = Params { iv: iv_len(id, mode).map(|l| vec![0; l]), ..Params::default() };
            let r = Request { cipher: id, mode, key: &key, sbox: None, backend: BackendChoice::Auto, params };
            for &len in &lens {
                let data: Vec<u8> = (0..len).map(|i| (i * 7 + 1) as u8).collect();
                let what = format!("{id} {mode} {len} bytes");
                let got = match mode.kind() {
                    Kind::Mac => modes::mac(&r, &data),
                    _ => modes::encrypt(&r, &data),
                };
                match (rule(id, mode, len), got) {
                    (Rule::Works, Ok(out)) => {
                        if mode.kind() != Kind::Mac {
                            let back = modes::decrypt(&r, &out).unwrap_or_else(|e| panic!("{what}: decrypt: {e}"));
                            assert_eq!(back, data, "{what}: round trip");
                        }
                    }
                    (Rule::Works, Err(e)) => panic!("{what}: the standard allows it, got: {e}"),
                    (Rule::Refused(needle), Err(e)) => one_line(&e, needle, &what),
                    (Rule::Refused(_), Ok(_)) => panic!("{what}: the standard forbids it, but it worked"),
                    (Rule::Either, Ok(_)) => {}
                    (Rule::Either, Err(e)) => one_line(&e, "", &what),
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

/// Decryption lengths: a ciphertext the mode cannot have produced (a partial
/// block in ECB/CBC, shorter than the tag in an AEAD, fewer than two blocks
/// in KW) is a one-line error, never a panic.
#[test]
fn impossible_ciphertext_lengths_are_one_line_errors() {
    for id in CipherId::ALL {
        let n = id.block_bytes();
        for mode in Mode::for_cipher(id).into_iter().filter(|m| m.kind() != Kind::Mac) {
            let key: Vec<u8> = (0..mode.key_bytes(id) as u8).collect();
            let params = Params { iv: iv_len(id, mode).map(|l| vec![0; l]), ..Params::default() };
            let r = Request { cipher: id, mode, key: &key, sbox: None, backend: BackendChoice::Auto, params };
            for len in 0..=2 * n + 1 {
                let what = format!("{id} {mode} decrypt {len} bytes");
                match modes::decrypt(&r, &vec![0x5a; len]) {
                    Ok(_) => {}
                    Err(Error::Authentication) => {}
                    Err(e) => one_line(&e, "", &what),
                }
            }
        }
    }
}

#[test]
fn the_vectors_cover_a_partial_dstu_cmac_message() {
    let partial = vectors("kalyna.json")
        .into_iter()
        .filter(|v| field(v, "mode") == Some("cmac"))
        .filter(|v| {
            let id = CipherId::from_name(field(v, "cipher").unwrap()).unwrap();
            hex(field(v, "plaintext").unwrap()).len() % id.block_bytes() != 0
        })
        .count();
    assert!(partial >= 2, "{partial}");
}
