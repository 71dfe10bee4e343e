//! The words the circuits run on: [`W1`] (64 blocks) and [`W2`] (128
//! blocks, two u64 lanes in one SSE2 register on x86-64).

use core::ops::{BitAnd, BitOr, BitXor, Not};
use zeroize::DefaultIsZeroes;

/// A word of bit planes: 64·`LANES` blocks.
pub(crate) trait Word:
    Copy + Default + DefaultIsZeroes + BitXor<Output = Self> + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    /// Blocks per word / 64.
    const LANES: usize;
    const ZERO: Self;
    /// `q` in every lane.
    fn splat(q: u64) -> Self;
    /// Lane k is `f(k)`.
    fn from_lane_fn(f: impl Fn(usize) -> u64) -> Self;
    fn lane(&self, k: usize) -> u64;
    /// Each lane shifted left (right) by `S` bits.
    fn shl<const S: i32>(self) -> Self;
    fn shr<const S: i32>(self) -> Self;
}

/// One u64: 64 blocks.
pub(crate) type W1 = u64;

impl Word for u64 {
    const LANES: usize = 1;
    const ZERO: Self = 0;
    #[inline(always)]
    fn splat(q: u64) -> Self {
        q
    }
    #[inline(always)]
    fn from_lane_fn(f: impl Fn(usize) -> u64) -> Self {
        f(0)
    }
    #[inline(always)]
    fn lane(&self, _: usize) -> u64 {
        *self
    }
    #[inline(always)]
    fn shl<const S: i32>(self) -> Self {
        self << S
    }
    #[inline(always)]
    fn shr<const S: i32>(self) -> Self {
        self >> S
    }
}

/// Two u64 lanes: 128 blocks, one register of the target's baseline vector
/// unit (SSE2 on x86-64, NEON on aarch64; see [`crate::simd::U64x2`]).
pub(crate) type W2 = crate::simd::U64x2;

impl DefaultIsZeroes for W2 {}

impl Word for W2 {
    const LANES: usize = 2;
    const ZERO: Self = W2::ZERO_LANES;
    #[inline(always)]
    fn splat(q: u64) -> Self {
        W2::from_lanes([q; 2])
    }
    #[inline(always)]
    fn from_lane_fn(f: impl Fn(usize) -> u64) -> Self {
        W2::from_lanes([f(0), f(1)])
    }
    #[inline(always)]
    fn lane(&self, k: usize) -> u64 {
        self.lanes()[k]
    }
    #[inline(always)]
    fn shl<const S: i32>(self) -> Self {
        W2::shl::<S>(self)
    }
    #[inline(always)]
    fn shr<const S: i32>(self) -> Self {
        W2::shr::<S>(self)
    }
}
