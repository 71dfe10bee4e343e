//! The `avx2` backend: constant-time Kalyna on AVX2 (no secret-indexed
//! memory, no secret branches), all five variants, both directions.
//!
//! Layout ("row-sliced"). The message is cut into 64-byte chunks (4, 2 or 1
//! blocks). A chunk's state is 8 rows × 8 columns (the columns of all its
//! blocks side by side); it lives in four 16-byte lanes, lane a holding row a
//! (8 bytes, columns 0..7) then row a+4. Rows a and a+4 use the same S-box
//! π_a, so every lane needs ONE S-box. An xmm register holds one chunk's lane,
//! a ymm register the same lane of two chunks; a group is 4 registers.
//! - ShiftRows is one in-lane `vpshufb` per register (row a and row a+4
//!   rotate inside each block's columns).
//! - MixColumns needs, for output lane a, the rows a+j and a+4+j: that is lane
//!   (a+j) mod 4, with its two halves swapped when a+j wraps past row 3
//!   (`vpshufd 0x4e`). With the 8 views W_r (W_{r+4} = swap W_r) the output
//!   is out_a = ⊕_j v_j·W_{a+j}: a circulant product done by doubling in
//!   GF(2^8)/0x11d (×2 = `vpaddb` + `vpblendvb`(0, 0x1d, x) + `vpxor`) and XORs.
//! - ⊞K_0 / ⊞K_t (mod 2^64 per column) are one `vpaddq` per register in the
//!   natural layout, before the transpose in and after the transpose out.
//!
//! S-box (the seed's "row scan" idea, made cheaper). The 256-byte table is
//! 16 rows of 16 bytes; `vpshufb(row, x)` looks up the low nibble and gives 0
//! when bit 7 is set, so v_m = shuf(row m, x) ⊕ shuf(row m+8, x ⊕ 0x80) is the
//! right value for every x whose bits 4..6 equal m. A 3-level `vpblendvb` tree
//! on bits 4, 5, 6 (moved to bit 7 by `vpaddb x,x` three times) picks v_m.
//! Per register: 16 vpshufb + 9 vpxor + 3 vpaddb + 7 vpblendvb = 35
//! (the seed's row scan: 178 per register of mixed rows).
//!
//! Counts per round and 32 bytes (one ymm); Kalyna-128/128 has 10 rounds.
//! - Encryption: SubBytes 35, ShiftRows 1, MixColumns 19 (per group of 4
//!   registers: 4 swaps, 8 pair sums, and per output 4 XORs, 3 doublings of
//!   3 ops, 3 XORs), key XOR 1: 56 vector ALU ops = 1.75 per byte and round,
//!   plus 16 table loads (a vpshufb table cannot be a memory operand); so
//!   17.5 ALU ops and 5 loads per byte for 128/128, ≈ 0.2 more for the
//!   transposes. Measured (perf, Zen 3): 26.8 instructions/B at IPC ≈ 4.7.
//! - Bound: the S-box needs 35 ALU ops on 4 pipes and 19 loads on the 2
//!   vector load pipes (≈ 9.5 cycles per register each), MixColumns ≈ 19
//!   cycles per group: ≈ 59 cycles per 128 bytes and round, 4.6 cycles/B.
//! - Decryption: InvMixColumns = M⁻²·M (see [`inv_mix`]): MixColumns 19, then
//!   M⁻²'s 16 nibble-table products (32 vpshufb, 12 ops to split nibbles,
//!   16 XORs, 8 sums, 4 swaps, 4 XORs) ≈ 19 more: ≈ 76 ALU ops per 32 bytes
//!   and round, 26 of them on the 2 shuffle pipes; measured 36.5 instr/B.
//!   InvMixColumns straight from v⁻¹ by Horner over the coefficient bits was
//!   47 ops; by 32 nibble-table products 36 ops but 18 of them shuffles.

use super::tables::{SBOX, SBOX_INV};
use crate::gf256::{self, KALYNA};
use super::{Keys, Variant};
use crate::cpu::{Backend, BackendInfo, BlockKernel, CpuFeatures};
use core::arch::asm;
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// 64-byte chunks per ymm group pass: 2 chunks per register × GROUPS.
const GROUPS: usize = 2;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    // ways: Kalyna-128 blocks per pass (GROUPS × 2 chunks × 4 blocks).
    info: BackendInfo { name: "avx2", constant_time: true, ways: 8 * GROUPS, needs: "avx2" },
    available: |f: &CpuFeatures| f.avx2,
    new: |keys| Avx2::new(keys),
};

