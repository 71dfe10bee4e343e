//! 128-bit registers: SSSE3 and up (VEX-encoded inside AVX2 levels, EVEX
//! forms of `vpternlog`, `vprold` and the masks with AVX-512VL).

use super::level::{HasAvx512, HasGfni, HasVbmi, Level};
use super::x86_ops::x86_simd;
use super::{Avx512, Gfni, Vbmi};
use core::arch::x86_64::*;
use core::marker::PhantomData;

/// An xmm machine at level `L`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Xmm<L>(PhantomData<L>);

x86_simd! {
    Xmm<L: Level>, __m128i, 16,
    zero: _mm_setzero_si128, load: _mm_loadu_si128, store: _mm_storeu_si128,
    set8: _mm_set1_epi8, set32: _mm_set1_epi32, set64: _mm_set1_epi64x,
    xor: _mm_xor_si128, and: _mm_and_si128, or: _mm_or_si128, andnot: _mm_andnot_si128,
    add8: _mm_add_epi8, sub8: _mm_sub_epi8, add32: _mm_add_epi32, add64: _mm_add_epi64, sub64: _mm_sub_epi64,
    shl16: _mm_sll_epi16, shr16: _mm_srl_epi16, shl32: _mm_sll_epi32, shr32: _mm_srl_epi32,
    shl64: _mm_sll_epi64, shr64: _mm_srl_epi64,
    shuffle8: _mm_shuffle_epi8, maddubs: _mm_maddubs_epi16, packus16: _mm_packus_epi16,
    unpacklo: [_mm_unpacklo_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi32, _mm_unpacklo_epi64],
    unpackhi: [_mm_unpackhi_epi8, _mm_unpackhi_epi16, _mm_unpackhi_epi32, _mm_unpackhi_epi64],
    {
        #[inline(always)]
        fn splat128(self, lane: &[u8; 16]) -> __m128i {
            unsafe { _mm_loadu_si128(lane.as_ptr().cast()) }
        }
        #[inline(always)]
        fn xor3(self, a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            if L::AVX512VL {
                unsafe { _mm_ternarylogic_epi64::<0x96>(a, b, c) }
            } else {
                unsafe { _mm_xor_si128(_mm_xor_si128(a, b), c) }
            }
        }
        #[inline(always)]
        fn eq8(self, a: __m128i, b: __m128i) -> __m128i {
            unsafe { _mm_cmpeq_epi8(a, b) }
        }
        #[inline(always)]
        fn gt8(self, a: __m128i, b: __m128i) -> __m128i {
            unsafe { _mm_cmpgt_epi8(a, b) }
        }
        #[inline(always)]
        fn rotl32<const N: i32>(self, a: __m128i) -> __m128i {
            if L::AVX512VL {
                unsafe { _mm_rol_epi32::<N>(a) }
            } else {
                unsafe { _mm_or_si128(_mm_sll_epi32(a, _mm_cvtsi32_si128(N)), _mm_srl_epi32(a, _mm_cvtsi32_si128(32 - N))) }
            }
        }
        #[inline(always)]
        fn shuffle32<const IMM: i32>(self, a: __m128i) -> __m128i {
            unsafe { _mm_shuffle_epi32::<IMM>(a) }
        }
        #[inline(always)]
        fn blendv(self, a: __m128i, b: __m128i, mask: __m128i) -> __m128i {
            if L::AVX2 {
                unsafe { _mm_blendv_epi8(a, b, mask) }
            } else {
                // SSSE3 has no pblendvb: spread bit 7 by a signed compare.
                unsafe {
                    let m = _mm_cmpgt_epi8(_mm_setzero_si128(), mask);
                    _mm_or_si128(_mm_and_si128(m, b), _mm_andnot_si128(m, a))
                }
            }
        }
        #[inline(always)]
        fn blend32<const IMM: i32>(self, a: __m128i, b: __m128i) -> __m128i {
            if L::AVX2 {
                unsafe { _mm_blend_epi32::<IMM>(a, b) }
            } else {
                let word = |i: i32| if IMM >> i & 1 == 1 { -1 } else { 0 };
                unsafe {
                    let m = _mm_setr_epi32(word(0), word(1), word(2), word(3));
                    _mm_or_si128(_mm_and_si128(m, b), _mm_andnot_si128(m, a))
                }
            }
        }
        // uBlock
        #[inline(always)]
        fn load_lane(self, _: __m128i, lane: usize, src: &[u8]) -> __m128i {
            debug_assert_eq!(lane, 0);
            let src = &src[..16];
            unsafe { _mm_loadu_si128(src.as_ptr().cast()) }
        }
        #[inline(always)]
        fn store_lane(self, v: __m128i, lane: usize, dst: &mut [u8]) {
            debug_assert_eq!(lane, 0);
            let dst = &mut dst[..16];
            unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), v) }
        }
    }
}

impl<L: HasGfni> Gfni for Xmm<L> {
    #[inline(always)]
    fn affine(self, x: __m128i, matrix: u64) -> __m128i {
        // SAFETY: L has GFNI (and AVX for the VEX form).
        unsafe { _mm_gf2p8affine_epi64_epi8::<0>(x, _mm_set1_epi64x(matrix as i64)) }
    }
}

impl<L: HasVbmi> Vbmi for Xmm<L> {
    #[inline(always)]
    fn permb(self, table: __m128i, idx: __m128i) -> __m128i {
        // SAFETY: L has AVX-512 VBMI and VL.
        unsafe { _mm_permutexvar_epi8(idx, table) }
    }
    #[inline(always)]
    fn permi2b(self, lo: __m128i, idx: __m128i, hi: __m128i) -> __m128i {
        // SAFETY: as above.
        unsafe { _mm_permutex2var_epi8(lo, idx, hi) }
    }
}

impl<L: HasAvx512> Avx512 for Xmm<L> {
    #[inline(always)]
    fn ternlog<const IMM: i32>(self, a: __m128i, b: __m128i, c: __m128i) -> __m128i {
        // SAFETY (this impl): L has AVX-512 F+BW+VL.
        unsafe { _mm_ternarylogic_epi32::<IMM>(a, b, c) }
    }
    #[inline(always)]
    fn select_bit<const BIT: u32>(self, sel: __m128i, a: __m128i, b: __m128i) -> __m128i {
        unsafe {
            let k = if BIT == 7 { _mm_movepi8_mask(sel) } else { _mm_test_epi8_mask(sel, _mm_set1_epi8(1 << BIT)) };
            _mm_mask_blend_epi8(k, a, b)
        }
    }
    #[inline(always)]
    fn shuffle8_masked(self, src: __m128i, mask: u64, table: __m128i, idx: __m128i) -> __m128i {
        unsafe { _mm_mask_shuffle_epi8(src, mask as __mmask16, table, idx) }
    }
    #[inline(always)]
    fn permi2q(self, a: __m128i, idx: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_permutex2var_epi64(a, idx, b) }
    }
}
