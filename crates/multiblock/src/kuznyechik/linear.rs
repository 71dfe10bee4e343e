//! GF(2^8)-linear maps of a 128-bit block (L, L⁻¹, the sliced kernels' step
//! constants), applied in constant time and cheaply, for key setup, and the
//! key schedule's round constants C_i = L(Vec128(i)) (§4.3).
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
        {
            use crate::simd::Narrow;
            if let Some(m) = crate::simd::Ymm::<crate::simd::Avx2>::detect() {
                return m.vectorize(Apply { m, block: m.half(), map: self, a });
            }
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(m) = crate::simd::Neon::detect() {
            return m.vectorize(Apply { m, block: m, map: self, a });
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

    /// f(x) for the block in `x`, a register of the 16-byte machine `b`,
    /// computed on machine `m` (16, 32 or 64 bytes wide), for kernels that
    /// call it inside their own instruction set. The block goes to every
    /// lane of `m` through `buf`, and [`Linear::sum_on`]'s lanes come back
    /// through it to be XORed as `b` registers; each load lies inside the
    /// store before it, so it is forwarded. The caller wipes `buf`.
    #[inline(always)]
    pub(crate) fn apply_in<M: Simd, B: Simd>(&self, m: M, b: B, x: B::V, buf: &mut [u8; 64]) -> B::V {
        debug_assert_eq!(B::BYTES, 16);
        b.store(x, &mut buf[..16]);
        let sum = self.sum_on(m, m.splat128(buf[..16].try_into().expect("16 bytes")));
        m.store(sum, &mut buf[..M::BYTES]);
        let mut y = b.load(&buf[..16]);
        for lane in 1..M::BYTES / 16 {
            y = b.xor(y, b.load(&buf[16 * lane..16 * lane + 16]));
        }
        y
    }

    /// f of the block that `v` holds in every 128-bit lane, as partial sums
    /// whose lanes XOR to f(block). Byte i is spread over a register by a
    /// `pshufb`, compared with the selectors of M::BYTES / 16 bits, and the
    /// masks pick those bits' images; four accumulators keep the XOR chains
    /// short.
    #[inline(always)]
    fn sum_on<M: Simd>(&self, m: M, v: M::V) -> M::V {
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

/// [`Linear::apply`] as a job of machine `m`, the block in a register of
/// `block` (see [`Linear::apply_in`]).
struct Apply<'a, M, B> {
    m: M,
    block: B,
    map: &'a Linear,
    a: &'a Block,
}

impl<M: Simd, B: Simd> Job for Apply<'_, M, B> {
    type Output = Block;
    #[inline(always)]
    fn run(self) -> Block {
        let Apply { m, block: b, map, a } = self;
        let mut buf = [0u8; 64];
        let y = map.apply_in(m, b, b.load(a), &mut buf);
        buf.zeroize();
        let mut out = [0u8; 16];
        b.store(y, &mut out);
        out
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

/// C_i = L(Vec128(i)), i = 1..32: the 128-bit big-endian number i, through L.
pub(crate) fn round_constant(i: u8) -> Block {
    let mut c = [0u8; 16];
    c[15] = i;
    l_map().apply(&c)
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
                assert_eq!(Apply { m: Emu::<16>, block: Emu::<16>, map, a: &a }.run(), want, "one image per register");
                assert_eq!(Apply { m: Emu::<32>, block: Emu::<16>, map, a: &a }.run(), want, "two images per register");
                assert_eq!(Apply { m: Emu::<64>, block: Emu::<16>, map, a: &a }.run(), want, "four images per register");
            }
        }
    }
}
