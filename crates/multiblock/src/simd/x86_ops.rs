//! The part of [`Simd`](super::Simd) whose x86-64 form differs between
//! widths only in the intrinsic's name: one macro writes it for xmm, ymm and
//! zmm; each width's file writes the rest by hand.

/// Implements `Machine` and `Simd` for `$token<L>` (a register of `$bytes`
/// bytes, `$v`), given the intrinsics of each operation, and then the
/// width-specific methods in `{ $($extra)* }`.
///
/// Shifts take the count in a register (`psllw xmm, xmm`): with a constant
/// count LLVM emits the immediate form, and one const-generic type (i32)
/// serves every width (the 512-bit immediate forms take u32).
///
/// SAFETY (of every `unsafe` block the macro writes): a `$token<L>` exists
/// only on a CPU with `L`'s features (see `Machine`), and `L` includes the
/// features of every intrinsic named here; loads and stores are bounds-
/// checked by slicing first.
macro_rules! x86_simd {
    (
        $token:ident<L: $bound:ident>, $v:ty, $bytes:literal,
        zero: $zero:ident, load: $load:ident, store: $store:ident,
        set8: $set8:ident, set32: $set32:ident, set64: $set64:ident,
        xor: $xor:ident, and: $and:ident, or: $or:ident, andnot: $andnot:ident,
        add8: $add8:ident, sub8: $sub8:ident, add32: $add32:ident, add64: $add64:ident, sub64: $sub64:ident,
        shl16: $shl16:ident, shr16: $shr16:ident, shl32: $shl32:ident, shr32: $shr32:ident,
        shl64: $shl64:ident, shr64: $shr64:ident,
        shuffle8: $shuffle8:ident, maddubs: $maddubs:ident, packus16: $packus16:ident,
        unpacklo: [$ulo8:ident, $ulo16:ident, $ulo32:ident, $ulo64:ident],
        unpackhi: [$uhi8:ident, $uhi16:ident, $uhi32:ident, $uhi64:ident],
        { $($extra:tt)* }
    ) => {
        impl<L: $bound> crate::simd::Machine for $token<L> {
            const NEEDS: &'static str = L::NEEDS;
            fn available(f: &crate::cpu::CpuFeatures) -> bool {
                L::available(f)
            }
            unsafe fn new_unchecked() -> Self {
                $token(core::marker::PhantomData)
            }
            #[inline(always)]
            fn vectorize<J: crate::simd::Job>(self, job: J) -> J::Output {
                // SAFETY: the token exists, so the CPU has L's features.
                unsafe { L::enter(job) }
            }
        }

        impl<L: $bound> crate::simd::Simd for $token<L> {
            type V = $v;
            const BYTES: usize = $bytes;

            #[inline(always)]
            fn zero(self) -> $v {
                unsafe { $zero() }
            }
            #[inline(always)]
            fn load(self, src: &[u8]) -> $v {
                let src = &src[..$bytes];
                unsafe { $load(src.as_ptr().cast()) }
            }
            #[inline(always)]
            fn store(self, v: $v, dst: &mut [u8]) {
                let dst = &mut dst[..$bytes];
                unsafe { $store(dst.as_mut_ptr().cast(), v) }
            }
            #[inline(always)]
            fn prefetch(self, bytes: &[u8]) {
                use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                for piece in bytes.chunks(64) {
                    // SAFETY: SSE (x86-64's baseline); a prefetch reads
                    // nothing into a register and cannot fault.
                    unsafe { _mm_prefetch::<_MM_HINT_T0>(piece.as_ptr().cast()) }
                }
            }
            #[inline(always)]
            fn splat8(self, b: u8) -> $v {
                unsafe { $set8(b as i8) }
            }
            #[inline(always)]
            fn splat32(self, w: u32) -> $v {
                unsafe { $set32(w as i32) }
            }
            #[inline(always)]
            fn splat64(self, q: u64) -> $v {
                unsafe { $set64(q as i64) }
            }
            x86_binary! { $v; xor: $xor, and: $and, or: $or, andnot: $andnot, add8: $add8, sub8: $sub8,
                add32: $add32, add64: $add64, sub64: $sub64, shuffle8: $shuffle8, maddubs: $maddubs,
                packus16: $packus16 }
            x86_shift! { $v; shl16: $shl16, shr16: $shr16, shl32: $shl32, shr32: $shr32, shl64: $shl64,
                shr64: $shr64 }
            x86_unpack! { $v; unpack_lo: [$ulo8, $ulo16, $ulo32, $ulo64],
                unpack_hi: [$uhi8, $uhi16, $uhi32, $uhi64] }

            $($extra)*
        }
    };
}

/// Methods `fn name(self, a, b)` that are one two-operand intrinsic each.
macro_rules! x86_binary {
    ($v:ty; $($name:ident: $f:ident),* $(,)?) => {
        $(
            #[inline(always)]
            fn $name(self, a: $v, b: $v) -> $v {
                unsafe { $f(a, b) }
            }
        )*
    };
}

