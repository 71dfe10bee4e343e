//! Kupyna against the standard's examples, the reference backend and two
//! independent implementations (RustCrypto `kupyna`, `dstu-core`).

use super::*;
use crate::test_rng::{split, Rng};
use digest::Digest;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

/// Bytes 0, 1, 2, … (the examples' messages).
fn counting(n: usize) -> Vec<u8> {
    (0..n).map(|i| i as u8).collect()
}

/// Every backend this CPU runs.
fn backends() -> Vec<&'static str> {
    let cpu = crate::cpu::CpuFeatures::get();
    BACKENDS.iter().filter(|b| (b.available)(cpu)).map(|b| b.info.name).collect()
}

fn hash(d: usize, msg: &[u8], backend: &str) -> Vec<u8> {
    let mut core = Core::new(d, BackendChoice::Named(backend)).expect("backend");
    core.update(msg);
    let mut out = vec![0; d];
    core.finalize_into_reset(&mut out);
    out
}

fn mac(d: usize, key: &[u8], msg: &[u8], backend: &str) -> Vec<u8> {
    let mut m = Mac::new(d, key, BackendChoice::Named(backend)).expect("MAC");
    m.update(msg);
    let mut out = vec![0; d];
    m.finalize_into_reset(&mut out);
    out
}

/// The examples of DSTU 7564:2014 as ePrint 2015/885 Appendix B reproduces
/// them (messages of N bits: bytes 00 01 02 …, or the one byte FF), and
/// the standard's Kupyna-384 example with N = 760.
const EXAMPLES: &[(usize, usize, &str)] = &[
    (32, 64, "08F4EE6F1BE6903B324C4E27990CB24EF69DD58DBE84813EE0A52F6631239875"),
    (32, 128, "0A9474E645A7D25E255E9E89FFF42EC7EB31349007059284F0B182E452BDA882"),
    (32, 256, "D305A32B963D149DC765F68594505D4077024F836C1BF03806E1624CE176C08F"),
    (32, 95, "1075C8B0CB910F116BDA5FA1F19C29CF8ECC75CAFF7208BA2994B68FC56E8D16"),
    (32, 0, "CD5101D1CCDF0D1D1F4ADA56E888CD724CA1A0838A3521E7131D4FB78D0F5EB6"),
    // The 48-bit digest of the same appendix (N = 512).
    (6, 64, "2F6631239875"),
    (48, 95, "D9021692D84E5175735654846BA751E6D0ED0FAC36DFBC0841287DCB0B5584C75016C3DECC2A6E47C50B2F3811E351B8"),
    (
        64,
        64,
        "3813E2109118CDFB5A6D5E72F7208DCCC80A2DFB3AFDFB02F46992B5EDBE536B\
         3560DD1D7E29C6F53978AF58B444E37BA685C0DD910533BA5D78EFFFC13DE62A",
    ),
    (
        64,
        128,
        "76ED1AC28B1D0143013FFA87213B4090B356441263C13E03FA060A8CADA32B97\
         9635657F256B15D5FCA4A174DE029F0B1B4387C878FCC1C00E8705D783FD7FFE",
    ),
    (
        64,
        256,
        "0DD03D7350C409CB3C29C25893A0724F6B133FA8B9EB90A64D1A8FA93B565566\
         11EB187D715A956B107E3BFC76482298133A9CE8CBC0BD5E1436A5B197284F7E",
    ),
    (
        64,
        192,
        "B189BFE987F682F5F167F0D7FA565330E126B6E592B1C55D44299064EF95B1A5\
         7F3C2D0ECF17869D1D199EBBD02E8857FB8ADD67A8C31F56CD82C016CF743121",
    ),
    (
        64,
        0,
        "656B2F4CD71462388B64A37043EA55DBE445D452AECD46C3298343314EF04019\
         BCFA3F04265A9857F91BE91FCE197096187CEDA78C9C1C021C294A0689198538",
    ),
];

/// The one-byte message FF (N = 8) of the same appendix.
const EXAMPLES_FF: &[(usize, &str)] = &[
    (32, "EA7677CA4526555680441C117982EA14059EA6D0D7124D6ECDB3DEEC49E890F4"),
    (
        64,
        "871B18CF754B72740307A97B449ABEB32B64444CC0D5A4D65830AE5456837A72\
         D8458F12C8F06C98C616ABE11897F86263B5CB77C420FB375374BEC52B6D0292",
    ),
];

