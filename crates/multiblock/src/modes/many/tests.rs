//! Many streams against one stream at a time ([`modes::mac`],
//! [`modes::encrypt`], pinned by the vector tests): every cipher, every
//! mode with a wide form and a few without, 1 to 80 streams of random
//! lengths (0, partial blocks, section boundaries), random pieces, one key
//! and different keys.

use super::*;
use crate::backend::BackendChoice;
use crate::modes::{self, Mode, Padding, Params};
use crate::test_rng::Rng;
use crate::CipherId;

fn request<'a>(id: CipherId, mode: Mode, key: &'a [u8], params: Params) -> Request<'a> {
    Request { cipher: id, mode, key, sbox: None, backend: BackendChoice::Auto, params }
}

/// Message lengths: empty, one byte, around one and two blocks, random up
/// to 40 blocks (a few past an OMAC-ACPKM section of 2 blocks).
fn lengths(rng: &mut Rng, n: usize, count: usize) -> Vec<usize> {
    (0..count)
        .map(|_| match rng.below(6) {
            0 => 0,
            1 => 1,
            2 => n - 1 + rng.below(3),
            3 => 2 * n - 1 + rng.below(3),
            _ => rng.below(40 * n),
        })
        .collect()
}

/// The (mode, parameters) sets of `id` that [`MacMany`] / [`encrypt_many`] take.
fn configs(id: CipherId, rng: &mut Rng) -> Vec<(Mode, Params)> {
    let n = id.block_bytes();
    let iv = |rng: &mut Rng, len: usize| Params { iv: Some(rng.bytes(len)), ..Params::default() };
    let mut out = Vec::new();
    for mode in Mode::for_cipher(id) {
        match mode {
            Mode::Mac | Mode::Cmac => out.push((mode, Params::default())),
            Mode::OmacAcpkm => {
                out.push((mode, Params::default()));
                let sections = Params { section_bytes: Some(2 * n), key_section_bytes: Some(2 * n), ..Params::default() };
                out.push((mode, Params { mac_bits: Some(8 * n / 2), ..sections }));
            }
            Mode::Gmac => out.push((mode, iv(rng, n))),
            Mode::Cbc => {
                out.push((mode, Params { padding: Padding::Pkcs7, ..iv(rng, n) }));
                if id.family() == crate::Family::Kuznyechik {
                    out.push((mode, Params { padding: Padding::Gost2, ..iv(rng, 2 * n) }));
                }
            }
            Mode::Cfb | Mode::Ofb => out.push((mode, iv(rng, n))),
            Mode::Ctr if id.family() == crate::Family::Kalyna => out.push((mode, iv(rng, n))),
            _ => {}
        }
    }
    out
}

fn is_mac(mode: Mode) -> bool {
    mode.kind() == Kind::Mac
}

/// One stream at a time (the DSTU MAC of an empty message: its error).
fn one_by_one(req: &Request<'_>, messages: &[Vec<u8>]) -> Vec<Result<Vec<u8>>> {
    messages.iter().map(|m| if is_mac(req.mode) { modes::mac(req, m) } else { modes::encrypt(req, m) }).collect()
}

