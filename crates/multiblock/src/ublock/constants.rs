//! uBlock constants, as printed in the uBlock design document (Wu et al.
//! 2019, J. Cryptologic Research 6(6)) and in Gao et al. 2024 (fast software
//! uBlock, J. National Univ. of Defense Technology 46(6), §1.4–§1.7).
//!
//! Permutation convention (all of them): `out[i] = in[P[i]]`, the "gather"
//! of `pshufb` (paper eq. 2).

/// The 4-bit S-box s (paper Table 2).
pub(crate) const S: [u8; 16] = [
    0x7, 0x4, 0x9, 0xc, 0xb, 0xa, 0xd, 0x8, 0xf, 0xe, 0x1, 0x6, 0x0, 0x3, 0x2, 0x5,
];

/// The inverse S-box s⁻¹ (paper Table 4).
pub(crate) const S_INV: [u8; 16] = [
    0xc, 0xa, 0xe, 0xd, 0x1, 0xf, 0xb, 0x0, 0x7, 0x2, 0x5, 0x4, 0x3, 0x6, 0x9, 0x8,
];

/// Byte permutations of a 64-bit half-block (n = 128; paper Table 3).
pub(crate) const PL_128: [u8; 8] = [1, 3, 4, 6, 0, 2, 7, 5];
pub(crate) const PR_128: [u8; 8] = [2, 7, 5, 0, 1, 6, 4, 3];
/// Byte permutations of a 128-bit half-block (n = 256; paper Table 3).
pub(crate) const PL_256: [u8; 16] = [2, 7, 8, 13, 3, 6, 9, 12, 1, 4, 15, 10, 14, 11, 5, 0];
pub(crate) const PR_256: [u8; 16] = [6, 11, 1, 12, 9, 4, 2, 15, 7, 0, 13, 10, 14, 3, 8, 5];

/// Their inverses (paper Table 5).
pub(crate) const PL_128_INV: [u8; 8] = [4, 0, 5, 1, 2, 7, 3, 6];
pub(crate) const PR_128_INV: [u8; 8] = [3, 4, 0, 7, 6, 2, 5, 1];
pub(crate) const PL_256_INV: [u8; 16] = [15, 8, 0, 4, 9, 14, 5, 1, 2, 6, 11, 13, 7, 3, 12, 10];
pub(crate) const PR_256_INV: [u8; 16] = [9, 2, 6, 13, 5, 15, 0, 8, 14, 4, 11, 1, 3, 10, 12, 7];

/// Key-schedule nibble permutations of K0‖K1 (paper Table 6):
/// PK1 for uBlock-128/128, PK2 for 128/256, PK3 for 256/256.
pub(crate) const PK1: [u8; 16] = [6, 0, 8, 13, 1, 15, 5, 10, 4, 9, 12, 2, 11, 3, 7, 14];
pub(crate) const PK2: [u8; 32] = [
    10, 5, 15, 0, 2, 7, 8, 13, 14, 6, 4, 12, 1, 3, 11, 9, //
    24, 25, 26, 27, 28, 29, 30, 31, 16, 17, 18, 19, 20, 21, 22, 23,
];
pub(crate) const PK3: [u8; 32] = [
    10, 5, 15, 0, 2, 7, 8, 13, 1, 14, 4, 12, 9, 11, 3, 6, //
    24, 25, 26, 27, 28, 29, 30, 31, 16, 17, 18, 19, 20, 21, 22, 23,
];

/// Round constants RC1..RC24 (paper Table 7; design document Table 6).
/// ERRATUM: the paper prints RC12 as 8e9adfc6; the design document, the
/// reference code and the official test vectors all need 8e9adfcb.
pub(crate) const RC: [u32; 24] = [
    0x988cc9dd, 0xf0e4a1b5, 0x21357064, 0x8397d2c6, 0xc7d39682, 0x4f5b1e0a, //
    0x5e4a0f1b, 0x7c682d39, 0x392d687c, 0xb3a7e2f6, 0xa7b3f6e2, 0x8e9adfcb, //
    0xdcc88d99, 0x786c293d, 0x30246175, 0xa1b5f0e4, 0x8296d3c7, 0xc5d19480, //
    0x4a5e1b0f, 0x55410410, 0x6b7f3a2e, 0x17034652, 0xeffbbeaa, 0x1f0b4e5a,
];