/// The MAC examples of DSTU 7564:2014 (key bytes descending from d − 1 to
/// 0, message 00 01 … 1E).
const MAC_EXAMPLES: &[(usize, &str)] = &[
    (32, "B60594D56FA79BA210314C72C2495087CCD0A99FC04ACFE2A39EF669925D98EE"),
    (48, "BEBFD8D730336F043ABACB41829E79A4D320AEDDD8D14024D5B805DA70C396FA295C281A38B30AE728A304B3F5AE490E"),
    (
        64,
        "F270043C06A5C37E65D9D791C5FBFB966E5EE709F8F54019C9A55B76CA40B701\
         00579F269CEC24E347A9D864614CF3ABBF6610742E4DB3BD2ABC000387C49D24",
    ),
];

#[test]
fn standard_examples_on_every_backend() {
    for b in backends() {
        for &(d, n, want) in EXAMPLES {
            assert_eq!(hash(d, &counting(n), b), hex(want), "{b}: Kupyna-{}, {n} bytes", 8 * d);
        }
        for &(d, want) in EXAMPLES_FF {
            assert_eq!(hash(d, &[0xff], b), hex(want), "{b}: Kupyna-{}, FF", 8 * d);
        }
        for &(d, want) in MAC_EXAMPLES {
            let key: Vec<u8> = (0..d).rev().map(|i| i as u8).collect();
            assert_eq!(mac(d, &key, &counting(31), b), hex(want), "{b}: MAC-{}", 8 * d);
        }
    }
}

fn lengths() -> Vec<usize> {
    (0..=300).chain([1000, 4096, 65537]).collect()
}

/// Kupyna-256, -384 and -512 on random data of many lengths: every backend
/// against `reference`, RustCrypto `kupyna` and `dstu-core`.
#[test]
fn random_messages_against_peers() {
    let mut rng = Rng(0x6b75_7079_6e61);
    for n in lengths() {
        let msg = rng.bytes(n);
        let peers: [(usize, Vec<u8>, Vec<u8>); 3] = [
            (32, kupyna::Kupyna256::digest(&msg).to_vec(), dstu_core::hazmat::kupyna::Kupyna256::digest(&msg).to_vec()),
            (48, kupyna::Kupyna384::digest(&msg).to_vec(), dstu_core::hazmat::kupyna::Kupyna384::digest(&msg).to_vec()),
            (64, kupyna::Kupyna512::digest(&msg).to_vec(), dstu_core::hazmat::kupyna::Kupyna512::digest(&msg).to_vec()),
        ];
        for (d, rc, dc) in &peers {
            assert_eq!(rc, dc, "the peers disagree: {d} bytes, {n}-byte message");
            for b in backends() {
                assert_eq!(&hash(*d, &msg, b), rc, "{b}: Kupyna-{}, {n} bytes", 8 * d);
            }
        }
    }
}

/// The MAC against `dstu-core`'s on random keys and messages.
#[test]
fn random_macs_against_dstu_core() {
    use dstu_core::hazmat::kupyna_kmac::{Kupyna256Kmac, Kupyna384Kmac, Kupyna512Kmac};
    let mut rng = Rng(0x006d_6163);
    for n in (0..=150).chain([1000, 4097]) {
        let msg = rng.bytes(n);
        for d in [32, 48, 64] {
            let key = rng.bytes(d);
            let want = match d {
                32 => Kupyna256Kmac::mac(&key, &msg).expect("key").to_vec(),
                48 => Kupyna384Kmac::mac(&key, &msg).expect("key").to_vec(),
                _ => Kupyna512Kmac::mac(&key, &msg).expect("key").to_vec(),
            };
            for b in backends() {
                assert_eq!(mac(d, &key, &msg, b), want, "{b}: MAC-{}, {n} bytes", 8 * d);
            }
        }
    }
}

/// Digests of other lengths: every length against `reference`, and the
/// ones RustCrypto has as types against it.
#[test]
fn every_digest_length() {
    use digest::consts::{U1, U20, U28, U33, U40};
    let mut rng = Rng(0x1e9);
    for n in [0, 1, 63, 64, 65, 127, 128, 129, 500] {
        let msg = rng.bytes(n);
        for d in 1..=64 {
            let want = hash(d, &msg, "reference");
            for b in backends() {
                assert_eq!(hash(d, &msg, b), want, "{b}: {d}-byte digest, {n} bytes");
            }
        }
        assert_eq!(hash(1, &msg, "reference"), kupyna::KupynaShort::<U1>::digest(&msg).to_vec());
        assert_eq!(hash(20, &msg, "reference"), kupyna::KupynaShort::<U20>::digest(&msg).to_vec());
        assert_eq!(hash(28, &msg, "reference"), kupyna::KupynaShort::<U28>::digest(&msg).to_vec());
        assert_eq!(hash(33, &msg, "reference"), kupyna::KupynaLong::<U33>::digest(&msg).to_vec());
        assert_eq!(hash(40, &msg, "reference"), kupyna::KupynaLong::<U40>::digest(&msg).to_vec());
    }
}

