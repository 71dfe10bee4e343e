//! `avx512-vbmi`: constant-time Magma / GOST 28147-89 with AVX-512 VBMI
//! vpermb: one 64-byte table lookup substitutes a nibble of every byte of
//! 16 words at once, each byte with the S-box of its own position.
//!
//! Layout: one zmm holds N1 of 16 blocks (a 32-bit lane each), another
//! their N2; `GROUPS` = 4 such pairs are interleaved (64 blocks) so the ~8
//! cycle latency of a round is hidden. Load and store are one vpermt2b per
//! register, which also applies the byte order (Magma big-endian or gost89
//! little-endian, see `layout`).
//!
//! Round (see `nibble` for the tables), per 16 blocks, 9 instructions:
//! vpaddd (key) · vpternlogd (low-nibble index: x & 0x0F | position << 4) ·
//! vpsrld 4 + vpternlogd (high-nibble index) · 2 vpermb (low-nibble S-boxes,
//! high-nibble S-boxes pre-shifted) · vpord · vprold 11 · vpxord.
//! Ports (Ice Lake and later): p5 2 (vpermb), p0 2 (vpsrld, vprold),
//! p05 5 → 4.5 cycles per round per 16 blocks, about 1.13 cycles/byte if
//! ports 0 and 5 stay busy.

use super::batch::for_each_batch;
use super::nibble::{permb_tables, POSITION_TAGS};
use super::schedule::RoundKeys;
use super::{layout, Keys};
use crate::cpu::{Backend, BackendInfo, BlockKernel, CpuFeatures};
use core::arch::x86_64::*;

const LANES: usize = 16;
const GROUPS: usize = 4;

fn available(f: &CpuFeatures) -> bool {
    f.avx512f && f.avx512bw && f.avx512vbmi
}

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo {
        name: "avx512-vbmi",
        constant_time: true,
        ways: LANES * GROUPS,
        needs: "avx512f+avx512bw+avx512vbmi",
    },
    available,
    new: |keys| Box::new(Vbmi::new(keys)),
};

struct Vbmi {
    rk: RoundKeys,
    /// Low-nibble S-boxes, high-nibble S-boxes (<< 4).
    lo: [u8; 64],
    hi: [u8; 64],
    /// vpermt2b indexes: 16 blocks → N1 words, → N2 words.
    gather: [[u8; 64]; 2],
    /// (N1 words, N2 words) → first 8 blocks, → last 8 blocks.
    scatter: [[u8; 64]; 2],
}

impl Vbmi {
    fn new(keys: &Keys) -> Vbmi {
        assert!(available(CpuFeatures::get()), "avx512-vbmi backend built on a CPU without AVX-512 VBMI");
        let (lo, hi) = permb_tables(keys.sbox);
        Vbmi {
            rk: RoundKeys::new(keys),
            lo,
            hi,
            gather: [layout::gather16(keys.order, 0), layout::gather16(keys.order, 1)],
            scatter: [layout::scatter16(keys.order, 0), layout::scatter16(keys.order, 1)],
        }
    }

    fn run(&self, data: &mut [u8], decrypt: bool) {
        let rk = self.rk.get(decrypt);
        for_each_batch(data, LANES, GROUPS, |chunk, groups| {
            // SAFETY: `new` checked AVX-512F+BW+VBMI; `chunk` holds `groups` groups.
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

impl BlockKernel for Vbmi {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        self.run(data, false);
    }
    fn decrypt_blocks(&self, data: &mut [u8]) {
        self.run(data, true);
    }
}

/// The constants of a round, loaded once per call.
struct Consts {
    lo: __m512i,
    hi: __m512i,
    low_nibbles: __m512i,
    tags: __m512i,
}

/// vpternlogd truth table over (A, B, C) = (0xF0, 0xCC, 0xAA): (A & B) | C.
const AND_OR: i32 = 0xEA;

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn splat(x: u32) -> __m512i {
    _mm512_set1_epi32(x as i32)
}

/// `rotl11(S(n + k))` for 16 blocks.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn g(c: &Consts, n: __m512i, k: __m512i) -> __m512i {
    let x = _mm512_add_epi32(n, k);
    let il = _mm512_ternarylogic_epi32::<AND_OR>(x, c.low_nibbles, c.tags);
    let ih = _mm512_ternarylogic_epi32::<AND_OR>(_mm512_srli_epi32::<4>(x), c.low_nibbles, c.tags);
    let y = _mm512_or_si512(_mm512_permutexvar_epi8(il, c.lo), _mm512_permutexvar_epi8(ih, c.hi));
    _mm512_rol_epi32::<11>(y)
}

/// 32 rounds on `G` groups of 16 blocks; `data.len() == 128 * G`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn crypt<const G: usize>(k: &Vbmi, data: &mut [u8], rk: &[u32; 32]) {
    assert_eq!(data.len(), G * LANES * 8);
    let ptr = data.as_mut_ptr().cast::<__m512i>();
    let load64 = |b: &[u8; 64]| unsafe { _mm512_loadu_si512(b.as_ptr().cast()) };
    let c = Consts { lo: load64(&k.lo), hi: load64(&k.hi), low_nibbles: splat(0x0F0F_0F0F), tags: splat(POSITION_TAGS) };
    let gather = [load64(&k.gather[0]), load64(&k.gather[1])];
    let scatter = [load64(&k.scatter[0]), load64(&k.scatter[1])];
    let mut a = [_mm512_setzero_si512(); G];
    let mut b = [_mm512_setzero_si512(); G];
    for i in 0..G {
        // SAFETY: 2 * G zmm words lie inside `data` (asserted above).
        let (x, y) = unsafe { (_mm512_loadu_si512(ptr.add(2 * i)), _mm512_loadu_si512(ptr.add(2 * i + 1))) };
        a[i] = _mm512_permutex2var_epi8(x, gather[0], y);
        b[i] = _mm512_permutex2var_epi8(x, gather[1], y);
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
    for i in 0..G {
        let x = _mm512_permutex2var_epi8(b[i], scatter[0], a[i]);
        let y = _mm512_permutex2var_epi8(b[i], scatter[1], a[i]);
        // SAFETY: as for the loads.
        unsafe {
            _mm512_storeu_si512(ptr.add(2 * i), x);
            _mm512_storeu_si512(ptr.add(2 * i + 1), y);
        }
    }
}
