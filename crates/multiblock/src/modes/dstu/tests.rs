//! Streaming = one-shot on random splits, for every streaming type (these
//! types are crate-internal until `modes/mod.rs` exports `dstu`, so the test
//! lives here; tests/dstu_modes.rs covers the one-shot API and dstu-core).

use super::*;
use crate::{CipherId, Family};
use crate::backend::BackendChoice;
use crate::modes::{self, Params};

use crate::test_rng::Rng;

const KALYNA: [CipherId; 5] = [
    CipherId::Kalyna128_128,
    CipherId::Kalyna128_256,
    CipherId::Kalyna256_256,
    CipherId::Kalyna256_512,
    CipherId::Kalyna512_512,
];

fn req<'a>(id: CipherId, mode: Mode, key: &'a [u8], params: Params) -> Request<'a> {
    Request { cipher: id, mode, key, sbox: None, backend: BackendChoice::Auto, params }
}

/// Random cut points of `len` where every piece but the last is a
/// multiple of `unit`.
fn splits(rng: &mut Rng, len: usize, unit: usize) -> Vec<usize> {
    let mut cuts = vec![0];
    let mut at = 0;
    while at < len && rng.below(4) != 0 {
        let step = unit * rng.below(len / unit + 2);
        at = (at + step).min(len - len % unit);
        cuts.push(at);
    }
    cuts.push(len);
    cuts
}

/// The one-shot API's encryption or decryption.
fn one_shot(r: &Request<'_>, data: &[u8], encrypt: bool) -> Vec<u8> {
    if encrypt { modes::encrypt(r, data) } else { modes::decrypt(r, data) }.unwrap()
}

fn pieces(cuts: &[usize]) -> impl Iterator<Item = (usize, usize)> + '_ {
    cuts.windows(2).map(|w| (w[0], w[1]))
}

/// `count` random (cipher, key, message) triples per Kalyna variant, the
/// message length drawn by `len(rng, block bytes, case number)`.
fn messages(
    rng: &mut Rng,
    count: usize,
    len: impl Fn(&mut Rng, usize, usize) -> usize,
) -> Vec<(CipherId, Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for id in KALYNA {
        for case in 0..count {
            let key = rng.bytes(id.key_bytes());
            let n = len(rng, id.block_bytes(), case);
            out.push((id, key, rng.bytes(n)));
        }
    }
    out
}

#[test]
fn ctr_ofb_streaming_equals_one_shot() {
    let mut rng = Rng(0x5eed_0001);
    // One long message per cipher crosses the keystream's chunks.
    for (id, key, data) in messages(&mut rng, 12, |rng, n, case| rng.below(6 * n + 5) + if case == 0 { 9000 } else { 0 })
    {
        let params = Params { iv: Some(rng.bytes(id.block_bytes())), ..Params::default() };
        for mode in [Mode::Ctr, Mode::Ofb] {
            let r = req(id, mode, &key, params.clone());
            let want = modes::encrypt(&r, &data).unwrap();
            let mut got = data.clone();
            let cuts = splits(&mut rng, data.len(), 1);
            let mut update: Box<dyn FnMut(&mut [u8])> = if mode == Mode::Ctr {
                let mut s = KalynaCtr::new(&r).unwrap();
                Box::new(move |d| s.update(d))
            } else {
                let mut s = KalynaOfb::new(&r).unwrap();
                Box::new(move |d| s.update(d))
            };
            pieces(&cuts).for_each(|(a, b)| update(&mut got[a..b]));
            drop(update);
            assert_eq!(got, want, "{id} {mode} len {} cuts {cuts:?}", data.len());
        }
    }
}

