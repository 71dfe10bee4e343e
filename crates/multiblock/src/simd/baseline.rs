//! [`U64x2`]: two u64 lanes in one register of the vector unit every CPU of
//! the target has (SSE2 on x86-64, NEON on aarch64), for the portable
//! bitsliced backends.
//!
//! No token is needed: the target itself guarantees the instructions
//! (`cfg(target_feature = "sse2")` is part of every x86-64 target), so the
//! `unsafe` below only restates what the build configuration already
//! proves. On aarch64 it is a NEON register (part of every aarch64
//! target); elsewhere two plain u64s.
//!
//! [`run_baseline`] runs a portable kernel's job; on x86-64 CPUs with AVX it
//! compiles the same operations in the three-operand VEX encoding, which
//! drops most of the register copies SSE2's two-operand form needs in
//! the large circuits (Zen 4: Kalyna-512 `portable` 32 ticks/B, 53 in the
//! SSE2 encoding). On
//! aarch64 it does not use SHA3's `EOR3`: LLVM fuses a ⊕ b ⊕ c into it even
//! where a ⊕ b is a shared gate of the circuit, so each use reloads both
//! halves; with Kuznyechik's L as 16 LFSR steps that made the bitsliced
//! batch slower (llvm-mca Neoverse N2: 19.6 cycles/byte for the rounds
//! with `EOR3`, 15.9 without).
//!
//! Why a register type and not `[u64; 2]`: LLVM keeps `[u64; 2]` in pairs
//! of general registers in the S-box circuits (two scalar operations and
//! a spill per gate; measured 6× over the operation count on Zen 4); as
//! `__m128i` each gate is one `pxor`/`pand`/`por`/`pandn`.

use super::job::Job;
use core::ops::{BitAnd, BitOr, BitXor, Not};

/// Runs `job` (code for every CPU of the target) compiled with AVX where
/// an x86-64 CPU has it, else as the target's baseline. AVX adds only
/// the three-operand encoding of the job's own bitwise operations,
/// constant-time either way.
#[inline(always)]
pub(crate) fn run_baseline<J: Job>(job: J) -> J::Output {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::CpuFeatures::get().avx {
        #[target_feature(enable = "avx")]
        fn vex<J: Job>(job: J) -> J::Output {
            job.run()
        }
        // SAFETY: the CPU has AVX (checked just above).
        return unsafe { vex(job) };
    }
    job.run()
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod imp {
    use core::arch::x86_64::*;

    #[derive(Clone, Copy)]
    #[repr(transparent)]
    pub(crate) struct U64x2(pub(super) __m128i);

    // SAFETY (every block in this module): SSE2 is enabled for the whole
    // build (the cfg above), so its instructions run on every CPU the
    // binary runs on.
    impl U64x2 {
        // SAFETY: any 16 bytes are a valid __m128i.
        pub(crate) const ZERO_LANES: Self = Self(unsafe { core::mem::transmute::<[u64; 2], __m128i>([0; 2]) });
        #[inline(always)]
        pub(crate) fn from_lanes(q: [u64; 2]) -> Self {
            Self(unsafe { _mm_set_epi64x(q[1] as i64, q[0] as i64) })
        }
        #[inline(always)]
        pub(crate) fn lanes(self) -> [u64; 2] {
            let mut q = [0u64; 2];
            unsafe { _mm_storeu_si128(q.as_mut_ptr().cast(), self.0) };
            q
        }
        #[inline(always)]
        pub(super) fn xor(self, o: Self) -> Self {
            Self(unsafe { _mm_xor_si128(self.0, o.0) })
        }
        #[inline(always)]
        pub(super) fn and(self, o: Self) -> Self {
            Self(unsafe { _mm_and_si128(self.0, o.0) })
        }
        #[inline(always)]
        pub(super) fn or(self, o: Self) -> Self {
            Self(unsafe { _mm_or_si128(self.0, o.0) })
        }
        #[inline(always)]
        pub(super) fn not(self) -> Self {
            Self(unsafe { _mm_xor_si128(self.0, _mm_set1_epi32(-1)) })
        }
        #[inline(always)]
        pub(crate) fn shl<const S: i32>(self) -> Self {
            Self(unsafe { _mm_slli_epi64::<S>(self.0) })
        }
        #[inline(always)]
        pub(crate) fn shr<const S: i32>(self) -> Self {
            Self(unsafe { _mm_srli_epi64::<S>(self.0) })
        }
    }
}

// NEON (Advanced SIMD) is part of every aarch64 target: one q register,
// 32 of them, so the circuits spill far less than in x86's 16.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod imp {
    use core::arch::aarch64::*;

    #[derive(Clone, Copy)]
    #[repr(transparent)]
    pub(crate) struct U64x2(pub(super) uint64x2_t);

    // SAFETY (every block in this module): NEON is enabled for the whole
    // build (the cfg above), so its instructions run on every CPU the
    // binary runs on.
    impl U64x2 {
        // SAFETY: any 16 bytes are a valid uint64x2_t.
        pub(crate) const ZERO_LANES: Self = Self(unsafe { core::mem::transmute::<[u64; 2], uint64x2_t>([0; 2]) });
        #[inline(always)]
        pub(crate) fn from_lanes(q: [u64; 2]) -> Self {
            Self(unsafe { vld1q_u64(q.as_ptr()) })
        }
        #[inline(always)]
        pub(crate) fn lanes(self) -> [u64; 2] {
            let mut q = [0u64; 2];
            unsafe { vst1q_u64(q.as_mut_ptr(), self.0) };
            q
        }
        #[inline(always)]
        pub(super) fn xor(self, o: Self) -> Self {
            Self(unsafe { veorq_u64(self.0, o.0) })
        }
        #[inline(always)]
        pub(super) fn and(self, o: Self) -> Self {
            Self(unsafe { vandq_u64(self.0, o.0) })
        }
        #[inline(always)]
        pub(super) fn or(self, o: Self) -> Self {
            Self(unsafe { vorrq_u64(self.0, o.0) })
        }
        #[inline(always)]
        pub(super) fn not(self) -> Self {
            Self(unsafe { vreinterpretq_u64_u8(vmvnq_u8(vreinterpretq_u8_u64(self.0))) })
        }
        #[inline(always)]
        pub(crate) fn shl<const S: i32>(self) -> Self {
            Self(unsafe { vshlq_n_u64::<S>(self.0) })
        }
        #[inline(always)]
        pub(crate) fn shr<const S: i32>(self) -> Self {
            Self(unsafe { vshrq_n_u64::<S>(self.0) })
        }
    }
}

