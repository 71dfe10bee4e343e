//! Every call keys its cipher exactly once: each one-shot encrypt, decrypt
//! and mac, each stream ([`CipherStream`], [`MacStream`], [`AeadStream`]),
//! each many-messages call and the RustCrypto `aead` types, for every mode
//! of every cipher. The messages are shorter than an ACPKM section, so
//! CTR-ACPKM makes no section key of its own here (those re-keys are the
//! algorithm's, one per section); OMAC-ACPKM keys twice by construction:
//! the master key, then the first section key it derives from it.
//!
//! The many-messages calls key once where the mode has a wide form (CBC,
//! CFB, OFB with a one-block register, the GOST and DSTU MACs) and where
//! the messages share the cipher as they are (ECB, CTR, CTR-ACPKM, CNT,
//! XTS); the GOST 28147-89 MAC and GMAC key once per message.

use super::stream::{CipherStream, MacStream};
use super::{aead_stream::AeadStream, many, Kind, Mode, Padding, Params, Request};
use crate::{key_setups_on_this_thread, BackendChoice, CipherId, Result};

/// Parameters that every (cipher, mode) accepts: an IV of the length the
/// mode takes, CCM's length field, tags of the block size.
fn params(id: CipherId, mode: Mode) -> Params {
    let n = id.block_bytes();
    let iv = match mode {
        Mode::Ecb | Mode::Mac | Mode::OmacAcpkm | Mode::Cmac | Mode::Kw => None,
        Mode::Ctr | Mode::CtrAcpkm if id.family() != crate::Family::Kalyna => Some(vec![3; n / 2]),
        Mode::Cnt => Some(vec![3; 8]),
        Mode::Cfb if id == CipherId::Gost89 => Some(vec![3; 8]),
        Mode::Mgm => Some(vec![0x13; n]),
        _ => Some(vec![3; n]),
    };
    let aad = if mode.kind() == Kind::Aead { b"header".to_vec() } else { Vec::new() };
    let nb = (mode == Mode::Ccm).then_some(4);
    let padding = if mode == Mode::Ecb || mode == Mode::Cbc { Padding::Pkcs7 } else { Padding::None };
    Params { iv, aad, nb, padding, ..Params::default() }
}

/// Runs `f` and returns its value and how many ciphers it keyed.
fn counted<T>(f: impl FnOnce() -> Result<T>) -> (T, usize) {
    let before = key_setups_on_this_thread();
    let value = f().unwrap();
    (value, key_setups_on_this_thread() - before)
}

/// Key setups of one call of `mode` (see the module text; IEEE 1619 XTS
/// keys K1 and K2).
fn expected(id: CipherId, mode: Mode) -> usize {
    if mode == Mode::OmacAcpkm || mode.key_bytes(id) != id.key_bytes() {
        2
    } else {
        1
    }
}

/// Key setups of a many-messages call over `messages` messages.
fn expected_many(req: &Request<'_>, messages: usize) -> usize {
    let wide = match req.mode {
        Mode::Mac => req.cipher != CipherId::Gost89,
        Mode::OmacAcpkm | Mode::Cmac | Mode::Cbc | Mode::Ofb | Mode::Cfb => true,
        Mode::Ecb | Mode::Ctr | Mode::CtrAcpkm | Mode::Cnt | Mode::Xts => true,
        _ => false,
    };
    if wide {
        expected(req.cipher, req.mode)
    } else {
        messages
    }
}

/// Notes a call that keyed `keys` ciphers instead of `want_keys`, or whose
/// output is not `want`.
fn check_n<T: PartialEq + ?Sized>(bad: &mut Vec<String>, what: String, (keys, want_keys): (usize, usize), got: &T, want: &T) {
    if keys != want_keys || got != want {
        bad.push(format!("{what}: {keys} key setups, not {want_keys}{}", if got == want { "" } else { ", wrong output" }));
    }
}

/// Notes a call that keyed `keys` ciphers instead of one, or whose output
/// is not `want`.
fn check<T: PartialEq + ?Sized>(bad: &mut Vec<String>, what: String, keys: usize, got: &T, want: &T) {
    if keys != 1 || got != want {
        bad.push(format!("{what}: {keys} key setups{}", if got == want { "" } else { ", wrong output" }));
    }
}

/// A message of whole blocks where the mode wants them (XTS: two blocks).
fn message(id: CipherId, mode: Mode) -> Vec<u8> {
    let n = id.block_bytes();
    let len = match mode {
        Mode::Kw => 2 * n,
        Mode::Ecb | Mode::Cbc | Mode::Ctr | Mode::Cfb | Mode::Ofb | Mode::Xts => 2 * n + n / 2,
        _ => 3 * n + 5,
    };
    (0..len).map(|i| i as u8).collect()
}

fn request(id: CipherId, mode: Mode, key: &[u8]) -> Request<'_> {
    Request { cipher: id, mode, key, sbox: None, backend: BackendChoice::Auto, params: params(id, mode) }
}

fn stream_through(s: CipherStream, data: &[u8]) -> Result<Vec<u8>> {
    let mut s = s;
    let mut out = Vec::new();
    for piece in data.chunks(7) {
        s.update(piece, &mut out)?;
    }
    s.finalize(&mut out)?;
    Ok(out)
}

