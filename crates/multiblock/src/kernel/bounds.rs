//! Where a backend's narrow kernel (one block's latency) stops and its wide
//! kernel (throughput) takes over: per class of CPU (`cpu::Core`), since
//! the same instructions cost differently by maker and generation. Used by
//! the tiered (`tiered.rs`) and paired (`paired.rs`) backends. Which
//! kernel runs depends on the call's length and the CPU's class only, both
//! public.

use crate::cpu;
use crate::cpu::Core;

/// The longest encryption and decryption, in bytes, that a backend's
/// narrow kernel takes on each class of CPU: where the two kernels' costs
/// cross, measured with `bench --ways`.
pub(crate) trait NarrowBounds {
    const INTEL: (usize, usize);
    const AMD_HALF_ZMM: (usize, usize);
    const AMD_FULL_ZMM: (usize, usize);

    /// The bounds on this CPU.
    fn here() -> (usize, usize) {
        match cpu::core() {
            Core::Intel => Self::INTEL,
            Core::AmdHalfZmm => Self::AMD_HALF_ZMM,
            Core::AmdFullZmm => Self::AMD_FULL_ZMM,
        }
    }
}

/// The same bounds on every CPU: `MAX` bytes both ways.
pub(crate) struct Everywhere<const MAX: usize>;

impl<const MAX: usize> NarrowBounds for Everywhere<MAX> {
    const INTEL: (usize, usize) = (MAX, MAX);
    const AMD_HALF_ZMM: (usize, usize) = (MAX, MAX);
    const AMD_FULL_ZMM: (usize, usize) = (MAX, MAX);
}
