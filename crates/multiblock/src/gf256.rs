//! Constant-time GF(2^8) arithmetic for the constant-time backends' setup
//! code (round-key precomputation, GFNI matrices). No branch and no memory
//! index depends on a field element; the only branches are on the bits of
//! a multiplier that is a public constant of the cipher (an MDS or ℓ
//! coefficient), which the functions taking one say.
//!
//! The field polynomials of this library (the x^8 term is implied):
//! [`KALYNA`] x^8+x^4+x^3+x^2+1 (DSTU 7624:2014 §5.3), [`KUZNYECHIK`]
//! x^8+x^7+x^6+x+1 (GOST R 34.12-2015 §4.1.2).
//!
//! The reference backends keep their own plain versions: an oracle must not
//! share code with what it checks.

/// The low byte of DSTU 7624's field polynomial 0x11d.
pub(crate) const KALYNA: u8 = 0x1d;
/// The low byte of GOST R 34.12-2015's field polynomial 0x1c3.
pub(crate) const KUZNYECHIK: u8 = 0xc3;
/// The low byte of the AES polynomial 0x11b (FIPS-197 §4.2), the field of
/// `vgf2p8mulb`.
pub(crate) const AES: u8 = 0x1b;

const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const BIT0: u64 = 0x0101_0101_0101_0101;

/// Each of the 8 bytes of `x` times 2 modulo `poly`: a shift and a reduction
/// by multiplication, no branch.
#[inline(always)]
pub(crate) const fn double_bytes(x: u64, poly: u8) -> u64 {
    ((x & LOW7) << 1) ^ (((x >> 7) & BIT0) * poly as u64)
}

/// `2^b · x` for b = 0..7, bytewise: the partial products of any multiplier.
#[inline(always)]
const fn powers(x: u64, poly: u8) -> [u64; 8] {
    let mut p = [x; 8];
    let mut b = 1;
    while b < 8 {
        p[b] = double_bytes(p[b - 1], poly);
        b += 1;
    }
    p
}

/// Each byte of `x` times the public constant `c`.
#[inline(always)]
const fn combine(p: &[u64; 8], c: u8) -> u64 {
    let mut acc = 0;
    let mut b = 0;
    while b < 8 {
        // A branch on the public constant only.
        if (c >> b) & 1 != 0 {
            acc ^= p[b];
        }
        b += 1;
    }
    acc
}

/// `a · b` modulo `poly` for secret `a` and `b`: eight masked additions.
#[inline(always)]
pub(crate) const fn mul(a: u8, b: u8, poly: u8) -> u8 {
    let mut acc = 0u8;
    let mut a = a;
    let mut i = 0;
    while i < 8 {
        acc ^= a & 0u8.wrapping_sub((b >> i) & 1);
        a = (a << 1) ^ (poly & 0u8.wrapping_sub(a >> 7));
        i += 1;
    }
    acc
}

/// One column (8 bytes, byte i = row i) times the circulant matrix whose
/// row i is `v` rotated right by i: w_i = ⊕_d v[d] · s_{(i+d) mod 8}, as in
/// Kalyna's MixColumns and InvMixColumns (DSTU 7624:2014 §5.3, §5.5).
/// `v` is public; the column is not.
#[inline(always)]
pub(crate) const fn circulant_column(col: u64, v: &[u8; 8], poly: u8) -> u64 {
    // Multiplying bytewise commutes with rotating the bytes, so the
    // partial products of the column serve every coefficient.
    let p = powers(col, poly);
    let mut w = 0;
    let mut d = 0;
    while d < 8 {
        w ^= combine(&p, v[d]).rotate_right(8 * d as u32);
        d += 1;
    }
    w
}

/// The 8×8 bit matrix of x ↦ c·x modulo `poly` as `vgf2p8affineqb` takes it:
/// output bit i is parity(matrix byte 7−i AND x), so bit j of byte 7−i is
/// bit i of c·2^j (Intel SDM, GF2P8AFFINEQB). For public constants `c`.
pub(crate) const fn mul_matrix(c: u8, poly: u8) -> u64 {
    let mut m = 0u64;
    let mut j = 0;
    while j < 8 {
        let col = mul(c, 1 << j, poly);
        let mut i = 0;
        while i < 8 {
            m |= (((col >> i) & 1) as u64) << (8 * (7 - i) + j);
            i += 1;
        }
        j += 1;
    }
    m
}

/// The 8×8 bit matrix, in `vgf2p8affineqb`'s layout (see [`mul_matrix`]),
/// of the GF(2)-linear map that sends 2^j to `images[j]`. Public maps only.
pub(crate) const fn matrix_of(images: &[u8; 8]) -> u64 {
    let mut m = 0u64;
    let mut j = 0;
    while j < 8 {
        let mut i = 0;
        while i < 8 {
            m |= (((images[j] >> i) & 1) as u64) << (8 * (7 - i) + j);
            i += 1;
        }
        j += 1;
    }
    m
}

