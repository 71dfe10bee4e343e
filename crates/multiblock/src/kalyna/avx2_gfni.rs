//! The `avx2-gfni` backend: constant-time Kalyna on AVX2 + GFNI (VEX), for
//! CPUs with GFNI but no AVX-512 (Intel Alder Lake and later client cores,
//! Gracemont); all five variants, both directions, 256 bytes (8 ymm) per
//! batch in the row-sliced layout of `row_sliced.rs` (ymm i = row i of 4
//! chunks).
//!
//! - In/out: the `avx2` backend's 4-register transpose (16 shuffles) on each
//!   half (two chunks per ymm, one per 128-bit lane), then 8 `vpunpck{l,h}qdq`
//!   join row a and row a+4 of the halves: 40 shuffles per 256 bytes and
//!   direction, plus a `vpaddq`/`vpsubq` with K_0 or K_t per load.
//! - S-box: no VBMI, so the `avx2` backend's nibble S-box (16 `vpshufb` over
//!   the 16 rows of the table, a 3-level `vpblendvb` tree on bits 4..6):
//!   35 ops per register, 16 table loads.
//! - ShiftRows: one `vpshufb` per row with δ_i ≠ 0.
//! - MixColumns: 3 `vgf2p8affineqb` + 8 XORs + 1 key XOR = 12 ops per
//!   register; InvMixColumns: 8 `vgf2p8affineqb` + 8 XORs = 16 ops
//!   (no 3-input XOR without AVX-512VL).
//!
//! Counts per ymm (32 bytes) and round:
//!
//! | kernel | S-box | ShiftRows | Mix | enc / dec ops | per byte and round |
//! |---|---|---|---|---|---|
//! | `avx2` (half-row layout, MixColumns by doubling, InvMix = M⁻²·M by nibble tables) | 35 | 1 | 19 / 38 | 56 / 76 | 1.75 / 2.4 |
//! | **`avx2-gfni`, row-sliced (chosen)** | 35 | ≤ 1 | 12 / 16 | ≤ 48 / ≤ 52 | 1.5 / 1.6 |
//! | `avx2-gfni`, half-row layout | 35 | 1 | 17 / 23 (+ swaps) | 53 / 59 | 1.7 / 1.8 |
//!
//! The S-box is 70 % of the work; its 16 `vpshufb` and 7 `vpblendvb` go to
//! p1/p5 and p0/p1/p5 on Intel cores. GFNI cannot do the S-boxes
//! themselves: they are not affine-equivalent to inversion (differential
//! uniformity 8, inversion's is 4).
//!
//! Static model of the compiled code (objdump of the release build: the
//! S-box loop body 8 times + the MixColumns block = one round of 256 bytes,
//! `llvm-mca` 14): enc 645 instructions (the S-box loop keeps its 16 table
//! rows in memory: 18 loads per register), 174 cycles with
//! `-mcpu=alderlake` (0.68 c/B per round, ≈ 7 c/B for 128/128), 116 with
//! `-mcpu=znver3` (0.45 c/B per round); dec 756 instructions, 197 / 131
//! cycles (0.77 / 0.51 c/B per round). Not measured: this machine has no GFNI.
//!
//! Tails: whole batches in place; the rest is padded into one batch.

use super::avx2::{from_rows, sbox, to_rows, Simd, DEC_ROWS, ENC_ROWS};
use super::row_sliced::{decrypt as decrypt_with, encrypt as encrypt_with, Machine, Pattern, RowKeys};
use super::Keys;
use crate::cpu::{Backend, BackendInfo, BlockKernel, CpuFeatures};
use core::arch::x86_64::*;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    // ways: Kalyna-128 blocks per batch.
    info: BackendInfo { name: "avx2-gfni", constant_time: true, ways: 16, needs: "avx2+gfni" },
    available,
    new: |keys| {
        assert!(available(CpuFeatures::get()), "avx2-gfni kernel on a CPU without it");
        Box::new(Avx2Gfni(RowKeys::new(keys)))
    },
};

fn available(f: &CpuFeatures) -> bool {
    f.avx2 && f.gfni
}

struct Avx2Gfni(RowKeys);

impl BlockKernel for Avx2Gfni {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: the kernel exists only where `available` said yes.
        unsafe { encrypt(&self.0, data) }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { decrypt(&self.0, data) }
    }
}

#[target_feature(enable = "avx2,gfni")]
unsafe fn encrypt(k: &RowKeys, data: &mut [u8]) {
    encrypt_with::<Ymm, 256>(&Ymm(()), k, data);
}

