//! GF(2^n) for DSTU 7624:2014 GCM/GMAC and XTS, one field per block size:
//!
//! | n | polynomial |
//! |---|---|
//! | 128 | x^128 + x^7 + x^2 + x + 1 |
//! | 256 | x^256 + x^10 + x^5 + x^2 + 1 |
//! | 512 | x^512 + x^8 + x^5 + x^2 + 1 |
//!
//! (DSTU 7624:2014 §12; the same f = (7,2,1), (10,5,2), (8,5,2) triples as
//! UAPKI's `dstu7624_init_gcm` and Bouncy Castle's KGCM multipliers.)
//!
//! Elements are little-endian, without the bit reflection of NIST GHASH:
//! bit j of byte i is the coefficient of x^(8i+j). Multiplication is a
//! carry-less product ([`super::clmul`] when the CPU has PCLMULQDQ, else
//! [`super::portable`]) followed by a word-wise reduction.

use super::portable;
// The tests run the carry-less kernel on the emulator on every architecture.
#[cfg(any(target_arch = "x86_64", test))]
use super::clmul;
#[cfg(target_arch = "x86_64")]
use crate::simd::{Machine, Pclmul, Xmm};

/// An element: the first `w` of these little-endian limbs are used.
pub(crate) type Elem = [u64; 8];

#[derive(Debug, Clone, Copy)]
enum Mul {
    /// The token is the proof that the CPU has PCLMULQDQ.
    #[cfg(target_arch = "x86_64")]
    Clmul(Xmm<Pclmul>),
    Portable,
}

/// The field of one block size.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    /// Limbs: n / 64.
    w: usize,
    /// The exponents f1 > f2 > f3 of x^n = x^f1 + x^f2 + x^f3 + 1.
    f: [u32; 3],
    mul: Mul,
}

impl Field {
    /// The field for `block_bytes` = 16, 32 or 64, with the fastest multiply.
    pub(crate) fn for_block(block_bytes: usize) -> Field {
        #[allow(unused_mut)] // no clmul outside x86-64
        let mut f = Field::portable(block_bytes);
        #[cfg(target_arch = "x86_64")]
        if let Some(m) = Xmm::<Pclmul>::detect() {
            f.mul = Mul::Clmul(m);
        }
        f
    }

    /// The same field with the portable multiply only (tests compare).
    pub(crate) fn portable(block_bytes: usize) -> Field {
        let f = match block_bytes {
            16 => [7, 2, 1],
            32 => [10, 5, 2],
            64 => [8, 5, 2],
            _ => panic!("DSTU GF(2^n) exists for 16-, 32- and 64-byte blocks, not {block_bytes}"),
        };
        Field { w: block_bytes / 8, f, mul: Mul::Portable }
    }

    pub(crate) fn block_bytes(&self) -> usize {
        8 * self.w
    }

    pub(crate) fn elem(&self, b: &[u8]) -> Elem {
        let mut e = [0u64; 8];
        for (limb, chunk) in e.iter_mut().zip(b[..8 * self.w].chunks_exact(8)) {
            *limb = u64::from_le_bytes(chunk.try_into().unwrap());
        }
        e
    }

    pub(crate) fn write(&self, e: &Elem, out: &mut [u8]) {
        for (limb, chunk) in e.iter().zip(out[..8 * self.w].chunks_exact_mut(8)) {
            chunk.copy_from_slice(&limb.to_le_bytes());
        }
    }

    /// x^f1 + x^f2 + x^f3 + 1 as one word (all terms are below x^64).
    fn low_terms(&self) -> u64 {
        1 | (1 << self.f[0]) | (1 << self.f[1]) | (1 << self.f[2])
    }

    /// e ← e · x, without a branch on the top bit (the textbook form of
    /// [`Field::tweaks`], for the tests).
    #[cfg(test)]
    pub(crate) fn double(&self, e: &mut Elem) {
        let w = self.w;
        let top = e[w - 1] >> 63;
        for i in (1..w).rev() {
            e[i] = (e[i] << 1) | (e[i - 1] >> 63);
        }
        e[0] = (e[0] << 1) ^ (self.low_terms() & 0u64.wrapping_sub(top));
    }