/// `update` in two pieces split at every point, and in random pieces;
/// `finalize_into_reset` leaves a fresh hash; a clone continues alone.
#[test]
fn pieces_and_reset() {
    let mut rng = Rng(0x5917);
    for b in backends() {
        for (d, n) in [(32, 130), (64, 260), (20, 64)] {
            let msg = rng.bytes(n);
            let want = hash(d, &msg, "reference");
            let mut core = Core::new(d, BackendChoice::Named(b)).expect("backend");
            let mut out = vec![0; d];
            for at in 0..=n {
                core.update(&msg[..at]);
                let copy = core.clone();
                core.update(&msg[at..]);
                core.finalize_into_reset(&mut out);
                assert_eq!(out, want, "{b}: split at {at} of {n}");
                let mut copy = copy;
                copy.update(&msg[at..]);
                copy.finalize_into_reset(&mut out);
                assert_eq!(out, want, "{b}: clone at {at} of {n}");
            }
            for piece in split(&mut rng, &msg) {
                core.update(piece);
            }
            core.finalize_into_reset(&mut out);
            assert_eq!(out, want, "{b}: random pieces");
            let key = rng.bytes(32);
            let mut m = Mac::new(32, &key, BackendChoice::Named(b)).expect("MAC");
            let whole = mac(32, &key, &msg, "reference");
            for _ in 0..2 {
                for piece in split(&mut rng, &msg) {
                    m.update(piece);
                }
                let mut tag = [0u8; 32];
                m.finalize_into_reset(&mut tag);
                assert_eq!(tag[..], whole[..], "{b}: MAC in pieces, then reset");
            }
        }
    }
}

#[test]
fn bad_parameters_are_errors() {
    assert!(matches!(Core::new(0, BackendChoice::Auto), Err(Error::Param(_))));
    assert!(matches!(Core::new(65, BackendChoice::Auto), Err(Error::Param(_))));
    assert!(matches!(Mac::new(33, &[0; 33], BackendChoice::Auto), Err(Error::Param(_))));
    assert!(matches!(Mac::new(32, &[0; 31], BackendChoice::Auto), Err(Error::KeyLength { expected: 32, got: 31, .. })));
    assert!(matches!(Core::new(32, BackendChoice::Named("nope")), Err(Error::UnknownBackend { .. })));
}

/// Many messages of mixed lengths, counts not a multiple of the lanes.
#[test]
fn digest_many_is_one_at_a_time() {
    let mut rng = Rng(0xa11);
    for b in backends() {
        for d in [32, 48, 20] {
            for count in [0, 1, 2, 3, 5, 7, 8, 9, 13] {
                let msgs: Vec<Vec<u8>> = (0..count).map(|_| { let n = rng.below(400); rng.bytes(n) }).collect();
                let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
                let got = digest_many(d, &refs, BackendChoice::Named(b)).expect("backend");
                for (m, g) in msgs.iter().zip(&got) {
                    assert_eq!(g, &hash(d, m, "reference"), "{b}: {d}-byte digests of {count} messages");
                }
            }
        }
    }
}

/// Many messages of several whole blocks each, so that a group runs the
/// blocks all its messages have in one call of the kernel, then the rest
/// block by block.
#[test]
fn digest_many_of_long_messages_is_one_at_a_time() {
    let mut rng = Rng(0x7564);
    for b in backends() {
        for d in [32, 48, 64] {
            for count in [2, 3, 5, 8, 9, 16] {
                let msgs: Vec<Vec<u8>> = (0..count).map(|_| { let n = 600 + rng.below(300); rng.bytes(n) }).collect();
                let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
                let got = digest_many(d, &refs, BackendChoice::Named(b)).expect("backend");
                for (m, g) in msgs.iter().zip(&got) {
                    assert_eq!(g, &hash(d, m, "reference"), "{b}: {d}-byte digests of {count} messages of {} bytes", m.len());
                }
            }
        }
    }
}

