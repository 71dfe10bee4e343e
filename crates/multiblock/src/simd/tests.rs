//! Every operation of every machine this CPU runs equals the emulator's
//! (written from the SDM) on random registers; the emulator in turn carries
//! the AVX-512 kernels' tests to CPUs without AVX-512.

use super::emu::Emu;
use super::*;
use crate::test_rng::Rng;

/// Compares `$op` (an expression over machine `$m` and registers a, b, c)
/// on the machine and on the emulator.
macro_rules! same {
    ($m:ident, $n:literal, $rng:ident, |$mm:ident, $a:ident, $b:ident, $c:ident| $op:expr) => {{
        let raw: [[u8; $n]; 3] = core::array::from_fn(|_| core::array::from_fn(|_| $rng.next() as u8));
        let got = {
            let $mm = $m;
            let ($a, $b, $c) = ($mm.load(&raw[0]), $mm.load(&raw[1]), $mm.load(&raw[2]));
            let mut out = [0u8; $n];
            $mm.store($op, &mut out);
            out
        };
        let want = {
            let $mm = Emu::<$n>;
            let ($a, $b, $c) = (raw[0], raw[1], raw[2]);
            $op
        };
        assert_eq!(got, want, "{} on {:?}", stringify!($op), raw);
    }};
}

macro_rules! check_simd {
    ($m:ident, $n:literal, $rng:ident) => {
        for _ in 0..50 {
            same!($m, $n, $rng, |m, a, b, c| m.xor3(a, b, m.xor(c, m.and(a, m.or(b, m.andnot(c, a))))));
            same!($m, $n, $rng, |m, a, b, _c| m.add8(m.sub8(a, b), m.add32(b, m.add64(a, m.sub64(b, a)))));
            same!($m, $n, $rng, |m, a, b, _c| m.or(m.eq8(a, m.splat8(7)), m.gt8(a, b)));
            same!($m, $n, $rng, |m, a, _b, _c| m.and(a, m.splat8_opaque(0x3c)));
            same!($m, $n, $rng, |m, a, _b, _c| m.xor(m.shl16::<3>(a), m.shr16::<4>(m.splat32(0xdead_beef))));
            same!($m, $n, $rng, |m, a, b, _c| m.xor3(m.shl32::<5>(a), m.shr32::<7>(b), m.rotl32::<11>(a)));
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.shl64::<9>(a), m.shr64::<13>(m.add64(b, m.splat64(1)))));
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.rotl64::<8>(a), m.rotl64::<61>(b)));
            same!($m, $n, $rng, |m, a, b, _c| m.shuffle8(a, b));
            same!($m, $n, $rng, |m, a, _b, _c| m.xor(m.shuffle32::<0x4e>(a), m.shuffle32::<0x1b>(a)));
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.unpack_lo::<1>(a, b), m.unpack_hi::<2>(a, b)));
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.unpack_lo::<4>(a, b), m.unpack_hi::<8>(a, b)));
            same!($m, $n, $rng, |m, a, b, c| m.xor(m.blendv(a, b, c), m.blend32::<0b0110>(a, b)));
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.maddubs(a, b), m.packus16(b, a)));
            same!($m, $n, $rng, |m, a, _b, _c| m.xor(m.splat128(&[9; 16]), m.add8(a, m.zero())));
            same!($m, $n, $rng, |m, a, _b, _c| m.splat64(m.low64(m.shuffle32::<0x4e>(a))));
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.blend16::<0x55>(a, b), m.blend16::<0xc3>(b, a)));
            // Kalyna's operations.
            same!($m, $n, $rng, |m, a, b, c| m.xor(m.add8_opaque(a, b), m.blendv_opaque(b, c, a)));
            same!($m, $n, $rng, |m, a, b, _c| {
                let mut buf = [0x5au8; 2 * $n];
                m.store_lanes(a, &mut buf, 24);
                m.xor(b, m.load_lanes(&buf[8..], 24))
            });
            // uBlock
            same!($m, $n, $rng, |m, a, b, c| m.or(m.shuffle8_opaque(a, b), m.shuffle8_opaque(c, a)));
            same!($m, $n, $rng, |m, a, b, _c| {
                let mut lanes = [0u8; 16 * ($n / 16)];
                m.store(b, &mut lanes);
                let mut v = a;
                for l in 0..$n / 16 {
                    let mut lane = [0u8; 16];
                    m.store_lane(a, $n / 16 - 1 - l, &mut lane);
                    v = m.load_lane(v, l, &lane);
                }
                m.xor(v, m.load_lane(b, 0, &lanes[16 * ($n / 16 - 1)..]))
            });
        }
    };
}