    /// The XTS tweaks: `t` ← t·x for every block of `out`, each written there.
    pub(crate) fn tweaks(&self, t: &mut Elem, out: &mut [u8]) {
        match self.w {
            2 => tweaks_w::<2>(self.low_terms(), t, out),
            4 => tweaks_w::<4>(self.low_terms(), t, out),
            _ => tweaks_w::<8>(self.low_terms(), t, out),
        }
    }

    /// a · b.
    pub(crate) fn mul(&self, a: &Elem, b: &Elem) -> Elem {
        let w = self.w;
        let mut wide = [0u64; 16];
        match self.mul {
            #[cfg(target_arch = "x86_64")]
            Mul::Clmul(m) => clmul::mul_wide(m, w, a, b, &mut wide),
            Mul::Portable => portable::mul_wide(&a[..w], &b[..w], &mut wide),
        }
        self.reduce(&mut wide)
    }

    /// acc ← (acc ⊕ X)·h for every whole block X of `blocks`.
    pub(crate) fn ghash_blocks(&self, h: &Elem, acc: &mut Elem, blocks: &[u8]) {
        match self.mul {
            #[cfg(target_arch = "x86_64")]
            Mul::Clmul(m) => clmul::ghash(m, self.w, self.low_terms(), h, acc, blocks),
            Mul::Portable => {
                for x in blocks.chunks_exact(8 * self.w) {
                    let x = self.elem(x);
                    for (a, x) in acc.iter_mut().zip(&x) {
                        *a ^= x;
                    }
                    *acc = self.mul(acc, h);
                }
            }
        }
    }

    fn reduce(&self, wide: &mut [u64; 16]) -> Elem {
        match self.w {
            2 => reduce_w::<2>(self.low_terms(), wide),
            4 => reduce_w::<4>(self.low_terms(), wide),
            _ => reduce_w::<8>(self.low_terms(), wide),
        }
    }
}

/// `Field::double` for W limbs, repeated over the blocks of `out`.
#[inline(always)]
fn tweaks_w<const W: usize>(low: u64, t: &mut Elem, out: &mut [u8]) {
    let mut e = [0u64; W];
    e.copy_from_slice(&t[..W]);
    for block in out.chunks_exact_mut(8 * W) {
        let top = e[W - 1] >> 63;
        for i in (1..W).rev() {
            e[i] = (e[i] << 1) | (e[i - 1] >> 63);
        }
        e[0] = (e[0] << 1) ^ (low & 0u64.wrapping_sub(top));
        for (bytes, limb) in block.chunks_exact_mut(8).zip(&e) {
            bytes.copy_from_slice(&limb.to_le_bytes());
        }
    }
    t[..W].copy_from_slice(&e);
}