/// `fn name<const W: usize>(self, a, b)`: the interleave of W-byte elements
/// (W = 1, 2, 4 or 8), one intrinsic per element size.
macro_rules! x86_unpack {
    ($v:ty; $($name:ident: [$f8:ident, $f16:ident, $f32:ident, $f64:ident]),* $(,)?) => {
        $(
            #[inline(always)]
            fn $name<const W: usize>(self, a: $v, b: $v) -> $v {
                unsafe {
                    match W {
                        1 => $f8(a, b),
                        2 => $f16(a, b),
                        4 => $f32(a, b),
                        _ => $f64(a, b),
                    }
                }
            }
        )*
    };
}

/// Shifts by a constant count, through the count-in-register form (see
/// `x86_simd!`).
macro_rules! x86_shift {
    ($v:ty; $($name:ident: $f:ident),* $(,)?) => {
        $(
            #[inline(always)]
            fn $name<const N: i32>(self, a: $v) -> $v {
                unsafe { $f(a, _mm_cvtsi32_si128(N)) }
            }
        )*
    };
}

/// Lane rotations below 512 bits: `vprol` with AVX-512VL, else two shifts
/// and an OR (constant counts: LLVM emits immediate shifts).
macro_rules! x86_rotl {
    ($v:ty, $or:ident; $($name:ident: $bits:literal $rol:ident $shl:ident $shr:ident),* $(,)?) => {
        $(
            #[inline(always)]
            fn $name<const N: i32>(self, a: $v) -> $v {
                if L::AVX512VL {
                    unsafe { $rol::<N>(a) }
                } else {
                    unsafe { $or($shl(a, _mm_cvtsi32_si128(N)), $shr(a, _mm_cvtsi32_si128($bits - N))) }
                }
            }
        )*
    };
}

/// The extension traits (`Gfni`, `Vbmi`, `Avx512`) for `$token<L>`, given
/// each width's intrinsics and the level bounds that provide them.
///
/// SAFETY (of every `unsafe` block): as for `x86_simd!`; the bounds name
/// the features (GFNI; AVX-512 VBMI, with VL below 512 bits; AVX-512 F+BW).
macro_rules! x86_extensions {
    (
        $token:ident, $v:ty, $mask:ty,
        gfni: [$($gfni_bound:tt)+] $affine:ident $set64:ident $mulb:ident $affineinv:ident,
        vbmi: [$($vbmi_bound:tt)+] $permb:ident $permi2b:ident $mask_permb:ident,
        avx512: [$($avx_bound:tt)+] $ternlog:ident $movepi8_mask:ident $test_mask:ident $set8:ident
            $blend:ident $mask_shuffle:ident $permi2q:ident $maskz_load:ident $mask_store:ident
            $mask_add8:ident $cmplt_epu8:ident
    ) => {
        impl<L: $($gfni_bound)+> crate::simd::Gfni for $token<L> {
            #[inline(always)]
            fn affine(self, x: $v, matrix: u64) -> $v {
                unsafe { $affine::<0>(x, $set64(matrix as i64)) }
            }
            #[inline(always)]
            fn affine_lanes(self, x: $v, matrices: $v) -> $v {
                unsafe { $affine::<0>(x, matrices) }
            }
            #[inline(always)]
            fn mul(self, a: $v, b: $v) -> $v {
                unsafe { $mulb(a, b) }
            }
            #[inline(always)]
            fn affine_inverse(self, x: $v, matrix: u64) -> $v {
                unsafe { $affineinv::<0>(x, $set64(matrix as i64)) }
            }
        }

        impl<L: $($vbmi_bound)+> crate::simd::Vbmi for $token<L> {
            #[inline(always)]
            fn permb(self, table: $v, idx: $v) -> $v {
                unsafe { $permb(idx, table) }
            }
            #[inline(always)]
            fn permi2b(self, lo: $v, idx: $v, hi: $v) -> $v {
                unsafe { $permi2b(lo, idx, hi) }
            }
            #[inline(always)]
            fn permb_masked(self, src: $v, mask: u64, table: $v, idx: $v) -> $v {
                unsafe { $mask_permb(src, mask as $mask, idx, table) }
            }
        }

        impl<L: $($avx_bound)+> crate::simd::Avx512 for $token<L> {
            #[inline(always)]
            fn ternlog<const IMM: i32>(self, a: $v, b: $v, c: $v) -> $v {
                unsafe { $ternlog::<IMM>(a, b, c) }
            }
            #[inline(always)]
            fn select_bit<const BIT: u32>(self, sel: $v, a: $v, b: $v) -> $v {
                unsafe {
                    let k = if BIT == 7 { $movepi8_mask(sel) } else { $test_mask(sel, $set8(1 << BIT)) };
                    $blend(k, a, b)
                }
            }
            #[inline(always)]
            fn shuffle8_masked(self, src: $v, mask: u64, table: $v, idx: $v) -> $v {
                unsafe { $mask_shuffle(src, mask as $mask, table, idx) }
            }
            #[inline(always)]
            fn permi2q(self, a: $v, idx: $v, b: $v) -> $v {
                unsafe { $permi2q(a, idx, b) }
            }
            #[inline(always)]
            fn add8_masked(self, src: $v, mask: u64, a: $v, b: $v) -> $v {
                unsafe { $mask_add8(src, mask as $mask, a, b) }
            }
            #[inline(always)]
            fn lt8u(self, a: $v, b: $v) -> u64 {
                unsafe { u64::from($cmplt_epu8(a, b)) }
            }
            #[inline(always)]
            fn test8(self, a: $v, b: $v) -> u64 {
                unsafe { u64::from($test_mask(a, b)) }
            }
            #[inline(always)]
            fn load_prefix(self, src: &[u8]) -> $v {
                assert!(src.len() <= <Self as crate::simd::Simd>::BYTES);
                // SAFETY: the mask selects exactly src's bytes; masked-off
                // bytes are neither read nor able to fault.
                unsafe { $maskz_load(crate::simd::x86_ops::prefix_mask(src.len()) as $mask, src.as_ptr().cast()) }
            }
            #[inline(always)]
            fn store_prefix(self, v: $v, dst: &mut [u8]) {
                assert!(dst.len() <= <Self as crate::simd::Simd>::BYTES);
                // SAFETY: as in `load_prefix`, only dst's bytes are written.
                unsafe { $mask_store(dst.as_mut_ptr().cast(), crate::simd::x86_ops::prefix_mask(dst.len()) as $mask, v) }
            }
        }
    };
}

