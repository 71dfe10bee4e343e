//! IEEE 1619 XTS on Kuznyechik against RustCrypto's `xts-mode` over its
//! `kuznyechik` crate (which share no code with this library): random data
//! of many lengths and layouts on every backend the CPU runs, streaming
//! splits, sub-ranges that start at unit N, and the refused parameters.

use super::*;
use crate::backend::BackendChoice;
use crate::modes::stream::CipherStream;
use crate::modes::{self, Mode, Params};
use crate::test_rng::{split, Rng};
use crate::CipherId;
use cipher::KeyInit;
use xts_mode::{get_tweak_default, Xts128};

fn req<'k>(key: &'k [u8], params: Params, backend: BackendChoice<'k>) -> Request<'k> {
    Request { cipher: CipherId::Kuznyechik, mode: Mode::Xts, key, sbox: None, backend, params }
}

fn units(data_unit: usize, unit: u128) -> Params {
    Params { data_unit: Some(data_unit), unit: Some(unit), ..Params::default() }
}

fn oracle(key: &[u8]) -> Xts128<kuznyechik::Kuznyechik> {
    let k1 = kuznyechik::Kuznyechik::new_from_slice(&key[..32]).unwrap();
    let k2 = kuznyechik::Kuznyechik::new_from_slice(&key[32..]).unwrap();
    Xts128::new(k1, k2)
}

/// The oracle's encryption (or decryption) of `data` in units of
/// `data_unit` bytes from unit `first`.
fn oracle_area(key: &[u8], data: &[u8], data_unit: usize, first: u128, encrypt: bool) -> Vec<u8> {
    let mut out = data.to_vec();
    if encrypt {
        oracle(key).encrypt_area(&mut out, data_unit, first, get_tweak_default);
    } else {
        oracle(key).decrypt_area(&mut out, data_unit, first, get_tweak_default);
    }
    out
}

/// The Kuznyechik backends this CPU runs.
fn backends() -> Vec<&'static str> {
    let all = crate::registry::backends("kuznyechik").unwrap();
    let names: Vec<&str> = all.iter().map(|b| b.info.name).collect();
    let wanted: &[&str] = if cfg!(target_arch = "x86_64") { &["avx512-gfni", "avx2-gfni", "avx2"] } else { &["neon"] };
    for wanted in wanted.iter().filter(|_| cfg!(any(target_arch = "x86_64", target_arch = "aarch64"))) {
        assert!(names.contains(wanted), "no {wanted} in {names:?}");
    }
    all.into_iter().filter(|b| b.available).map(|b| b.info.name).collect()
}

/// Message lengths for data units of `data_unit` bytes whose last unit
/// holds at least one block (the oracle panics on a shorter one).
fn lengths(data_unit: usize, rng: &mut Rng) -> Vec<usize> {
    let mut v = vec![16, 17, 31, 32, 33, 511, 512, 513, 1024 + 7, 4096, 3 * 4096 + 100, 9000, 20000 + 5];
    v.extend((0..6).map(|_| 16 + rng.below(5000)));
    v.extend((0..3).map(|_| data_unit * (1 + rng.below(6)) + 16 + rng.below(data_unit)));
    v.retain(|&len| len % data_unit == 0 || len % data_unit >= 16);
    v
}

/// Start numbers around the 32- and 64-bit edges, and random ones.
fn starts(rng: &mut Rng) -> Vec<u128> {
    vec![
        0,
        1,
        (1 << 32) - 2,
        1 << 32,
        u64::MAX as u128 - 1,
        u64::MAX as u128,
        rng.next() as u128,
        (rng.next() as u128) << 64 | rng.next() as u128,
    ]
}

#[test]
fn data_units_match_the_oracle_on_every_backend() {
    let mut rng = Rng(0x1619_0000_0000_0001);
    for backend in backends() {
        for data_unit in [16, 32, 512, 4096] {
            for len in lengths(data_unit, &mut rng) {
                let key = rng.bytes(64);
                let data = rng.bytes(len);
                let first = starts(&mut rng)[rng.below(8)];
                let r = req(&key, units(data_unit, first), BackendChoice::Named(backend));
                let want = oracle_area(&key, &data, data_unit, first, true);
                let got = modes::encrypt(&r, &data).unwrap();
                assert!(got == want, "{backend} unit {data_unit} len {len} from {first}");
                assert!(modes::decrypt(&r, &got).unwrap() == data, "{backend} unit {data_unit} len {len}: back");
                assert!(oracle_area(&key, &got, data_unit, first, false) == data);
            }
        }
    }
}

