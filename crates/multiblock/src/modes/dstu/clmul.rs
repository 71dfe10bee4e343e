//! Carry-less multiplication of 128-, 256- and 512-bit polynomials with
//! PCLMULQDQ (schoolbook on 128-bit limb pairs), for the GF(2^n) arithmetic
//! of DSTU GCM/GMAC. [`super::gf`] reaches it only after runtime detection
//! and keeps a portable fallback; both are tested against each other.

/// Whether this CPU has PCLMULQDQ (and SSE2).
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let f = crate::cpu::CpuFeatures::get();
        f.pclmulqdq && f.sse2
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `wide[..2w] = a × b` over GF(2)[x] for `w = a.len() = b.len()` limbs
/// (2, 4 or 8 little-endian u64 words); the rest of `wide` is cleared.
///
/// # Safety
/// The CPU must support `pclmulqdq` and `sse2` ([`available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) unsafe fn mul_wide(a: &[u64], b: &[u64], wide: &mut [u64; 16]) {
    use core::arch::x86_64::*;
    let w = a.len();
    debug_assert!(b.len() == w && matches!(w, 2 | 4 | 8));
    let pairs = w / 2;
    // even[k]: the product terms at limbs 2k, 2k+1; mid[k]: at 2k+1, 2k+2.
    let zero = _mm_setzero_si128();
    let mut even = [zero; 8];
    let mut mid = [zero; 8];
    for i in 0..pairs {
        // SAFETY: a[2i..2i+2] and b[2j..2j+2] are in bounds (2·pairs = w).
        let x = unsafe { _mm_loadu_si128(a.as_ptr().add(2 * i) as *const __m128i) };
        for j in 0..pairs {
            let y = unsafe { _mm_loadu_si128(b.as_ptr().add(2 * j) as *const __m128i) };
            let lo = _mm_clmulepi64_si128(x, y, 0x00);
            let hi = _mm_clmulepi64_si128(x, y, 0x11);
            let m = _mm_xor_si128(_mm_clmulepi64_si128(x, y, 0x01), _mm_clmulepi64_si128(x, y, 0x10));
            even[i + j] = _mm_xor_si128(even[i + j], lo);
            even[i + j + 1] = _mm_xor_si128(even[i + j + 1], hi);
            mid[i + j] = _mm_xor_si128(mid[i + j], m);
        }
    }
    // Fold mid (offset by one limb) into even.
    for k in 0..w - 1 {
        even[k] = _mm_xor_si128(even[k], _mm_slli_si128(mid[k], 8));
        even[k + 1] = _mm_xor_si128(even[k + 1], _mm_srli_si128(mid[k], 8));
    }
    *wide = [0; 16];
    for (k, e) in even.iter().enumerate().take(w) {
        // SAFETY: limbs 2k, 2k+1 < 2w ≤ 16.
        unsafe { _mm_storeu_si128(wide.as_mut_ptr().add(2 * k) as *mut __m128i, *e) };
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) unsafe fn mul_wide(_a: &[u64], _b: &[u64], _wide: &mut [u64; 16]) {
    unreachable!("PCLMULQDQ is x86-64 only; available() is false here")
}
