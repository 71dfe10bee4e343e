//! The one vector vocabulary every kernel is written in.
//!
//! A *machine* is a zero-sized token type ([`Xmm`], [`Ymm`], [`Zmm`], each
//! with an instruction-set [`Level`]; or [`emu::Emu`] in tests). Holding a
//! token is proof that the CPU runs the level's instructions: tokens are
//! made only by [`Machine::detect`] (which checks the CPU) or by the unsafe
//! [`Machine::new_unchecked`]. That makes every operation a safe method:
//! the one `unsafe` boundary is the token's existence, and each
//! implementation file says so once at its top.
//!
//! The operations are split by what a CPU has:
//! - [`Simd`]: every machine (SSSE3 and up): loads, stores, splats, bitwise
//!   and three-way XOR, adds, shifts and rotates, `pshufb`, unpacks, blends;
//! - [`Gfni`]: `vgf2p8affineqb` (any width with GFNI);
//! - [`Vbmi`]: `vpermb` / `vpermi2b` byte lookups over whole registers;
//! - [`Avx512`]: `vpternlog`, mask blends and merge-masked shuffles,
//!   `vpermt2q`;
//! - [`Clmul`]: `pclmulqdq`, 64×64-bit carry-less products (the GF(2^n)
//!   multiplications of MGM and DSTU GCM/GMAC).
//!
//! Every method is `#[inline(always)]`: on its own it is compiled without the
//! level's features, so it must melt into a function that has them. That
//! function is [`Machine::vectorize`]: it runs a [`Job`] inside a
//! `#[target_feature]` function of the level, and a job's `run` (also
//! `#[inline(always)]`) is where a kernel's code ends up compiled.
//!
//! Two rules follow for kernel code. No closures: a closure is compiled
//! without the features of the function it is written in, so the intrinsics
//! in it would become calls (50 times slower; `core::array::from_fn(|i| ..)`
//! included); use loops, or a small trait with an `#[inline(always)]`
//! method. And no intrinsics outside this module: kernels are generic over
//! the traits here, which is also what lets [`emu::Emu`] run them in tests.
//!
//! The register types are associated types (`__m128i`, `__m256i`, `__m512i`
//! on x86-64, `[u8; N]` for the emulator), so a NEON machine can later use
//! `uint8x16_t` or a group of them behind the same trait.

mod baseline;
mod job;
pub(crate) mod lookup256;
#[cfg(test)]
pub(crate) mod emu;
#[cfg(target_arch = "x86_64")]
mod level;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod xmm;
#[cfg(target_arch = "x86_64")]
mod ymm;
#[cfg(target_arch = "x86_64")]
mod x86_ops;
#[cfg(target_arch = "x86_64")]
mod zmm;

#[cfg(target_arch = "x86_64")]
#[allow(unused_imports)] // the levels and bounds kernels name
pub(crate) use level::{
    Avx2, Avx2Gfni, Avx512Bw, Avx512Gfni, Avx512Vbmi, HasAvx2, HasAvx512, HasClmul, HasGfni, HasVbmi, Level, Pclmul, Ssse3,
};
#[cfg(target_arch = "x86_64")]
pub(crate) use {xmm::Xmm, ymm::Ymm, zmm::Zmm};
#[cfg(target_arch = "aarch64")]
pub(crate) use neon::Neon;
pub(crate) use baseline::U64x2;

use crate::cpu::CpuFeatures;

pub(crate) use job::Job;

/// A token for one register width at one instruction-set level.
pub(crate) trait Machine: Copy + Send + Sync + 'static {
    /// The instruction sets, as `BackendInfo::needs` shows them.
    const NEEDS: &'static str;
    /// Whether a CPU with `features` runs this machine.
    fn available(features: &CpuFeatures) -> bool;
    /// # Safety
    /// The CPU must run this machine (`available` says yes).
    unsafe fn new_unchecked() -> Self;
    /// The token, on a CPU that runs it.
    fn detect() -> Option<Self> {
        // SAFETY: checked just before.
        Self::available(CpuFeatures::get()).then(|| unsafe { Self::new_unchecked() })
    }
    /// Runs `job` compiled with this machine's instruction sets.
    fn vectorize<J: Job>(self, job: J) -> J::Output;
}