#[test]
fn many_streams_equal_one_stream_at_a_time() {
    let mut rng = Rng(0x5eed_0018);
    for id in CipherId::ALL {
        let n = id.block_bytes();
        for (mode, params) in configs(id, &mut rng) {
            for _ in 0..3 {
                let key = rng.bytes(id.key_bytes());
                let req = request(id, mode, &key, params.clone());
                let count = 1 + rng.below(80);
                let messages: Vec<Vec<u8>> = lengths(&mut rng, n, count).into_iter().map(|l| rng.bytes(l)).collect();
                let expected = one_by_one(&req, &messages);
                let what = format!("{id} {mode} {params:?}, {count} streams");
                if !is_mac(mode) {
                    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
                    let got = encrypt_many(&req, &refs).unwrap();
                    let want: Vec<Vec<u8>> = expected.into_iter().map(Result::unwrap).collect();
                    assert_eq!(got, want, "{what}");
                    into_a_buffer_equals(&req, &refs, &want, &mut rng, &what);
                    in_place_equals(&req, &refs, &want, &what);
                    continue;
                }
                // The messages in random pieces, the streams fed unevenly.
                let mut m = MacMany::new(&req, count).unwrap();
                let mut at = vec![0; count];
                while at.iter().zip(&messages).any(|(a, msg)| *a < msg.len()) {
                    let pieces: Vec<&[u8]> = (0..count)
                        .map(|i| {
                            let end = (at[i] + rng.below(5 * n)).min(messages[i].len());
                            let piece = &messages[i][at[i]..end];
                            at[i] = end;
                            piece
                        })
                        .collect();
                    m.update(&pieces).unwrap();
                }
                assert_eq!(m.finalize().unwrap(), expected, "{what}");
            }
        }
    }
}

/// [`encrypt_many_in_place`] turns each message into `want` where every
/// ciphertext is as long as its message; elsewhere it refuses and leaves
/// the messages as they were.
fn in_place_equals(req: &Request<'_>, messages: &[&[u8]], want: &[Vec<u8>], what: &str) {
    let mut bufs: Vec<Vec<u8>> = messages.iter().map(|m| m.to_vec()).collect();
    let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(Vec::as_mut_slice).collect();
    let result = encrypt_many_in_place(req, &mut refs);
    if messages.iter().zip(want).all(|(m, c)| m.len() == c.len()) {
        result.unwrap();
        assert_eq!(bufs, want, "{what} in place");
    } else {
        let e = result.unwrap_err().to_string();
        assert!(e.contains("in place needs ciphertexts as long as the messages"), "{what}: {e}");
        assert!(bufs.iter().zip(messages).all(|(b, m)| b == m), "{what}: refused, nothing changed");
    }
}

/// [`encrypt_many_to`] writes `want` back to back into a buffer of random
/// slack past its end, which it leaves alone; one byte short, it writes
/// nothing and names the size needed.
fn into_a_buffer_equals(req: &Request<'_>, messages: &[&[u8]], want: &[Vec<u8>], rng: &mut Rng, what: &str) {
    let needed: usize = want.iter().map(Vec::len).sum();
    let slack = rng.below(40);
    let mut out = rng.bytes(needed + slack);
    let tail = out[needed..].to_vec();
    let lens = want.iter().map(Vec::len).collect();
    assert_eq!(encrypt_many_to(req, messages, &mut out).unwrap(), Fit::Written(lens), "{what}");
    assert_eq!(out[..needed], want.concat(), "{what}");
    assert_eq!(out[needed..], tail, "{what}: past the ciphertexts");
    if needed > 0 {
        let mut short = rng.bytes(needed - 1);
        let before = short.clone();
        assert_eq!(encrypt_many_to(req, messages, &mut short).unwrap(), Fit::TooSmall { needed }, "{what}");
        assert_eq!(short, before, "{what}: a buffer too small is left as it was");
    }
}

