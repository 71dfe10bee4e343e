//! The products with `pclmulqdq` ([`Clmul`]), generic over the machine so
//! the tests run them on the emulator. Each entry point runs its loop as a
//! [`Job`] in the machine's `#[target_feature]` context; everything below
//! it is `#[inline(always)]` and closure-free (see `crate::simd`).
//!
//! One register holds 128 bits, its low 64-bit word first. A 128×128-bit
//! product is four `pclmulqdq`: lo·lo, hi·hi and the two middle terms,
//! which straddle the two result registers.

use super::Acc;
use crate::simd::{Clmul, Job, Simd};

/// `v · x^64` within the register (the low word moves up, zero below).
#[inline(always)]
fn up64<M: Simd>(m: M, v: M::V) -> M::V {
    m.unpack_lo::<8>(m.zero(), v)
}

/// `v / x^64` within the register (the high word moves down, zero above).
#[inline(always)]
fn down64<M: Simd>(m: M, v: M::V) -> M::V {
    m.unpack_hi::<8>(v, m.zero())
}

#[inline(always)]
fn to_u128<M: Simd>(m: M, v: M::V) -> u128 {
    let mut out = [0u8; 16];
    m.store(v, &mut out);
    u128::from_le_bytes(out)
}

#[inline(always)]
fn from_u128<M: Simd>(m: M, x: u128) -> M::V {
    m.load(&x.to_le_bytes())
}

/// `pshufb` indices: a 16-byte big-endian block as one 128-bit number.
const REVERSE_128: [u8; 16] = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0];
/// The same for two 8-byte big-endian blocks, the first in the low word.
const REVERSE_64X2: [u8; 16] = [7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8];

/// MGM: `acc ^= Σ h_i ⊗ x_i` over the n-byte big-endian blocks (n = 8 or
/// 16) of `h` and `x` (see [`super::mgm`]).
pub(crate) fn mgm_mul_acc<M: Clmul>(m: M, n: usize, acc: &mut Acc, h: &[u8], x: &[u8]) {
    debug_assert!(M::BYTES == 16);
    if n == 16 {
        m.vectorize(MgmSum::<M, 16> { m, acc, h, x })
    } else {
        m.vectorize(MgmSum::<M, 8> { m, acc, h, x })
    }
}

/// The sum over N-byte blocks.
struct MgmSum<'a, M, const N: usize> {
    m: M,
    acc: &'a mut Acc,
    h: &'a [u8],
    x: &'a [u8],
}

impl<M: Clmul, const N: usize> Job for MgmSum<'_, M, N> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        if N == 16 {
            self.sum128()
        } else {
            self.sum64()
        }
    }
}

impl<M: Clmul, const N: usize> MgmSum<'_, M, N> {
    /// 256-bit products of 16-byte blocks.
    #[inline(always)]
    fn sum128(self) {
        let m = self.m;
        let rev = m.load(&REVERSE_128);
        let (mut lo, mut mid, mut hi) = (m.zero(), m.zero(), m.zero());
        for (hb, xb) in self.h.chunks_exact(16).zip(self.x.chunks_exact(16)) {
            let (a, b) = (m.shuffle8(m.load(hb), rev), m.shuffle8(m.load(xb), rev));
            lo = m.xor(lo, m.clmul::<0x00>(a, b));
            hi = m.xor(hi, m.clmul::<0x11>(a, b));
            mid = m.xor(mid, m.clmul::<0x01>(a, b));
            mid = m.xor(mid, m.clmul::<0x10>(a, b));
        }
        lo = m.xor(lo, up64(m, mid));
        hi = m.xor(hi, down64(m, mid));
        self.acc.lo ^= to_u128(m, lo);
        self.acc.hi ^= to_u128(m, hi);
    }

    /// 128-bit products of 8-byte blocks, two blocks per register.
    #[inline(always)]
    fn sum64(self) {
        let m = self.m;
        let rev = m.load(&REVERSE_64X2);
        let mut sum = m.zero();
        for (hb, xb) in self.h.chunks_exact(16).zip(self.x.chunks_exact(16)) {
            let (a, b) = (m.shuffle8(m.load(hb), rev), m.shuffle8(m.load(xb), rev));
            sum = m.xor(sum, m.clmul::<0x00>(a, b));
            sum = m.xor(sum, m.clmul::<0x11>(a, b));
        }
        let pairs = self.h.len() / 16;
        if !self.h.len().is_multiple_of(16) {
            let a = u64::from_be_bytes(self.h[16 * pairs..].try_into().expect("8-byte block"));
            let b = u64::from_be_bytes(self.x[16 * pairs..].try_into().expect("8-byte block"));
            let p = m.clmul::<0x00>(from_u128(m, a.into()), from_u128(m, b.into()));
            sum = m.xor(sum, p);
        }
        self.acc.lo ^= to_u128(m, sum);
    }
}

