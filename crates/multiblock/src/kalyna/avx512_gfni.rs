//! The `avx512-gfni` backend: constant-time Kalyna on AVX-512 F/BW + VBMI +
//! GFNI, all five variants, both directions, 512 bytes (8 zmm) per batch in
//! the row-sliced layout of `row_sliced.rs` (zmm i = row i of 8 chunks).
//!
//! - In/out: per 64-byte chunk one `vpaddq`/`vpsubq` with K_0 or K_t (the
//!   mod-2^64 key addition costs one instruction in the natural layout), one
//!   `vpermb` (8×8 byte transpose, its own inverse) and a 3-stage 8×8
//!   transpose of 64-bit lanes across the 8 zmm (24 `vpermt2q`).
//! - S-box π_a: `vpermi2b` over π_a[0..128] and over π_a[128..256] (each uses
//!   index bits 0..6), `vpmovb2m` of bit 7, `vpblendmb`: 4 µops, no memory
//!   access that depends on data.
//! - ShiftRows: one `vpshufb` per row with δ_i ≠ 0.
//! - MixColumns 8, InvMixColumns 12 µops per register (see `row_sliced.rs`).
//!
//! Layouts compared (µops per zmm = 64 bytes and round; SPR runs 512-bit
//! ops on p0 and p5 only: `vgf2p8affineqb` and `vpmovb2m` p0, `vpermi2b`,
//! `vpshufb` and `vpermt2q` p5, ternlog/xor/blend p05):
//!
//! | layout | S-box | ShiftRows | Mix enc / dec | total enc / dec | p0 enc / dec |
//! |---|---|---|---|---|---|
//! | byte-sliced (zmm j = byte j of 64 blocks; 128-bit blocks only: 256-bit blocks need 32 zmm, 512-bit 64) | 4 | 0 | 8 / 12 | 12 / 16 | 4 / 9 |
//! | **row-sliced (chosen)**: zmm i = row i of 64 columns | 4 | ≤ 1 | 8 / 12 | ≤ 13 / ≤ 17 | 4 / 9 |
//! | half-row (zmm = rows a, a+4, as `avx2`) | 4 | 1 | 10 / 14 (+1 swap per view) | 15 / 19 | 4 / 9 |
//!
//! Row-sliced costs at most one `vpshufb` more than byte-sliced and works
//! for every block size with one transpose per 512 bytes.
//! Planned bound per zmm and round: enc 13 µops / 2 ports = 6.5 c, dec
//! max(9 on p0, 17 / 2) = 9 c, i.e. 0.10 / 0.14 c/B per round.
//!
//! Static model of the compiled round loop (objdump of the release build,
//! `llvm-mca` 14 `-mcpu=sapphirerapids`, which uses the SKX port model),
//! per round and batch of 512 bytes:
//!
//! | loop | instructions | of which reg. copies | llvm-mca cycles | µops on p0/p1/p5 | 2-port bound | c/B per round |
//! |---|---|---|---|---|---|---|
//! | enc, nb = 2 | 148 | 31 (`vpermt2b` overwrites its table) | 57.4 | 146 | 73 c | 0.112 (mca) / 0.143 |
//! | dec, nb = 2 | 178 | 31 | 70.6 | 176 | 88 c | 0.138 / 0.172 |
//! | enc, nb = 8 | 153 | 31 | 57.6 | 151 | 75.5 c | 0.113 / 0.147 |
//! | dec, nb = 8 | 180 | 31 | 69.5 | 178 | 89 c | 0.136 / 0.174 |
//!
//! The model lets 512-bit µops use p1, which SPR does not, so the 2-port
//! bound (p0 + p5 only) is the honest one; the in/out transposes add
//! ≈ 150 instructions per batch (≈ 0.15 c/B). Expected c/B, enc / dec:
//! 128/128 (10 rounds) ≈ 1.6 / 1.9; 128/256, 256/256 (14) ≈ 2.2 / 2.6;
//! 256/512, 512/512 (18) ≈ 2.8 / 3.3 (targets 2.0 / 2.5, 2.8 / 3.5,
//! 3.6 / 4.5). Not measured: this machine has no AVX-512.
//!
//! Tails: whole batches in place; the rest is padded into one batch.