/// Many messages whose lengths (0, 1, 63, 64, 65, 200, 1000) mix in every
/// group, so groups shrink from 8 lanes through the row layout's minimum:
/// every count 1..=20 for some digest lengths (512- and 1024-bit states),
/// every digest length 1..=64 for two counts.
#[test]
fn digest_many_in_rows_is_one_at_a_time() {
    const LENGTHS: [usize; 7] = [0, 1, 63, 64, 65, 200, 1000];
    let mut rng = Rng(0x7564_2014);
    for b in backends().into_iter().filter(|&b| b == "avx512-gfni" || b == "portable") {
        let check = |d: usize, count: usize, rng: &mut Rng| {
            let msgs: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    let n = LENGTHS[rng.below(LENGTHS.len())];
                    rng.bytes(n)
                })
                .collect();
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            let got = digest_many(d, &refs, BackendChoice::Named(b)).expect("backend");
            assert_eq!(got.len(), count);
            for (k, (m, g)) in msgs.iter().zip(&got).enumerate() {
                assert_eq!(g, &hash(d, m, "reference"), "{b}: {d}-byte digest {k} of {count}, {} bytes", m.len());
            }
        };
        for d in [32, 20, 1, 64, 48, 33] {
            for count in 1..=20 {
                check(d, count, &mut rng);
            }
        }
        for d in 1..=64 {
            for count in [8, 13] {
                check(d, count, &mut rng);
            }
        }
    }
}

/// The row-layout kernel on the emulated machine against `reference`: 1 to
/// 8 states of 512 bits and 1 to 4 of 1024 bits over 0 to 3 blocks, and
/// the output transformation (of 4 random states the digests of 384 and
/// 512 bits are different slices of the same output). Besides random
/// messages, blocks of all 0x0F (T+'s first addition carries out of row 0
/// and every F0 row passes it on, to row 7), 0xFF and 0x00; T+'s carries
/// both by lookahead and rippling.
#[test]
fn rows_kernel_on_the_emulator() {
    use super::rows::{ways, Carries, CompressRows, Lookup, OutputRows};
    use super::job_on::On;
    use crate::simd::emu::Emu;
    use crate::simd::Job;
    let mut rng = Rng(0x7e5);
    let forms = [(Carries::Lookahead, Lookup::Halves), (Carries::Ripple, Lookup::Quarters), (Carries::Ripple, Lookup::Halves), (Carries::Lookahead, Lookup::Quarters)];
    for (cols, (carries, lookup)) in [8, 16].into_iter().flat_map(|c| forms.map(|f| (c, f))) {
        let bb = 8 * cols;
        for k in 1..=ways(cols) {
            for (blocks, fill) in (0..=3).flat_map(|b| [(b, None), (b, Some(0x0f)), (b, Some(0xff)), (b, Some(0x00))]) {
                let mut states: Vec<State> = (0..k).map(|_| rng.bytes(128).try_into().expect("128")).collect();
                let msgs: Vec<Vec<u8>> = (0..k)
                    .map(|_| match fill {
                        None => rng.bytes(bb * blocks),
                        Some(b) => vec![b; bb * blocks],
                    })
                    .collect();
                let mut want = states.clone();
                for (s, m) in want.iter_mut().zip(&msgs) {
                    (reference::KERNEL.compress)(cols, s, m);
                }
                let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
                On(Emu::<64>, CompressRows { cols, states: &mut states, blocks: &refs, carries, lookup }).run();
                for q in 0..k {
                    assert_eq!(states[q][..bb], want[q][..bb], "{cols} columns, {carries:?}, {lookup:?}: state {q} of {k}, {blocks} blocks, fill {fill:?}");
                }
            }
            let mut hs: Vec<State> = (0..k).map(|_| rng.bytes(128).try_into().expect("128")).collect();
            let mut want = hs.clone();
            for w in want.iter_mut() {
                (reference::KERNEL.output)(cols, w);
            }
            On(Emu::<64>, OutputRows { cols, states: &mut hs }).run();
            for q in 0..k {
                assert_eq!(hs[q][..bb], want[q][..bb], "{cols} columns: output of state {q} of {k}");
            }
        }
    }
}

/// Whole digests through the row-layout kernel on the emulated machine
/// (padding, compressions and the output transformation as `digest_many`
/// runs them), against `reference`: Kupyna-384 and -512 of 1 to 4
/// messages of one length, 0 to 300 bytes.
#[test]
fn rows_kernel_digests_on_the_emulator() {
    use super::rows::{Carries, CompressRows, Lookup, OutputRows};
    use super::job_on::On;
    use crate::simd::emu::Emu;
    use crate::simd::Job;
    let mut rng = Rng(0x1024);
    for d in [48, 64] {
        let cols = cols_for(d);
        let bb = 8 * cols;
        for len in [0, 1, 115, 116, 127, 128, 300] {
            for k in 1..=4 {
                let msgs: Vec<Vec<u8>> = (0..k).map(|_| rng.bytes(len)).collect();
                let mut tails = vec![[0u8; 256]; k];
                let mut padded = Vec::new();
                for (m, t) in msgs.iter().zip(tails.iter_mut()) {
                    let whole = len / bb * bb;
                    let n = pad_tail(&m[whole..], len as u128, bb, t);
                    padded.push([&m[..whole], &t[..n]].concat());
                }
                let mut states = vec![initial_state(cols); k];
                let refs: Vec<&[u8]> = padded.iter().map(Vec::as_slice).collect();
                let (carries, lookup) = (Carries::for_core(crate::cpu::core()), Lookup::for_core(crate::cpu::core()));
                On(Emu::<64>, CompressRows { cols, states: &mut states, blocks: &refs, carries, lookup }).run();
                On(Emu::<64>, OutputRows { cols, states: &mut states }).run();
                for (q, m) in msgs.iter().enumerate() {
                    assert_eq!(states[q][bb - d..bb], hash(d, m, "reference")[..], "{d}-byte digest {q} of {k}, {len} bytes");
                }
            }
        }
    }
}

