//! 512-bit registers: AVX-512 F+BW (+VL) and up.

use super::level::{HasAvx512, HasGfni, HasVbmi};
use super::x86_ops::{x86_binary, x86_extensions, x86_shift, x86_simd, x86_unpack};
use super::ymm::Ymm;
use super::Narrow;
use core::arch::x86_64::*;
use core::marker::PhantomData;

/// A zmm machine at level `L`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Zmm<L>(PhantomData<L>);

impl<L: HasAvx512> Narrow for Zmm<L> {
    type Half = Ymm<L>;
    #[inline(always)]
    fn half(self) -> Ymm<L> {
        // SAFETY: the same level's features.
        unsafe { <Ymm<L> as super::Machine>::new_unchecked() }
    }
    #[inline(always)]
    fn low_half(self, v: __m512i) -> __m256i {
        unsafe { _mm512_castsi512_si256(v) }
    }
    #[inline(always)]
    fn widen(self, h: __m256i) -> __m512i {
        unsafe { _mm512_castsi256_si512(h) }
    }
}

/// A 4-bit pattern of 32-bit words repeated over the four 128-bit lanes.
#[inline(always)]
const fn lanes4(imm: i32) -> __mmask16 {
    let p = (imm & 15) as u16;
    p | p << 4 | p << 8 | p << 12
}