#[test]
fn start_numbers_near_the_32_and_64_bit_edges_match_the_oracle() {
    let mut rng = Rng(0x1619_0000_0000_0002);
    for first in starts(&mut rng) {
        let key = rng.bytes(64);
        // Four units across the edge, the last one partial.
        let data = rng.bytes(4 * 512 + 40);
        let r = req(&key, units(512, first), BackendChoice::Auto);
        assert!(modes::encrypt(&r, &data).unwrap() == oracle_area(&key, &data, 512, first, true), "from {first}");
    }
    // Past 2^128 - 1 there is no unit number.
    let key = rng.bytes(64);
    let r = req(&key, units(16, u128::MAX), BackendChoice::Auto);
    assert!(modes::encrypt(&r, &[0; 16]).is_ok());
    let e = modes::encrypt(&r, &[0; 32]).unwrap_err().to_string();
    assert!(e.contains("2^128"), "{e}");
}

#[test]
fn one_unit_with_the_tweak_as_iv_matches_the_oracle() {
    let mut rng = Rng(0x1619_0000_0000_0003);
    for len in [16, 17, 31, 32, 33, 100, 511, 512, 513, 1031, 8192, 8192 + 16, 8192 + 15, 30000] {
        for backend in backends() {
            let key = rng.bytes(64);
            let iv = rng.bytes(16);
            let data = rng.bytes(len);
            let r = req(&key, Params { iv: Some(iv.clone()), ..Params::default() }, BackendChoice::Named(backend));
            let mut want = data.clone();
            oracle(&key).encrypt_sector(&mut want, xts_mode::Array(iv.clone().try_into().unwrap()));
            let got = modes::encrypt(&r, &data).unwrap();
            assert!(got == want, "{backend} len {len}");
            assert!(modes::decrypt(&r, &got).unwrap() == data, "{backend} len {len}: back");
        }
    }
}

#[test]
fn streams_split_anywhere_equal_one_shot() {
    let mut rng = Rng(0x1619_0000_0000_0004);
    for params in [units(512, 7), units(16, 1 << 32), units(4096, u64::MAX as u128 - 2), Params {
        iv: Some(rng.bytes(16)),
        ..Params::default()
    }] {
        for len in [16, 17, 47, 512, 513, 1024 + 7, 5000, 9000 + 3] {
            if params.data_unit.is_some_and(|u| len % u != 0 && len % u < 16) {
                continue;
            }
            let key = rng.bytes(64);
            let data = rng.bytes(len);
            let r = req(&key, params.clone(), BackendChoice::Auto);
            for encrypt in [true, false] {
                let one = if encrypt { modes::encrypt(&r, &data) } else { modes::decrypt(&r, &data) }.unwrap();
                // The mode's own type: whole blocks to update, the rest to finish.
                for _ in 0..6 {
                    let mut buf = data.clone();
                    let mut s = KuznyechikXts::new(&r, encrypt).unwrap();
                    let last = len - 16 - len % 16;
                    let mut at = 0;
                    while at < last {
                        let step = (rng.below(40) * 16).min(last - at);
                        s.update(&mut buf[at..at + step]).unwrap();
                        at += step;
                    }
                    s.finish(&mut buf[at..]).unwrap();
                    assert!(buf == one, "{params:?} len {len} encrypt {encrypt}");
                }
                // CipherStream, with threads and random pieces.
                for threads in [1, 3] {
                    let s = if encrypt { CipherStream::encryptor(&r) } else { CipherStream::decryptor(&r) };
                    let mut s = s.unwrap().threads(threads).unwrap();
                    let mut out = Vec::new();
                    for piece in split(&mut rng, &data) {
                        s.update(piece, &mut out).unwrap();
                    }
                    s.finalize(&mut out).unwrap();
                    assert!(out == one, "{params:?} len {len} encrypt {encrypt} threads {threads}");
                }
            }
        }
    }
}

