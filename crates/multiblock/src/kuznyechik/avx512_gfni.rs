//! Constant-time Kuznyechik on AVX-512 VBMI + GFNI, 64 blocks per batch.
//!
//! Layout (see `sliced.rs`): 16 zmm, zmm j = byte j of 64 blocks; in and out
//! of that form by a 16×16 byte transpose inside each 128-bit lane, 4 stages
//! of `vpunpck{l,h}{bw,wd,dq,qdq}` = 64 shuffles per direction per batch.
//!
//! - π: `vpermi2b` over π[0..128] and over π[128..256] (each uses the low 7
//!   index bits), `vpmovb2m` for bit 7, `vpblendmb`: 4 µops, no memory access.
//! - L = R^16 as the LFSR in place on the 16 registers: per step 6 pair XORs,
//!   7 `vgf2p8affineqb` multiplications by the constants 148, 32, 133, 16,
//!   194, 192, 251 (GF(2^8)/0x1C3 as 8×8 bit matrices) and 5 `vpternlogq`
//!   (0x96) that sum 7 products, 3 unit terms and the step constant that
//!   carries the round key: 18 µops per step.
//!
//! Count per round per batch of 64 blocks (1 KiB), Sapphire Rapids ports
//! (512-bit: p0 and p5; affine p0, vpermi2b/vpunpck p5, vpmovb2m p0,
//! ternlog/xor/blend p05):
//!
//! | option | affine (p0) | vpermi2b (p5) | p05 | total | bound |
//! |---|---|---|---|---|---|
//! | **LFSR (chosen)** | 112 + 16 movb2m | 32 | 96 xor + 80 ternlog + 16 blend | 352 | 176 c (two ports) |
//! | 16×16 matrix | 256 + 16 | 32 | 128 ternlog + 16 | 448 | 272 c (p0) |
//! | basis change to 0x11B + `vgf2p8mulb` | same count as the matrix or the LFSR (mulb is p0 too) | | | | no gain byte-sliced |
//!
//! Latency of the LFSR chain: xor 1 + affine 5 + ternlog 1 = 7 c per step
//! (112 per L) < 176, so one batch keeps both ports busy.
//! Per batch: 9 × 352 + 128 transposes + 16 (K1) + 32 loads/stores
//! ≈ 3330 µops ≈ 1650 cycles / 1024 B ≈ 1.6 core cycles per byte, both ways
//! (decryption is the same steps in reverse order, with π⁻¹ and L⁻¹(K_i)).
//!
//! Tails: whole 64-block batches in place; a rest of 33..63 blocks is padded
//! into one zmm batch, a rest of 1..32 blocks runs as one batch of 32 in ymm
//! (AVX-512VL: `vpermi2b` ymm indexes 64 entries, so π takes 4 lookups and
//! 3 blends there; L is the same 288 µops on 3 ports).

use super::sliced::{batches, decrypt_batch, encrypt_batch, Machine, SlicedKeys, MUL_MATRICES};
use super::tables::{PI, PI_INV};
use super::Keys;
use crate::cpu::{Backend, BackendInfo, BlockKernel, CpuFeatures};
use core::arch::x86_64::*;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo {
        name: "avx512-gfni",
        constant_time: true,
        ways: 64,
        needs: "avx512f+avx512bw+avx512vl+avx512vbmi+gfni",
    },
    available,
    new: |keys| {
        assert!(available(CpuFeatures::get()), "avx512-gfni kernel on a CPU without it");
        Box::new(Avx512Gfni(SlicedKeys::new(&keys.rk)))
    },
};

fn available(f: &CpuFeatures) -> bool {
    f.avx512f && f.avx512bw && f.avx512vl && f.avx512vbmi && f.gfni
}

struct Avx512Gfni(SlicedKeys);

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

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn encrypt(k: &SlicedKeys, data: &mut [u8]) {
    let (z, y) = (Zmm::new(), Ymm::new());
    batches::<1024, 512>(data, |b| encrypt_batch(&z, k, b), |b| encrypt_batch(&y, k, b));
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn decrypt(k: &SlicedKeys, data: &mut [u8]) {
    let (z, y) = (Zmm::new(), Ymm::new());
    batches::<1024, 512>(data, |b| decrypt_batch(&z, k, b), |b| decrypt_batch(&y, k, b));
}

/// The zmm machine; holding one means the CPU has the features above.
struct Zmm {
    pi: [__m512i; 4],
    pi_inv: [__m512i; 4],
}

impl Zmm {
    /// # Safety
    /// The CPU must support avx512f, avx512bw, avx512vbmi and gfni.
    #[inline(always)]
    unsafe fn new() -> Zmm {
        let mut z = Zmm { pi: [_mm512_setzero_si512(); 4], pi_inv: [_mm512_setzero_si512(); 4] };
        for i in 0..4 {
            z.pi[i] = _mm512_loadu_si512(PI[64 * i..].as_ptr().cast());
            z.pi_inv[i] = _mm512_loadu_si512(PI_INV[64 * i..].as_ptr().cast());
        }
        z
    }

    /// 256-entry lookup: two 128-entry `vpermi2b`, bit 7 picks.
    #[inline(always)]
    fn lookup(x: __m512i, t: &[__m512i; 4]) -> __m512i {
        // SAFETY: a Zmm exists only on a CPU with these features.
        unsafe {
            let lo = _mm512_permutex2var_epi8(t[0], x, t[1]);
            let hi = _mm512_permutex2var_epi8(t[2], x, t[3]);
            _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi)
        }
    }
}

// SAFETY (every method): a Zmm exists only on a CPU with the features.
impl Machine for Zmm {
    type V = __m512i;
    const BLOCKS: usize = 64;