/// The product of degree < 2n (W limbs, n = 64W) modulo the polynomial
/// x^n + `low`: every word above x^n is folded down whole, since
/// x^(n+k) ≡ x^k·low and `low` has degree below 64 − its word's top term.
/// Top-down, so word W (which the fold of word 2W−1 spills into) is folded
/// after it. No branch or index depends on the data.
#[inline(always)]
pub(crate) fn reduce_w<const W: usize>(low: u64, wide: &mut [u64; 16]) -> Elem {
    for i in (W..2 * W).rev() {
        let t = wide[i];
        wide[i] = 0;
        // t·low, a product of at most 64 + 11 bits, by its set bits of low.
        let mut lo = 0u64;
        let mut hi = 0u64;
        let mut bits = low;
        while bits != 0 {
            let s = bits.trailing_zeros();
            bits &= bits - 1;
            lo ^= t << s;
            hi ^= if s == 0 { 0 } else { t >> (64 - s) };
        }
        wide[i - W] ^= lo;
        wide[i - W + 1] ^= hi;
    }
    let mut out = [0u64; 8];
    out[..W].copy_from_slice(&wide[..W]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::simd::emu::Emu;
    use crate::test_rng::Rng;

    /// A random element of `w` 64-bit words.
    fn elem(rng: &mut Rng, w: usize) -> Elem {
        let mut e = [0u64; 8];
        for l in e.iter_mut().take(w) {
            *l = rng.next();
        }
        e
    }

    /// Bit-at-a-time shift-and-add with reduction after every shift: the
    /// textbook definition, independent of `reduce`.
    fn mul_by_definition(f: &Field, a: &Elem, b: &Elem) -> Elem {
        let mut r = [0u64; 8];
        let mut x = *a;
        for bit in 0..64 * f.w {
            if (b[bit / 64] >> (bit % 64)) & 1 == 1 {
                for i in 0..f.w {
                    r[i] ^= x[i];
                }
            }
            f.double(&mut x);
        }
        r
    }

    #[test]
    fn portable_and_clmul_multiply_agree_with_the_definition() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for n in [16, 32, 64] {
            let p = Field::portable(n);
            let fast = Field::for_block(n);
            for case in 0..300 {
                let (mut a, mut b) = (elem(&mut rng, p.w), elem(&mut rng, p.w));
                if case == 0 {
                    a = [u64::MAX; 8];
                    b = [u64::MAX; 8];
                    for l in a.iter_mut().chain(b.iter_mut()).skip(p.w) {
                        *l = 0;
                    }
                }
                let want = mul_by_definition(&p, &a, &b);
                assert_eq!(p.mul(&a, &b), want, "portable n={n}");
                assert_eq!(fast.mul(&a, &b), want, "fast n={n}");
                let mut wide = [0u64; 16];
                clmul::mul_wide(Emu::<16>, p.w, &a, &b, &mut wide);
                assert_eq!(p.reduce(&mut wide), want, "emulated n={n}");
            }
        }
    }

    #[test]
    fn x_to_the_n_is_the_low_terms() {
        for n in [16, 32, 64] {
            let f = Field::portable(n);
            // x^(n-1) · x = x^n ≡ x^f1 + x^f2 + x^f3 + 1.
            let mut e = [0u64; 8];
            e[f.w - 1] = 1 << 63;
            f.double(&mut e);
            let mut want = [0u64; 8];
            want[0] = f.low_terms();
            assert_eq!(e, want);
        }
    }

    #[test]
    fn ghash_blocks_agree_between_clmul_and_portable() {
        let mut rng = Rng(0xfeed);
        for n in [16, 32, 64] {
            let (p, fast) = (Field::portable(n), Field::for_block(n));
            for blocks in [0, 1, 2, 3, 9] {
                let h = elem(&mut rng, p.w);
                let start = elem(&mut rng, p.w);
                let data: Vec<u8> = (0..blocks * n).map(|_| rng.next() as u8).collect();
                let (mut a, mut b, mut e) = (start, start, start);
                p.ghash_blocks(&h, &mut a, &data);
                fast.ghash_blocks(&h, &mut b, &data);
                clmul::ghash(Emu::<16>, p.w, p.low_terms(), &h, &mut e, &data);
                assert_eq!(a, b, "n={n} blocks={blocks}");
                assert_eq!(e, a, "emulated, n={n} blocks={blocks}");
            }
        }
    }

    #[test]
    fn tweaks_are_repeated_doubling() {
        let mut rng = Rng(7);
        for n in [16, 32, 64] {
            let f = Field::portable(n);
            let mut t = elem(&mut rng, f.w);
            t[f.w - 1] |= 1 << 63; // the first step reduces
            let mut slow = t;
            let mut out = vec![0u8; 5 * n];
            f.tweaks(&mut t, &mut out);
            for block in out.chunks_exact(n) {
                f.double(&mut slow);
                assert_eq!(f.elem(block), slow);
            }
            assert_eq!(t, slow);
        }
    }

    #[test]
    fn one_is_the_identity() {
        let mut rng = Rng(99);
        for n in [16, 32, 64] {
            let f = Field::for_block(n);
            let mut one = [0u64; 8];
            one[0] = 1;
            let a = elem(&mut rng, f.w);
            assert_eq!(f.mul(&a, &one), a);
        }
    }
}