/// The AVX-512 kernel on the emulated machine (so on any CPU) against
/// `reference`: compressions of 1 to 4 lanes and several blocks, and the
/// output transformation, for both state sizes, in the forms of every
/// class of core.
#[test]
fn avx512_kernel_on_the_emulator() {
    use super::avx512_gfni::{Compress, Output};
    use super::job_on::On;
    use crate::cpu::Core;
    use crate::simd::emu::Emu;
    use crate::simd::Job;
    let mut rng = Rng(0xe3);
    for (cols, core) in [8, 16].into_iter().flat_map(|c| [(c, Core::Intel), (c, Core::AmdHalfZmm), (c, Core::AmdFullZmm)]) {
        let bb = 8 * cols;
        for lanes in 1..=4 {
            let mut states: Vec<State> = (0..lanes).map(|_| rng.bytes(128).try_into().expect("128")).collect();
            let blocks: Vec<Vec<u8>> = (0..lanes).map(|_| rng.bytes(2 * bb)).collect();
            let mut want = states.clone();
            for (s, b) in want.iter_mut().zip(&blocks) {
                (reference::KERNEL.compress)(cols, s, b);
            }
            let refs: Vec<&[u8]> = blocks.iter().map(Vec::as_slice).collect();
            On(Emu::<64>, Compress { cols, states: &mut states, blocks: &refs, core }).run();
            for k in 0..lanes {
                assert_eq!(states[k][..bb], want[k][..bb], "{cols} columns, {core:?}, lane {k} of {lanes}");
            }
        }
        let mut h: State = rng.bytes(128).try_into().expect("128");
        let mut want = h;
        (reference::KERNEL.output)(cols, &mut want);
        On(Emu::<64>, Output { cols, states: std::slice::from_mut(&mut h), core }).run();
        assert_eq!(h[..bb], want[..bb], "output, {cols} columns, {core:?}");
        let mut hs: Vec<State> = (0..3).map(|_| rng.bytes(128).try_into().expect("128")).collect();
        let mut want = hs.clone();
        for w in want.iter_mut() {
            (reference::KERNEL.output)(cols, w);
        }
        On(Emu::<64>, Output { cols, states: &mut hs, core }).run();
        for k in 0..3 {
            assert_eq!(hs[k][..bb], want[k][..bb], "output of 3 lanes, lane {k}, {cols} columns, {core:?}");
        }
    }
}

/// One message on the emulated AVX-512 machine against `reference`, both
/// state sizes, every block count from 0 to 3 runs of `rows::ways(cols)`
/// and a rest: from two runs on, T+ comes from the row layout between the
/// rounds of T⊕ (`avx512_gfni::one_message`), and the rest, or a shorter
/// message, runs T⊕ and T+ side by side. Blocks of all 0xFF make T+'s
/// additions carry across every row. In the forms of every class of core
/// (T+'s carries in rows by lookahead and rippling, SubBytes' selects
/// blended and bitwise).
#[test]
fn avx512_one_message_runs_on_the_emulator() {
    use super::avx512_gfni::Compress;
    use super::job_on::On;
    use super::rows::ways;
    use crate::cpu::Core;
    use crate::simd::emu::Emu;
    use crate::simd::Job;
    let mut rng = Rng(0x0051_2e01);
    for (cols, core) in [8, 16].into_iter().flat_map(|c| [(c, Core::Intel), (c, Core::AmdHalfZmm)]) {
        let bb = 8 * cols;
        for blocks in 0..=3 * ways(cols) + ways(cols) - 1 {
            for fill in [None, Some(0xff)] {
                let h: State = rng.bytes(128).try_into().expect("128");
                let msg = match fill {
                    None => rng.bytes(bb * blocks),
                    Some(b) => vec![b; bb * blocks],
                };
                let mut want = h;
                (reference::KERNEL.compress)(cols, &mut want, &msg);
                let mut got = [h];
                On(Emu::<64>, Compress { cols, states: &mut got, blocks: &[&msg], core }).run();
                assert_eq!(got[0][..bb], want[..bb], "{cols} columns, {core:?}, {blocks} blocks, fill {fill:?}");
            }
        }
    }
}