/// A constant of one 16-byte lane, repeated for both ymm lanes.
pub(super) type Lane = [u8; 32];

#[repr(align(32))]
pub(super) struct Rows(pub(super) [[Lane; 16]; 4]);

/// The S-boxes as 16 rows of 16 bytes each (row h = π[16h..16h+16]).
const fn rows(sbox: &[[u8; 256]; 4]) -> Rows {
    let mut r = [[[0u8; 32]; 16]; 4];
    let mut a = 0;
    while a < 4 {
        let mut i = 0;
        while i < 256 {
            r[a][i / 16][i % 16] = sbox[a][i];
            r[a][i / 16][16 + i % 16] = sbox[a][i];
            i += 1;
        }
        a += 1;
    }
    Rows(r)
}

pub(super) static ENC_ROWS: Rows = rows(&SBOX);

#[repr(align(32))]
struct MulTables([[Lane; 2]; 8]);

/// For each coefficient c_j: [c_j·n, c_j·(n << 4)] for the nibbles n.
const fn mul_tables(v: &[u8; 8]) -> MulTables {
    let mut t = [[[0u8; 32]; 2]; 8];
    let mut j = 0;
    while j < 8 {
        let mut n = 0;
        while n < 16 {
            let lo = gf256::mul(v[j], n as u8, KALYNA);
            let hi = gf256::mul(v[j], (n << 4) as u8, KALYNA);
            t[j][0][n] = lo;
            t[j][0][16 + n] = lo;
            t[j][1][n] = hi;
            t[j][1][16 + n] = hi;
            n += 1;
        }
        j += 1;
    }
    MulTables(t)
}

/// The nonzero coefficients of M⁻² (at offsets 0, 2, 4, 6), padded to 8.
const MDS_INV2: [u8; 8] = [0x17, 0x93, 0x66, 0xbd, 0, 0, 0, 0];

static INV2_MUL: MulTables = mul_tables(&MDS_INV2);
pub(super) static DEC_ROWS: Rows = rows(&SBOX_INV);

/// Repeats a 16-byte lane pattern into both ymm lanes.
const fn dup(l: [u8; 16]) -> Lane {
    let mut o = [0u8; 32];
    let mut i = 0;
    while i < 16 {
        o[i] = l[i];
        o[16 + i] = l[i];
        i += 1;
    }
    o
}

/// Transpose step 1: in a 16-byte piece (columns 2L, 2L+1), gather class k's
/// bytes into dword k: (row k, col 2L), (k, 2L+1), (k+4, 2L), (k+4, 2L+1).
const GATHER: Lane = dup([0, 8, 4, 12, 1, 9, 5, 13, 2, 10, 6, 14, 3, 11, 7, 15]);
/// Transpose step 3: dword L = (k,2L),(k,2L+1),(k+4,2L),(k+4,2L+1) → row k's
/// 8 columns then row k+4's.
const ROWS_OUT: Lane = dup([0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15]);
/// Inverses of the two steps above.
const GATHER_INV: Lane = dup([0, 4, 8, 12, 2, 6, 10, 14, 1, 5, 9, 13, 3, 7, 11, 15]);
const ROWS_OUT_INV: Lane = dup([0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15]);

