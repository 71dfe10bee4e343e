//! Carry-less multiplication in constant time without a CPU instruction for
//! it: integer multiplications on bits spread four apart, so that no carry
//! reaches a bit that is kept.

/// Carry-less 32×32 → 64 bits: the bits of each operand are split into four
/// classes (positions ≡ 0, 1, 2, 3 mod 4); a class of a product collects at
/// most 8 one-bit terms per position, so the integer sum never carries into
/// the next bit of the same class.
fn clmul32(x: u32, y: u32) -> u64 {
    const M: [u64; 4] = [0x1111_1111, 0x2222_2222, 0x4444_4444, 0x8888_8888];
    let (x, y) = (u64::from(x), u64::from(y));
    let xs = [x & M[0], x & M[1], x & M[2], x & M[3]];
    let ys = [y & M[0], y & M[1], y & M[2], y & M[3]];
    let mut z = 0u64;
    for c in 0..4 {
        let mut t = 0u64;
        for i in 0..4 {
            t ^= xs[i].wrapping_mul(ys[(c + 4 - i) % 4]);
        }
        z |= t & (M[c] | M[c] << 32);
    }
    z
}

/// Carry-less 64×64 → 128 bits (Karatsuba over [`clmul32`]).
pub(crate) fn clmul64(x: u64, y: u64) -> u128 {
    let (x0, x1, y0, y1) = (x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32);
    let lo = clmul32(x0, y0);
    let hi = clmul32(x1, y1);
    let mid = clmul32(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;
    (u128::from(hi) << 64) ^ (u128::from(mid) << 32) ^ u128::from(lo)
}

/// Carry-less 128×128 → 256 bits as (hi, lo) (Karatsuba over [`clmul64`]).
pub(crate) fn clmul128(x: u128, y: u128) -> (u128, u128) {
    let (x0, x1, y0, y1) = (x as u64, (x >> 64) as u64, y as u64, (y >> 64) as u64);
    let lo = clmul64(x0, y0);
    let hi = clmul64(x1, y1);
    let mid = clmul64(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;
    (hi ^ (mid >> 64), lo ^ (mid << 64))
}

/// The product of two polynomials of `a.len()` and `b.len()` little-endian
/// 64-bit limbs (at most 8 each), schoolbook over [`clmul64`].
pub(crate) fn mul_wide(a: &[u64], b: &[u64], wide: &mut [u64; 16]) {
    *wide = [0; 16];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            let p = clmul64(x, y);
            wide[i + j] ^= p as u64;
            wide[i + j + 1] ^= (p >> 64) as u64;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Schoolbook carry-less multiplication, bit by bit (test oracle only).
    pub(crate) fn slow(x: u128, y: u128) -> (u128, u128) {
        let (mut hi, mut lo) = (0u128, 0u128);
        for i in 0..128 {
            if (y >> i) & 1 == 1 {
                lo ^= x << i;
                if i > 0 {
                    hi ^= x >> (128 - i);
                }
            }
        }
        (hi, lo)
    }

    #[test]
    fn portable_multiplication_matches_schoolbook() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for _ in 0..2000 {
            let x = (u128::from(rng.next()) << 64) | u128::from(rng.next());
            let y = (u128::from(rng.next()) << 64) | u128::from(rng.next());
            assert_eq!(clmul128(x, y), slow(x, y));
            assert_eq!(clmul64(x as u64, y as u64), slow(x as u64 as u128, y as u64 as u128).1);
        }
        assert_eq!(clmul128(u128::MAX, u128::MAX), slow(u128::MAX, u128::MAX));
    }
}
