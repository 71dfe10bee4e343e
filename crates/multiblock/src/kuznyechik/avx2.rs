//! Constant-time Kuznyechik on AVX2, 32 blocks per batch, for CPUs without
//! AVX-512 VBMI: `avx2`, and `avx2-gfni` where GFNI (VEX) is present (Intel
//! Alder Lake and later cores without AVX-512, Tremont/Gracemont). Same
//! byte-sliced layout and LFSR form of L as `avx512_gfni.rs` (see
//! `sliced.rs`), 16 ymm = byte j of 32 blocks.
//!
//! - π: 16 `vpshufb` of the low nibble into the rows π[16h..16h+16], then a
//!   tree of 15 `vpblendvb` on bits 4, 5, 6, 7 (3 shifts bring each bit to
//!   bit 7): 35 ops per register, no memory access that depends on data.
//! - c·x in GF(2^8)/0x1C3: `avx2`: c·x = c·lo(x) ⊕ c·(hi(x)<<4), two 16-entry
//!   `vpshufb` tables: and, shift, and, 2 shuffles, xor = 6 ops;
//!   `avx2-gfni`: one `vgf2p8affineqb` with the 8×8 bit matrix of c.
//!
//! Count per round per batch of 32 blocks (512 B):
//! - `avx2`: L = 16 steps × (6 pair XORs + 7 × 6 multiply + 10 XORs) = 928
//!   ops, 224 of them `vpshufb`; S = 16 × 35 = 560 ops, 256 `vpshufb`.
//!   1488 ops ≈ 2.9 per byte per round, 9 rounds ≈ 26 ops/B, 8.4 of them
//!   shuffles (2 per cycle on Zen 3; 1 per cycle, port 5, on Intel).
//!   Floor ≈ 26 / 4 ≈ 6.5 cycles/B on Zen 3; on Intel ≥ 8.4 cycles/B from
//!   `vpshufb` on port 5 alone.
//! - `avx2-gfni`: L = 16 × (6 + 7 + 10) = 368 ops; S unchanged 560; 928 ops
//!   ≈ 16 ops/B over 9 rounds; π's 256 shuffles per round (4.5/B) are the
//!   floor on Intel (port 5).
//!
//! With 16 ymm registers the state alone fills the register file, so the
//! tables are reloaded from L1 each time (loads are not the limit).

use super::sliced::{
    batches, decrypt_batch, encrypt_batch, gf_mul_const, Machine, SlicedKeys, MULS, MUL_MATRICES,
};
use super::tables::{PI, PI_INV};
use super::Keys;
use crate::cpu::{Backend, BackendInfo, BlockKernel, CpuFeatures};
use core::arch::x86_64::*;
use zeroize::Zeroize;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "avx2", constant_time: true, ways: 32, needs: "avx2" },
    available,
    new: |keys| {
        assert!(available(CpuFeatures::get()), "avx2 kernel on a CPU without it");
        Box::new(Avx2::<false>(SlicedKeys::new(&keys.rk)))
    },
};

pub(crate) const BACKEND_GFNI: Backend<Keys> = Backend {
    info: BackendInfo { name: "avx2-gfni", constant_time: true, ways: 32, needs: "avx2+gfni" },
    available: available_gfni,
    new: |keys| {
        assert!(available_gfni(CpuFeatures::get()), "avx2-gfni kernel on a CPU without it");
        Box::new(Avx2::<true>(SlicedKeys::new(&keys.rk)))
    },
};

fn available(f: &CpuFeatures) -> bool {
    f.avx2
}

fn available_gfni(f: &CpuFeatures) -> bool {
    f.avx2 && f.gfni
}

/// The kernel; `GFNI` selects the multiplication.
struct Avx2<const GFNI: bool>(SlicedKeys);

impl BlockKernel for Avx2<false> {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: the kernel exists only where `available` said yes.
        unsafe { encrypt(&self.0, data) }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { decrypt(&self.0, data) }
    }
}

impl BlockKernel for Avx2<true> {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: the kernel exists only where `available_gfni` said yes.
        unsafe { encrypt_gfni(&self.0, data) }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { decrypt_gfni(&self.0, data) }
    }
}

#[target_feature(enable = "avx2")]
unsafe fn encrypt(k: &SlicedKeys, data: &mut [u8]) {
    let y = Ymm::<false>(());
    batches::<512, 512>(data, |b| encrypt_batch(&y, k, b), |b| encrypt_batch(&y, k, b));
}

#[target_feature(enable = "avx2")]
unsafe fn decrypt(k: &SlicedKeys, data: &mut [u8]) {
    let y = Ymm::<false>(());
    batches::<512, 512>(data, |b| decrypt_batch(&y, k, b), |b| decrypt_batch(&y, k, b));
}

#[target_feature(enable = "avx2,gfni")]
unsafe fn encrypt_gfni(k: &SlicedKeys, data: &mut [u8]) {
    let y = Ymm::<true>(());
    batches::<512, 512>(data, |b| encrypt_batch(&y, k, b), |b| encrypt_batch(&y, k, b));
}

#[target_feature(enable = "avx2,gfni")]
unsafe fn decrypt_gfni(k: &SlicedKeys, data: &mut [u8]) {
    let y = Ymm::<true>(());
    batches::<512, 512>(data, |b| decrypt_batch(&y, k, b), |b| decrypt_batch(&y, k, b));
}