fn aead_through(mut s: AeadStream, data: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for piece in data.chunks(7) {
        s.update(piece, &mut out)?;
    }
    let tag = s.finalize(&mut out)?;
    out.extend_from_slice(&tag);
    Ok(out)
}

#[test]
fn every_call_keys_its_cipher_once() {
    let mut bad = Vec::new();
    for id in CipherId::ALL {
        for mode in Mode::for_cipher(id) {
            let key: Vec<u8> = (0..mode.key_bytes(id)).map(|i| (i * 7 + 1) as u8).collect();
            let req = request(id, mode, &key);
            let data = message(id, mode);
            let what = format!("{id} {mode}");
            match mode.kind() {
                Kind::Mac => {
                    let (tag, keys) = counted(|| super::mac(&req, &data));
                    check_n(&mut bad, format!("{what}: mac"), (keys, expected(id, mode)), &(), &());
                    let (streamed, keys) = counted(|| {
                        let mut m = MacStream::new(&req)?;
                        m.update(&data[..5])?;
                        m.update(&data[5..])?;
                        m.finalize()
                    });
                    check_n(&mut bad, format!("{what}: MacStream"), (keys, expected(id, mode)), &streamed, &tag);
                    let (tags, keys) = counted(|| many::mac_many(&req, &[&data, &data[..3]]));
                    check_n(&mut bad, format!("{what}: mac_many"), (keys, expected_many(&req, 2)), &tags[0], &tag);
                }
                Kind::Cipher | Kind::Aead | Kind::KeyWrap => {
                    let (sealed, keys) = counted(|| super::encrypt(&req, &data));
                    check_n(&mut bad, format!("{what}: encrypt"), (keys, expected(id, mode)), &(), &());
                    let (opened, keys) = counted(|| super::decrypt(&req, &sealed));
                    check_n(&mut bad, format!("{what}: decrypt"), (keys, expected(id, mode)), &opened, &data);
                }
            }
            match mode.kind() {
                Kind::Cipher => {
                    let (out, keys) = counted(|| stream_through(CipherStream::encryptor(&req)?.threads(2)?, &data));
                    let sealed = super::encrypt(&req, &data).unwrap();
                    check_n(&mut bad, format!("{what}: CipherStream::encryptor"), (keys, expected(id, mode)), &out, &sealed);
                    let (out, keys) = counted(|| stream_through(CipherStream::decryptor(&req)?, &sealed));
                    check_n(&mut bad, format!("{what}: CipherStream::decryptor"), (keys, expected(id, mode)), &out, &data);
                    let (out, keys) = counted(|| stream_through(CipherStream::encryptor_bytewise(&req)?, &data));
                    check_n(&mut bad, format!("{what}: CipherStream::encryptor_bytewise"), (keys, expected(id, mode)), &out, &sealed);
                    let (out, keys) = counted(|| stream_through(CipherStream::decryptor_bytewise(&req)?, &sealed));
                    check_n(&mut bad, format!("{what}: CipherStream::decryptor_bytewise"), (keys, expected(id, mode)), &out, &data);
                    if many::encrypt_many(&req, &[&data]).is_ok() {
                        let (out, keys) = counted(|| many::encrypt_many(&req, &[&data, &data]));
                        check_n(&mut bad, format!("{what}: encrypt_many"), (keys, expected_many(&req, 2)), &out[0], &sealed);
                    }
                }
                Kind::Aead => {
                    let sealed = super::encrypt(&req, &data).unwrap();
                    let len = data.len() as u64;
                    let (out, keys) = counted(|| aead_through(AeadStream::encryptor_sized(&req, len)?, &data));
                    check(&mut bad, format!("{what}: AeadStream::encryptor_sized"), keys, &out, &sealed);
                    let (out, keys) = counted(|| {
                        let mut s = AeadStream::decryptor_sized(&req, len)?;
                        let mut out = Vec::new();
                        s.update(&sealed, &mut out)?;
                        s.finalize(&mut out)?;
                        Ok(out)
                    });
                    check(&mut bad, format!("{what}: AeadStream::decryptor_sized"), keys, &out, &data);
                }
                _ => {}
            }
        }
    }
    assert!(bad.is_empty(), "calls that did not key exactly once:\n{}", bad.join("\n"));
}

#[test]
fn the_aead_types_key_once_per_call() {
    let mut bad = Vec::new();
    use super::aead::{Kalyna128_128Gcm, KuznyechikMgm};
    use aead::{Aead, KeyInit};
    let mgm = KuznyechikMgm::new(&[1; 32].into());
    let nonce = [0x13; 16].into();
    let (sealed, keys) = counted(|| mgm.encrypt(&nonce, &b"text"[..]).map_err(|_| crate::Error::Authentication));
    check(&mut bad, format!("KuznyechikMgm encrypt"), keys, &(), &());
    let (plain, keys) = counted(|| mgm.decrypt(&nonce, &sealed[..]).map_err(|_| crate::Error::Authentication));
    check(&mut bad, format!("KuznyechikMgm decrypt"), keys, &plain[..], &b"text"[..]);
    let gcm = Kalyna128_128Gcm::new(&[1; 16].into());
    let (_, keys) = counted(|| gcm.encrypt(&[3; 16].into(), &b"text"[..]).map_err(|_| crate::Error::Authentication));
    check(&mut bad, format!("Kalyna128_128Gcm encrypt"), keys, &(), &());
    assert!(bad.is_empty(), "{bad:?}");
}
