//! Instruction-set levels: which features a machine token proves, and the
//! `#[target_feature]` function each level compiles a [`Job`] in.

use super::Job;
use crate::cpu::CpuFeatures;

/// One set of instruction-set extensions.
pub(crate) trait Level: Copy + Send + Sync + 'static {
    /// As `BackendInfo::needs` shows it.
    const NEEDS: &'static str;
    /// AVX2 (with it SSE4.1 and VEX encodings).
    const AVX2: bool;
    /// AVX-512 F+BW+VL: EVEX forms of ymm/xmm operations (`vpternlog`, masks).
    const AVX512VL: bool;
    fn available(f: &CpuFeatures) -> bool;
    /// Runs `job` in a function compiled with this level's features.
    ///
    /// # Safety
    /// The CPU must have them (`available` said yes).
    unsafe fn enter<J: Job>(job: J) -> J::Output;
}

/// Levels with AVX2 (ymm registers).
pub(crate) trait HasAvx2: Level {}
/// Levels with AVX-512 F+BW (zmm registers, masks).
pub(crate) trait HasAvx512: HasAvx2 {}
/// Levels with GFNI.
pub(crate) trait HasGfni: Level {}
/// Levels with AVX-512 VBMI (and VL).
pub(crate) trait HasVbmi: HasAvx512 {}
/// Levels with PCLMULQDQ.
pub(crate) trait HasClmul: Level {}