pub(super) use {x86_binary, x86_extensions, x86_rotl, x86_shift, x86_simd, x86_unpack};

/// The byte mask of the first `len` (≤ 64) bytes.
#[inline(always)]
pub(super) fn prefix_mask(len: usize) -> u64 {
    u64::MAX.checked_shr(64 - len as u32).unwrap_or(0)
}

// `vpaddb`, `vpblendvb` (Kalyna) and `vpshufb` (uBlock) as inline asm (see
// `Simd::add8_opaque`, `Simd::blendv_opaque`, `Simd::shuffle8_opaque`).
// The register classes of VEX ymm operands need the `avx` feature on the
// function that holds the asm, so each is a `#[target_feature]` function;
// it inlines into every level's function that has AVX2.
use core::arch::asm;
use core::arch::x86_64::{__m128i, __m256i};

/// `$name(operands)`: the instruction `$insn` on registers of class `$class`.
macro_rules! opaque {
    ($(#[$doc:meta])* $name:ident, $feature:literal, $v:ty, $class:ident, $insn:literal, $($arg:ident),+) => {
        $(#[$doc])*
        /// # Safety
        /// The CPU must have the feature.
        #[inline]
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn $name($($arg: $v),+) -> $v {
            let r: $v;
            // SAFETY: the caller guarantees the feature; registers only.
            unsafe {
                asm!($insn, r = lateout($class) r, $($arg = in($class) $arg),+,
                    options(pure, nomem, nostack, preserves_flags))
            };
            r
        }
    };
}

/// `$name(b)`: b in every byte, through an empty asm so that LLVM sees a
/// register value, not a constant (see `Simd::splat8_opaque`).
macro_rules! opaque_splat8 {
    ($name:ident, $feature:literal, $v:ty, $class:ident, $set8:ident) => {
        /// # Safety
        /// The CPU must have the feature.
        #[inline]
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn $name(b: u8) -> $v {
            let mut v: $v = core::arch::x86_64::$set8(b as i8);
            // SAFETY: the caller guarantees the feature; no instruction.
            unsafe { asm!("/* {v} */", v = inout($class) v, options(pure, nomem, nostack, preserves_flags)) };
            v
        }
    };
}

opaque_splat8!(splat8_xmm, "sse2", __m128i, xmm_reg, _mm_set1_epi8);
opaque_splat8!(splat8_ymm, "avx2", __m256i, ymm_reg, _mm256_set1_epi8);

opaque!(vpaddb_xmm, "avx", __m128i, xmm_reg, "vpaddb {r}, {a}, {b}", a, b);
opaque!(vpaddb_ymm, "avx2", __m256i, ymm_reg, "vpaddb {r}, {a}, {b}", a, b);
opaque!(vpshufb_xmm, "avx", __m128i, xmm_reg, "vpshufb {r}, {a}, {b}", a, b);
opaque!(vpshufb_ymm, "avx2", __m256i, ymm_reg, "vpshufb {r}, {a}, {b}", a, b);
opaque!(vpblendvb_xmm, "avx", __m128i, xmm_reg, "vpblendvb {r}, {a}, {b}, {m}", a, b, m);
opaque!(vpblendvb_ymm, "avx2", __m256i, ymm_reg, "vpblendvb {r}, {a}, {b}, {m}", a, b, m);
