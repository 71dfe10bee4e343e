//! 256-bit registers: AVX2 and up (EVEX forms with AVX-512VL).

use super::level::{HasAvx2, HasAvx512, HasGfni, HasVbmi};
use super::x86_ops::{x86_binary, x86_extensions, x86_rotl, x86_shift, x86_simd, x86_unpack};
use super::xmm::Xmm;
use core::arch::x86_64::*;
use core::marker::PhantomData;

/// A ymm machine at level `L`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ymm<L>(PhantomData<L>);

impl<L: HasAvx2> super::Narrow for Ymm<L> {
    type Half = Xmm<L>;
    #[inline(always)]
    fn half(self) -> Xmm<L> {
        // SAFETY: the same level's features.
        unsafe { <Xmm<L> as super::Machine>::new_unchecked() }
    }
    #[inline(always)]
    fn low_half(self, v: __m256i) -> __m128i {
        unsafe { _mm256_castsi256_si128(v) }
    }
    #[inline(always)]
    fn widen(self, h: __m128i) -> __m256i {
        unsafe { _mm256_castsi128_si256(h) }
    }
}

x86_simd! {
    Ymm<L: HasAvx2>, __m256i, 32,
    zero: _mm256_setzero_si256, load: _mm256_loadu_si256, store: _mm256_storeu_si256,
    set8: _mm256_set1_epi8, set32: _mm256_set1_epi32, set64: _mm256_set1_epi64x,
    xor: _mm256_xor_si256, and: _mm256_and_si256, or: _mm256_or_si256, andnot: _mm256_andnot_si256,
    add8: _mm256_add_epi8, sub8: _mm256_sub_epi8, add32: _mm256_add_epi32, add64: _mm256_add_epi64,
    sub64: _mm256_sub_epi64,
    shl16: _mm256_sll_epi16, shr16: _mm256_srl_epi16, shl32: _mm256_sll_epi32, shr32: _mm256_srl_epi32,
    shl64: _mm256_sll_epi64, shr64: _mm256_srl_epi64,
    shuffle8: _mm256_shuffle_epi8, maddubs: _mm256_maddubs_epi16, packus16: _mm256_packus_epi16,
    unpacklo: [_mm256_unpacklo_epi8, _mm256_unpacklo_epi16, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64],
    unpackhi: [_mm256_unpackhi_epi8, _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64],
    {
        #[inline(always)]
        fn low64(self, a: __m256i) -> u64 {
            unsafe { _mm_cvtsi128_si64(_mm256_castsi256_si128(a)) as u64 }
        }
        #[inline(always)]
        fn splat128(self, lane: &[u8; 16]) -> __m256i {
            unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(lane.as_ptr().cast())) }
        }
        #[inline(always)]
        fn xor3(self, a: __m256i, b: __m256i, c: __m256i) -> __m256i {
            if L::AVX512VL {
                unsafe { _mm256_ternarylogic_epi64::<0x96>(a, b, c) }
            } else {
                unsafe { _mm256_xor_si256(_mm256_xor_si256(a, b), c) }
            }
        }
        #[inline(always)]
        fn eq8(self, a: __m256i, b: __m256i) -> __m256i {
            unsafe { _mm256_cmpeq_epi8(a, b) }
        }
        #[inline(always)]
        fn gt8(self, a: __m256i, b: __m256i) -> __m256i {
            unsafe { _mm256_cmpgt_epi8(a, b) }
        }
        x86_rotl!(__m256i, _mm256_or_si256;
            rotl32: 32 _mm256_rol_epi32 _mm256_sll_epi32 _mm256_srl_epi32,
            rotl64: 64 _mm256_rol_epi64 _mm256_sll_epi64 _mm256_srl_epi64);
        #[inline(always)]
        fn shuffle32<const IMM: i32>(self, a: __m256i) -> __m256i {
            unsafe { _mm256_shuffle_epi32::<IMM>(a) }
        }
        #[inline(always)]
        fn blendv(self, a: __m256i, b: __m256i, mask: __m256i) -> __m256i {
            unsafe { _mm256_blendv_epi8(a, b, mask) }
        }
        #[inline(always)]
        fn blend32<const IMM: i32>(self, a: __m256i, b: __m256i) -> __m256i {
            // vpblendd takes 8 bits for the whole register: the lane pattern twice.
            macro_rules! both_lanes {
                ($($imm:literal)*) => {
                    match IMM & 15 {
                        $($imm => unsafe { _mm256_blend_epi32::<{ $imm | $imm << 4 }>(a, b) },)*
                        _ => unreachable!(),
                    }
                };
            }
            both_lanes!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
        }
        // Kalyna's operations.
        #[inline(always)]
        fn add8_opaque(self, a: __m256i, b: __m256i) -> __m256i {
            unsafe { super::x86_ops::vpaddb_ymm(a, b) }
        }
        #[inline(always)]
        fn splat8_opaque(self, b: u8) -> __m256i {
            unsafe { super::x86_ops::splat8_ymm(b) }
        }
        #[inline(always)]
        fn shuffle8_opaque(self, table: __m256i, idx: __m256i) -> __m256i {
            unsafe { super::x86_ops::vpshufb_ymm(table, idx) }
        }
        #[inline(always)]
        fn blendv_opaque(self, a: __m256i, b: __m256i, mask: __m256i) -> __m256i {
            unsafe { super::x86_ops::vpblendvb_ymm(a, b, mask) }
        }
        #[inline(always)]
        fn load_lanes(self, src: &[u8], stride: usize) -> __m256i {
            let (lo, hi) = (&src[..16], &src[stride..stride + 16]);
            unsafe { _mm256_loadu2_m128i(hi.as_ptr().cast(), lo.as_ptr().cast()) }
        }
        #[inline(always)]
        fn store_lanes(self, v: __m256i, dst: &mut [u8], stride: usize) {
            let _ = (&dst[..16], &dst[stride..stride + 16]);
            let p = dst.as_mut_ptr();
            unsafe { _mm256_storeu2_m128i(p.add(stride).cast(), p.cast(), v) }
        }
        // uBlock
        #[inline(always)]
        fn load_lane(self, v: __m256i, lane: usize, src: &[u8]) -> __m256i {
            let src = &src[..16];
            unsafe {
                let x = _mm_loadu_si128(src.as_ptr().cast());
                match lane {
                    0 => _mm256_inserti128_si256::<0>(v, x),
                    _ => _mm256_inserti128_si256::<1>(v, x),
                }
            }
        }
        #[inline(always)]
        fn store_lane(self, v: __m256i, lane: usize, dst: &mut [u8]) {
            let dst = &mut dst[..16];
            unsafe {
                let x = match lane {
                    0 => _mm256_castsi256_si128(v),
                    _ => _mm256_extracti128_si256::<1>(v),
                };
                _mm_storeu_si128(dst.as_mut_ptr().cast(), x)
            }
        }

        // Magma / GOST 28147-89.
        #[inline(always)]
        fn blend16<const IMM: i32>(self, a: __m256i, b: __m256i) -> __m256i {
            // vpblendw applies its 8 bits to both lanes.
            unsafe { _mm256_blend_epi16::<IMM>(a, b) }
        }
    }
}