#[test]
fn different_keys_equal_one_stream_at_a_time() {
    let mut rng = Rng(0x5eed_0019);
    for (id, mode) in [(CipherId::Kuznyechik, Mode::Mac), (CipherId::Kalyna256_512, Mode::Cmac), (CipherId::Magma, Mode::Cbc)] {
        let n = id.block_bytes();
        let keys: Vec<Vec<u8>> = (0..3).map(|_| rng.bytes(id.key_bytes())).collect();
        let count = 1 + rng.below(80);
        let chosen: Vec<&[u8]> = (0..count).map(|_| keys[rng.below(3)].as_slice()).collect();
        // Whole blocks (CBC without padding) and never empty (the DSTU MAC).
        let messages: Vec<Vec<u8>> = (0..count)
            .map(|_| {
                let blocks = 1 + rng.below(20);
                rng.bytes(n * blocks)
            })
            .collect();
        let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
        let params = Params { iv: (mode == Mode::Cbc).then(|| rng.bytes(n)), ..Params::default() };
        let req = request(id, mode, &keys[0], params.clone());
        let got = match is_mac(mode) {
            true => mac_many_keys(&req, &chosen, &refs).unwrap(),
            false => encrypt_many_keys(&req, &chosen, &refs).unwrap(),
        };
        for i in 0..count {
            let one = request(id, mode, chosen[i], params.clone());
            let want = one_by_one(&one, &messages[i..=i]).remove(0).unwrap();
            assert_eq!(got[i], want, "{id} {mode} stream {i}");
        }
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let key = [7u8; 32];
    let req = request(CipherId::Kuznyechik, Mode::Mac, &key, Params::default());
    let mut m = MacMany::new(&req, 2).unwrap();
    assert!(m.update(&[b"x"]).unwrap_err().to_string().contains("1 pieces for 2 MAC streams"));
    let cbc = request(CipherId::Kuznyechik, Mode::Cbc, &key, Params { iv: Some(vec![0; 16]), ..Params::default() });
    let e = encrypt_many(&cbc, &[&[0u8; 16], &[0u8; 5]]).unwrap_err().to_string();
    assert!(e.contains("whole 16-byte blocks"), "{e}");
    assert!(encrypt_many(&req, &[]).is_err(), "mac is not a mode to encrypt with");
    let e = encrypt_many_to(&cbc, &[&[0u8; 16], &[0u8; 5]], &mut [0u8; 64]).unwrap_err().to_string();
    assert!(e.contains("whole 16-byte blocks"), "{e}");
    assert!(encrypt_many_to(&req, &[], &mut []).is_err(), "mac is not a mode to encrypt with");
    assert!(mac_many_keys(&req, &[&key], &[]).is_err());
}

#[test]
fn aead_and_key_wrap_are_refused_with_the_reason() {
    let key = [7u8; 32];
    let iv = |len| Params { iv: Some(vec![1; len]), ..Params::default() };
    let cases = [
        (CipherId::Kuznyechik, Mode::Mgm, iv(16)),
        (CipherId::Magma, Mode::Mgm, iv(8)),
        (CipherId::Kalyna128_256, Mode::Gcm, iv(16)),
        (CipherId::Kalyna128_256, Mode::Ccm, iv(16)),
        (CipherId::Kalyna128_256, Mode::Kw, Params::default()),
    ];
    for (id, mode, params) in cases {
        let req = request(id, mode, &key, params);
        let want = format!(
            "{mode} is not available for many messages at once: each message needs its own nonce (AEAD) or integrity check (KW); encrypt them one at a time"
        );
        let msgs: [&[u8]; 2] = [&[0u8; 32], &[1u8; 32]];
        assert_eq!(encrypt_many(&req, &msgs).unwrap_err().to_string(), want, "{id} {mode}");
        assert_eq!(encrypt_many(&req, &[]).unwrap_err().to_string(), want, "{id} {mode}, no message");
        assert_eq!(encrypt_many_to(&req, &msgs, &mut [0u8; 256]).unwrap_err().to_string(), want, "{id} {mode} _to");
        let (mut a, mut b) = ([0u8; 32], [1u8; 32]);
        assert_eq!(encrypt_many_in_place(&req, &mut [&mut a, &mut b]).unwrap_err().to_string(), want, "{id} {mode} in place");
        assert_eq!(encrypt_many_keys(&req, &[&key, &key], &msgs).unwrap_err().to_string(), want, "{id} {mode} keys");
    }
    // A MAC mode keeps its own hint.
    let mac = request(CipherId::Kuznyechik, Mode::Mac, &key, Params::default());
    assert!(encrypt_many(&mac, &[]).unwrap_err().to_string().contains("use `mac`"));
}
