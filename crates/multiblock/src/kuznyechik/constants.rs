//! Constants of GOST R 34.12-2015 §4.1 (RFC 7801 §4): the S-box π, its
//! inverse, and the coefficients of the linear function ℓ.

/// π (GOST R 34.12-2015 §4.1.1, RFC 7801 §4.1): the nonlinear bijection of
/// V8, listed as π(0), π(1), …, π(255) in decimal as the standard prints it.
pub(crate) const PI: [u8; 256] = [
    252, 238, 221, 17, 207, 110, 49, 22, 251, 196, 250, 218, 35, 197, 4, 77,
    233, 119, 240, 219, 147, 46, 153, 186, 23, 54, 241, 187, 20, 205, 95, 193,
    249, 24, 101, 90, 226, 92, 239, 33, 129, 28, 60, 66, 139, 1, 142, 79,
    5, 132, 2, 174, 227, 106, 143, 160, 6, 11, 237, 152, 127, 212, 211, 31,
    235, 52, 44, 81, 234, 200, 72, 171, 242, 42, 104, 162, 253, 58, 206, 204,
    181, 112, 14, 86, 8, 12, 118, 18, 191, 114, 19, 71, 156, 183, 93, 135,
    21, 161, 150, 41, 16, 123, 154, 199, 243, 145, 120, 111, 157, 158, 178, 177,
    50, 117, 25, 61, 255, 53, 138, 126, 109, 84, 198, 128, 195, 189, 13, 87,
    223, 245, 36, 169, 62, 168, 67, 201, 215, 121, 214, 246, 124, 34, 185, 3,
    224, 15, 236, 222, 122, 148, 176, 188, 220, 232, 40, 80, 78, 51, 10, 74,
    167, 151, 96, 115, 30, 0, 98, 68, 26, 184, 56, 130, 100, 159, 38, 65,
    173, 69, 70, 146, 39, 94, 85, 47, 140, 163, 165, 125, 105, 213, 149, 59,
    7, 88, 179, 64, 134, 172, 29, 247, 48, 55, 107, 228, 136, 217, 231, 137,
    225, 27, 131, 73, 76, 63, 248, 254, 141, 83, 170, 144, 202, 216, 133, 97,
    32, 113, 103, 164, 45, 43, 9, 91, 203, 155, 37, 208, 190, 229, 108, 82,
    89, 166, 116, 210, 230, 244, 180, 192, 209, 102, 175, 194, 57, 75, 99, 182,
];

/// π⁻¹, the inverse permutation (used by S⁻¹, §4.1.2), derived from [`PI`].
pub(crate) const PI_INV: [u8; 256] = crate::permutation::inverse(&PI);

/// The field GF(2^8) of §4.1.2: polynomials modulo p(x) = x^8 + x^7 + x^6 + x + 1.
/// This is p(x) without its x^8 term, what a shift out of bit 7 folds back in.
pub(crate) const POLY_LOW: u8 = 0xC3;

/// ℓ(a15, …, a0) = ∇(148·Δ(a15) + 32·Δ(a14) + … + 1·Δ(a0)) (§4.1.2):
/// `L_COEFFS[i]` multiplies byte `a_{15-i}`, i.e. byte `i` of a block as printed.
pub(crate) const L_COEFFS: [u8; 16] =
    [148, 32, 133, 16, 194, 192, 1, 251, 1, 192, 194, 16, 133, 32, 148, 1];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pi_is_a_permutation() {
        let mut seen = [false; 256];
        for &v in &PI {
            assert!(!seen[v as usize], "π repeats {v}");
            seen[v as usize] = true;
        }
    }

    #[test]
    fn pi_inv_inverts_pi() {
        for x in 0..=255u8 {
            assert_eq!(PI_INV[PI[x as usize] as usize], x);
            assert_eq!(PI[PI_INV[x as usize] as usize], x);
        }
    }

    #[test]
    fn pi_spot_values() {
        // First and last entries as printed in §4.1.1.
        assert_eq!((PI[0], PI[1], PI[255]), (0xFC, 0xEE, 0xB6));
    }
}
