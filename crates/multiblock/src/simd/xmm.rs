//! 128-bit registers: SSSE3 and up (VEX-encoded inside AVX2 levels, EVEX
//! forms of `vpternlog`, `vprold` and the masks with AVX-512VL).

use super::level::{HasAvx512, HasClmul, HasGfni, HasVbmi, Level};
use super::x86_ops::{x86_binary, x86_extensions, x86_rotl, x86_shift, x86_simd, x86_unpack};
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
        fn low64(self, a: __m128i) -> u64 {
            unsafe { _mm_cvtsi128_si64(a) as u64 }
        }
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
        x86_rotl!(__m128i, _mm_or_si128;
            rotl32: 32 _mm_rol_epi32 _mm_sll_epi32 _mm_srl_epi32,
            rotl64: 64 _mm_rol_epi64 _mm_sll_epi64 _mm_srl_epi64);
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
        // Kalyna's operations.
        #[inline(always)]
        fn add8_opaque(self, a: __m128i, b: __m128i) -> __m128i {
            if L::AVX2 {
                unsafe { super::x86_ops::vpaddb_xmm(a, b) }
            } else {
                unsafe { _mm_add_epi8(a, b) }
            }
        }
        #[inline(always)]
        fn splat8_opaque(self, b: u8) -> __m128i {
            unsafe { super::x86_ops::splat8_xmm(b) }
        }
        #[inline(always)]
        fn shuffle8_opaque(self, table: __m128i, idx: __m128i) -> __m128i {
            if L::AVX2 {
                unsafe { super::x86_ops::vpshufb_xmm(table, idx) }
            } else {
                self.shuffle8(table, idx)
            }
        }
        #[inline(always)]
        fn blendv_opaque(self, a: __m128i, b: __m128i, mask: __m128i) -> __m128i {
            if L::AVX2 {
                unsafe { super::x86_ops::vpblendvb_xmm(a, b, mask) }
            } else {
                self.blendv(a, b, mask)
            }
        }
        #[inline(always)]
        fn load_lanes(self, src: &[u8], _stride: usize) -> __m128i {
            self.load(src)
        }
        #[inline(always)]
        fn store_lanes(self, v: __m128i, dst: &mut [u8], _stride: usize) {
            self.store(v, dst)
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

        // Magma / GOST 28147-89.
        #[inline(always)]
        fn blend16<const IMM: i32>(self, a: __m128i, b: __m128i) -> __m128i {
            if !L::AVX2 {
                // SSSE3 has no pblendw (SSE4.1); no backend needs it fast there.
                let w = |i: i32| -((IMM >> i & 1) as i16);
                return self.blendv(a, b, unsafe { _mm_setr_epi16(w(0), w(1), w(2), w(3), w(4), w(5), w(6), w(7)) });
            }
            unsafe { _mm_blend_epi16::<IMM>(a, b) }
        }
    }
}

impl<L: Level> super::MinU8 for Xmm<L> {
    #[inline(always)]
    fn min8u(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: the token proves L's features; `pminub` is SSE2.
        unsafe { _mm_min_epu8(a, b) }
    }
}

x86_extensions! {
    Xmm, __m128i, __mmask16,
    gfni: [HasGfni] _mm_gf2p8affine_epi64_epi8 _mm_set1_epi64x _mm_gf2p8mul_epi8 _mm_gf2p8affineinv_epi64_epi8,
    vbmi: [HasVbmi] _mm_permutexvar_epi8 _mm_permutex2var_epi8 _mm_mask_permutexvar_epi8,
    avx512: [HasAvx512] _mm_ternarylogic_epi32 _mm_movepi8_mask _mm_test_epi8_mask _mm_set1_epi8
        _mm_mask_blend_epi8 _mm_mask_shuffle_epi8 _mm_permutex2var_epi64
        _mm_maskz_loadu_epi8 _mm_mask_storeu_epi8
        _mm_mask_add_epi8 _mm_cmplt_epu8_mask
}

impl<L: HasClmul> super::Clmul for Xmm<L> {
    #[inline(always)]
    fn clmul<const IMM: i32>(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: the token proves L's features, PCLMULQDQ among them.
        unsafe { _mm_clmulepi64_si128::<IMM>(a, b) }
    }
}
