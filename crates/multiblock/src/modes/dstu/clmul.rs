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

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::__m128i;

/// The product a × b over GF(2)[x] of two W-limb polynomials (W = 2, 4, 8;
/// limb pairs in registers, little-endian): (W/2)² products of 128-bit
/// pairs, 4 PCLMULQDQ each. Returns the 2W-limb product as W pairs.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
unsafe fn product<const W: usize>(a: &[__m128i; 4], b: &[__m128i; 4]) -> [__m128i; 8] {
    use core::arch::x86_64::*;
    // even[k]: terms at limbs 2k, 2k+1; mid[k]: at 2k+1, 2k+2.
    let mut even = [_mm_setzero_si128(); 8];
    let mut mid = [_mm_setzero_si128(); 8];
    for i in 0..W / 2 {
        for j in 0..W / 2 {
            let (x, y) = (a[i], b[j]);
            even[i + j] = _mm_xor_si128(even[i + j], _mm_clmulepi64_si128(x, y, 0x00));
            even[i + j + 1] = _mm_xor_si128(even[i + j + 1], _mm_clmulepi64_si128(x, y, 0x11));
            let m = _mm_xor_si128(_mm_clmulepi64_si128(x, y, 0x01), _mm_clmulepi64_si128(x, y, 0x10));
            mid[i + j] = _mm_xor_si128(mid[i + j], m);
        }
    }
    for k in 0..W - 1 {
        even[k] = _mm_xor_si128(even[k], _mm_slli_si128(mid[k], 8));
        even[k + 1] = _mm_xor_si128(even[k + 1], _mm_srli_si128(mid[k], 8));
    }
    even
}

/// Reduces a 2W-limb product modulo x^(64W) + `low` (`r` = low in limb 0):
/// each high pair, top down, is multiplied by low (< x^11) and added W
/// limbs lower; the few bits the top pair's fold leaves above x^(64W) land
/// in pair W/2, which is folded after it (or, for W = 2, once more).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
unsafe fn fold<const W: usize>(e: &mut [__m128i; 8], r: __m128i) -> [__m128i; 4] {
    use core::arch::x86_64::*;
    let half = W / 2;
    for k in (half..W).rev() {
        let p0 = _mm_clmulepi64_si128(e[k], r, 0x00);
        let p1 = _mm_clmulepi64_si128(e[k], r, 0x01);
        e[k] = _mm_setzero_si128();
        e[k - half] = _mm_xor_si128(e[k - half], _mm_xor_si128(p0, _mm_slli_si128(p1, 8)));
        e[k - half + 1] = _mm_xor_si128(e[k - half + 1], _mm_srli_si128(p1, 8));
    }
    if W == 2 {
        // The spill of pair 1 is in pair 1 again: a few bits, one more fold.
        e[0] = _mm_xor_si128(e[0], _mm_clmulepi64_si128(e[1], r, 0x00));
    }
    [e[0], e[1], e[2], e[3]]
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn load<const W: usize>(limbs: &[u64; 8]) -> [__m128i; 4] {
    use core::arch::x86_64::*;
    let mut v = [_mm_setzero_si128(); 4];
    for (i, p) in v.iter_mut().enumerate().take(W / 2) {
        *p = _mm_set_epi64x(limbs[2 * i + 1] as i64, limbs[2 * i] as i64);
    }
    v
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn store(pairs: &[__m128i], limbs: &mut [u64]) {
    use core::arch::x86_64::*;
    for (p, out) in pairs.iter().zip(limbs.chunks_exact_mut(2)) {
        let mut two = [0u64; 2];
        // SAFETY: `two` is 16 writable bytes.
        unsafe { _mm_storeu_si128(two.as_mut_ptr() as *mut __m128i, *p) };
        out.copy_from_slice(&two);
    }
}

/// `a × b` (unreduced, 2W limbs), one product.
///
/// # Safety
/// The CPU must support `pclmulqdq` and `sse2` ([`available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) unsafe fn mul_wide(w: usize, a: &[u64; 8], b: &[u64; 8], wide: &mut [u64; 16]) {
    #[target_feature(enable = "pclmulqdq,sse2")]
    unsafe fn run<const W: usize>(a: &[u64; 8], b: &[u64; 8], wide: &mut [u64; 16]) {
        // SAFETY: same target features.
        unsafe {
            let p = product::<W>(&load::<W>(a), &load::<W>(b));
            *wide = [0; 16];
            store(&p[..W], &mut wide[..2 * W]);
        }
    }
    // SAFETY: same target features as this function.
    unsafe {
        match w {
            2 => run::<2>(a, b, wide),
            4 => run::<4>(a, b, wide),
            _ => run::<8>(a, b, wide),
        }
    }
}

/// GHASH over whole blocks: acc ← (acc ⊕ X)·h for every W·8-byte block X
/// of `blocks`, in the field whose x^n ≡ `low` (the terms below x^64).
///
/// # Safety
/// The CPU must support `pclmulqdq` and `sse2` ([`available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) unsafe fn ghash(w: usize, low: u64, h: &[u64; 8], acc: &mut [u64; 8], blocks: &[u8]) {
    // SAFETY: same target features as this function.
    unsafe {
        match w {
            2 => ghash_w::<2>(low, h, acc, blocks),
            4 => ghash_w::<4>(low, h, acc, blocks),
            _ => ghash_w::<8>(low, h, acc, blocks),
        }
    }
}

/// The schoolbook product, then the fold, with the accumulator in registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
unsafe fn ghash_w<const W: usize>(low: u64, h: &[u64; 8], acc: &mut [u64; 8], blocks: &[u8]) {
    use core::arch::x86_64::*;
    // SAFETY (whole body): same target features; every load reads 16 bytes
    // inside a W·8-byte block.
    unsafe {
        let r = _mm_set_epi64x(0, low as i64);
        let hv = load::<W>(h);
        let mut a = load::<W>(acc);
        for x in blocks.chunks_exact(8 * W) {
            for (i, p) in a.iter_mut().enumerate().take(W / 2) {
                *p = _mm_xor_si128(*p, _mm_loadu_si128(x.as_ptr().add(16 * i) as *const __m128i));
            }
            let mut e = product::<W>(&a, &hv);
            a = fold::<W>(&mut e, r);
        }
        store(&a[..W / 2], &mut acc[..W]);
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) unsafe fn mul_wide(_w: usize, _a: &[u64; 8], _b: &[u64; 8], _wide: &mut [u64; 16]) {
    unreachable!("PCLMULQDQ is x86-64 only; available() is false here")
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) unsafe fn ghash(_w: usize, _low: u64, _h: &[u64; 8], _acc: &mut [u64; 8], _blocks: &[u8]) {
    unreachable!("PCLMULQDQ is x86-64 only; available() is false here")
}
