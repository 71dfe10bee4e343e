//! GF(2^8)-linear maps of a 128-bit block (L, L⁻¹, the sliced kernels' step
//! constants), applied in constant time and cheaply, for key setup.
//!
//! A map f is stored as the images of the 128 unit bit vectors; f(a) is the
//! XOR of the images of a's set bits, each selected by an all-ones/all-zeros
//! mask (no branch, no address depends on a): 128 × (shift, and, negate,
//! 2 and, 2 xor) ≈ 900 scalar ops, against 256 bit-serial GF(2^8) products
//! (≈ 13 000 ops, with data-dependent branches) for the spec-style L of
//! `transforms.rs`. Because f is linear over GF(2^8), its table needs only
//! the 16 images f(e_i) of the unit bytes: f(2^b·e_i) = 2^b·f(e_i) bytewise.
//!
//! Where the CPU has AVX2 (or NEON) the same selection runs on vectors: byte
//! a_i spread over a register by `pshufb`, compared bitwise against a
//! selector, the masks ANDed with two images per ymm (one per NEON
//! register): 16 × (1 + 4 × 4) ≈ 270 vector operations instead of ≈ 900
//! scalar ones. Kuznyechik's key schedule calls this 32 times per key where
//! no narrow AVX-512 kernel runs it, and `avx2-narrow` (`masked.rs`) twice
//! per block and round.

use crate::gf256::{self, KUZNYECHIK};
use crate::simd::{Job, Machine, Simd};
use super::transforms::{l, l_inv, Block};
use std::sync::OnceLock;
use zeroize::Zeroize;

pub(crate) struct Linear {
    /// Bytes 16 (8 i + b) .. 16 (8 i + b + 1): f(2^b in byte i).
    cols: [u8; 2048],
}

/// Sixteen copies of 2^b for b = 0..8: the selector of bit b.
static BIT_SELECTORS: [u8; 128] = {
    let mut s = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        s[i] = 1 << (i / 16);
        i += 1;
    }
    s
};

/// `pshufb` indices: SPREAD[i] copies byte i to every byte of a lane.
static SPREAD: [[u8; 16]; 16] = {
    let mut s = [[0u8; 16]; 16];
    let mut i = 0;
    while i < 16 {
        s[i] = [i as u8; 16];
        i += 1;
    }
    s
};

impl Linear {
    /// Tabulates `f`, which must be GF(2^8)-linear (16 calls of `f`).
    pub(crate) fn new(f: impl Fn(&Block) -> Block) -> Linear {
        let mut cols = [0u8; 2048];
        for i in 0..16 {
            let mut e = [0u8; 16];
            e[i] = 1;
            let image = f(&e);
            for b in 0..8 {
                let at = 16 * (8 * i + b);
                for (c, &y) in cols[at..at + 16].iter_mut().zip(&image) {
                    *c = gf256::mul(y, 1 << b, KUZNYECHIK);
                }
            }
        }
        Linear { cols }
    }

    /// f(a), in constant time: on AVX2 or NEON where the CPU has it.
    pub(crate) fn apply(&self, a: &Block) -> Block {
        #[cfg(target_arch = "x86_64")]
        if let Some(m) = crate::simd::Ymm::<crate::simd::Avx2>::detect() {
            return m.vectorize(Apply { m, map: self, a });
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(m) = crate::simd::Neon::detect() {
            return m.vectorize(Apply { m, map: self, a });
        }
        self.apply_scalar(a)
    }

    /// f(a) on u64 halves, every bit's image ANDed with its mask.
    fn apply_scalar(&self, a: &Block) -> Block {
        let (mut lo, mut hi) = (0u64, 0u64);
        for (i, &byte) in a.iter().enumerate() {
            for b in 0..8 {
                let mask = 0u64.wrapping_sub(u64::from((byte >> b) & 1));
                let [c0, c1] = halves(&self.cols[16 * (8 * i + b)..]);
                lo ^= mask & c0;
                hi ^= mask & c1;
            }
        }
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&lo.to_le_bytes());
        out[8..].copy_from_slice(&hi.to_le_bytes());
        out
    }
}

