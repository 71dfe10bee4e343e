//! The words the circuits run on: [`W1`] (64 blocks) and [`W2`] (128
//! blocks, two u64 lanes that LLVM keeps in one SSE2 register).

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
    fn lane(&self, k: usize) -> u64;
    fn set_lane(&mut self, k: usize, q: u64);
    /// Called on the scratch array of a large linear circuit: `W2` hides it
    /// from the optimiser (see `build.rs`), `W1` leaves it to the registers.
    #[inline(always)]
    fn pin(_: &mut [Self]) {}
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
    fn lane(&self, _: usize) -> u64 {
        *self
    }
    #[inline(always)]
    fn set_lane(&mut self, _: usize, q: u64) {
        *self = q
    }
}

/// Two u64 lanes: 128 blocks.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
#[repr(align(16))]
pub(crate) struct W2(pub(crate) [u64; 2]);

impl DefaultIsZeroes for W2 {}

macro_rules! lanewise {
    ($($tr:ident $f:ident $op:tt),*) => {$(
        impl $tr for W2 {
            type Output = W2;
            #[inline(always)]
            fn $f(self, o: W2) -> W2 {
                W2([self.0[0] $op o.0[0], self.0[1] $op o.0[1]])
            }
        }
    )*};
}
lanewise!(BitXor bitxor ^, BitAnd bitand &, BitOr bitor |);

impl Not for W2 {
    type Output = W2;
    #[inline(always)]
    fn not(self) -> W2 {
        W2([!self.0[0], !self.0[1]])
    }
}

impl Word for W2 {
    const LANES: usize = 2;
    const ZERO: Self = W2([0; 2]);
    #[inline(always)]
    fn splat(q: u64) -> Self {
        W2([q; 2])
    }
    #[inline(always)]
    fn lane(&self, k: usize) -> u64 {
        self.0[k]
    }
    #[inline(always)]
    fn set_lane(&mut self, k: usize, q: u64) {
        self.0[k] = q
    }
    #[inline(always)]
    fn pin(t: &mut [Self]) {
        core::hint::black_box(t);
    }
}