/// DSTU: the product a × b over GF(2)[x] of two W-limb polynomials (W = 2,
/// 4, 8; limb pairs in registers, little-endian): (W/2)² products of
/// 128-bit pairs. Returns the 2W-limb product as W pairs.
#[inline(always)]
fn product<M: Clmul, const W: usize>(m: M, a: &[M::V; 4], b: &[M::V; 4]) -> [M::V; 8] {
    // even[k]: terms at limbs 2k, 2k+1; mid[k]: at 2k+1, 2k+2.
    let mut even = [m.zero(); 8];
    let mut mid = [m.zero(); 8];
    for i in 0..W / 2 {
        for j in 0..W / 2 {
            let (x, y) = (a[i], b[j]);
            even[i + j] = m.xor(even[i + j], m.clmul::<0x00>(x, y));
            even[i + j + 1] = m.xor(even[i + j + 1], m.clmul::<0x11>(x, y));
            let t = m.xor(m.clmul::<0x01>(x, y), m.clmul::<0x10>(x, y));
            mid[i + j] = m.xor(mid[i + j], t);
        }
    }
    for k in 0..W - 1 {
        even[k] = m.xor(even[k], up64(m, mid[k]));
        even[k + 1] = m.xor(even[k + 1], down64(m, mid[k]));
    }
    even
}

/// DSTU: reduces a 2W-limb product modulo x^(64W) + `low` (`r` = low in
/// limb 0): each high pair, top down, is multiplied by low (< x^11) and
/// added W limbs lower; the few bits the top pair's fold leaves above
/// x^(64W) land in pair W/2, which is folded after it (or, for W = 2, once
/// more).
#[inline(always)]
fn fold<M: Clmul, const W: usize>(m: M, e: &mut [M::V; 8], r: M::V) -> [M::V; 4] {
    let half = W / 2;
    for k in (half..W).rev() {
        let p0 = m.clmul::<0x00>(e[k], r);
        let p1 = m.clmul::<0x01>(e[k], r);
        e[k] = m.zero();
        e[k - half] = m.xor(e[k - half], m.xor(p0, up64(m, p1)));
        e[k - half + 1] = m.xor(e[k - half + 1], down64(m, p1));
    }
    if W == 2 {
        // The spill of pair 1 is in pair 1 again: a few bits, one more fold.
        e[0] = m.xor(e[0], m.clmul::<0x00>(e[1], r));
    }
    [e[0], e[1], e[2], e[3]]
}

/// The first W limbs as W/2 registers.
#[inline(always)]
fn load_limbs<M: Simd, const W: usize>(m: M, limbs: &[u64; 8]) -> [M::V; 4] {
    let mut v = [m.zero(); 4];
    for (i, p) in v.iter_mut().enumerate().take(W / 2) {
        *p = from_u128(m, u128::from(limbs[2 * i + 1]) << 64 | u128::from(limbs[2 * i]));
    }
    v
}

#[inline(always)]
fn store_limbs<M: Simd>(m: M, pairs: &[M::V], limbs: &mut [u64]) {
    for (&p, out) in pairs.iter().zip(limbs.chunks_exact_mut(2)) {
        let v = to_u128(m, p);
        out[0] = v as u64;
        out[1] = (v >> 64) as u64;
    }
}

/// DSTU: `a × b` (unreduced, 2W limbs for w = W = 2, 4 or 8), one product.
pub(crate) fn mul_wide<M: Clmul>(m: M, w: usize, a: &[u64; 8], b: &[u64; 8], wide: &mut [u64; 16]) {
    debug_assert!(M::BYTES == 16);
    match w {
        2 => m.vectorize(MulWide::<M, 2> { m, a, b, wide }),
        4 => m.vectorize(MulWide::<M, 4> { m, a, b, wide }),
        _ => m.vectorize(MulWide::<M, 8> { m, a, b, wide }),
    }
}

struct MulWide<'a, M, const W: usize> {
    m: M,
    a: &'a [u64; 8],
    b: &'a [u64; 8],
    wide: &'a mut [u64; 16],
}

impl<M: Clmul, const W: usize> Job for MulWide<'_, M, W> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let m = self.m;
        let p = product::<M, W>(m, &load_limbs::<M, W>(m, self.a), &load_limbs::<M, W>(m, self.b));
        *self.wide = [0; 16];
        store_limbs(m, &p[..W], &mut self.wide[..2 * W]);
    }
}

/// DSTU GHASH over whole blocks: acc ← (acc ⊕ X)·h for every 8w-byte block
/// X of `blocks`, in the field whose x^n ≡ `low` (the terms below x^64).
pub(crate) fn ghash<M: Clmul>(m: M, w: usize, low: u64, h: &[u64; 8], acc: &mut [u64; 8], blocks: &[u8]) {
    debug_assert!(M::BYTES == 16);
    match w {
        2 => m.vectorize(Ghash::<M, 2> { m, low, h, acc, blocks }),
        4 => m.vectorize(Ghash::<M, 4> { m, low, h, acc, blocks }),
        _ => m.vectorize(Ghash::<M, 8> { m, low, h, acc, blocks }),
    }
}

/// The schoolbook product, then the fold, with the accumulator in registers.
struct Ghash<'a, M, const W: usize> {
    m: M,
    low: u64,
    h: &'a [u64; 8],
    acc: &'a mut [u64; 8],
    blocks: &'a [u8],
}

impl<M: Clmul, const W: usize> Job for Ghash<'_, M, W> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let m = self.m;
        let r = from_u128(m, self.low.into());
        let hv = load_limbs::<M, W>(m, self.h);
        let mut a = load_limbs::<M, W>(m, self.acc);
        for x in self.blocks.chunks_exact(8 * W) {
            for (i, p) in a.iter_mut().enumerate().take(W / 2) {
                *p = m.xor(*p, m.load(&x[16 * i..]));
            }
            let mut e = product::<M, W>(m, &a, &hv);
            a = fold::<M, W>(m, &mut e, r);
        }
        store_limbs(m, &a[..W / 2], &mut self.acc[..W]);
    }
}