/// GFNI, VBMI and the AVX-512 mask operations.
#[allow(unused_macros)] // x86-64 only
macro_rules! check_extensions {
    ($m:ident, $n:literal, $rng:ident) => {
        check_affine!($m, $n, $rng);
        for _ in 0..50 {
            same!($m, $n, $rng, |m, a, b, c| m.xor(m.permb(a, b), m.permi2b(a, c, b)));
            same!($m, $n, $rng, |m, a, b, c| m.xor(m.ternlog::<0xd8>(a, b, c), m.ternlog::<0x96>(c, b, a)));
            same!($m, $n, $rng, |m, a, b, c| m.xor(m.select_bit::<7>(a, b, c), m.select_bit::<6>(c, a, b)));
            same!($m, $n, $rng, |m, a, b, c| m.shuffle8_masked(a, 0xaaaa_aaaa_aaaa_aaaa, b, c));
            same!($m, $n, $rng, |m, a, b, c| m.permi2q(a, b, c));
            same!($m, $n, $rng, |m, a, b, c| m.add8_masked(a, m.lt8u(b, c) ^ 0x5555_5555_5555_5555, b, c));
            same!($m, $n, $rng, |m, a, b, c| m.add8_masked(c, m.lt8u(a, m.and(a, b)), b, a));
            same!($m, $n, $rng, |m, a, b, c| m.permb_masked(a, m.test8(b, c), c, b));
            same!($m, $n, $rng, |m, a, b, c| m.permb_masked(c, m.test8(a, m.splat8(0x40)), b, a));
        }
        // Masked moves of every length, inside a buffer whose other bytes must not change.
        for len in 0..=$n {
            same!($m, $n, $rng, |m, a, b, _c| {
                let mut buf = [0xa5u8; $n + 2];
                m.store(b, &mut buf[1..]);
                m.store_prefix(a, &mut buf[1..1 + len]);
                m.xor(m.load(&buf[1..]), m.load_prefix(&buf[2 + len..]))
            });
        }
    };
}

fn rng() -> Rng {
    Rng(0x51_3d)
}

/// For each machine (token type, bytes, checks): if the CPU runs it, every
/// operation of the listed kinds against the emulator.
macro_rules! machines {
    ($($test:ident: $token:ty, $n:literal, [$($check:ident),+];)*) => {
        $(
            #[test]
            fn $test() {
                let mut rng = rng();
                if let Some(m) = <$token>::detect() {
                    $($check!(m, $n, rng);)+
                }
            }
        )*
    };
}

/// The GFNI of AVX2 machines without AVX-512.
#[allow(unused_macros)] // x86-64 only
macro_rules! check_affine {
    ($m:ident, $n:literal, $rng:ident) => {
        for _ in 0..50 {
            same!($m, $n, $rng, |m, a, _b, _c| m.affine(a, 0x8040_2010_0804_0201 ^ 0x1234));
            same!($m, $n, $rng, |m, a, b, _c| m.mul(b, a));
            same!($m, $n, $rng, |m, a, b, _c| m.affine_lanes(a, b));
            same!($m, $n, $rng, |m, a, _b, _c| m.affine_inverse(a, 0x8040_2010_0804_0201 ^ 0x5678));
        }
        // The inverse's 0 ↦ 0 and 1 ↦ 1 (random bytes seldom hit them).
        same!($m, $n, $rng, |m, a, _b, _c| m.affine_inverse(m.and(a, m.splat8(1)), 0x8040_2010_0804_0201));
    };
}

/// `pminub`.
#[allow(unused_macros)] // x86-64 only
macro_rules! check_min {
    ($m:ident, $n:literal, $rng:ident) => {
        for _ in 0..50 {
            same!($m, $n, $rng, |m, a, b, _c| m.min8u(a, m.xor(b, m.and(a, m.splat8(0x0f)))));
        }
    };
}

/// The cross-lane moves of 256-bit registers.
#[allow(unused_macros)] // x86-64 only
macro_rules! check_cross_lanes {
    ($m:ident, $n:literal, $rng:ident) => {
        for _ in 0..50 {
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.lanes_between(a, b), m.permute64::<0xd8>(b)));
            same!($m, $n, $rng, |m, a, _b, _c| m.xor(m.permute64::<0x1b>(a), m.permute64::<0x4e>(m.shl64::<1>(a))));
            // Any index words, the high bits of each ignored.
            same!($m, $n, $rng, |m, a, b, _c| m.permute32(a, b));
        }
    };
}

