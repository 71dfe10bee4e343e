//! [`AeadStream`] against the one-shot calls (pinned by the RFC 9058 and
//! DSTU 7624 vectors): every cipher with MGM, GCM or CCM, short and odd
//! lengths, random splits, detached tags, 1 and 3 threads; a flipped byte
//! anywhere is refused and the last bytes are not output.

use super::*;
use crate::backend::BackendChoice;
use crate::modes::{self, Params};
use crate::CipherId;
use crate::test_rng::{split, Rng};

/// MGM for Kuznyechik and Magma; GCM and CCM for every Kalyna variant.
fn cases() -> Vec<(CipherId, Mode)> {
    let kalyna = CipherId::ALL.into_iter().filter(|id| id.family() == crate::Family::Kalyna);
    let gcm_ccm = [Mode::Gcm, Mode::Ccm].into_iter().flat_map(|mode| kalyna.clone().map(move |id| (id, mode)));
    [(CipherId::Kuznyechik, Mode::Mgm), (CipherId::Magma, Mode::Mgm)].into_iter().chain(gcm_ccm).collect()
}

fn request<'a>(id: CipherId, mode: Mode, key: &'a [u8], rng: &mut Rng, aad: usize) -> Request<'a> {
    let mut iv = rng.bytes(id.block_bytes());
    iv[0] &= 0x7f; // MGM's nonce has its top bit clear
    let tag_bits = if rng.below(2) == 0 { None } else { Some(64) };
    Request {
        cipher: id,
        mode,
        key,
        sbox: None,
        backend: BackendChoice::Auto,
        params: Params { iv: Some(iv), aad: rng.bytes(aad), tag_bits, ..Params::default() },
    }
}

fn seal(req: &Request<'_>, data: &[u8], rng: &mut Rng, threads: usize) -> Vec<u8> {
    let mut s = AeadStream::encryptor_sized(req, data.len() as u64).unwrap().threads(threads).unwrap();
    let mut out = Vec::new();
    for piece in split(rng, data) {
        s.update(piece, &mut out).unwrap();
    }
    let tag = s.finalize(&mut out).unwrap();
    out.extend_from_slice(&tag);
    out
}

/// Opens `sealed` in random pieces, with the tag in the input or apart.
fn open(req: &Request<'_>, sealed: &[u8], rng: &mut Rng, detached: bool) -> Result<Vec<u8>> {
    let tb = AeadStream::decryptor_sized(req, 1)?.tag_bytes();
    let body = sealed.len().saturating_sub(tb);
    let mut s = AeadStream::decryptor_sized(req, body as u64)?;
    let input = if detached {
        s = s.expect_tag(&sealed[body..])?;
        &sealed[..body]
    } else {
        sealed
    };
    let mut out = Vec::new();
    for piece in split(rng, input) {
        s.update(piece, &mut out)?;
    }
    let before = out.len();
    match s.finalize(&mut out) {
        Ok(t) => {
            assert!(t.is_empty());
            Ok(out)
        }
        Err(e) => {
            assert_eq!(out.len(), before, "a failed finalize output bytes");
            Err(e)
        }
    }
}

#[test]
fn matches_one_shot_for_any_split() {
    let mut rng = Rng(0x5eed_aead);
    for (id, mode) in cases() {
        let key = rng.bytes(id.key_bytes());
        let n = id.block_bytes();
        for len in [1, 2, n - 1, n, n + 1, 3 * n + 5, 1000, 4099] {
            let req = request(id, mode, &key, &mut rng, [0, 1, n + 3][len % 3]);
            let data = rng.bytes(len);
            let one = modes::encrypt(&req, &data).unwrap();
            assert_eq!(seal(&req, &data, &mut rng, 1), one, "{id} {mode} {len}");
            let detached = rng.below(2) == 0;
            assert_eq!(open(&req, &one, &mut rng, detached).unwrap(), data, "{id} {mode} {len}");
            // A flipped bit in the ciphertext or the tag is refused.
            let mut bad = one.clone();
            let at = rng.below(bad.len());
            bad[at] ^= 1 << rng.below(8);
            assert_eq!(open(&req, &bad, &mut rng, detached), Err(Error::Authentication), "{id} {mode} {len} @{at}");
        }
    }
}