/// [`Linear::apply`] as a job of machine `m` (see [`Linear::apply_on`]).
struct Apply<'a, M> {
    m: M,
    map: &'a Linear,
    a: &'a Block,
}

impl<M: Simd> Job for Apply<'_, M> {
    type Output = Block;
    #[inline(always)]
    fn run(self) -> Block {
        self.map.apply_on(self.m, self.a)
    }
}

impl Linear {
    /// [`Linear::apply`] written for machine `m`, for kernels that call it
    /// inside their own instruction set.
    #[inline(always)]
    pub(crate) fn apply_on<M: Simd>(&self, m: M, a: &Block) -> Block {
        let sum = self.sum_on(m, m.splat128(a));
        let mut lanes = [0u8; 64];
        m.store(sum, &mut lanes);
        let mut out = [0u64; 2];
        for lane in lanes[..M::BYTES].chunks_exact(16) {
            let [lo, hi] = halves(lane);
            out[0] ^= lo;
            out[1] ^= hi;
        }
        lanes.zeroize();
        let mut block = [0u8; 16];
        block[..8].copy_from_slice(&out[0].to_le_bytes());
        block[8..].copy_from_slice(&out[1].to_le_bytes());
        out.zeroize();
        block
    }

    /// f of the block that `v` holds in every 128-bit lane, as partial sums
    /// whose lanes XOR to f(block). Byte i is spread over a register by a
    /// `pshufb`, compared with the selectors of M::BYTES / 16 bits, and the
    /// masks pick those bits' images; four accumulators keep the XOR chains
    /// short.
    #[inline(always)]
    pub(crate) fn sum_on<M: Simd>(&self, m: M, v: M::V) -> M::V {
        let per = M::BYTES / 16;
        let mut acc = [m.zero(); 4];
        for i in 0..16 {
            let byte = m.shuffle8(v, m.splat128(&SPREAD[i]));
            for q in 0..8 / per {
                let b = per * q;
                let sel = m.load(&BIT_SELECTORS[16 * b..]);
                let mask = m.eq8(m.and(byte, sel), sel);
                let image = m.load(&self.cols[16 * (8 * i + b)..]);
                // Indexed by q alone, so that each stays in a register
                // when the loop over i is not unrolled.
                acc[q % 4] = m.xor(acc[q % 4], m.and(mask, image));
            }
        }
        m.xor(m.xor(acc[0], acc[1]), m.xor(acc[2], acc[3]))
    }
}

fn halves(b: &[u8]) -> [u64; 2] {
    [u64::from_le_bytes(b[..8].try_into().unwrap()), u64::from_le_bytes(b[8..16].try_into().unwrap())]
}

/// L = R^16 as a table (built once per process, from the spec-style `l`).
pub(crate) fn l_map() -> &'static Linear {
    static L: OnceLock<Linear> = OnceLock::new();
    tabulated(&L, l)
}

/// L⁻¹ as a table.
pub(crate) fn l_inv_map() -> &'static Linear {
    static L_INV: OnceLock<Linear> = OnceLock::new();
    tabulated(&L_INV, l_inv)
}

/// The table of the in-place map `f`, built once in `cell`.
fn tabulated(cell: &'static OnceLock<Linear>, f: fn(&mut Block)) -> &'static Linear {
    cell.get_or_init(|| {
        Linear::new(|a| {
            let mut t = *a;
            f(&mut t);
            t
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::emu::Emu;

    #[test]
    fn tables_match_the_spec_transforms_on_random_blocks() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let a: Block = core::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            });
            let (mut want, mut want_inv) = (a, a);
            l(&mut want);
            l_inv(&mut want_inv);
            assert_eq!(l_map().apply(&a), want);
            assert_eq!(l_inv_map().apply(&a), want_inv);
            assert_eq!(l_map().apply_scalar(&a), want);
            for map in [l_map(), l_inv_map()] {
                let want = map.apply_scalar(&a);
                assert_eq!(Apply { m: Emu::<16>, map, a: &a }.run(), want, "one image per register");
                assert_eq!(Apply { m: Emu::<32>, map, a: &a }.run(), want, "two images per register");
                assert_eq!(Apply { m: Emu::<64>, map, a: &a }.run(), want, "four images per register");
            }
        }
    }
}