use super::row_sliced::{decrypt as decrypt_with, encrypt as encrypt_with, Machine, Pattern, RowKeys};
use super::tables::{SBOX, SBOX_INV};
use super::Keys;
use crate::cpu::{Backend, BackendInfo, BlockKernel, CpuFeatures};
use core::arch::x86_64::*;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    // ways: Kalyna-128 blocks per batch.
    info: BackendInfo { name: "avx512-gfni", constant_time: true, ways: 32, needs: "avx512f+avx512bw+avx512vbmi+gfni" },
    available,
    new: |keys| {
        assert!(available(CpuFeatures::get()), "avx512-gfni kernel on a CPU without it");
        Box::new(Avx512Gfni(RowKeys::new(keys)))
    },
};

fn available(f: &CpuFeatures) -> bool {
    f.avx512f && f.avx512bw && f.avx512vbmi && f.gfni
}

struct Avx512Gfni(RowKeys);

impl BlockKernel for Avx512Gfni {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: the kernel exists only where `available` said yes.
        unsafe { encrypt(&self.0, data) }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { decrypt(&self.0, data) }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
unsafe fn encrypt(k: &RowKeys, data: &mut [u8]) {
    let z = Zmm::new();
    encrypt_with::<Zmm, 512>(&z, k, data);
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
unsafe fn decrypt(k: &RowKeys, data: &mut [u8]) {
    let z = Zmm::new();
    decrypt_with::<Zmm, 512>(&z, k, data);
}

/// The 8×8 byte transpose inside a zmm: byte 8i + c ← byte 8c + i.
static BYTE_TRANSPOSE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        t[p] = ((p % 8) * 8 + p / 8) as u8;
        p += 1;
    }
    t
};

/// `vpermt2q` indices of the 8×8 64-bit-lane transpose: stage s exchanges
/// lane q of register r with lane q ^ 2^s of register r | 2^s where bit s of
/// r is 0 and bit s of q is 1. [s][0] gives the new r, [s][1] the new r | 2^s.
static LANE_TRANSPOSE: [[[i64; 8]; 2]; 3] = {
    let mut t = [[[0i64; 8]; 2]; 3];
    let mut s = 0;
    while s < 3 {
        let bit = 1 << s;
        let mut q = 0;
        while q < 8 {
            if q & bit == 0 {
                t[s][0][q] = q as i64;
                t[s][1][q] = (q ^ bit) as i64;
            } else {
                t[s][0][q] = 8 + (q ^ bit) as i64;
                t[s][1][q] = 8 + q as i64;
            }
            q += 1;
        }
        s += 1;
    }
    t
};

/// The zmm machine: the S-boxes π_a and π_a⁻¹ as 4 zmm each. Holding one
/// means the CPU has avx512f, avx512bw, avx512vbmi and gfni.
struct Zmm {
    sbox: [[__m512i; 4]; 4],
    sbox_inv: [[__m512i; 4]; 4],
}

/// The 4 S-boxes as 4 zmm each.
#[inline(always)]
unsafe fn load_sboxes(s: &[[u8; 256]; 4]) -> [[__m512i; 4]; 4] {
    let mut t = [[_mm512_setzero_si512(); 4]; 4];
    for a in 0..4 {
        for h in 0..4 {
            t[a][h] = _mm512_loadu_si512(s[a][64 * h..].as_ptr().cast());
        }
    }
    t
}

impl Zmm {
    /// # Safety
    /// The CPU must support avx512f, avx512bw, avx512vbmi and gfni.
    #[inline(always)]
    unsafe fn new() -> Zmm {
        Zmm { sbox: load_sboxes(&SBOX), sbox_inv: load_sboxes(&SBOX_INV) }
    }