/// The operations every machine has. `V` is one register.
pub(crate) trait Simd: Machine {
    type V: Copy;
    /// Bytes per register.
    const BYTES: usize;

    fn zero(self) -> Self::V;
    /// The first `BYTES` bytes of `src`.
    fn load(self, src: &[u8]) -> Self::V;
    /// Into the first `BYTES` bytes of `dst`.
    fn store(self, v: Self::V, dst: &mut [u8]);
    /// A hint that `bytes` are read soon (`prefetcht0` of each 64-byte
    /// piece's line on x86, nothing elsewhere): for data that a kernel
    /// reads too late for the out-of-order window to cover, such as the
    /// next blocks of several messages at once, whose streams the hardware
    /// prefetchers may not follow. Never faults; the addresses are public
    /// like every address a kernel reads.
    #[inline(always)]
    fn prefetch(self, bytes: &[u8]) {
        let _ = bytes;
    }
    fn splat8(self, b: u8) -> Self::V;
    fn splat32(self, w: u32) -> Self::V;
    fn splat64(self, q: u64) -> Self::V;
    /// The same 16 bytes in every 128-bit lane.
    fn splat128(self, lane: &[u8; 16]) -> Self::V;

    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    /// a ⊕ b ⊕ c (one `vpternlogq` where AVX-512VL is there).
    fn xor3(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    /// ¬a ∧ b (`pandn`).
    fn andnot(self, a: Self::V, b: Self::V) -> Self::V;

    fn add8(self, a: Self::V, b: Self::V) -> Self::V;
    fn sub8(self, a: Self::V, b: Self::V) -> Self::V;
    fn add32(self, a: Self::V, b: Self::V) -> Self::V;
    fn add64(self, a: Self::V, b: Self::V) -> Self::V;
    fn sub64(self, a: Self::V, b: Self::V) -> Self::V;
    /// Per byte: 0xff where a == b, else 0.
    fn eq8(self, a: Self::V, b: Self::V) -> Self::V;
    /// Per byte, signed: 0xff where a > b, else 0.
    fn gt8(self, a: Self::V, b: Self::V) -> Self::V;

    fn shl16<const N: i32>(self, a: Self::V) -> Self::V;
    fn shr16<const N: i32>(self, a: Self::V) -> Self::V;
    #[allow(dead_code)] // no kernel needs it yet; checked in tests.rs
    fn shl32<const N: i32>(self, a: Self::V) -> Self::V;
    fn shr32<const N: i32>(self, a: Self::V) -> Self::V;
    #[allow(dead_code)] // no kernel needs it yet; checked in tests.rs
    fn shl64<const N: i32>(self, a: Self::V) -> Self::V;
    fn shr64<const N: i32>(self, a: Self::V) -> Self::V;
    /// Each 32-bit word rotated left by `N` (`vprold` on AVX-512, else two
    /// shifts and an OR; `N` in 1..32).
    fn rotl32<const N: i32>(self, a: Self::V) -> Self::V;
    /// Each 64-bit word rotated left by `N` (`vprolq` on AVX-512, else two
    /// shifts and an OR; `N` in 1..64).
    fn rotl64<const N: i32>(self, a: Self::V) -> Self::V;

    /// `pshufb`: per 128-bit lane, byte k ← table[idx[k] & 15], or 0 where
    /// idx[k] has bit 7 set.
    fn shuffle8(self, table: Self::V, idx: Self::V) -> Self::V;
    /// `pshufd` with immediate `IMM` per 128-bit lane.
    fn shuffle32<const IMM: i32>(self, a: Self::V) -> Self::V;
    /// Per 128-bit lane, interleaves the low halves of a and b in elements of
    /// `W` bytes, a first (`punpckl{bw,wd,dq,qdq}` for W = 1, 2, 4, 8).
    fn unpack_lo<const W: usize>(self, a: Self::V, b: Self::V) -> Self::V;
    /// The same with the high halves (`punpckh*`).
    fn unpack_hi<const W: usize>(self, a: Self::V, b: Self::V) -> Self::V;
    /// Per byte: b where mask's bit 7 is set, else a (`pblendvb`).
    fn blendv(self, a: Self::V, b: Self::V, mask: Self::V) -> Self::V;
    /// Per 32-bit word i of each 128-bit lane: b's where bit i of `IMM` is
    /// set, else a's (`vpblendd` within a lane; IMM in 0..16).
    fn blend32<const IMM: i32>(self, a: Self::V, b: Self::V) -> Self::V;
    /// `pmaddubsw`: a unsigned bytes × b signed bytes, adjacent pairs summed
    /// into saturated 16-bit words.
    fn maddubs(self, a: Self::V, b: Self::V) -> Self::V;
    /// `packuswb` per 128-bit lane: a's 16-bit words then b's, saturated to
    /// unsigned bytes.
    fn packus16(self, a: Self::V, b: Self::V) -> Self::V;
    /// The low 64 bits (`movq` to a general register).
    fn low64(self, a: Self::V) -> u64;
    /// Per 16-bit word i of each 128-bit lane: b's where bit i of `IMM` is
    /// set, else a's (`pblendw`; IMM in 0..256).
    fn blend16<const IMM: i32>(self, a: Self::V, b: Self::V) -> Self::V;

    // Kalyna's operations.
    /// `add8`, kept as one `vpaddb` (inline asm on x86 with AVX): LLVM turns
    /// a chain of `x + x` into shift and mask pairs otherwise.
    fn add8_opaque(self, a: Self::V, b: Self::V) -> Self::V;
    /// `blendv`, kept as one `vpblendvb` (inline asm on x86 with AVX2): LLVM
    /// rewrites it and the mask's computation into compares and ANDs otherwise.
    fn blendv_opaque(self, a: Self::V, b: Self::V, mask: Self::V) -> Self::V;
    /// `shuffle8`, kept as one `vpshufb` (inline asm on x86 with AVX): with
    /// AVX-512 VBMI enabled LLVM merges two constant shuffles and their OR
    /// into one `vpermt2w`, which on Intel is 3 µops and several cycles
    /// longer (uBlock-256's one-block calls: 17% slower on Sapphire Rapids).
    fn shuffle8_opaque(self, table: Self::V, idx: Self::V) -> Self::V;
    /// `splat8`, which LLVM sees as a register value rather than a
    /// constant: hoisted out of loops and kept in a register, instead of
    /// its 32-byte load folded into every use (Kuznyechik `avx2`'s nibble
    /// mask: 212 such loads per round).
    fn splat8_opaque(self, b: u8) -> Self::V;
    /// 128-bit lane L ← the 16 bytes of `src` at L·stride (`vinserti128`).
    fn load_lanes(self, src: &[u8], stride: usize) -> Self::V;
    /// The inverse: lane L → the 16 bytes of `dst` at L·stride.
    fn store_lanes(self, v: Self::V, dst: &mut [u8], stride: usize);

    // uBlock: blocks gathered lane by lane (several streams, or blocks
    // whose halves go to different registers).
    /// `v` with 128-bit lane `lane` (< BYTES/16) replaced by `src[..16]`
    /// (`vinserti128` / `vinserti32x4` from memory; a load on xmm).
    fn load_lane(self, v: Self::V, lane: usize, src: &[u8]) -> Self::V;
    /// 128-bit lane `lane` of `v` into `dst[..16]` (`vextracti128` /
    /// `vextracti32x4` to memory; a store on xmm).
    fn store_lane(self, v: Self::V, lane: usize, dst: &mut [u8]);
}

/// Machines with a machine of half their width at the same level (for the
/// short tails of a batch).
pub(crate) trait Narrow: Simd {
    /// The half-width machine.
    type Half: Simd;
    fn half(self) -> Self::Half;
    /// The low half of `v` as the half machine's register (a cast: no
    /// instruction).
    fn low_half(self, v: Self::V) -> <Self::Half as Simd>::V;
    /// `h` as the low half of a register whose high half is unspecified
    /// (a cast: no instruction; the emulator zeroes it).
    fn widen(self, h: <Self::Half as Simd>::V) -> Self::V;
}

/// The identity matrix of [`Gfni::affine`]: each byte unchanged.
pub(crate) const AFFINE_IDENTITY: u64 = 0x0102_0408_1020_4080;

/// `vgf2p8affineqb`: each byte x ↦ A·x over GF(2), A an 8×8 bit matrix in
/// Intel's layout (row i, the byte that makes output bit i, at byte 7 − i
/// of the 64-bit word; see `gf256::mul_matrix`).
pub(crate) trait Gfni: Simd {
    fn affine(self, x: Self::V, matrix: u64) -> Self::V;
    /// `vgf2p8affineqb` with one matrix per 64-bit word: the bytes of word
    /// w of `x` ↦ (word w of `matrices`)·byte, in the layout of [`Gfni::affine`].
    fn affine_lanes(self, x: Self::V, matrices: Self::V) -> Self::V;
    /// `vgf2p8mulb`: byte-wise products in GF(2^8) modulo the AES
    /// polynomial x^8 + x^4 + x^3 + x + 1 (0x11B).
    fn mul(self, a: Self::V, b: Self::V) -> Self::V;
    /// `vgf2p8affineinvqb`: each byte x ↦ A·x⁻¹, x⁻¹ its inverse in
    /// GF(2^8)/0x11B (0 ↦ 0), A in the layout of [`Gfni::affine`].
    fn affine_inverse(self, x: Self::V, matrix: u64) -> Self::V;
}

/// `pminub`: the unsigned minimum of each pair of bytes (xmm at every
/// level, ymm with AVX2; the emulator).
pub(crate) trait MinU8: Simd {
    fn min8u(self, a: Self::V, b: Self::V) -> Self::V;
}

/// Byte lookups over whole registers (AVX-512 VBMI, VL for ymm and xmm).
pub(crate) trait Vbmi: Simd {
    /// `vpermb`: byte k ← table[idx[k] mod BYTES].
    fn permb(self, table: Self::V, idx: Self::V) -> Self::V;
    /// `vpermi2b`: byte k ← (lo ‖ hi)[idx[k] mod 2·BYTES].
    fn permi2b(self, lo: Self::V, idx: Self::V, hi: Self::V) -> Self::V;
    /// `vpermb` merge-masked: byte k is permb(table, idx)'s where bit k of
    /// `mask` is set, else src's.
    fn permb_masked(self, src: Self::V, mask: u64, table: Self::V, idx: Self::V) -> Self::V;
}

/// Moves across the two 128-bit lanes of 256-bit registers (AVX2; the
/// in-lane operations of [`Simd`] never cross them).
pub(crate) trait CrossLanes: Simd {
    /// a's high 128-bit lane, then b's low lane (`vperm2i128` with 0x21).
    fn lanes_between(self, a: Self::V, b: Self::V) -> Self::V;
    /// 64-bit word k ← a's word (IMM >> 2k) & 3 (`vpermq`).
    fn permute64<const IMM: i32>(self, a: Self::V) -> Self::V;
    /// 32-bit word k ← a's word idx[k] mod 8 (`vpermd`; idx's words as
    /// little-endian u32).
    fn permute32(self, a: Self::V, idx: Self::V) -> Self::V;
}

/// Byte lookups in a 256-entry table held in registers (aarch64: `TBL` and
/// three `TBX` over its 64-byte quarters; no data-dependent address).
#[allow(dead_code)] // only the aarch64 kernels use it
pub(crate) trait Table256: Simd {
    /// Byte k ← table[x[k]].
    fn lookup256(self, table: &[u8; 256], x: Self::V) -> Self::V;
}

/// aarch64 Advanced SIMD moves that x86 has no single instruction for
/// (NEON; the emulator in tests), per 16-byte register.
#[allow(dead_code)] // only the aarch64 kernels use it
pub(crate) trait Interleave: Simd {
    /// `TBL` on one table register: byte k ← table[idx[k]], 0 where
    /// idx[k] ≥ 16 (no masking of the index, unlike [`Simd::shuffle8`]).
    fn tbl(self, table: Self::V, idx: Self::V) -> Self::V;
    /// `TRN1` with elements of `W` bytes (1, 2, 4 or 8): element 2e ← a's
    /// element 2e, element 2e + 1 ← b's element 2e.
    fn trn1<const W: usize>(self, a: Self::V, b: Self::V) -> Self::V;
    /// `TRN2`: element 2e ← a's element 2e + 1, element 2e + 1 ← b's
    /// element 2e + 1.
    fn trn2<const W: usize>(self, a: Self::V, b: Self::V) -> Self::V;
    /// `USHR`: each byte shifted right by `N` (1..8), zeros in.
    fn shr8<const N: i32>(self, a: Self::V) -> Self::V;
}

/// AVX-512's masks and three-input logic (F + BW, VL for ymm and xmm).
pub(crate) trait Avx512: Simd {
    /// `vpternlogd`: bit i of the result is bit (a_i·4 + b_i·2 + c_i) of IMM.
    fn ternlog<const IMM: i32>(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// Per byte: b where byte `sel` has bit `BIT` set, else a (`vptestmb` or
    /// `vpmovb2m`, then `vpblendmb`).
    fn select_bit<const BIT: u32>(self, sel: Self::V, a: Self::V, b: Self::V) -> Self::V;
    /// `vpshufb` merge-masked: byte k is shuffle8(table, idx)'s where bit k of
    /// `mask` is set, else src's (mask bits beyond `BYTES` are ignored).
    fn shuffle8_masked(self, src: Self::V, mask: u64, table: Self::V, idx: Self::V) -> Self::V;
    /// `vpermt2q`: 64-bit word k ← (a ‖ b)[idx[k] mod 2·BYTES/8].
    fn permi2q(self, a: Self::V, idx: Self::V, b: Self::V) -> Self::V;
    /// `vpaddb` merge-masked: byte k is a + b (mod 256) where bit k of
    /// `mask` is set, else src's (mask bits beyond `BYTES` are ignored).
    fn add8_masked(self, src: Self::V, mask: u64, a: Self::V, b: Self::V) -> Self::V;
    /// `vpcmpub` (less than): bit k set where byte k of a < byte k of b as
    /// unsigned bytes; bits beyond `BYTES` clear.
    fn lt8u(self, a: Self::V, b: Self::V) -> u64;
    /// `vptestmb`: bit k set where bytes k of a and b share a set bit.
    fn test8(self, a: Self::V, b: Self::V) -> u64;
    /// The first `src.len()` (≤ BYTES) bytes, zeros above (`vmovdqu8` with a
    /// zeroing mask: masked-off bytes are not read, so `src` may end at a
    /// page end). Which bytes are read depends on the length only.
    fn load_prefix(self, src: &[u8]) -> Self::V;
    /// The first `dst.len()` (≤ BYTES) bytes of `v` into `dst` (masked
    /// `vmovdqu8`: bytes past `dst` are not written).
    fn store_prefix(self, v: Self::V, dst: &mut [u8]);
}

/// `pclmulqdq`: per 128-bit lane, the 128-bit carry-less product of a's
/// 64-bit word `IMM & 1` and b's word `IMM >> 4 & 1` (IMM 0x00, 0x01, 0x10
/// or 0x11).
pub(crate) trait Clmul: Simd {
    fn clmul<const IMM: i32>(self, a: Self::V, b: Self::V) -> Self::V;
}

#[cfg(test)]
mod tests;

/// A machine every CPU runs, whose `vectorize` is `$run`.
macro_rules! plain_machine {
    ($(#[$doc:meta])* $name:ident, $run:path) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub(crate) struct $name;

        impl Machine for $name {
            const NEEDS: &'static str = "nothing";
            fn available(_: &CpuFeatures) -> bool {
                true
            }
            unsafe fn new_unchecked() -> Self {
                $name
            }
            #[inline(always)]
            fn vectorize<J: Job>(self, job: J) -> J::Output {
                $run(job)
            }
        }
    };
}

plain_machine!(
    /// The machine of the portable bitsliced backends of Kuznyechik, Kalyna
    /// (words of [`U64x2`]) and uBlock: every CPU runs it, and `vectorize`
    /// runs the job as compiled for the target, or in AVX's encoding where
    /// the CPU has AVX ([`baseline::run_baseline`]).
    Portable,
    baseline::run_baseline
);

plain_machine!(
    /// The machine of plain scalar Rust code (Magma's `table`, `table12`
    /// and u64-bitsliced `portable`): every CPU runs it, and `vectorize`
    /// runs the job as compiled for the target. (In AVX's encoding Magma's
    /// `portable` ran 1.25× slower on Zen 4: LLVM vectorizes some of its
    /// u64 work there, badly.)
    Scalar,
    run_as_compiled
);

/// Runs `job` as compiled for the target.
#[inline(always)]
fn run_as_compiled<J: Job>(job: J) -> J::Output {
    job.run()
}
