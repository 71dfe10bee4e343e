//! Sums of carry-less products with PCLMULQDQ for MGM (see `gf.rs`).
//! Reached only through `gf::mul_acc` after runtime detection.

use super::gf::Acc;
use core::arch::x86_64::*;

#[inline(always)]
fn be_halves(b: &[u8]) -> (i64, i64) {
    let v = u128::from_be_bytes(b.try_into().expect("16-byte block"));
    ((v >> 64) as i64, v as i64)
}

/// A 16-byte big-endian block as one 128-bit value (its low half in lane 0).
#[target_feature(enable = "sse2")]
fn load_be128(b: &[u8]) -> __m128i {
    let (hi, lo) = be_halves(b);
    _mm_set_epi64x(hi, lo)
}

/// Two 8-byte big-endian blocks, the first in lane 0.
#[target_feature(enable = "sse2")]
fn load_be64x2(b: &[u8]) -> __m128i {
    let (first, second) = be_halves(b);
    _mm_set_epi64x(second, first)
}

#[target_feature(enable = "sse2")]
fn to_u128(v: __m128i) -> u128 {
    let mut out = [0u8; 16];
    // SAFETY: `out` has 16 bytes; unaligned store.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), v) };
    u128::from_le_bytes(out)
}

/// `acc ^= Σ h_i ⊗ x_i` over 16-byte big-endian blocks (256-bit products).
///
/// # Safety
/// The CPU must have PCLMULQDQ and SSE2.
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) unsafe fn mul_acc128(acc: &mut Acc, h: &[u8], x: &[u8]) {
    let mut lo = _mm_setzero_si128();
    let mut mid = _mm_setzero_si128();
    let mut hi = _mm_setzero_si128();
    for (hb, xb) in h.chunks_exact(16).zip(x.chunks_exact(16)) {
        let (a, b) = (load_be128(hb), load_be128(xb));
        lo = _mm_xor_si128(lo, _mm_clmulepi64_si128(a, b, 0x00));
        hi = _mm_xor_si128(hi, _mm_clmulepi64_si128(a, b, 0x11));
        mid = _mm_xor_si128(mid, _mm_clmulepi64_si128(a, b, 0x01));
        mid = _mm_xor_si128(mid, _mm_clmulepi64_si128(a, b, 0x10));
    }
    lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
    hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
    acc.lo ^= to_u128(lo);
    acc.hi ^= to_u128(hi);
}

/// `acc.lo ^= Σ h_i ⊗ x_i` over 8-byte big-endian blocks (128-bit products),
/// two blocks per register.
///
/// # Safety
/// The CPU must have PCLMULQDQ and SSE2.
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) unsafe fn mul_acc64(acc: &mut Acc, h: &[u8], x: &[u8]) {
    let mut sum = _mm_setzero_si128();
    let pairs = h.len() / 16;
    for (hb, xb) in h.chunks_exact(16).zip(x.chunks_exact(16)) {
        let (a, b) = (load_be64x2(hb), load_be64x2(xb));
        sum = _mm_xor_si128(sum, _mm_clmulepi64_si128(a, b, 0x00));
        sum = _mm_xor_si128(sum, _mm_clmulepi64_si128(a, b, 0x11));
    }
    if h.len() % 16 != 0 {
        let a = u64::from_be_bytes(h[16 * pairs..].try_into().expect("8-byte block"));
        let b = u64::from_be_bytes(x[16 * pairs..].try_into().expect("8-byte block"));
        let p = _mm_clmulepi64_si128(_mm_set_epi64x(0, a as i64), _mm_set_epi64x(0, b as i64), 0x00);
        sum = _mm_xor_si128(sum, p);
    }
    acc.lo ^= to_u128(sum);
}