#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
mod imp {
    #[derive(Clone, Copy)]
    #[repr(align(16))]
    pub(crate) struct U64x2(pub(super) [u64; 2]);

    impl U64x2 {
        pub(crate) const ZERO_LANES: Self = Self([0; 2]);
        #[inline(always)]
        pub(crate) fn from_lanes(q: [u64; 2]) -> Self {
            Self(q)
        }
        #[inline(always)]
        pub(crate) fn lanes(self) -> [u64; 2] {
            self.0
        }
        #[inline(always)]
        pub(super) fn xor(self, o: Self) -> Self {
            Self([self.0[0] ^ o.0[0], self.0[1] ^ o.0[1]])
        }
        #[inline(always)]
        pub(super) fn and(self, o: Self) -> Self {
            Self([self.0[0] & o.0[0], self.0[1] & o.0[1]])
        }
        #[inline(always)]
        pub(super) fn or(self, o: Self) -> Self {
            Self([self.0[0] | o.0[0], self.0[1] | o.0[1]])
        }
        #[inline(always)]
        pub(super) fn not(self) -> Self {
            Self([!self.0[0], !self.0[1]])
        }
        #[inline(always)]
        pub(crate) fn shl<const S: i32>(self) -> Self {
            Self([self.0[0] << S, self.0[1] << S])
        }
        #[inline(always)]
        pub(crate) fn shr<const S: i32>(self) -> Self {
            Self([self.0[0] >> S, self.0[1] >> S])
        }
    }
}

pub(crate) use imp::U64x2;

impl Default for U64x2 {
    #[inline(always)]
    fn default() -> Self {
        Self::from_lanes([0; 2])
    }
}

impl PartialEq for U64x2 {
    fn eq(&self, o: &Self) -> bool {
        self.lanes() == o.lanes()
    }
}

impl Eq for U64x2 {}

impl core::fmt::Debug for U64x2 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "U64x2({:#x?})", self.lanes())
    }
}

/// The operators the circuits are written with, by the methods above.
macro_rules! operators {
    ($($trait:ident $f:ident $method:ident),*) => {$(
        impl $trait for U64x2 {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                self.$method(o)
            }
        }
    )*};
}
operators!(BitXor bitxor xor, BitAnd bitand and, BitOr bitor or);

impl Not for U64x2 {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        U64x2::not(self)
    }
}

#[cfg(test)]
mod tests {
    use super::U64x2;

    /// Each operation of the register type (SSE2, NEON or plain u64s,
    /// whichever this target builds) is the same operation on each lane.
    #[test]
    fn operations_are_lane_wise() {
        let mut rng = crate::test_rng::Rng(0x64c2);
        for _ in 0..64 {
            let (a, b) = ([rng.next(), rng.next()], [rng.next(), rng.next()]);
            let (x, y) = (U64x2::from_lanes(a), U64x2::from_lanes(b));
            assert_eq!(x.lanes(), a, "lanes come back");
            assert_eq!((x ^ y).lanes(), [a[0] ^ b[0], a[1] ^ b[1]]);
            assert_eq!((x & y).lanes(), [a[0] & b[0], a[1] & b[1]]);
            assert_eq!((x | y).lanes(), [a[0] | b[0], a[1] | b[1]]);
            assert_eq!((!x).lanes(), [!a[0], !a[1]]);
            assert_eq!(x.shl::<7>().lanes(), [a[0] << 7, a[1] << 7]);
            assert_eq!(x.shr::<28>().lanes(), [a[0] >> 28, a[1] >> 28]);
        }
        assert_eq!(U64x2::ZERO_LANES.lanes(), [0, 0]);
    }
}