/// The ymm kernels (GFNI products and doublings; the compression in rows)
/// on the emulated 32-byte machine, and the column-layout code on the
/// emulated 16-byte machine with T⊕ and T+ in two register sets (the
/// `ssse3` kernel; its output transformation T⊕ alone in one), against
/// `reference`: several blocks, and the output transformation, for both
/// state sizes.
#[cfg(target_arch = "x86_64")]
#[test]
fn avx2_and_ssse3_kernels_on_the_emulator() {
    use super::avx2::{ByDoubling, ByGfni, Compress, Output};
    use super::job_on::On;
    use super::ymm_rows::CompressInRows;
    use crate::simd::emu::Emu;
    use crate::simd::Job;
    use core::marker::PhantomData;
    let mut rng = Rng(0xa42);
    for cols in [8, 16] {
        let bb = 8 * cols;
        for blocks in 0..=3 {
            let h: State = rng.bytes(128).try_into().expect("128");
            let msg = rng.bytes(blocks * bb);
            let mut want = h;
            (reference::KERNEL.compress)(cols, &mut want, &msg);
            let (mut g, mut d, mut x) = (h, h, h);
            On(Emu::<32>, CompressInRows::<ByGfni> { cols, h: &mut g, blocks: &msg, mix: PhantomData }).run();
            On(Emu::<32>, CompressInRows::<ByDoubling> { cols, h: &mut d, blocks: &msg, mix: PhantomData }).run();
            On(Emu::<16>, Compress::<ByDoubling, 2> { cols, h: &mut x, blocks: &msg, products: PhantomData }).run();
            assert_eq!(g[..bb], want[..bb], "GFNI products, {cols} columns, {blocks} blocks");
            assert_eq!(d[..bb], want[..bb], "doublings, {cols} columns, {blocks} blocks");
            assert_eq!(x[..bb], want[..bb], "16-byte registers, {cols} columns, {blocks} blocks");
        }
        let h: State = rng.bytes(128).try_into().expect("128");
        let mut want = h;
        (reference::KERNEL.output)(cols, &mut want);
        let (mut g, mut d, mut x) = (h, h, h);
        On(Emu::<32>, Output::<ByGfni, 1> { cols, h: &mut g, products: PhantomData }).run();
        On(Emu::<32>, Output::<ByDoubling, 1> { cols, h: &mut d, products: PhantomData }).run();
        On(Emu::<16>, Output::<ByDoubling, 1> { cols, h: &mut x, products: PhantomData }).run();
        assert_eq!(g[..bb], want[..bb], "output, GFNI products, {cols} columns");
        assert_eq!(d[..bb], want[..bb], "output, doublings, {cols} columns");
        assert_eq!(x[..bb], want[..bb], "output, 16-byte registers, {cols} columns");
    }
}

/// `digest_many`'s pairs of 512-bit states on the AVX2 kernels (one per
/// register set, two blocks each) on the emulated 32-byte machine, with
/// GFNI products and with doublings, against `reference`. The output
/// transformations' packed layouts have their tests in `ymm_rows.rs`.
#[cfg(target_arch = "x86_64")]
#[test]
fn avx2_pair_kernel_on_the_emulator() {
    use super::avx2::{ByDoubling, ByGfni};
    use super::job_on::On;
    use super::ymm_rows::{CompressPairInRows, RowMix};
    use crate::simd::emu::Emu;
    use crate::simd::Job;
    use core::marker::PhantomData;
    fn check<P: RowMix<Emu<32>>>(rng: &mut Rng, what: &str) {
        let (h0, h1): (State, State) = (rng.bytes(128).try_into().expect("128"), rng.bytes(128).try_into().expect("128"));
        let (m0, m1) = (rng.bytes(128), rng.bytes(128));
        let (mut w0, mut w1) = (h0, h1);
        (reference::KERNEL.compress)(8, &mut w0, &m0);
        (reference::KERNEL.compress)(8, &mut w1, &m1);
        let (mut g0, mut g1) = (h0, h1);
        On(Emu::<32>, CompressPairInRows::<P> { states: [&mut g0, &mut g1], blocks: [&m0, &m1], mix: PhantomData }).run();
        assert_eq!((g0[..64].to_vec(), g1[..64].to_vec()), (w0[..64].to_vec(), w1[..64].to_vec()), "compress pair, {what}");
    }
    let mut rng = Rng(0xa43);
    for _ in 0..3 {
        check::<ByGfni>(&mut rng, "GFNI products");
        check::<ByDoubling>(&mut rng, "doublings");
    }
}