/// The vector operations the kernel needs, for xmm (one chunk) and ymm (two).
/// Every method is an AVX2-encoded intrinsic: call only after checking avx2.
pub(super) trait Simd: Copy {
    /// Bytes of message per group of 4 registers.
    const GROUP_BYTES: usize;
    unsafe fn splat(b: u8) -> Self;
    unsafe fn cst(l: &Lane) -> Self;
    unsafe fn load4(p: *const u8) -> [Self; 4];
    unsafe fn store4(p: *mut u8, x: [Self; 4]);
    unsafe fn xor(a: Self, b: Self) -> Self;
    unsafe fn and(a: Self, b: Self) -> Self;
    /// Shifts every 16-bit word right by 4.
    unsafe fn srl4(a: Self) -> Self;
    unsafe fn add8(a: Self, b: Self) -> Self;
    /// a + a per byte (bit k → bit k+1), kept as written (inline asm) so
    /// LLVM does not turn a chain of them into shift + mask pairs.
    unsafe fn twice(a: Self) -> Self;
    unsafe fn add64(a: Self, b: Self) -> Self;
    unsafe fn sub64(a: Self, b: Self) -> Self;
    /// mask bit 7 set ? b : a, per byte.
    unsafe fn blendv(a: Self, b: Self, mask: Self) -> Self;
    /// Per 16-byte lane: t[idx & 15], or 0 where idx bit 7 is set.
    unsafe fn shuf(t: Self, idx: Self) -> Self;
    /// Swaps the 8-byte halves of every 16-byte lane.
    unsafe fn swap(a: Self) -> Self;
    unsafe fn unpacklo32(a: Self, b: Self) -> Self;
    unsafe fn unpackhi32(a: Self, b: Self) -> Self;
    unsafe fn unpacklo64(a: Self, b: Self) -> Self;
    unsafe fn unpackhi64(a: Self, b: Self) -> Self;
}