/// π on one block in constant time (the key schedule's S, on secret bytes);
/// `false`, with `a` untouched, on a CPU without AVX2.
pub(crate) fn sub_block(a: &mut [u8; 16]) -> bool {
    if !available(CpuFeatures::get()) {
        return false;
    }
    // SAFETY: AVX2 was checked just above.
    unsafe { sub_block_avx2(a) };
    true
}

#[target_feature(enable = "avx2")]
unsafe fn sub_block_avx2(a: &mut [u8; 16]) {
    let y = Ymm::<false>(());
    let mut buf = [0u8; 32];
    buf[..16].copy_from_slice(a);
    let v = y.sub(y.load(&buf));
    y.store(v, &mut buf);
    a.copy_from_slice(&buf[..16]);
    buf.zeroize();
}

/// A 16-byte table repeated in both 128-bit lanes (vpshufb is per lane).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Table32([u8; 32]);

const fn table32(f: [u8; 16]) -> Table32 {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = f[i % 16];
        i += 1;
    }
    Table32(t)
}

/// Row h of a 256-entry table: entries 16h..16h+16.
const fn rows(s: &[u8; 256]) -> [Table32; 16] {
    let mut r = [Table32([0; 32]); 16];
    let mut h = 0;
    while h < 16 {
        let mut f = [0u8; 16];
        let mut l = 0;
        while l < 16 {
            f[l] = s[16 * h + l];
            l += 1;
        }
        r[h] = table32(f);
        h += 1;
    }
    r
}

static PI_ROWS: [Table32; 16] = rows(&PI);
static PI_INV_ROWS: [Table32; 16] = rows(&PI_INV);

/// For each of [`MULS`]: c·l and c·(h<<4) for nibbles l, h.
static MUL_LO: [Table32; 7] = mul_tables(0);
static MUL_HI: [Table32; 7] = mul_tables(4);

const fn mul_tables(shift: u32) -> [Table32; 7] {
    let mut t = [Table32([0; 32]); 7];
    let mut k = 0;
    while k < 7 {
        let mut f = [0u8; 16];
        let mut n = 0;
        while n < 16 {
            f[n] = gf_mul_const(MULS[k], (n as u8) << shift);
            n += 1;
        }
        t[k] = table32(f);
        k += 1;
    }
    t
}

/// The ymm machine; holding one means the CPU has AVX2 (and GFNI if `GFNI`).
struct Ymm<const GFNI: bool>(());

#[inline(always)]
fn ld(t: &Table32) -> __m256i {
    // SAFETY: only reached from AVX2 functions; 32 aligned bytes.
    unsafe { _mm256_load_si256(t.0.as_ptr().cast()) }
}

impl<const GFNI: bool> Ymm<GFNI> {
    /// 256-entry lookup: 16 row lookups by the low nibble, a blend tree on
    /// bits 4..7 (`vpblendvb` reads bit 7 of each mask byte; a 16-bit shift
    /// left by 3, 2, 1 moves bit 4, 5, 6 there).
    #[inline(always)]
    fn lookup(x: __m256i, t: &[Table32; 16]) -> __m256i {
        // SAFETY: a Ymm exists only on a CPU with AVX2.
        unsafe {
            let lo = _mm256_and_si256(x, _mm256_set1_epi8(0x0f));
            let mut r = [lo; 16];
            for (h, v) in r.iter_mut().enumerate() {
                *v = _mm256_shuffle_epi8(ld(&t[h]), lo);
            }
            let b4 = _mm256_slli_epi16(x, 3);
            let b5 = _mm256_slli_epi16(x, 2);
            let b6 = _mm256_slli_epi16(x, 1);
            let mut s = [lo; 8];
            for i in 0..8 {
                s[i] = _mm256_blendv_epi8(r[2 * i], r[2 * i + 1], b4);
            }
            let mut u = [lo; 4];
            for i in 0..4 {
                u[i] = _mm256_blendv_epi8(s[2 * i], s[2 * i + 1], b5);
            }
            let v0 = _mm256_blendv_epi8(u[0], u[1], b6);
            let v1 = _mm256_blendv_epi8(u[2], u[3], b6);
            _mm256_blendv_epi8(v0, v1, x)
        }
    }
}

// SAFETY (every method): a Ymm exists only on a CPU with AVX2 (+ GFNI if GFNI).
impl<const GFNI: bool> Machine for Ymm<GFNI> {
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
        unsafe { _mm256_xor_si256(_mm256_xor_si256(a, b), c) }
    }
    #[inline(always)]
    fn mul(&self, x: __m256i, k: usize) -> __m256i {
        if GFNI {
            return unsafe {
                _mm256_gf2p8affine_epi64_epi8::<0>(x, _mm256_set1_epi64x(MUL_MATRICES[k] as i64))
            };
        }
        unsafe {
            let m = _mm256_set1_epi8(0x0f);
            let lo = _mm256_and_si256(x, m);
            let hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), m);
            _mm256_xor_si256(
                _mm256_shuffle_epi8(ld(&MUL_LO[k]), lo),
                _mm256_shuffle_epi8(ld(&MUL_HI[k]), hi),
            )
        }
    }
    #[inline(always)]
    fn sub(&self, x: __m256i) -> __m256i {
        Self::lookup(x, &PI_ROWS)
    }
    #[inline(always)]
    fn sub_inv(&self, x: __m256i) -> __m256i {
        Self::lookup(x, &PI_INV_ROWS)
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