#[test]
fn cbc_cfb_xts_streaming_equals_one_shot() {
    let mut rng = Rng(0x5eed_0002);
    let ids = KALYNA.iter().copied().chain([CipherId::Ublock128_128, CipherId::Ublock256_256]);
    for id in ids {
        let n = id.block_bytes();
        let kalyna = id.family() == Family::Kalyna;
        for case in 0..8 {
            let key = rng.bytes(id.key_bytes());
            let iv = rng.bytes(n);
            // One long message per cipher crosses the parallel paths' chunks.
            let blocks = rng.below(6) + if case == 0 { 9000 / n } else { 0 };
            // CBC, whole blocks, both directions.
            let data = rng.bytes(blocks * n);
            let r = req(id, Mode::Cbc, &key, Params { iv: Some(iv.clone()), ..Params::default() });
            for encrypt in [true, false] {
                let want = one_shot(&r, &data, encrypt);
                let mut s = if encrypt { Cbc::encryptor(&r) } else { Cbc::decryptor(&r) }.unwrap();
                let mut got = data.clone();
                for (a, b) in pieces(&splits(&mut rng, got.len(), n)) {
                    s.update(&mut got[a..b]).unwrap();
                }
                assert_eq!(got, want, "{id} cbc encrypt={encrypt}");
            }
            if !kalyna {
                continue;
            }
            // CFB with every s, any length.
            for s_bits in [8, 64, 128, 256, 512].into_iter().filter(|&s| s <= 8 * n) {
                let q = s_bits / 8;
                // s < block is one block operation per q bytes: keep it short.
                let whole = if q < n { blocks.min(3) } else { blocks };
                let len = whole * n + rng.below(2 * n);
                let data = rng.bytes(len);
                let p = Params { iv: Some(iv.clone()), s: Some(s_bits), ..Params::default() };
                let r = req(id, Mode::Cfb, &key, p);
                for encrypt in [true, false] {
                    let want = one_shot(&r, &data, encrypt);
                    let mut s = if encrypt { KalynaCfb::encryptor(&r) } else { KalynaCfb::decryptor(&r) }.unwrap();
                    let mut got = data.clone();
                    let cuts = splits(&mut rng, got.len(), q);
                    let (last_a, _) = pieces(&cuts).last().unwrap();
                    for (a, b) in pieces(&cuts).filter(|&(a, _)| a != last_a) {
                        s.update(&mut got[a..b]).unwrap();
                    }
                    s.finish(&mut got[last_a..]).unwrap();
                    assert_eq!(got, want, "{id} cfb s={s_bits} encrypt={encrypt} cuts {cuts:?}");
                }
            }
            // XTS: whole blocks in update, the end (≥ one block) in finish.
            let len = (blocks + 1) * n + rng.below(n);
            let data = rng.bytes(len);
            let r = req(id, Mode::Xts, &key, Params { iv: Some(iv.clone()), ..Params::default() });
            for encrypt in [true, false] {
                let want = one_shot(&r, &data, encrypt);
                let mut s = if encrypt { KalynaXts::encryptor(&r) } else { KalynaXts::decryptor(&r) }.unwrap();
                let mut got = data.clone();
                let end = data.len() - n - data.len() % n;
                let cuts = splits(&mut rng, end, n);
                for (a, b) in pieces(&cuts) {
                    s.update(&mut got[a..b]).unwrap();
                }
                s.finish(&mut got[end..]).unwrap();
                assert_eq!(got, want, "{id} xts encrypt={encrypt}");
            }
        }
    }
}

#[test]
fn cmac_gmac_streaming_equals_one_shot() {
    let mut rng = Rng(0x5eed_0003);
    for (id, key, data) in messages(&mut rng, 10, |rng, n, _| rng.below(5 * n) + 1) {
        for mode in [Mode::Cmac, Mode::Gmac] {
            let r = req(id, mode, &key, Params::default());
            let want = modes::mac(&r, &data).unwrap();
            let cuts = splits(&mut rng, data.len(), 1);
            let got = if mode == Mode::Cmac {
                let mut m = KalynaCmac::new(&r).unwrap();
                pieces(&cuts).for_each(|(a, b)| m.update(&data[a..b]));
                m.finalize().unwrap()
            } else {
                let mut m = KalynaGmac::new(&r).unwrap();
                pieces(&cuts).for_each(|(a, b)| m.update(&data[a..b]));
                m.finalize().unwrap()
            };
            assert_eq!(got, want, "{id} {mode} cuts {cuts:?}");
        }
    }
}

#[test]
fn only_kalyna_and_ublock_cbc_are_offered() {
    assert_eq!(Mode::for_cipher(CipherId::Kalyna256_512).len(), 11);
    assert_eq!(Mode::for_cipher(CipherId::Ublock128_256), [Mode::Ecb, Mode::Cbc]);
    assert!(!Mode::for_cipher(CipherId::Magma).contains(&Mode::Xts));
    let key = [0u8; 16];
    let r = req(CipherId::Ublock128_128, Mode::Ctr, &key, Params { iv: Some(vec![0; 16]), ..Params::default() });
    assert!(matches!(KalynaCtr::new(&r), Err(Error::Param(_))));
}