/// The NEON kernel on the emulated 16-byte machine (so on any CPU) against
/// `reference`: several blocks, and the output transformation, for both
/// state sizes.
#[test]
fn neon_kernel_on_the_emulator() {
    use super::neon::{Compress, Output};
    use crate::simd::emu::Emu;
    use crate::simd::Job;
    let mut rng = Rng(0x4e0);
    for cols in [8, 16] {
        let bb = 8 * cols;
        for blocks in 0..=3 {
            let mut h: State = rng.bytes(128).try_into().expect("128");
            let msg = rng.bytes(blocks * bb);
            let mut want = h;
            (reference::KERNEL.compress)(cols, &mut want, &msg);
            Compress { m: Emu::<16>, cols, h: &mut h, blocks: &msg }.run();
            assert_eq!(h[..bb], want[..bb], "{cols} columns, {blocks} blocks");
        }
        let mut h: State = rng.bytes(128).try_into().expect("128");
        let mut want = h;
        (reference::KERNEL.output)(cols, &mut want);
        Output { m: Emu::<16>, cols, h: &mut h }.run();
        assert_eq!(h[..bb], want[..bb], "output, {cols} columns");
    }
}

/// On aarch64 the tests above run the `neon` backend, the default.
#[cfg(target_arch = "aarch64")]
#[test]
fn neon_is_tested_and_the_default_on_aarch64() {
    assert!(backends().contains(&"neon"), "{:?}", backends());
    let core = Core::new(32, BackendChoice::Auto).expect("default");
    assert_eq!(core.backend().name, "neon");
}

/// Where the CPU has AVX2 (and GFNI), the tests above run the ymm backends.
#[cfg(target_arch = "x86_64")]
#[test]
fn ymm_backends_are_tested_where_the_cpu_has_them() {
    let cpu = crate::cpu::CpuFeatures::get();
    let have = backends();
    if cpu.avx2 {
        assert!(have.contains(&"avx2"), "{have:?}");
    }
    if cpu.avx2 && cpu.gfni {
        assert!(have.contains(&"avx2-gfni"), "{have:?}");
    }
}

/// Cycles per byte (TSC) of every backend and the two peers: one long
/// message, 64-byte messages one at a time, and many 64-byte and 1 KiB
/// messages through `digest_many`. `cargo test --release -- --ignored
/// --nocapture kupyna_speed`.
#[test]
#[ignore]
fn kupyna_speed() {
    fn best(reps: usize, bytes: usize, f: impl FnMut()) -> f64 {
        crate::hazmat::best_ticks(reps, f) as f64 / bytes as f64
    }
    // Small timing samples, best of many: the machine is shared, and a
    // long sample is rarely free of preemption.
    let long = vec![0x5au8; 1 << 20];
    let short: Vec<Vec<u8>> = (0..64).map(|i| vec![i as u8; 64]).collect();
    let short_refs: Vec<&[u8]> = short.iter().map(Vec::as_slice).collect();
    let kib: Vec<Vec<u8>> = (0..16).map(|i| vec![i as u8; 1024]).collect();
    let kib_refs: Vec<&[u8]> = kib.iter().map(Vec::as_slice).collect();
    for d in [32, 64] {
        println!("Kupyna-{} (TSC cycles/byte: 1 MiB | 64 B one by one | 64 × 64 B many | 16 × 1 KiB many)", 8 * d);
        for b in backends() {
            let reps = if b == "reference" { 2 } else { 15 };
            let small = if b == "reference" { 3 } else { 300 };
            let mut out = vec![0u8; d];
            let one = best(reps, long.len(), || {
                let mut c = Core::new(d, BackendChoice::Named(b)).expect("backend");
                c.update(&long);
                c.finalize_into_reset(&mut out);
            });
            let sixty_four = best(small, 64 * short.len(), || {
                for m in &short {
                    let mut c = Core::new(d, BackendChoice::Named(b)).expect("backend");
                    c.update(m);
                    c.finalize_into_reset(&mut out);
                }
            });
            let many = best(small, 64 * short.len(), || {
                digest_many(d, &short_refs, BackendChoice::Named(b)).expect("backend");
            });
            let many_kib = best(small, 1024 * kib.len(), || {
                digest_many(d, &kib_refs, BackendChoice::Named(b)).expect("backend");
            });
            println!("  {b:12} {one:7.2} {sixty_four:7.2} {many:7.2} {many_kib:7.2}");
        }
        let rc = |m: &[u8]| if d == 32 { kupyna::Kupyna256::digest(m).to_vec() } else { kupyna::Kupyna512::digest(m).to_vec() };
        let dc = |m: &[u8]| {
            if d == 32 {
                dstu_core::hazmat::kupyna::Kupyna256::digest(m).to_vec()
            } else {
                dstu_core::hazmat::kupyna::Kupyna512::digest(m).to_vec()
            }
        };
        for (name, f) in [("rustcrypto", &rc as &dyn Fn(&[u8]) -> Vec<u8>), ("dstu-core", &dc)] {
            let one = best(15, long.len(), || {
                std::hint::black_box(f(&long));
            });
            let sixty_four = best(300, 64 * short.len(), || {
                for m in &short {
                    std::hint::black_box(f(m));
                }
            });
            println!("  {name:12} {one:7.2} {sixty_four:7.2}");
        }
    }
}

