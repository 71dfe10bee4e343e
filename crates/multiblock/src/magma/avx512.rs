//! `avx512`: constant-time Magma / GOST 28147-89 with AVX-512F+BW: 512-bit
//! vpshufb with merge-masking, vpternlogd and vprold.
//!
//! Layout: one zmm holds N1 of 16 blocks (a 32-bit lane each), another
//! their N2; `GROUPS` such pairs are interleaved (64 blocks). Load: vpshufb
//! puts the two blocks of each 128-bit lane in [N1 N1 N2 N2] order (and
//! applies the byte order, see `layout`), then vpermt2q picks the N1 and N2
//! quadwords of two registers; store reverses it.
//!
//! Round (see `nibble` for the tables), per 16 blocks, 12 instructions:
//! vpaddd (key) · vpsrld 4 · vpandd (L) · 2 vpternlogd (I1, I2 = mux of L and
//! x>>4) · 4 vpshufb, two of them merge-masked onto the odd bytes ·
//! vpternlogd (nibble mux of the two results) · vprold 11 · vpxord.
//! Ports (Ice Lake and later): p5 4 (vpshufb), p0 2 (shift, rotate),
//! p05 6 → 6 cycles per round per 16 blocks, 1.5 cycles/byte at best.
//! Seed 000 Table 5: 1.88 cycles/byte for AVX-512 at 64 blocks (Skylake-SP).

use super::batch::for_each_batch;
use super::nibble::{ShufTables, I1_FROM_SHIFTED, I2_FROM_SHIFTED, KEEP_I1};
use super::schedule::RoundKeys;
use super::{layout, Keys};
use crate::cpu::{Backend, BackendInfo, BlockKernel, CpuFeatures};
use core::arch::x86_64::*;

const LANES: usize = 16;
const GROUPS: usize = 4;

fn available(f: &CpuFeatures) -> bool {
    f.avx512f && f.avx512bw
}

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "avx512", constant_time: true, ways: LANES * GROUPS, needs: "avx512f+avx512bw" },
    available,
    new: |keys| Box::new(Avx512::new(keys)),
};

struct Avx512 {
    rk: RoundKeys,
    tables: ShufTables,
    gather: [u8; 16],
    scatter: [u8; 16],
}

impl Avx512 {
    fn new(keys: &Keys) -> Avx512 {
        assert!(available(CpuFeatures::get()), "avx512 backend built on a CPU without AVX-512F+BW");
        Avx512 {
            rk: RoundKeys::new(keys),
            tables: ShufTables::new(keys.sbox),
            gather: layout::pair_gather(keys.order),
            scatter: layout::pair_scatter(keys.order),
        }
    }

    fn run(&self, data: &mut [u8], decrypt: bool) {
        let rk = self.rk.get(decrypt);
        for_each_batch(data, LANES, GROUPS, |chunk, groups| {
            // SAFETY: `new` checked AVX-512F+BW; `chunk` holds `groups` groups.
            unsafe {
                match groups {
                    1 => crypt::<1>(self, chunk, rk),
                    2 => crypt::<2>(self, chunk, rk),
                    3 => crypt::<3>(self, chunk, rk),
                    _ => crypt::<GROUPS>(self, chunk, rk),
                }
            }
        });
    }
}

impl BlockKernel for Avx512 {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        self.run(data, false);
    }
    fn decrypt_blocks(&self, data: &mut [u8]) {
        self.run(data, true);
    }
}

/// The constants of a round, loaded once per call.
struct Consts {
    p: __m512i,
    q: __m512i,
    r: __m512i,
    s: __m512i,
    low_nibbles: __m512i,
    i1_from_shifted: __m512i,
    i2_from_shifted: __m512i,
    keep_i1: __m512i,
}

/// Bytes 1 and 3 of every dword.
const ODD_BYTES: __mmask64 = 0xAAAA_AAAA_AAAA_AAAA;

/// vpternlogd truth tables over (A, B, C) = (0xF0, 0xCC, 0xAA).
const MUX_B_IF_C_ELSE_A: i32 = 0xD8; // (B & C) | (A & !C)
const MUX_A_IF_C_ELSE_B: i32 = 0xE4; // (A & C) | (B & !C)