impl<L: HasAvx2> super::MinU8 for Ymm<L> {
    #[inline(always)]
    fn min8u(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_min_epu8(a, b) }
    }
}

impl<L: HasAvx2> super::CrossLanes for Ymm<L> {
    #[inline(always)]
    fn lanes_between(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_permute2x128_si256::<0x21>(a, b) }
    }
    #[inline(always)]
    fn permute64<const IMM: i32>(self, a: __m256i) -> __m256i {
        unsafe { _mm256_permute4x64_epi64::<IMM>(a) }
    }
    #[inline(always)]
    fn permute32(self, a: __m256i, idx: __m256i) -> __m256i {
        unsafe { _mm256_permutevar8x32_epi32(a, idx) }
    }
}

x86_extensions! {
    Ymm, __m256i, __mmask32,
    gfni: [HasAvx2 + HasGfni] _mm256_gf2p8affine_epi64_epi8 _mm256_set1_epi64x _mm256_gf2p8mul_epi8 _mm256_gf2p8affineinv_epi64_epi8,
    vbmi: [HasVbmi] _mm256_permutexvar_epi8 _mm256_permutex2var_epi8 _mm256_mask_permutexvar_epi8,
    avx512: [HasAvx512] _mm256_ternarylogic_epi32 _mm256_movepi8_mask _mm256_test_epi8_mask _mm256_set1_epi8
        _mm256_mask_blend_epi8 _mm256_mask_shuffle_epi8 _mm256_permutex2var_epi64
        _mm256_maskz_loadu_epi8 _mm256_mask_storeu_epi8
        _mm256_mask_add_epi8 _mm256_cmplt_epu8_mask
}