impl Simd for __m128i {
    const GROUP_BYTES: usize = 64;
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat(b: u8) -> Self {
        _mm_set1_epi8(b as i8)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn cst(l: &Lane) -> Self {
        _mm_loadu_si128(l.as_ptr().cast())
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load4(p: *const u8) -> [Self; 4] {
        core::array::from_fn(|i| _mm_loadu_si128(p.add(16 * i).cast()))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store4(p: *mut u8, x: [Self; 4]) {
        for (i, v) in x.into_iter().enumerate() {
            _mm_storeu_si128(p.add(16 * i).cast(), v);
        }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn xor(a: Self, b: Self) -> Self {
        _mm_xor_si128(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn and(a: Self, b: Self) -> Self {
        _mm_and_si128(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn srl4(a: Self) -> Self {
        _mm_srli_epi16::<4>(a)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add8(a: Self, b: Self) -> Self {
        _mm_add_epi8(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn twice(a: Self) -> Self {
        let r: Self;
        asm!("vpaddb {r}, {a}, {a}", r = lateout(xmm_reg) r, a = in(xmm_reg) a,
            options(pure, nomem, nostack, preserves_flags));
        r
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add64(a: Self, b: Self) -> Self {
        _mm_add_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sub64(a: Self, b: Self) -> Self {
        _mm_sub_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn blendv(a: Self, b: Self, mask: Self) -> Self {
        // As inline asm so that LLVM keeps the one-uop vpblendvb instead of
        // rewriting it (and the mask computations) into compare + and pairs.
        let r: Self;
        asm!("vpblendvb {r}, {a}, {b}, {m}", r = lateout(xmm_reg) r, a = in(xmm_reg) a,
            b = in(xmm_reg) b, m = in(xmm_reg) mask, options(pure, nomem, nostack, preserves_flags));
        r
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shuf(t: Self, idx: Self) -> Self {
        _mm_shuffle_epi8(t, idx)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn swap(a: Self) -> Self {
        _mm_shuffle_epi32::<0x4e>(a)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpacklo32(a: Self, b: Self) -> Self {
        _mm_unpacklo_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpackhi32(a: Self, b: Self) -> Self {
        _mm_unpackhi_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpacklo64(a: Self, b: Self) -> Self {
        _mm_unpacklo_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpackhi64(a: Self, b: Self) -> Self {
        _mm_unpackhi_epi64(a, b)
    }
}

impl Simd for __m256i {
    const GROUP_BYTES: usize = 128;
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat(b: u8) -> Self {
        _mm256_set1_epi8(b as i8)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn cst(l: &Lane) -> Self {
        _mm256_loadu_si256(l.as_ptr().cast())
    }
    /// Register i = [piece i of chunk 0 | piece i of chunk 1].
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load4(p: *const u8) -> [Self; 4] {
        core::array::from_fn(|i| _mm256_loadu2_m128i(p.add(64 + 16 * i).cast(), p.add(16 * i).cast()))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store4(p: *mut u8, x: [Self; 4]) {
        for (i, v) in x.into_iter().enumerate() {
            _mm256_storeu2_m128i(p.add(64 + 16 * i).cast(), p.add(16 * i).cast(), v);
        }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn xor(a: Self, b: Self) -> Self {
        _mm256_xor_si256(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn and(a: Self, b: Self) -> Self {
        _mm256_and_si256(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn srl4(a: Self) -> Self {
        _mm256_srli_epi16::<4>(a)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add8(a: Self, b: Self) -> Self {
        _mm256_add_epi8(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn twice(a: Self) -> Self {
        let r: Self;
        asm!("vpaddb {r}, {a}, {a}", r = lateout(ymm_reg) r, a = in(ymm_reg) a,
            options(pure, nomem, nostack, preserves_flags));
        r
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add64(a: Self, b: Self) -> Self {
        _mm256_add_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sub64(a: Self, b: Self) -> Self {
        _mm256_sub_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn blendv(a: Self, b: Self, mask: Self) -> Self {
        // See the xmm version.
        let r: Self;
        asm!("vpblendvb {r}, {a}, {b}, {m}", r = lateout(ymm_reg) r, a = in(ymm_reg) a,
            b = in(ymm_reg) b, m = in(ymm_reg) mask, options(pure, nomem, nostack, preserves_flags));
        r
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shuf(t: Self, idx: Self) -> Self {
        _mm256_shuffle_epi8(t, idx)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn swap(a: Self) -> Self {
        _mm256_shuffle_epi32::<0x4e>(a)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpacklo32(a: Self, b: Self) -> Self {
        _mm256_unpacklo_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpackhi32(a: Self, b: Self) -> Self {
        _mm256_unpackhi_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpacklo64(a: Self, b: Self) -> Self {
        _mm256_unpacklo_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpackhi64(a: Self, b: Self) -> Self {
        _mm256_unpackhi_epi64(a, b)
    }
}

/// Natural layout (4 pieces of 16 bytes per chunk) → row-sliced lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn to_rows<V: Simd>(x: [V; 4]) -> [V; 4] {
    let g = V::cst(&GATHER);
    let p = x.map(|v| V::shuf(v, g));
    let t0 = V::unpacklo32(p[0], p[1]);
    let t1 = V::unpackhi32(p[0], p[1]);
    let t2 = V::unpacklo32(p[2], p[3]);
    let t3 = V::unpackhi32(p[2], p[3]);
    let z = [V::unpacklo64(t0, t2), V::unpackhi64(t0, t2), V::unpacklo64(t1, t3), V::unpackhi64(t1, t3)];
    let r = V::cst(&ROWS_OUT);
    z.map(|v| V::shuf(v, r))
}

/// Row-sliced lanes → natural layout (the inverse of [`to_rows`]).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn from_rows<V: Simd>(y: [V; 4]) -> [V; 4] {
    let r = V::cst(&ROWS_OUT_INV);
    let z = y.map(|v| V::shuf(v, r));
    let t0 = V::unpacklo32(z[0], z[1]);
    let t1 = V::unpackhi32(z[0], z[1]);
    let t2 = V::unpacklo32(z[2], z[3]);
    let t3 = V::unpackhi32(z[2], z[3]);
    let p = [V::unpacklo64(t0, t2), V::unpackhi64(t0, t2), V::unpacklo64(t1, t3), V::unpackhi64(t1, t3)];
    let g = V::cst(&GATHER_INV);
    p.map(|v| V::shuf(v, g))
}

/// One S-box on every byte of N registers (of the same row class, so each
/// table row is loaded once for all of them); see the module comment. The
/// kernel uses N = 1: with N = 2 (two groups) the 16 ymm registers spilled,
/// which cost more than the 16 saved table loads.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn sbox<V: Simd, const N: usize>(x: [V; N], t: &[Lane; 16]) -> [V; N] {
    let k80 = V::splat(0x80);
    let y = x.map(|v| V::xor(v, k80));
    let b6 = x.map(|v| V::twice(v));
    let b5 = b6.map(|v| V::twice(v));
    let b4 = b5.map(|v| V::twice(v));
    let v = |m: usize| -> [V; N] {
        let (lo, hi) = (V::cst(&t[m]), V::cst(&t[m + 8]));
        core::array::from_fn(|i| V::xor(V::shuf(lo, x[i]), V::shuf(hi, y[i])))
    };
    let blend = |a: [V; N], b: [V; N], m: &[V; N]| -> [V; N] {
        core::array::from_fn(|i| V::blendv(a[i], b[i], m[i]))
    };
    let w0 = blend(v(0), v(1), &b4);
    let w1 = blend(v(2), v(3), &b4);
    let z0 = blend(w0, w1, &b5);
    let w2 = blend(v(4), v(5), &b4);
    let w3 = blend(v(6), v(7), &b4);
    let z1 = blend(w2, w3, &b5);
    blend(z0, z1, &b6)
}

/// ×2 in GF(2^8)/0x11d on every byte.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn dbl<V: Simd>(x: V, poly: V, zero: V) -> V {
    V::xor(V::add8(x, x), V::blendv(zero, poly, x))
}

/// The 8 row views W_r of a group: W_r = y_r, W_{r+4} = swap(y_r).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn views<V: Simd>(y: &[V; 4]) -> [V; 8] {
    [y[0], y[1], y[2], y[3], V::swap(y[0]), V::swap(y[1]), V::swap(y[2]), V::swap(y[3])]
}

/// MixColumns, v = (01 01 05 01 08 06 07 04): out_a = A + 2(B + 2(C + 2D)) with
/// A = W_a+W_{a+1}+W_{a+2}+W_{a+3}+W_{a+6}, B = W_{a+5}+W_{a+6},
/// C = W_{a+2}+W_{a+5}+W_{a+6}+W_{a+7}, D = W_{a+4} (indices mod 8).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn mix<V: Simd>(y: [V; 4], poly: V, zero: V) -> [V; 4] {
    let w = views(&y);
    // Pair sums P_r = W_r + W_{r+1}.
    let p: [V; 8] = core::array::from_fn(|r| V::xor(w[r], w[(r + 1) % 8]));
    core::array::from_fn(|a| {
        let at = |j: usize| w[(a + j) % 8];
        let pa = |j: usize| p[(a + j) % 8];
        let big_a = V::xor(V::xor(pa(0), pa(2)), at(6));
        let big_b = pa(5);
        let big_c = V::xor(V::xor(big_b, at(2)), at(7));
        let t = V::xor(big_c, dbl(at(4), poly, zero));
        let t = V::xor(big_b, dbl(t, poly, zero));
        V::xor(big_a, dbl(t, poly, zero))
    })
}

/// InvMixColumns as M⁻¹ = M⁻²·M: MixColumns (cheap, by doubling) and then
/// the circulant M⁻² = (17 00 93 00 66 00 BD 00), which has only four terms:
/// out_a = 17·W_a + 93·W_{a+2} + 66·W_{a+4} + BD·W_{a+6}. Each product uses
/// two 16-entry nibble tables, c·x = (c·lo x) ⊕ (c·hi x); the products of
/// swapped views are summed apart and swapped once: out_a = U_a ⊕ swap(V_a).
/// (M⁸ = 8E·I, so M⁻² = M⁶/8E; see the unit test.)
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn inv_mix<V: Simd>(y: [V; 4], poly: V, zero: V) -> [V; 4] {
    let y = mix(y, poly, zero);
    let m = V::splat(0x0f);
    let lo = y.map(|v| V::and(v, m));
    let hi = y.map(|v| V::and(V::srl4(v), m));
    let mul = |c: usize, k: usize| {
        V::xor(V::shuf(V::cst(&INV2_MUL.0[c][0]), lo[k]), V::shuf(V::cst(&INV2_MUL.0[c][1]), hi[k]))
    };
    // Coefficient index c: 0 → 17, 1 → 93, 2 → 66, 3 → BD (offsets 0, 2, 4, 6).
    // a = 0, 1: W_{a+2} = y_{a+2};  a = 2, 3: W_{a+2} = swap y_{a−2}.
    let u = [
        V::xor(mul(0, 0), mul(1, 2)),
        V::xor(mul(0, 1), mul(1, 3)),
        V::xor(mul(0, 2), mul(3, 0)),
        V::xor(mul(0, 3), mul(3, 1)),
    ];
    let v = [
        V::xor(mul(2, 0), mul(3, 2)),
        V::xor(mul(2, 1), mul(3, 3)),
        V::xor(mul(2, 2), mul(1, 0)),
        V::xor(mul(2, 3), mul(1, 1)),
    ];
    core::array::from_fn(|a| V::xor(u[a], V::swap(v[a])))
}

/// The ShiftRows and InvShiftRows shuffles of lanes 0..3 for nb columns:
/// row i's column j goes to (j + δ_i) mod nb inside its block.
const fn shift_rows_shuffles(nb: usize) -> [[Lane; 4]; 2] {
    let mut t = [[[0u8; 32]; 4]; 2];
    let mut a = 0;
    while a < 4 {
        let mut h = 0;
        while h < 2 {
            let d = (a + 4 * h) * nb / 8;
            let mut c = 0;
            while c < 8 {
                let (blk, j) = (c / nb, c % nb);
                let dst = 8 * h + blk * nb + (j + d) % nb;
                t[0][a][dst] = (8 * h + c) as u8;
                t[0][a][16 + dst] = (8 * h + c) as u8;
                t[1][a][8 * h + c] = dst as u8;
                t[1][a][16 + 8 * h + c] = dst as u8;
                c += 1;
            }
            h += 1;
        }
        a += 1;
    }
    t
}

/// [ShiftRows, InvShiftRows] shuffles for nb = 2, 4, 8.
static SHIFT_ROWS: [[[Lane; 4]; 2]; 3] = [shift_rows_shuffles(2), shift_rows_shuffles(4), shift_rows_shuffles(8)];

fn shift_rows_for(nb: usize) -> &'static [[Lane; 4]; 2] {
    &SHIFT_ROWS[nb.trailing_zeros() as usize - 1]
}

/// ψ = MixColumns∘ShiftRows∘SubBytes on whole blocks (at most 64 bytes) in
/// place, without secret-indexed memory: the key schedule's round. Returns
/// false (and does nothing) when this CPU has no AVX2.
pub(super) fn psi(v: Variant, s: &mut [u8]) -> bool {
    if !CpuFeatures::get().avx2 {
        return false;
    }
    assert!(s.len() <= 64 && s.len() % v.block_bytes() == 0);
    let mut buf = [0u8; 64];
    buf[..s.len()].copy_from_slice(s);
    // SAFETY: AVX2 was checked just above.
    unsafe { psi_chunk(v.nb(), &mut buf) };
    s.copy_from_slice(&buf[..s.len()]);
    buf.as_mut_slice().zeroize(); // one memset, not a write per byte
    true
}

#[target_feature(enable = "avx2")]
unsafe fn psi_chunk(nb: usize, buf: &mut [u8; 64]) {
    let sr = &shift_rows_for(nb)[0];
    let (poly, zero) = (__m128i::splat(0x1d), __m128i::splat(0));
    let mut y = to_rows(__m128i::load4(buf.as_ptr()));
    for (a, v) in y.iter_mut().enumerate() {
        let [sb] = sbox::<__m128i, 1>([*v], &ENC_ROWS.0[a]);
        *v = __m128i::shuf(sb, __m128i::cst(&sr[a]));
    }
    __m128i::store4(buf.as_mut_ptr(), from_rows(mix(y, poly, zero)));
}

/// The keyed kernel: round keys in the row-sliced lane layout, and K_0, K_t
/// in the natural layout (for ⊞/⊟ before and after the transposes).
struct Avx2 {
    variant: Variant,
    /// rk[r][a]: lane a of round key r.
    rk: [[Lane; 4]; 19],
    /// first[i] / last[i]: piece i (bytes 16i..16i+16 of a chunk) of K_0 / K_t.
    first: [Lane; 4],
    last: [Lane; 4],
    /// ShiftRows / InvShiftRows shuffles for lanes 0..3.
    sr: [Lane; 4],
    isr: [Lane; 4],
}

impl Drop for Avx2 {
    fn drop(&mut self) {
        // Slice wipes are one memset each; the derive's array wipe would be
        // ~3 KiB of single-byte volatile writes per key.
        self.rk.as_flattened_mut().as_flattened_mut().zeroize();
        self.first.as_flattened_mut().zeroize();
        self.last.as_flattened_mut().zeroize();
    }
}

impl Avx2 {
    /// Built in place on the heap (the struct is ~3 KiB). Key setup matters
    /// for short messages: byte gathers with masks instead of `%` by the
    /// run-time block width, and 16-byte copies for the duplicated halves.
    fn new(keys: &Keys) -> Box<Avx2> {
        let v = keys.variant;
        let (nb, bb, t) = (v.nb(), v.block_bytes(), v.rounds());
        let mut k = Box::new(Avx2 {
            variant: v,
            rk: [[[0; 32]; 4]; 19],
            first: [[0; 32]; 4],
            last: [[0; 32]; 4],
            sr: [[0; 32]; 4],
            isr: [[0; 32]; 4],
        });
        // Lane a, byte 8h + c: row a + 4h, chunk column c = block·nb + j
        // (nb is 2, 4 or 8, so c mod nb = c & (nb − 1)).
        let col = nb - 1;
        for (r, rk) in k.rk.iter_mut().enumerate().take(t + 1) {
            let key = &keys.rk[r];
            for (a, lane) in rk.iter_mut().enumerate() {
                let half: [u8; 16] = core::array::from_fn(|i| key[8 * ((i % 8) & col) + a + 4 * (i / 8)]);
                lane[..16].copy_from_slice(&half);
                lane[16..].copy_from_slice(&half);
            }
        }
        // Register i of a 64-byte chunk holds bytes 16i..16i+16, i.e. block
        // bytes (16i mod bb).. of one block, in both 128-bit halves.
        for i in 0..4 {
            let off = (16 * i) % bb;
            for (dst, src) in [(&mut k.first[i], keys.round_key(0)), (&mut k.last[i], keys.round_key(t))] {
                dst[..16].copy_from_slice(&src[off..off + 16]);
                dst[16..].copy_from_slice(&src[off..off + 16]);
            }
        }
        [k.sr, k.isr] = *shift_rows_for(nb);
        k
    }

    /// Encrypts G groups of V (G × V::GROUP_BYTES bytes at `p`).
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn encrypt_groups<V: Simd, const G: usize>(&self, p: *mut u8) {
        let t = self.variant.rounds();
        let (poly, zero) = (V::splat(0x1d), V::splat(0));
        let mut s: [[V; 4]; G] = core::array::from_fn(|g| {
            let x = V::load4(p.add(g * V::GROUP_BYTES));
            to_rows(core::array::from_fn(|i| V::add64(x[i], V::cst(&self.first[i]))))
        });
        for r in 1..=t {
            // SubBytes and ShiftRows, one row class of every group at a time.
            for y in s.iter_mut() {
                for (a, v) in y.iter_mut().enumerate() {
                    let [sb] = sbox::<V, 1>([*v], &ENC_ROWS.0[a]);
                    *v = V::shuf(sb, V::cst(&self.sr[a]));
                }
            }
            for y in s.iter_mut() {
                let m = mix(*y, poly, zero);
                *y = if r < t { core::array::from_fn(|a| V::xor(m[a], V::cst(&self.rk[r][a]))) } else { m };
            }
        }
        for (g, y) in s.iter().enumerate() {
            let x = from_rows(*y);
            V::store4(p.add(g * V::GROUP_BYTES), core::array::from_fn(|i| V::add64(x[i], V::cst(&self.last[i]))));
        }
    }

    /// Decrypts G groups of V (G × V::GROUP_BYTES bytes at `p`).
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn decrypt_groups<V: Simd, const G: usize>(&self, p: *mut u8) {
        let t = self.variant.rounds();
        let (poly, zero) = (V::splat(0x1d), V::splat(0));
        let mut s: [[V; 4]; G] = core::array::from_fn(|g| {
            let x = V::load4(p.add(g * V::GROUP_BYTES));
            to_rows(core::array::from_fn(|i| V::sub64(x[i], V::cst(&self.last[i]))))
        });
        for r in (0..t).rev() {
            for y in s.iter_mut() {
                *y = inv_mix(*y, poly, zero);
            }
            // InvShiftRows and InvSubBytes, one row class of every group at a time.
            for y in s.iter_mut() {
                for (a, v) in y.iter_mut().enumerate() {
                    let [sb] = sbox::<V, 1>([V::shuf(*v, V::cst(&self.isr[a]))], &DEC_ROWS.0[a]);
                    *v = if r > 0 { V::xor(sb, V::cst(&self.rk[r][a])) } else { sb };
                }
            }
        }
        for (g, y) in s.iter().enumerate() {
            let x = from_rows(*y);
            V::store4(p.add(g * V::GROUP_BYTES), core::array::from_fn(|i| V::sub64(x[i], V::cst(&self.first[i]))));
        }
    }

    #[target_feature(enable = "avx2")]
    unsafe fn run(&self, data: &mut [u8], enc: bool) {
        let wide = GROUPS * 128;
        let mut chunks = data.chunks_exact_mut(wide);
        for c in &mut chunks {
            if enc {
                self.encrypt_groups::<__m256i, GROUPS>(c.as_mut_ptr());
            } else {
                self.decrypt_groups::<__m256i, GROUPS>(c.as_mut_ptr());
            }
        }
        let mut rest = chunks.into_remainder();
        while rest.len() >= 128 {
            let (c, r) = rest.split_at_mut(128);
            if enc {
                self.encrypt_groups::<__m256i, 1>(c.as_mut_ptr());
            } else {
                self.decrypt_groups::<__m256i, 1>(c.as_mut_ptr());
            }
            rest = r;
        }
        if rest.len() >= 64 {
            let (c, r) = rest.split_at_mut(64);
            if enc {
                self.encrypt_groups::<__m128i, 1>(c.as_mut_ptr());
            } else {
                self.decrypt_groups::<__m128i, 1>(c.as_mut_ptr());
            }
            rest = r;
        }
        if !rest.is_empty() {
            // 1..3 blocks of Kalyna-128 or one of Kalyna-256: pad one chunk.
            let mut buf = [0u8; 64];
            buf[..rest.len()].copy_from_slice(rest);
            if enc {
                self.encrypt_groups::<__m128i, 1>(buf.as_mut_ptr());
            } else {
                self.decrypt_groups::<__m128i, 1>(buf.as_mut_ptr());
            }
            rest.copy_from_slice(&buf[..rest.len()]);
            buf.as_mut_slice().zeroize(); // one memset, not a write per byte
        }
    }
}

impl BlockKernel for Avx2 {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: this kernel is built only after BACKEND.available saw AVX2.
        unsafe { self.run(data, true) }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { self.run(data, false) }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tables::{MDS, MDS_INV};
    use super::*;

    /// Product of circulants given by first rows (out_i = Σ_j c_j s_{i+j}).
    fn conv(a: &[u8; 8], b: &[u8; 8]) -> [u8; 8] {
        let mut c = [0u8; 8];
        for i in 0..8 {
            for j in 0..8 {
                c[(i + j) % 8] ^= gf256::mul(a[i], b[j], KALYNA);
            }
        }
        c
    }

    #[test]
    fn inverse_mds_is_m_inv2_times_m() {
        let inv2 = [MDS_INV2[0], 0, MDS_INV2[1], 0, MDS_INV2[2], 0, MDS_INV2[3], 0];
        assert_eq!(conv(&MDS_INV, &MDS_INV), inv2);
        assert_eq!(conv(&inv2, &MDS), MDS_INV);
    }

    #[test]
    fn psi_matches_the_reference_round() {
        if !CpuFeatures::get().avx2 {
            return;
        }
        let mut x = 0x1234_5678_9abc_def1u64;
        for v in Variant::ALL {
            for blocks in 1..=64 / v.block_bytes() {
                let mut s: Vec<u8> = (0..blocks * v.block_bytes())
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x as u8
                    })
                    .collect();
                let mut want = s.clone();
                for b in want.chunks_exact_mut(v.block_bytes()) {
                    super::super::reference::psi_block(b);
                }
                assert!(psi(v, &mut s));
                assert_eq!(s, want, "{v:?} {blocks} blocks");
            }
        }
    }

    #[test]
    fn shift_rows_shuffles_invert() {
        for v in Variant::ALL {
            let keys = Keys::new(v, &vec![0u8; v.key_bytes()]);
            let k = Avx2::new(&keys);
            for a in 0..4 {
                for p in 0..16 {
                    assert_eq!(k.sr[a][k.isr[a][p] as usize] as usize, p, "{v:?} lane {a}");
                }
            }
        }
    }
}