/// The inverse of an invertible 8×8 bit matrix (layout of [`matrix_of`]):
/// the preimages of 2^j, found by a search over the 256 bytes at compile
/// time. Public matrices only.
pub(crate) const fn inverse_matrix(matrix: u64) -> u64 {
    let mut images = [0u8; 8];
    let mut x = 0;
    while x < 256 {
        let y = affine_byte(matrix, x as u8);
        if y.is_power_of_two() {
            images[y.trailing_zeros() as usize] = x as u8;
        }
        x += 1;
    }
    matrix_of(&images)
}

/// The matrix whose [`affine_byte`] is x itself.
pub(crate) const IDENTITY: u64 = 0x0102_0408_1020_4080;

/// `matrix · x` over GF(2) as `vgf2p8affineqb` computes it (constant 0), in
/// constant time: bit i is the parity of row byte 7−i AND x.
pub(crate) const fn affine_byte(matrix: u64, x: u8) -> u8 {
    let mut r = 0u8;
    let mut i = 0;
    while i < 8 {
        let mut v = ((matrix >> (8 * (7 - i))) as u8) & x;
        v ^= v >> 4;
        v ^= v >> 2;
        v ^= v >> 1;
        r |= (v & 1) << i;
        i += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Schoolbook product, written independently of the functions above.
    fn slow_mul(a: u8, b: u8, poly: u8) -> u8 {
        let full_poly = 0x100u16 | poly as u16;
        let mut prod = 0u16;
        for i in 0..8 {
            if (b >> i) & 1 == 1 {
                prod ^= (a as u16) << i;
            }
        }
        for bit in (8..16).rev() {
            if (prod >> bit) & 1 == 1 {
                prod ^= full_poly << (bit - 8);
            }
        }
        prod as u8
    }

    #[test]
    fn products_match_the_schoolbook_in_both_fields() {
        for poly in [KALYNA, KUZNYECHIK] {
            for a in 0..=255u8 {
                for b in 0..=255u8 {
                    assert_eq!(mul(a, b, poly), slow_mul(a, b, poly), "{a:#x}·{b:#x} mod 1{poly:02x}");
                }
                let x = u64::from_le_bytes([a, a ^ 0x5a, 0, 0xff, 1, 0x80, a.rotate_left(3), 0x1d]);
                for c in [1u8, 2, 5, 0x95, 0xca, 0xff] {
                    let want: Vec<u8> = x.to_le_bytes().iter().map(|&b| slow_mul(b, c, poly)).collect();
                    assert_eq!(combine(&powers(x, poly), c).to_le_bytes().to_vec(), want);
                }
            }
        }
        // Known values: 0x80·2 in each field is its polynomial's low byte.
        assert_eq!(mul(0x80, 2, KALYNA), 0x1d);
        assert_eq!(mul(0x80, 2, KUZNYECHIK), 0xc3);
    }

    #[test]
    fn circulant_column_is_the_matrix_product() {
        let v = [0xad, 0x95, 0x76, 0xa8, 0x2f, 0x49, 0xd7, 0xca];
        let col = [0x11u8, 0x22, 0x93, 0x04, 0xf5, 0x66, 0x07, 0x88];
        let mut want = [0u8; 8];
        for (i, w) in want.iter_mut().enumerate() {
            for d in 0..8 {
                *w ^= slow_mul(v[d], col[(i + d) % 8], KALYNA);
            }
        }
        assert_eq!(circulant_column(u64::from_le_bytes(col), &v, KALYNA).to_le_bytes(), want);
    }

    #[test]
    fn affine_byte_applies_matrix_of() {
        for poly in [KALYNA, KUZNYECHIK, AES] {
            for c in [1u8, 3, 0x95, 0xfb] {
                let images: [u8; 8] = core::array::from_fn(|j| slow_mul(c, 1 << j, poly));
                assert_eq!(matrix_of(&images), mul_matrix(c, poly));
                for x in 0..=255u8 {
                    assert_eq!(affine_byte(mul_matrix(c, poly), x), slow_mul(c, x, poly));
                }
            }
        }
    }

    #[test]
    fn matrices_multiply() {
        let affine = |m: u64, x: u8| -> u8 {
            (0..8).map(|i| ((((m >> (8 * (7 - i))) as u8 & x).count_ones() & 1) as u8) << i).sum()
        };
        for poly in [KALYNA, KUZNYECHIK] {
            for c in [1u8, 2, 4, 8, 0x95, 0xfb] {
                for x in 0..=255u8 {
                    assert_eq!(affine(mul_matrix(c, poly), x), slow_mul(c, x, poly));
                }
            }
        }
    }
}