#[test]
fn mgm_threads_give_the_same_bytes() {
    let mut rng = Rng(77);
    for id in [CipherId::Kuznyechik, CipherId::Magma] {
        let key = rng.bytes(32);
        let req = request(id, Mode::Mgm, &key, &mut rng, 20);
        let data = rng.bytes((1 << 20) + 13);
        let one = modes::encrypt(&req, &data).unwrap();
        assert_eq!(seal(&req, &data, &mut rng, 3), one);
        let mut s = AeadStream::decryptor(&req).unwrap().threads(3).unwrap();
        let mut out = Vec::new();
        for piece in one.chunks(700 << 10) {
            s.update(piece, &mut out).unwrap();
        }
        s.finalize(&mut out).unwrap();
        assert_eq!(out, data);
    }
}

#[test]
fn empty_text_and_gcm_mgm_without_length() {
    let mut rng = Rng(9);
    for (id, mode) in cases().into_iter().filter(|c| c.1 != Mode::Ccm) {
        let key = rng.bytes(id.key_bytes());
        let req = request(id, mode, &key, &mut rng, 5);
        let one = modes::encrypt(&req, b"").unwrap();
        let s = AeadStream::encryptor(&req).unwrap();
        let mut out = Vec::new();
        let tag = s.finalize(&mut out).unwrap();
        assert!(out.is_empty());
        assert_eq!(tag, one);
    }
}

#[test]
fn refusals_are_clear() {
    let mut rng = Rng(3);
    let key = rng.bytes(16);
    let req = request(CipherId::Kalyna128_128, Mode::Ccm, &key, &mut rng, 0);
    let e = AeadStream::encryptor(&req).err().unwrap().to_string();
    assert!(e.contains("length"), "{e}");
    let mut s = AeadStream::encryptor_sized(&req, 10).unwrap();
    let mut out = Vec::new();
    s.update(&[0; 9], &mut out).unwrap();
    assert!(s.finalize(&mut out).unwrap_err().to_string().contains("declared 10 bytes"));
    let kw = Request { mode: Mode::Kw, params: Params::default(), ..request(CipherId::Kalyna128_128, Mode::Kw, &key, &mut rng, 0) };
    assert!(AeadStream::encryptor(&kw).err().unwrap().to_string().contains("six times"));
    let req = request(CipherId::Kalyna128_128, Mode::Gcm, &key, &mut rng, 0);
    let s = AeadStream::decryptor(&req).unwrap();
    assert!(s.finalize(&mut out).unwrap_err().to_string().contains("at least the"));
}

#[test]
fn sealed_length_opens_as_the_text_length_does() {
    let mut rng = Rng(0x5eed_5ea1);
    for (id, mode) in cases() {
        let key = rng.bytes(id.key_bytes());
        let n = id.block_bytes();
        for len in [1, n, 3 * n + 5] {
            let req = request(id, mode, &key, &mut rng, 3);
            let data = rng.bytes(len);
            let sealed = seal(&req, &data, &mut rng, 1);
            let mut s = AeadStream::decryptor_sealed(&req, sealed.len() as u64).unwrap();
            let mut out = Vec::new();
            for piece in split(&mut rng, &sealed) {
                s.update(piece, &mut out).unwrap();
            }
            assert!(s.finalize(&mut out).unwrap().is_empty(), "{id} {mode}");
            assert_eq!(out, data, "{id} {mode} {len}");
            // CCM refuses at the start what has no ciphertext before the
            // tag, in the one-shot decryption's words.
            let tag = sealed.len() - data.len();
            if mode == Mode::Ccm {
                for short in [0, 1, tag] {
                    let streamed = AeadStream::decryptor_sealed(&req, short as u64).err().expect("refused").to_string();
                    let one_shot = modes::decrypt(&req, &sealed[..short]).unwrap_err().to_string();
                    assert_eq!(streamed, one_shot, "{id} {short}");
                    assert!(streamed.contains("ciphertext‖tag") && streamed.contains(&format!("got {}", crate::error::Bytes(short as u64))), "{streamed}");
                }
            }
        }
    }
}