/// Ticks of one call of each kernel function on one block (best of many).
#[test]
#[ignore]
fn kupyna_call_cost() {
    use crate::hazmat::ticks;
    for b in backends() {
        let k = (crate::backend::select(NAME, BACKENDS, BackendChoice::Named(b)).expect("backend").new)(&());
        for cols in [8, 16] {
            let mut h = [7u8; 128];
            let blk = [1u8; 128];
            let (mut c, mut o, mut n) = (u64::MAX, u64::MAX, u64::MAX);
            for _ in 0..2000 {
                let t = ticks();
                (k.compress)(cols, &mut h, &blk[..8 * cols]);
                let t2 = ticks();
                (k.output)(cols, &mut h);
                let t3 = ticks();
                let mut core = Core::new(8 * cols / 2, BackendChoice::Named(b)).expect("backend");
                let t4 = ticks();
                core.update(&blk[..1]);
                c = c.min(t2 - t);
                o = o.min(t3 - t2);
                n = n.min(t4 - t3);
            }
            let (mut whole, mut upd, mut fin) = (u64::MAX, u64::MAX, u64::MAX);
            let mut out = vec![0u8; 4 * cols];
            for _ in 0..2000 {
                let t = ticks();
                let mut core = Core::new(4 * cols, BackendChoice::Named(b)).expect("backend");
                let t1 = ticks();
                core.update(&blk[..64]);
                let t2 = ticks();
                core.finalize_into_reset(&mut out);
                let t3 = ticks();
                drop(core);
                let t4 = ticks();
                whole = whole.min(t4 - t);
                upd = upd.min(t2 - t1);
                fin = fin.min(t3 - t2);
            }
            println!("{b:12} cols {cols}: compress {c}, output {o}, Core::new {n}; 64-byte message {whole} (update {upd}, finalize {fin}) ticks");
        }
    }
}

/// Ticks of the compressions of 1 to 8 states of 1024 bits (16 blocks
/// each) in the row layout and in the natural one (runs of up to 4 each),
/// to place `avx512_gfni::ROWS_FROM_1024`. `cargo test --release --
/// --ignored --nocapture kupyna_rows_from`.
#[cfg(target_arch = "x86_64")]
#[test]
#[ignore]
fn kupyna_rows_from() {
    use super::avx512_gfni::{Compress, LANES};
    use super::job_on::On;
    use super::rows::{ways, Carries, CompressRows, Lookup};
    use crate::simd::{Avx512Gfni, Machine, Zmm};
    let Some(m) = Zmm::<Avx512Gfni>::detect() else {
        println!("no avx512-gfni");
        return;
    };
    let blocks: Vec<Vec<u8>> = (0..8).map(|i| vec![i as u8; 16 * 128]).collect();
    let refs: Vec<&[u8]> = blocks.iter().map(Vec::as_slice).collect();
    let mut states = vec![initial_state(16); 8];
    for k in 1..=8 {
        let rows = crate::hazmat::best_ticks(200, || {
            for (s, b) in states[..k].chunks_mut(ways(16)).zip(refs[..k].chunks(ways(16))) {
                m.vectorize(On(m, CompressRows { cols: 16, states: s, blocks: b, carries: Carries::for_core(crate::cpu::core()), lookup: Lookup::for_core(crate::cpu::core()) }));
            }
        });
        let natural = crate::hazmat::best_ticks(200, || {
            for (s, b) in states[..k].chunks_mut(LANES).zip(refs[..k].chunks(LANES)) {
                m.vectorize(On(m, Compress { cols: 16, states: s, blocks: b, core: crate::cpu::core() }));
            }
        });
        println!("{k} states x 16 blocks of 128 bytes: rows {rows}, natural {natural} ticks");
    }
}