x86_simd! {
    Zmm<L: HasAvx512>, __m512i, 64,
    zero: _mm512_setzero_si512, load: _mm512_loadu_si512, store: _mm512_storeu_si512,
    set8: _mm512_set1_epi8, set32: _mm512_set1_epi32, set64: _mm512_set1_epi64,
    xor: _mm512_xor_si512, and: _mm512_and_si512, or: _mm512_or_si512, andnot: _mm512_andnot_si512,
    add8: _mm512_add_epi8, sub8: _mm512_sub_epi8, add32: _mm512_add_epi32, add64: _mm512_add_epi64,
    sub64: _mm512_sub_epi64,
    shl16: _mm512_sll_epi16, shr16: _mm512_srl_epi16, shl32: _mm512_sll_epi32, shr32: _mm512_srl_epi32,
    shl64: _mm512_sll_epi64, shr64: _mm512_srl_epi64,
    shuffle8: _mm512_shuffle_epi8, maddubs: _mm512_maddubs_epi16, packus16: _mm512_packus_epi16,
    unpacklo: [_mm512_unpacklo_epi8, _mm512_unpacklo_epi16, _mm512_unpacklo_epi32, _mm512_unpacklo_epi64],
    unpackhi: [_mm512_unpackhi_epi8, _mm512_unpackhi_epi16, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64],
    {
        #[inline(always)]
        fn low64(self, a: __m512i) -> u64 {
            unsafe { _mm_cvtsi128_si64(_mm512_castsi512_si128(a)) as u64 }
        }
        #[inline(always)]
        fn splat128(self, lane: &[u8; 16]) -> __m512i {
            unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(lane.as_ptr().cast())) }
        }
        #[inline(always)]
        fn xor3(self, a: __m512i, b: __m512i, c: __m512i) -> __m512i {
            unsafe { _mm512_ternarylogic_epi64::<0x96>(a, b, c) }
        }
        #[inline(always)]
        fn eq8(self, a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_movm_epi8(_mm512_cmpeq_epi8_mask(a, b)) }
        }
        #[inline(always)]
        fn gt8(self, a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_movm_epi8(_mm512_cmpgt_epi8_mask(a, b)) }
        }
        #[inline(always)]
        fn rotl32<const N: i32>(self, a: __m512i) -> __m512i {
            unsafe { _mm512_rol_epi32::<N>(a) }
        }
        #[inline(always)]
        fn rotl64<const N: i32>(self, a: __m512i) -> __m512i {
            unsafe { _mm512_rol_epi64::<N>(a) }
        }
        #[inline(always)]
        fn shuffle32<const IMM: i32>(self, a: __m512i) -> __m512i {
            unsafe { _mm512_shuffle_epi32::<IMM>(a) }
        }
        #[inline(always)]
        fn blendv(self, a: __m512i, b: __m512i, mask: __m512i) -> __m512i {
            unsafe { _mm512_mask_blend_epi8(_mm512_movepi8_mask(mask), a, b) }
        }
        #[inline(always)]
        fn blend32<const IMM: i32>(self, a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_mask_blend_epi32(lanes4(IMM), a, b) }
        }
        // Kalyna's operations. No EVEX `vpblendvb` exists; the plain forms.
        #[inline(always)]
        fn add8_opaque(self, a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_add_epi8(a, b) }
        }
        // No zmm kernel has needed it so far: the plain form.
        #[inline(always)]
        fn splat8_opaque(self, b: u8) -> __m512i {
            self.splat8(b)
        }
        #[inline(always)]
        fn shuffle8_opaque(self, table: __m512i, idx: __m512i) -> __m512i {
            self.shuffle8(table, idx)
        }
        #[inline(always)]
        fn blendv_opaque(self, a: __m512i, b: __m512i, mask: __m512i) -> __m512i {
            self.blendv(a, b, mask)
        }
        #[inline(always)]
        fn load_lanes(self, src: &[u8], stride: usize) -> __m512i {
            let half = self.half();
            let (lo, hi) = (half.load_lanes(src, stride), half.load_lanes(&src[2 * stride..], stride));
            unsafe { _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi) }
        }
        #[inline(always)]
        fn store_lanes(self, v: __m512i, dst: &mut [u8], stride: usize) {
            let half = self.half();
            unsafe {
                half.store_lanes(_mm512_castsi512_si256(v), dst, stride);
                half.store_lanes(_mm512_extracti64x4_epi64::<1>(v), &mut dst[2 * stride..], stride);
            }
        }
        // uBlock
        #[inline(always)]
        fn load_lane(self, v: __m512i, lane: usize, src: &[u8]) -> __m512i {
            let src = &src[..16];
            unsafe {
                let x = _mm_loadu_si128(src.as_ptr().cast());
                match lane {
                    0 => _mm512_inserti32x4::<0>(v, x),
                    1 => _mm512_inserti32x4::<1>(v, x),
                    2 => _mm512_inserti32x4::<2>(v, x),
                    _ => _mm512_inserti32x4::<3>(v, x),
                }
            }
        }
        #[inline(always)]
        fn store_lane(self, v: __m512i, lane: usize, dst: &mut [u8]) {
            let dst = &mut dst[..16];
            unsafe {
                let x = match lane {
                    0 => _mm512_castsi512_si128(v),
                    1 => _mm512_extracti32x4_epi32::<1>(v),
                    2 => _mm512_extracti32x4_epi32::<2>(v),
                    _ => _mm512_extracti32x4_epi32::<3>(v),
                };
                _mm_storeu_si128(dst.as_mut_ptr().cast(), x)
            }
        }

        // Magma / GOST 28147-89.
        #[inline(always)]
        fn blend16<const IMM: i32>(self, a: __m512i, b: __m512i) -> __m512i {
            let p = (IMM & 0xff) as u32;
            unsafe { _mm512_mask_blend_epi16(p | p << 8 | p << 16 | p << 24, a, b) }
        }
    }
}

x86_extensions! {
    Zmm, __m512i, __mmask64,
    gfni: [HasAvx512 + HasGfni] _mm512_gf2p8affine_epi64_epi8 _mm512_set1_epi64 _mm512_gf2p8mul_epi8 _mm512_gf2p8affineinv_epi64_epi8,
    vbmi: [HasVbmi] _mm512_permutexvar_epi8 _mm512_permutex2var_epi8 _mm512_mask_permutexvar_epi8,
    avx512: [HasAvx512] _mm512_ternarylogic_epi32 _mm512_movepi8_mask _mm512_test_epi8_mask _mm512_set1_epi8
        _mm512_mask_blend_epi8 _mm512_mask_shuffle_epi8 _mm512_permutex2var_epi64
        _mm512_maskz_loadu_epi8 _mm512_mask_storeu_epi8
        _mm512_mask_add_epi8 _mm512_cmplt_epu8_mask
}