#[test]
fn a_range_from_unit_n_decrypts_on_its_own() {
    let mut rng = Rng(0x1619_0000_0000_0005);
    let key = rng.bytes(64);
    let first = u64::MAX as u128 - 5;
    let volume = rng.bytes(12 * 512);
    let sealed = modes::encrypt(&req(&key, units(512, first), BackendChoice::Auto), &volume).unwrap();
    for (from, to) in [(0, 1), (3, 12), (5, 9), (11, 12), (1, 12)] {
        let r = req(&key, units(512, first + from as u128), BackendChoice::Auto);
        let range = from * 512..to * 512;
        assert!(modes::decrypt(&r, &sealed[range.clone()]).unwrap() == volume[range.clone()], "{from}..{to}");
        assert!(modes::encrypt(&r, &volume[range.clone()]).unwrap() == sealed[range], "{from}..{to}");
    }
}

#[test]
fn many_messages_each_start_at_the_first_unit() {
    let mut rng = Rng(0x1619_0000_0000_0006);
    let key = rng.bytes(64);
    let r = req(&key, units(512, 99), BackendChoice::Auto);
    let messages: Vec<Vec<u8>> = [16, 600, 530, 2048].iter().map(|&n| rng.bytes(n)).collect();
    let refs: Vec<&[u8]> = messages.iter().map(|m| &m[..]).collect();
    let each = encrypt_each(&r, &refs).unwrap();
    for (m, c) in messages.iter().zip(&each) {
        assert!(*c == modes::encrypt(&r, m).unwrap());
    }
}

#[test]
fn bad_keys_layouts_and_lengths_are_refused_with_one_line() {
    let key = [5u8; 64];
    let bad = |key: &[u8], params: Params, len: usize, what: &str| {
        let r = req(key, params, BackendChoice::Auto);
        let e = modes::encrypt(&r, &vec![0; len]).expect_err(what).to_string();
        assert!(!e.contains('\n') && e.contains(what), "{what}: {e}");
    };
    bad(&key[..32], units(512, 0), 512, "64 bytes");
    bad(&[5u8; 65], units(512, 0), 512, "64 bytes");
    assert!(req(&key[..32], units(512, 0), BackendChoice::Auto).check().is_err());
    assert!(req(&key, units(512, 0), BackendChoice::Auto).check().is_ok());
    bad(&key, units(500, 0), 512, "multiple of 16");
    bad(&key, units(0, 0), 512, "multiple of 16");
    bad(&key, units(8, 0), 512, "multiple of 16");
    bad(&key, units(512, 0), 15, "at least one whole 16-byte block");
    bad(&key, units(512, 0), 0, "at least one whole 16-byte block");
    bad(&key, Params { iv: Some(vec![0; 16]), ..Params::default() }, 15, "at least one whole");
    bad(&key, units(512, 0), 512 + 15, "last data unit is 15 bytes");
    bad(&key, units(16, 0), 16 + 3, "last data unit is 3 bytes");
    bad(&key, Params::default(), 512, "needs --data-unit");
    bad(&key, Params { iv: Some(vec![0; 16]), ..units(512, 0) }, 512, "not both");
    bad(&key, Params { iv: Some(vec![0; 16]), unit: Some(3), ..Params::default() }, 512, "needs --data-unit");
    bad(&key, Params { iv: Some(vec![0; 8]), ..Params::default() }, 512, "--iv of 16 bytes");
    bad(&key, Params { aad: vec![1], ..units(512, 0) }, 512, "--aad");
    // Magma's block is 64 bits: no XTS; the other modes take no data unit.
    let e = Mode::parse(CipherId::Magma, "xts").unwrap_err().to_string();
    assert!(e.contains("128-bit blocks"), "{e}");
    let ctr = Request { mode: Mode::Ctr, ..req(&key[..32], units(512, 0), BackendChoice::Auto) };
    let e = modes::encrypt(&ctr, &[0; 16]).unwrap_err().to_string();
    assert!(e.contains("--data-unit"), "{e}");
}

/// A data unit larger than any message (up to the largest multiple of 16)
/// is one unit: no overflow while sizing the passes.
#[test]
fn a_huge_data_unit_is_one_unit() {
    let key: Vec<u8> = (0..64).collect();
    let data: Vec<u8> = (0..100u8).collect();
    let huge = usize::MAX / 16 * 16;
    let req = |data_unit| Request {
        cipher: CipherId::Kuznyechik,
        mode: Mode::Xts,
        key: &key,
        sbox: None,
        backend: BackendChoice::Auto,
        params: Params { data_unit: Some(data_unit), ..Params::default() },
    };
    let sealed = crate::modes::encrypt(&req(huge), &data).unwrap();
    assert_eq!(sealed, crate::modes::encrypt(&req(1 << 20), &data).unwrap());
}