/// `pclmulqdq` with each of its four selections.
#[allow(unused_macros)] // x86-64 only
macro_rules! check_clmul {
    ($m:ident, $n:literal, $rng:ident) => {
        for _ in 0..50 {
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.clmul::<0x00>(a, b), m.shl64::<1>(m.clmul::<0x11>(b, a))));
            same!($m, $n, $rng, |m, a, b, _c| m.clmul::<0x01>(a, b));
            same!($m, $n, $rng, |m, a, b, _c| m.clmul::<0x10>(a, b));
            same!($m, $n, $rng, |m, a, _b, _c| m.clmul::<0x11>(a, m.splat64(u64::MAX)));
        }
    };
}

/// The 256-entry register lookups.
#[allow(unused_macros)] // aarch64 only
macro_rules! check_table256 {
    ($m:ident, $n:literal, $rng:ident) => {
        let table: [u8; 256] = core::array::from_fn(|_| $rng.next() as u8);
        for _ in 0..50 {
            same!($m, $n, $rng, |m, a, _b, _c| m.lookup256(&table, a));
        }
    };
}

/// The aarch64 moves: `TBL` (indices of every value, those ≥ 16 included),
/// `TRN1`/`TRN2` of each element width, byte shifts.
#[allow(unused_macros)] // aarch64 only
macro_rules! check_interleave {
    ($m:ident, $n:literal, $rng:ident) => {
        for _ in 0..50 {
            same!($m, $n, $rng, |m, a, b, c| m.xor(m.tbl(a, b), m.tbl(c, m.shr8::<3>(b))));
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.trn1::<1>(a, b), m.shl16::<1>(m.trn2::<1>(a, b))));
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.trn1::<2>(a, b), m.shl16::<1>(m.trn2::<2>(a, b))));
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.trn1::<4>(a, b), m.shl16::<1>(m.trn2::<4>(a, b))));
            same!($m, $n, $rng, |m, a, b, _c| m.xor(m.trn1::<8>(a, b), m.shl16::<1>(m.trn2::<8>(a, b))));
            same!($m, $n, $rng, |m, a, _b, _c| m.xor(m.shr8::<1>(a), m.shl16::<8>(m.shr8::<7>(a))));
        }
    };
}

#[cfg(target_arch = "aarch64")]
machines! {
    neon: Neon, 16, [check_simd, check_table256, check_interleave];
}

#[cfg(target_arch = "x86_64")]
machines! {
    xmm_ssse3: Xmm<Ssse3>, 16, [check_simd, check_min];
    xmm_pclmul: Xmm<Pclmul>, 16, [check_simd, check_clmul];
    xmm_avx2: Xmm<Avx2>, 16, [check_simd, check_min];
    xmm_avx2_gfni: Xmm<Avx2Gfni>, 16, [check_affine];
    xmm_avx512: Xmm<Avx512Gfni>, 16, [check_simd, check_extensions];
    ymm_avx2: Ymm<Avx2>, 32, [check_simd, check_cross_lanes, check_min];
    ymm_avx2_gfni: Ymm<Avx2Gfni>, 32, [check_affine, check_cross_lanes, check_min];
    ymm_avx512: Ymm<Avx512Gfni>, 32, [check_simd, check_extensions];
    zmm_avx512bw: Zmm<Avx512Bw>, 64, [check_simd];
    zmm_avx512: Zmm<Avx512Gfni>, 64, [check_simd, check_extensions];
}

#[test]
fn affine_byte_is_the_identity_for_the_identity_matrix() {
    for x in 0..=255u8 {
        assert_eq!(emu::affine_byte(AFFINE_IDENTITY, x), x);
    }
}

/// The emulated `vgf2p8mulb` on FIPS-197's worked example ({57}·{83} = {c1},
/// §4.2) and the identity, so a CPU without GFNI still checks the emulator.
#[test]
fn emulated_gf2p8mulb_matches_fips_197() {
    let m = Emu::<16>;
    let mut a = [0u8; 16];
    let mut b = [0u8; 16];
    a[0] = 0x57;
    b[0] = 0x83;
    a[1] = 0xd5;
    b[1] = 1;
    let p = m.mul(a, b);
    assert_eq!((p[0], p[1]), (0xc1, 0xd5));
    // FIPS-197 §5.1.1: S-box({53}) = {ed}, the inverse {ca} through its affine map.
    a[0] = 0x53;
    let aes_affine = 0xf1e3_c78f_1f3e_7cf8;
    assert_eq!(m.affine_inverse(a, aes_affine)[0] ^ 0x63, 0xed);
}

