//! Streaming = one-shot on random splits, for every streaming type.

use super::*;
use crate::CipherId;
use crate::backend::BackendChoice;
use crate::modes::{Padding, Params};

use crate::test_rng::Rng;

/// Cut points of `len` into random pieces (empty pieces included).
fn pieces(rng: &mut Rng, len: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < len {
        let step = match rng.below(4) {
            0 => 0,
            1 => rng.below(20),
            2 => rng.below(300),
            _ => rng.below(len - at + 1),
        };
        let end = (at + step).min(len);
        out.push((at, end));
        at = end;
    }
    out.push((len, len));
    out
}

fn req(cipher: CipherId, mode: Mode, key: &[u8], params: Params) -> Request<'_> {
    Request { cipher, mode, key, sbox: None, backend: BackendChoice::Auto, params }
}

/// Configurations of every in-place streaming mode.
fn stream_configs(rng: &mut Rng) -> Vec<(CipherId, Mode, Params)> {
    let mut v = Vec::new();
    for id in [CipherId::Magma, CipherId::Kuznyechik] {
        let n = id.block_bytes();
        let iv = |rng: &mut Rng, len| Params { iv: Some(rng.bytes(len)), ..Params::default() };
        v.push((id, Mode::Ctr, iv(rng, n / 2)));
        v.push((id, Mode::Ctr, Params { s: Some(8 * 3), ..iv(rng, n / 2) }));
        v.push((id, Mode::CtrAcpkm, Params { section_bytes: Some(2 * n), ..iv(rng, n / 2) }));
        v.push((id, Mode::Ofb, Params { s: Some(8 * (n - 1)), ..iv(rng, 2 * n) }));
        v.push((id, Mode::Cfb, iv(rng, 3 * n)));
        v.push((id, Mode::Cfb, Params { s: Some(8), ..iv(rng, n + 3) }));
        v.push((id, Mode::Cfb, Params { s: Some(8 * 5), ..iv(rng, 2 * n) }));
    }
    let iv8 = |rng: &mut Rng, meshing| Params { iv: Some(rng.bytes(8)), key_meshing: meshing, ..Params::default() };
    v.push((CipherId::Gost89, Mode::Cnt, iv8(rng, false)));
    v.push((CipherId::Gost89, Mode::Cnt, iv8(rng, true)));
    v.push((CipherId::Gost89, Mode::Cfb, iv8(rng, true)));
    v
}

#[test]
fn in_place_streams_equal_one_shot_on_random_splits() {
    let mut rng = Rng(0x5eed_1234_5678_9abc);
    for (id, mode, params) in stream_configs(&mut rng) {
        let key = rng.bytes(32);
        let r = req(id, mode, &key, params);
        let lens = if id == CipherId::Kuznyechik { [0, 1, 17, 200] } else { [0, 5, 3100, 17000] };
        for len in lens {
            for _ in 0..4 {
                let data = rng.bytes(len);
                let cuts = pieces(&mut rng, len);
                for dir in [Direction::Encrypt, Direction::Decrypt] {
                    let one = match dir {
                        Direction::Encrypt => crate::modes::encrypt(&r, &data).unwrap(),
                        Direction::Decrypt => crate::modes::decrypt(&r, &data).unwrap(),
                    };
                    let mut buf = data.clone();
                    // Every streaming type: update over the cuts, then finalize.
                    macro_rules! stream {
                        ($s:expr) => {{
                            let mut s = $s.unwrap();
                            cuts.iter().for_each(|&(a, b)| s.update(&mut buf[a..b]).unwrap());
                            s.finalize();
                        }};
                    }
                    match mode {
                        Mode::Ctr | Mode::CtrAcpkm => stream!(Ctr::new(&r)),
                        Mode::Ofb => stream!(Ofb::new(&r)),
                        Mode::Cfb => stream!(Cfb::new(&r, dir)),
                        Mode::Cnt => stream!(Cnt::new(&r)),
                        _ => unreachable!(),
                    }
                    assert_eq!(buf, one, "{id} {mode} {dir:?} len {len} cuts {cuts:?}");
                }
            }
        }
    }
}