#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn splat(x: u32) -> __m512i {
    _mm512_set1_epi32(x as i32)
}

/// `rotl11(S(n + k))` for 16 blocks.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn g(c: &Consts, n: __m512i, k: __m512i) -> __m512i {
    let x = _mm512_add_epi32(n, k);
    let xs = _mm512_srli_epi32::<4>(x);
    let l = _mm512_and_si512(x, c.low_nibbles);
    // L has clear high nibbles, so the mux also clears them in the bytes taken from x >> 4.
    let i1 = _mm512_ternarylogic_epi32::<MUX_B_IF_C_ELSE_A>(l, xs, c.i1_from_shifted);
    let i2 = _mm512_ternarylogic_epi32::<MUX_B_IF_C_ELSE_A>(l, xs, c.i2_from_shifted);
    let s1 = _mm512_mask_shuffle_epi8(_mm512_shuffle_epi8(c.p, i1), ODD_BYTES, c.q, i1);
    let s2 = _mm512_mask_shuffle_epi8(_mm512_shuffle_epi8(c.r, i2), ODD_BYTES, c.s, i2);
    let y = _mm512_ternarylogic_epi32::<MUX_A_IF_C_ELSE_B>(s1, s2, c.keep_i1);
    _mm512_rol_epi32::<11>(y)
}

/// 32 rounds on `G` groups of 16 blocks; `data.len() == 128 * G`.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn crypt<const G: usize>(k: &Avx512, data: &mut [u8], rk: &[u32; 32]) {
    assert_eq!(data.len(), G * LANES * 8);
    let ptr = data.as_mut_ptr().cast::<__m512i>();
    let table = |b: &[u8; 16]| unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(b.as_ptr().cast())) };
    let c = Consts {
        p: table(&k.tables.p),
        q: table(&k.tables.q),
        r: table(&k.tables.r),
        s: table(&k.tables.s),
        low_nibbles: splat(0x0F0F_0F0F),
        i1_from_shifted: splat(I1_FROM_SHIFTED),
        i2_from_shifted: splat(I2_FROM_SHIFTED),
        keep_i1: splat(KEEP_I1),
    };
    let (gather, scatter) = (table(&k.gather), table(&k.scatter));
    let even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    let odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    let mut a = [_mm512_setzero_si512(); G];
    let mut b = [_mm512_setzero_si512(); G];
    for i in 0..G {
        // SAFETY: 2 * G zmm words lie inside `data` (asserted above).
        let (x, y) = unsafe { (_mm512_loadu_si512(ptr.add(2 * i)), _mm512_loadu_si512(ptr.add(2 * i + 1))) };
        // Quadwords [N1 N2 N1 N2 ...] of 2 blocks each.
        let (x, y) = (_mm512_shuffle_epi8(x, gather), _mm512_shuffle_epi8(y, gather));
        a[i] = _mm512_permutex2var_epi64(x, even, y);
        b[i] = _mm512_permutex2var_epi64(x, odd, y);
    }
    for r in (0..32).step_by(2) {
        let k0 = splat(rk[r]);
        for i in 0..G {
            b[i] = _mm512_xor_si512(b[i], g(&c, a[i], k0));
        }
        let k1 = splat(rk[r + 1]);
        for i in 0..G {
            a[i] = _mm512_xor_si512(a[i], g(&c, b[i], k1));
        }
    }
    // The last round does not swap: N1 is in `b`, N2 in `a`.
    let low = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
    let high = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    for i in 0..G {
        let x = _mm512_shuffle_epi8(_mm512_permutex2var_epi64(b[i], low, a[i]), scatter);
        let y = _mm512_shuffle_epi8(_mm512_permutex2var_epi64(b[i], high, a[i]), scatter);
        // SAFETY: as for the loads.
        unsafe {
            _mm512_storeu_si512(ptr.add(2 * i), x);
            _mm512_storeu_si512(ptr.add(2 * i + 1), y);
        }
    }
}