    /// 256-entry lookup in `t`: two 128-entry `vpermi2b`, bit 7 picks.
    #[inline(always)]
    fn lookup(x: __m512i, t: &[__m512i; 4]) -> __m512i {
        // SAFETY: a Zmm exists only on a CPU with the features.
        unsafe {
            let lo = _mm512_permutex2var_epi8(t[0], x, t[1]);
            let hi = _mm512_permutex2var_epi8(t[2], x, t[3]);
            _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi)
        }
    }

    /// The 8×8 transpose of 64-bit lanes: lane q of register r ↔ lane r of q.
    #[inline(always)]
    fn transpose(x: &mut [__m512i; 8]) {
        for (s, idx) in LANE_TRANSPOSE.iter().enumerate() {
            let bit = 1 << s;
            // SAFETY: as above.
            unsafe {
                let (i0, i1) = (_mm512_loadu_si512(idx[0].as_ptr().cast()), _mm512_loadu_si512(idx[1].as_ptr().cast()));
                for r in (0..8).filter(|r| r & bit == 0) {
                    let (a, b) = (x[r], x[r | bit]);
                    x[r] = _mm512_permutex2var_epi64(a, i0, b);
                    x[r | bit] = _mm512_permutex2var_epi64(a, i1, b);
                }
            }
        }
    }
}

// SAFETY (every method): a Zmm exists only on a CPU with the features; the
// slices are bounds-checked before the unaligned loads and stores.
impl Machine for Zmm {
    type V = __m512i;
    const BATCH: usize = 512;

    #[inline(always)]
    fn load_rows(&self, src: &[u8], key: &Pattern, sub: bool) -> [__m512i; 8] {
        let src = &src[..512];
        unsafe {
            let k = _mm512_loadu_si512(key.as_ptr().cast());
            let t = _mm512_loadu_si512(BYTE_TRANSPOSE.as_ptr().cast());
            let mut x = [k; 8];
            for (c, xc) in x.iter_mut().enumerate() {
                let v = _mm512_loadu_si512(src[64 * c..].as_ptr().cast());
                let v = if sub { _mm512_sub_epi64(v, k) } else { _mm512_add_epi64(v, k) };
                *xc = _mm512_permutexvar_epi8(t, v);
            }
            Self::transpose(&mut x);
            x
        }
    }
    #[inline(always)]
    fn store_rows(&self, mut x: [__m512i; 8], key: &Pattern, sub: bool, dst: &mut [u8]) {
        let dst = &mut dst[..512];
        Self::transpose(&mut x);
        unsafe {
            let k = _mm512_loadu_si512(key.as_ptr().cast());
            let t = _mm512_loadu_si512(BYTE_TRANSPOSE.as_ptr().cast());
            for (c, v) in x.into_iter().enumerate() {
                let v = _mm512_permutexvar_epi8(t, v);
                let v = if sub { _mm512_sub_epi64(v, k) } else { _mm512_add_epi64(v, k) };
                _mm512_storeu_si512(dst[64 * c..].as_mut_ptr().cast(), v);
            }
        }
    }
    #[inline(always)]
    fn cst(&self, c: &Pattern) -> __m512i {
        unsafe { _mm512_loadu_si512(c.as_ptr().cast()) }
    }
    #[inline(always)]
    fn xor(&self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_xor_si512(a, b) }
    }
    #[inline(always)]
    fn xor3(&self, a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        unsafe { _mm512_ternarylogic_epi64::<0x96>(a, b, c) }
    }
    #[inline(always)]
    fn affine(&self, x: __m512i, m: u64) -> __m512i {
        unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(m as i64)) }
    }
    #[inline(always)]
    fn shuffle(&self, x: __m512i, idx: &Pattern) -> __m512i {
        unsafe { _mm512_shuffle_epi8(x, _mm512_loadu_si512(idx.as_ptr().cast())) }
    }
    #[inline(always)]
    fn sub(&self, x: __m512i, a: usize) -> __m512i {
        Self::lookup(x, &self.sbox[a])
    }
    #[inline(always)]
    fn sub_inv(&self, x: __m512i, a: usize) -> __m512i {
        Self::lookup(x, &self.sbox_inv[a])
    }
}