    #[inline(always)]
    fn load(&self, src: &[u8]) -> __m512i {
        let src = &src[..64];
        unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(&self, v: __m512i, dst: &mut [u8]) {
        let dst = &mut dst[..64];
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn splat(&self, q: u64) -> __m512i {
        unsafe { _mm512_set1_epi64(q as i64) }
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
    fn mul(&self, x: __m512i, k: usize) -> __m512i {
        unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(MUL_MATRICES[k] as i64)) }
    }
    #[inline(always)]
    fn sub(&self, x: __m512i) -> __m512i {
        Self::lookup(x, &self.pi)
    }
    #[inline(always)]
    fn sub_inv(&self, x: __m512i) -> __m512i {
        Self::lookup(x, &self.pi_inv)
    }
    #[inline(always)]
    fn unpack_lo<const W: usize>(&self, a: __m512i, b: __m512i) -> __m512i {
        unsafe {
            match W {
                1 => _mm512_unpacklo_epi8(a, b),
                2 => _mm512_unpacklo_epi16(a, b),
                4 => _mm512_unpacklo_epi32(a, b),
                _ => _mm512_unpacklo_epi64(a, b),
            }
        }
    }
    #[inline(always)]
    fn unpack_hi<const W: usize>(&self, a: __m512i, b: __m512i) -> __m512i {
        unsafe {
            match W {
                1 => _mm512_unpackhi_epi8(a, b),
                2 => _mm512_unpackhi_epi16(a, b),
                4 => _mm512_unpackhi_epi32(a, b),
                _ => _mm512_unpackhi_epi64(a, b),
            }
        }
    }
}

/// The ymm machine for short tails (AVX-512VL encodings).
struct Ymm {
    pi: [__m256i; 8],
    pi_inv: [__m256i; 8],
}

impl Ymm {
    /// # Safety
    /// The CPU must support avx512f, avx512bw, avx512vl, avx512vbmi and gfni.
    #[inline(always)]
    unsafe fn new() -> Ymm {
        let mut y = Ymm { pi: [_mm256_setzero_si256(); 8], pi_inv: [_mm256_setzero_si256(); 8] };
        for i in 0..8 {
            y.pi[i] = _mm256_loadu_si256(PI[32 * i..].as_ptr().cast());
            y.pi_inv[i] = _mm256_loadu_si256(PI_INV[32 * i..].as_ptr().cast());
        }
        y
    }

    /// 256-entry lookup: four 64-entry `vpermi2b`, bits 6 and 7 pick.
    #[inline(always)]
    fn lookup(x: __m256i, t: &[__m256i; 8]) -> __m256i {
        // SAFETY: a Ymm exists only on a CPU with these features.
        unsafe {
            let q0 = _mm256_permutex2var_epi8(t[0], x, t[1]);
            let q1 = _mm256_permutex2var_epi8(t[2], x, t[3]);
            let q2 = _mm256_permutex2var_epi8(t[4], x, t[5]);
            let q3 = _mm256_permutex2var_epi8(t[6], x, t[7]);
            let b6 = _mm256_test_epi8_mask(x, _mm256_set1_epi8(0x40));
            let lo = _mm256_mask_blend_epi8(b6, q0, q1);
            let hi = _mm256_mask_blend_epi8(b6, q2, q3);
            _mm256_mask_blend_epi8(_mm256_movepi8_mask(x), lo, hi)
        }
    }
}

// SAFETY (every method): a Ymm exists only on a CPU with the features.
impl Machine for Ymm {
    type V = __m256i;
    const BLOCKS: usize = 32;

    #[inline(always)]
    fn load(&self, src: &[u8]) -> __m256i {
        let src = &src[..32];
        unsafe { _mm256_loadu_si256(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(&self, v: __m256i, dst: &mut [u8]) {
        let dst = &mut dst[..32];
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn splat(&self, q: u64) -> __m256i {
        unsafe { _mm256_set1_epi64x(q as i64) }
    }
    #[inline(always)]
    fn xor(&self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_xor_si256(a, b) }
    }
    #[inline(always)]
    fn xor3(&self, a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        unsafe { _mm256_ternarylogic_epi64::<0x96>(a, b, c) }
    }
    #[inline(always)]
    fn mul(&self, x: __m256i, k: usize) -> __m256i {
        unsafe { _mm256_gf2p8affine_epi64_epi8::<0>(x, _mm256_set1_epi64x(MUL_MATRICES[k] as i64)) }
    }
    #[inline(always)]
    fn sub(&self, x: __m256i) -> __m256i {
        Self::lookup(x, &self.pi)
    }
    #[inline(always)]
    fn sub_inv(&self, x: __m256i) -> __m256i {
        Self::lookup(x, &self.pi_inv)
    }
    #[inline(always)]
    fn unpack_lo<const W: usize>(&self, a: __m256i, b: __m256i) -> __m256i {
        unsafe {
            match W {
                1 => _mm256_unpacklo_epi8(a, b),
                2 => _mm256_unpacklo_epi16(a, b),
                4 => _mm256_unpacklo_epi32(a, b),
                _ => _mm256_unpacklo_epi64(a, b),
            }
        }
    }
    #[inline(always)]
    fn unpack_hi<const W: usize>(&self, a: __m256i, b: __m256i) -> __m256i {
        unsafe {
            match W {
                1 => _mm256_unpackhi_epi8(a, b),
                2 => _mm256_unpackhi_epi16(a, b),
                4 => _mm256_unpackhi_epi32(a, b),
                _ => _mm256_unpackhi_epi64(a, b),
            }
        }
    }
}