#[test]
fn cbc_stream_equals_one_shot_on_random_splits() {
    let mut rng = Rng(77);
    for id in [CipherId::Magma, CipherId::Kuznyechik] {
        let n = id.block_bytes();
        for (z, padding) in
            [(1, Padding::None), (3, Padding::None), (2, Padding::Gost2), (1, Padding::Pkcs7), (2, Padding::Gost1)]
        {
            let key = rng.bytes(32);
            let params = Params { iv: Some(rng.bytes(z * n)), padding, ..Params::default() };
            let r = req(id, Mode::Cbc, &key, params);
            for len in [0, 1, n, 7 * n, 7 * n + 3, 40 * n + 1] {
                let len = if padding == Padding::None { len / n * n } else { len };
                let data = rng.bytes(len);
                let ct = crate::modes::encrypt(&r, &data).unwrap();
                for dir in [Direction::Encrypt, Direction::Decrypt] {
                    let (input, expect) = match dir {
                        Direction::Encrypt => (&data, &ct),
                        Direction::Decrypt => (&ct, &data),
                    };
                    let cuts = pieces(&mut rng, input.len());
                    let mut s = Cbc::new(&r, dir).unwrap();
                    let mut out = Vec::new();
                    for (a, b) in cuts {
                        out.extend(s.update(&input[a..b]).unwrap());
                    }
                    out.extend(s.finalize().unwrap());
                    if padding == Padding::Gost1 && dir == Direction::Decrypt {
                        assert_eq!(out[..len], expect[..]);
                    } else {
                        assert_eq!(&out, expect, "{id} cbc z={z} {padding:?} {dir:?} len {len}");
                    }
                }
            }
        }
    }
}

#[test]
fn mac_streams_equal_one_shot_on_random_splits() {
    let mut rng = Rng(99);
    let configs = [
        (CipherId::Magma, Mode::Mac, Params::default()),
        (CipherId::Kuznyechik, Mode::Mac, Params { mac_bits: Some(64), ..Params::default() }),
        (
            CipherId::Magma,
            Mode::OmacAcpkm,
            Params { section_bytes: Some(16), key_section_bytes: Some(24), ..Params::default() },
        ),
        (CipherId::Kuznyechik, Mode::OmacAcpkm, Params { section_bytes: Some(48), ..Params::default() }),
        (CipherId::Gost89, Mode::Mac, Params { key_meshing: true, ..Params::default() }),
    ];
    for (id, mode, params) in configs {
        let key = rng.bytes(32);
        let r = req(id, mode, &key, params);
        let lens: &[usize] =
            if id == CipherId::Kuznyechik { &[0, 1, 16, 17, 100, 300] } else { &[0, 1, 8, 9, 100, 1030, 2500] };
        // GOST 28147-89 refuses the empty message (tests/empty_mac.rs).
        let lens = if id == CipherId::Gost89 { &lens[1..] } else { lens };
        for &len in lens {
            let data = rng.bytes(len);
            let one = crate::modes::mac(&r, &data).unwrap();
            for _ in 0..5 {
                let cuts = pieces(&mut rng, len);
                let got = match (mode, id) {
                    (Mode::Mac, CipherId::Gost89) => {
                        let mut m = Imit::new(&r).unwrap();
                        cuts.iter().for_each(|&(a, b)| m.update(&data[a..b]).unwrap());
                        m.finalize().unwrap()
                    }
                    (Mode::Mac, _) => {
                        let mut m = Cmac::new(&r).unwrap();
                        cuts.iter().for_each(|&(a, b)| m.update(&data[a..b]).unwrap());
                        m.finalize().unwrap()
                    }
                    _ => {
                        let mut m = OmacAcpkm::new(&r).unwrap();
                        cuts.iter().for_each(|&(a, b)| m.update(&data[a..b]).unwrap());
                        m.finalize().unwrap()
                    }
                };
                assert_eq!(got, one, "{id} {mode} len {len} cuts {cuts:?}");
            }
        }
    }
}

#[test]
fn streaming_types_refuse_other_modes() {
    let key = [0u8; 32];
    let r = req(CipherId::Kuznyechik, Mode::Ofb, &key, Params { iv: Some(vec![0; 16]), ..Params::default() });
    assert!(matches!(Ctr::new(&r), Err(Error::Param(_))));
    let r = req(CipherId::Kalyna128_256, Mode::Ctr, &key, Params { iv: Some(vec![0; 8]), ..Params::default() });
    assert!(matches!(Ctr::new(&r), Err(Error::Param(_))));
    let r = req(CipherId::Gost89, Mode::Mac, &key, Params::default());
    assert!(matches!(Cmac::new(&r), Err(Error::Param(_))));
}

#[test]
fn magma_counters_match_a_plain_64_bit_count_across_the_32_bit_carry() {
    use super::stream::put_counters;
    for base in [0u64, 5, 0xFFFF_FFF0, 0x1234_5678_FFFF_FFFE, u64::MAX - 3, u64::MAX] {
        for blocks in [0usize, 1, 2, 17, 40] {
            let mut out = vec![0u8; 8 * blocks];
            let next = put_counters(&mut out, 8, u128::from(base));
            let want: Vec<u8> = (0..blocks as u64).flat_map(|i| base.wrapping_add(i).to_be_bytes()).collect();
            assert_eq!(out, want, "base {base:#x}, {blocks} blocks");
            assert_eq!(next, u128::from(base.wrapping_add(blocks as u64)));
        }
    }
}