/// T: multiplication by 2 in GF(2⁴) with m(x) = x⁴ + x + 1 (paper §1.5),
/// as a table (the reference code's `SK`).
pub(crate) const T: [u8; 16] = [
    0x0, 0x2, 0x4, 0x6, 0x8, 0xa, 0xc, 0xe, 0x3, 0x1, 0x7, 0x5, 0xb, 0x9, 0xf, 0xd,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn is_permutation(p: &[u8]) -> bool {
        let mut seen = vec![false; p.len()];
        p.iter().all(|&x| (x as usize) < p.len() && !std::mem::replace(&mut seen[x as usize], true))
    }

    fn inverts(p: &[u8], q: &[u8]) -> bool {
        // gather by p then by q is the identity: in[p[q[i]]] == in[i]
        (0..p.len()).all(|i| p[q[i] as usize] as usize == i)
    }

    #[test]
    fn sbox_is_a_permutation_and_s_inv_inverts_it() {
        assert!(is_permutation(&S));
        for x in 0..16u8 {
            assert_eq!(S_INV[S[x as usize] as usize], x);
            assert_eq!(S[S_INV[x as usize] as usize], x);
        }
    }

    #[test]
    fn byte_permutations_and_their_inverses() {
        for (p, q) in [(&PL_128[..], &PL_128_INV[..]), (&PR_128, &PR_128_INV)]
            .into_iter()
            .chain([(&PL_256[..], &PL_256_INV[..]), (&PR_256, &PR_256_INV)])
        {
            assert!(is_permutation(p) && is_permutation(q));
            assert!(inverts(p, q) && inverts(q, p));
        }
    }

    #[test]
    fn key_permutations() {
        assert!(is_permutation(&PK1) && is_permutation(&PK2) && is_permutation(&PK3));
        // PK2 and PK3 swap the two 8-nibble halves of K1.
        for pk in [PK2, PK3] {
            for i in 0..8 {
                assert_eq!(pk[16 + i] as usize, 24 + i);
                assert_eq!(pk[24 + i] as usize, 16 + i);
            }
        }
    }

    #[test]
    fn t_is_times_two_mod_x4_x_1() {
        for x in 0..16u8 {
            let y = x << 1;
            let y = if y & 0x10 != 0 { y ^ 0x13 } else { y };
            assert_eq!(T[x as usize], y);
        }
    }

    /// The design document derives RC_i from an 8-stage LFSR
    /// c_i = c_{i-2} ⊕ c_{i-3} ⊕ c_{i-7} ⊕ c_{i-8}, c0..c7 = 0,1,1,0,1,1,0,0;
    /// with w_i = (c_i … c_{i+7})₂, RC_i = (w_i⊕40)‖(w_i⊕54)‖(w_i⊕11)‖(w_i⊕05)
    /// (Gao et al. 2024, §1.7). This also confirms the RC12 erratum.
    #[test]
    fn round_constants_follow_the_lfsr() {
        let mut c = vec![0u8, 1, 1, 0, 1, 1, 0, 0];
        while c.len() < 24 + 8 {
            let i = c.len();
            c.push(c[i - 2] ^ c[i - 3] ^ c[i - 7] ^ c[i - 8]);
        }
        for i in 1..=24 {
            let w = c[i..i + 8].iter().fold(0u32, |acc, &b| (acc << 1) | u32::from(b));
            let rc = ((w ^ 0x40) << 24) | ((w ^ 0x54) << 16) | ((w ^ 0x11) << 8) | (w ^ 0x05);
            assert_eq!(RC[i - 1], rc, "RC{i}");
        }
        assert_eq!(RC[11], 0x8e9adfcb);
    }
}