/// A cache line's alignment: a local of this type makes the function that
/// holds it align its stack frame to 64 bytes. Every level's job runs in
/// such a frame, so that a ymm or zmm register spilled to the stack never
/// straddles a cache line or a page. The System V ABI aligns the stack to
/// 16 bytes only, and LLVM spills ymm registers with unaligned moves
/// rather than realign the frame: where the stack then lies 16 bytes off
/// a 32-byte boundary, half the spills split, and the kernels that spill
/// in their round loop (Kupyna's 1024-bit state on AVX2) measured 25–50%
/// slower for one stack position in three or four.
#[repr(align(64))]
struct LineAligned(#[allow(dead_code)] u8);

/// Aligns the stack frame of the function this is inlined into to 64
/// bytes ([`LineAligned`]). Not in `portable`'s `run_baseline`: its
/// bitsliced kernels keep 16-byte values, and with the frame pointer the
/// realignment takes, its calls of one batch ran 7% slower on Zen 4.
#[inline(always)]
fn align_frame() {
    let frame = LineAligned(0);
    core::hint::black_box(&frame);
}

macro_rules! level {
    ($(#[$doc:meta])* $name:ident, $features:literal, $needs:literal, avx2: $avx2:literal, vl: $vl:literal, |$f:ident| $available:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub(crate) struct $name;

        impl Level for $name {
            const NEEDS: &'static str = $needs;
            const AVX2: bool = $avx2;
            const AVX512VL: bool = $vl;
            fn available($f: &CpuFeatures) -> bool {
                $available
            }
            #[inline]
            unsafe fn enter<J: Job>(job: J) -> J::Output {
                #[target_feature(enable = $features)]
                #[inline]
                unsafe fn compiled<J: Job>(job: J) -> J::Output {
                    align_frame();
                    job.run()
                }
                // SAFETY: the caller guarantees the features.
                unsafe { compiled(job) }
            }
        }
    };
}

level!(
    /// SSSE3 (xmm only).
    Ssse3, "ssse3", "ssse3", avx2: false, vl: false, |f| f.ssse3
);
level!(
    /// SSSE3 and PCLMULQDQ (xmm only; the GF(2^n) multiplications of the
    /// modes, legacy-SSE encoded).
    Pclmul, "ssse3,pclmulqdq", "ssse3+pclmulqdq", avx2: false, vl: false, |f| f.ssse3 && f.pclmulqdq
);
level!(
    /// AVX2 (VEX-encoded xmm and ymm).
    Avx2, "avx2", "avx2", avx2: true, vl: false, |f| f.avx2
);
level!(
    /// AVX2 and GFNI (VEX `vgf2p8affineqb`; e.g. Intel Alder Lake E-cores).
    Avx2Gfni, "avx2,gfni", "avx2+gfni", avx2: true, vl: false, |f| f.avx2 && f.gfni
);
level!(
    /// AVX-512 F+BW (+VL, which every such CPU has).
    Avx512Bw, "avx2,avx512f,avx512bw,avx512vl", "avx512f+avx512bw", avx2: true, vl: true,
    |f| f.avx2 && f.avx512f && f.avx512bw && f.avx512vl
);
level!(
    /// AVX-512 F+BW+VL and VBMI (Ice Lake, Zen 4 and later).
    Avx512Vbmi, "avx2,avx512f,avx512bw,avx512vl,avx512vbmi", "avx512f+avx512bw+avx512vl+avx512vbmi", avx2: true, vl: true,
    |f| f.avx2 && f.avx512f && f.avx512bw && f.avx512vl && f.avx512vbmi
);
level!(
    /// AVX-512 F+BW+VL+VBMI and GFNI.
    Avx512Gfni, "avx2,avx512f,avx512bw,avx512vl,avx512vbmi,gfni", "avx512f+avx512bw+avx512vl+avx512vbmi+gfni",
    avx2: true, vl: true, |f| f.avx2 && f.avx512f && f.avx512bw && f.avx512vl && f.avx512vbmi && f.gfni
);

impl HasAvx2 for Avx2 {}
impl HasAvx2 for Avx2Gfni {}
impl HasAvx2 for Avx512Bw {}
impl HasAvx2 for Avx512Vbmi {}
impl HasAvx2 for Avx512Gfni {}
impl HasAvx512 for Avx512Bw {}
impl HasAvx512 for Avx512Vbmi {}
impl HasAvx512 for Avx512Gfni {}
impl HasVbmi for Avx512Vbmi {}
impl HasVbmi for Avx512Gfni {}
impl HasGfni for Avx2Gfni {}
impl HasGfni for Avx512Gfni {}
impl HasClmul for Pclmul {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stack pointer where a job runs, in its level's function.
    struct StackPointer;

    impl Job for StackPointer {
        type Output = usize;
        #[inline(always)]
        fn run(self) -> usize {
            let sp: usize;
            // SAFETY: copies a register; touches no memory and no flags.
            unsafe { core::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
            sp
        }
    }

    /// [`StackPointer`] on level `L`, entered from a frame of `N` bytes
    /// more: callers whose stack pointers differ by 16 bytes, as the ABI
    /// allows them to.
    #[inline(never)]
    fn entered_below<L: Level, const N: usize>() -> usize {
        let pad = [0u8; N];
        core::hint::black_box(&pad);
        // SAFETY: the callers check `L::available` first.
        unsafe { L::enter(StackPointer) }
    }

    fn every_job_frame_is_a_cache_line_on<L: Level>() {
        if !L::available(CpuFeatures::get()) {
            return;
        }
        let sps = [entered_below::<L, 16>(), entered_below::<L, 32>(), entered_below::<L, 48>(), entered_below::<L, 64>()];
        for sp in sps {
            assert_eq!(sp % 64, 0, "{}: a job ran with the stack pointer at {sp:#x} (callers' {sps:x?})", L::NEEDS);
        }
    }

    /// Every level aligns its job's frame to 64 bytes ([`align_frame`]),
    /// wherever its caller's frame lies: the spills of ymm and zmm
    /// registers then never split a cache line.
    #[test]
    fn every_level_runs_its_job_in_a_cache_line_aligned_frame() {
        every_job_frame_is_a_cache_line_on::<Ssse3>();
        every_job_frame_is_a_cache_line_on::<Pclmul>();
        every_job_frame_is_a_cache_line_on::<Avx2>();
        every_job_frame_is_a_cache_line_on::<Avx2Gfni>();
        every_job_frame_is_a_cache_line_on::<Avx512Bw>();
        every_job_frame_is_a_cache_line_on::<Avx512Vbmi>();
        every_job_frame_is_a_cache_line_on::<Avx512Gfni>();
    }
}