#[target_feature(enable = "avx2,gfni")]
unsafe fn decrypt(k: &RowKeys, data: &mut [u8]) {
    decrypt_with::<Ymm, 256>(&Ymm(()), k, data);
}

/// The ymm machine; it is built only inside the functions above, which run
/// only on a CPU with avx2 and gfni.
struct Ymm(());

// SAFETY (every method): a Ymm exists only on a CPU with avx2 and gfni; the
// slices are bounds-checked before the unaligned loads and stores.
impl Machine for Ymm {
    type V = __m256i;
    const BATCH: usize = 256;

    /// Register R_p of half h = piece p (bytes 16p..16p+16) of chunks 2h and
    /// 2h+1; `to_rows` makes lane L of y_h[a] = [row a | row a+4] of chunk
    /// 2h+L; row a of all four chunks is then y_0[a].lo64 ‖ y_1[a].lo64.
    #[inline(always)]
    fn load_rows(&self, src: &[u8], key: &Pattern, sub: bool) -> [__m256i; 8] {
        let src = &src[..256];
        // No closures here: see the note in `row_sliced.rs`.
        unsafe {
            let mut x = [_mm256_setzero_si256(); 8];
            for h in 0..2 {
                let mut r = [_mm256_setzero_si256(); 4];
                for (p, rp) in r.iter_mut().enumerate() {
                    let lo = src[128 * h + 16 * p..].as_ptr();
                    let v = _mm256_loadu2_m128i(lo.add(64).cast(), lo.cast());
                    let k = _mm256_broadcastsi128_si256(_mm_loadu_si128(key[16 * p..].as_ptr().cast()));
                    *rp = if sub { __m256i::sub64(v, k) } else { __m256i::add64(v, k) };
                }
                // x[4h + a] = y_h[a] for now; joined below.
                x[4 * h..4 * h + 4].copy_from_slice(&to_rows(r));
            }
            let mut out = x;
            for a in 0..4 {
                out[a] = __m256i::unpacklo64(x[a], x[4 + a]);
                out[4 + a] = __m256i::unpackhi64(x[a], x[4 + a]);
            }
            out
        }
    }
    #[inline(always)]
    fn store_rows(&self, x: [__m256i; 8], key: &Pattern, sub: bool, dst: &mut [u8]) {
        let dst = &mut dst[..256];
        unsafe {
            let mut y = [[_mm256_setzero_si256(); 4]; 2];
            for a in 0..4 {
                y[0][a] = __m256i::unpacklo64(x[a], x[a + 4]);
                y[1][a] = __m256i::unpackhi64(x[a], x[a + 4]);
            }
            for (h, yh) in y.into_iter().enumerate() {
                for (p, v) in from_rows(yh).into_iter().enumerate() {
                    let k = _mm256_broadcastsi128_si256(_mm_loadu_si128(key[16 * p..].as_ptr().cast()));
                    let v = if sub { __m256i::sub64(v, k) } else { __m256i::add64(v, k) };
                    let lo = dst[128 * h + 16 * p..].as_mut_ptr();
                    _mm256_storeu2_m128i(lo.add(64).cast(), lo.cast(), v);
                }
            }
        }
    }
    #[inline(always)]
    fn cst(&self, c: &Pattern) -> __m256i {
        unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
    }
    #[inline(always)]
    fn xor(&self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_xor_si256(a, b) }
    }
    #[inline(always)]
    fn xor3(&self, a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        unsafe { _mm256_xor_si256(_mm256_xor_si256(a, b), c) }
    }
    #[inline(always)]
    fn affine(&self, x: __m256i, m: u64) -> __m256i {
        unsafe { _mm256_gf2p8affine_epi64_epi8::<0>(x, _mm256_set1_epi64x(m as i64)) }
    }
    #[inline(always)]
    fn shuffle(&self, x: __m256i, idx: &Pattern) -> __m256i {
        unsafe { _mm256_shuffle_epi8(x, _mm256_loadu_si256(idx.as_ptr().cast())) }
    }
    #[inline(always)]
    fn sub(&self, x: __m256i, a: usize) -> __m256i {
        unsafe { sbox::<__m256i, 1>([x], &ENC_ROWS.0[a])[0] }
    }
    #[inline(always)]
    fn sub_inv(&self, x: __m256i, a: usize) -> __m256i {
        unsafe { sbox::<__m256i, 1>([x], &DEC_ROWS.0[a])[0] }
    }
}