/// The emulated `pclmulqdq` on known products, so a CPU without it still
/// checks the emulator: (1 + x)² = 1 + x², x^63 · x^63 = x^126, and
/// x^63 · (1 + x) = x^63 + x^64, one per selection.
#[test]
fn emulated_pclmulqdq_known_products() {
    let m = Emu::<16>;
    let two = |lo: u64, hi: u64| {
        let mut r = [0u8; 16];
        r[..8].copy_from_slice(&lo.to_le_bytes());
        r[8..].copy_from_slice(&hi.to_le_bytes());
        r
    };
    // a = (lo 1 + x, hi x^63), b = (lo x^63, hi 1 + x).
    let (a, b) = (two(3, 1 << 63), two(1 << 63, 3));
    assert_eq!(m.clmul::<0x00>(a, a), two(5, 0));
    assert_eq!(m.clmul::<0x01>(a, b), two(0, 1 << 62));
    assert_eq!(m.clmul::<0x10>(a, b), two(5, 0));
    assert_eq!(m.clmul::<0x11>(a, b), two(1 << 63, 1));
}

/// `Narrow::low_half` and `widen`: the low half kept both ways (the
/// widened register's high half is unspecified on x86, so not compared).
fn check_halves<M: Narrow>(m: M, rng: &mut Rng) {
    let (n, h) = (M::BYTES, M::BYTES / 2);
    for _ in 0..20 {
        let raw: [u8; 64] = core::array::from_fn(|_| rng.next() as u8);
        let mut low = [0u8; 32];
        m.half().store(m.low_half(m.load(&raw)), &mut low);
        assert_eq!(low[..h], raw[..h]);
        let mut wide = [0u8; 64];
        m.store(m.widen(m.half().load(&raw)), &mut wide);
        assert_eq!(wide[..h], raw[..h], "{n}-byte widen");
    }
}

#[test]
fn halves_keep_the_low_half() {
    let mut rng = rng();
    check_halves(Emu::<64>, &mut rng);
    check_halves(Emu::<32>, &mut rng);
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(m) = Zmm::<Avx512Gfni>::detect() {
            check_halves(m, &mut rng);
        }
        if let Some(m) = Ymm::<Avx2>::detect() {
            check_halves(m, &mut rng);
        }
    }
}

/// The emulated `TRN1`/`TRN2` and `TBL` on known values, so an x86 CPU
/// still checks the emulator: three rounds of `TRN` (byte, 16-bit and
/// 32-bit elements, registers r and r + 1, r + 2, r + 4) transpose the
/// 8×8 byte matrices held in the low and in the high halves of 8
/// registers; `TBL` reads its table for indices below 16, else gives 0.
#[test]
fn emulated_trn_transposes_and_tbl_zeroes() {
    let m = Emu::<16>;
    let mut r: [[u8; 16]; 8] = core::array::from_fn(|j| core::array::from_fn(|s| (16 * j + s) as u8));
    for (w, bit) in [(1, 1), (2, 2), (4, 4)] {
        for j in 0..8 {
            if j & bit == 0 {
                let (a, b) = (r[j], r[j + bit]);
                (r[j], r[j + bit]) = match w {
                    1 => (m.trn1::<1>(a, b), m.trn2::<1>(a, b)),
                    2 => (m.trn1::<2>(a, b), m.trn2::<2>(a, b)),
                    _ => (m.trn1::<4>(a, b), m.trn2::<4>(a, b)),
                };
            }
        }
    }
    for (j, reg) in r.iter().enumerate() {
        for (s, &byte) in reg.iter().enumerate() {
            // Register j, slot 8h + w ← register w, slot 8h + j.
            assert_eq!(byte, (16 * (s % 8) + 8 * (s / 8) + j) as u8, "register {j}, slot {s}");
        }
    }
    let table: [u8; 16] = core::array::from_fn(|i| 0xa0 + i as u8);
    let idx: [u8; 16] = [0, 15, 16, 0x80, 0x8f, 3, 255, 7, 1, 2, 17, 14, 0x0f, 0x10, 9, 4];
    let want: [u8; 16] = core::array::from_fn(|i| if idx[i] < 16 { 0xa0 + idx[i] } else { 0 });
    assert_eq!(m.tbl(table, idx), want);
    assert_eq!(m.shr8::<4>([0xf7; 16]), [0x0f; 16]);
}
