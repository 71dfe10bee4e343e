//! The transformations of GOST R 34.12-2015 §4.1.2 (RFC 7801 §4.2) on a
//! 128-bit block, written one by one as the standard defines them.
//!
//! A block is its 16 bytes as printed: byte 0 is a15, byte 15 is a0.

use super::constants::{L_COEFFS, PI, PI_INV, POLY_LOW};

/// A 128-bit block (or round key) in printed byte order.
pub(crate) type Block = [u8; 16];

/// Multiplication in GF(2^8) modulo x^8 + x^7 + x^6 + x + 1 (§4.1.2),
/// shift-and-add over the bits of `b`. Masks instead of branches: L and
/// L⁻¹ run on round keys (key schedule, decryption keys), which are secret.
pub(crate) fn gf_mul(mut a: u8, mut b: u8) -> u8 {
    let mut product = 0u8;
    for _ in 0..8 {
        product ^= a & (b & 1).wrapping_neg();
        a = (a << 1) ^ (POLY_LOW & (a >> 7).wrapping_neg());
        b >>= 1;
    }
    product
}

/// X[k](a) = k ⊕ a.
pub(crate) fn x(k: &Block, a: &mut Block) {
    for (ai, ki) in a.iter_mut().zip(k) {
        *ai ^= ki;
    }
}

/// S(a15‖…‖a0) = π(a15)‖…‖π(a0).
pub(crate) fn s(a: &mut Block) {
    for ai in a.iter_mut() {
        *ai = PI[*ai as usize];
    }
}

/// S⁻¹(a15‖…‖a0) = π⁻¹(a15)‖…‖π⁻¹(a0).
pub(crate) fn s_inv(a: &mut Block) {
    for ai in a.iter_mut() {
        *ai = PI_INV[*ai as usize];
    }
}

/// ℓ(a15, …, a0) = 148·a15 + 32·a14 + … + 148·a1 + 1·a0 in GF(2^8).
fn ell(a: &Block) -> u8 {
    a.iter().zip(&L_COEFFS).fold(0, |acc, (&ai, &c)| acc ^ gf_mul(ai, c))
}

/// R(a15‖…‖a0) = ℓ(a15, …, a0)‖a15‖…‖a1: one LFSR step.
pub(crate) fn r(a: &mut Block) {
    let new_a15 = ell(a);
    a.copy_within(0..15, 1);
    a[0] = new_a15;
}

/// R⁻¹(a15‖…‖a0) = a14‖…‖a0‖ℓ(a14, …, a0, a15): the step run backwards.
pub(crate) fn r_inv(a: &mut Block) {
    let old_a15 = a[0];
    a.copy_within(1..16, 0);
    a[15] = old_a15;
    // ℓ over (a14, …, a0, a15) is exactly ell() of the rotated block.
    a[15] = ell(a);
}

/// L = R^16.
pub(crate) fn l(a: &mut Block) {
    for _ in 0..16 {
        r(a);
    }
}

/// L⁻¹ = (R⁻¹)^16.
pub(crate) fn l_inv(a: &mut Block) {
    for _ in 0..16 {
        r_inv(a);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn block(hex: &str) -> Block {
        let mut b = [0u8; 16];
        for (i, byte) in b.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
        }
        b
    }

    /// A pseudo-random block from `seed` (a 64-bit LCG, top byte each step).
    pub(crate) fn rng_block(seed: &mut u64) -> Block {
        core::array::from_fn(|_| {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (*seed >> 56) as u8
        })
    }

    /// Runs `f` along a chain of the standard's examples: f(v[i]) == v[i+1].
    fn chain(f: fn(&mut Block), values: &[&str]) {
        for pair in values.windows(2) {
            let mut a = block(pair[0]);
            f(&mut a);
            assert_eq!(a, block(pair[1]), "from {}", pair[0]);
        }
    }

    /// Runs `f` along the same chain backwards.
    fn chain_back(f: fn(&mut Block), values: &[&str]) {
        for pair in values.windows(2) {
            let mut a = block(pair[1]);
            f(&mut a);
            assert_eq!(a, block(pair[0]), "from {}", pair[1]);
        }
    }

    // GOST R 34.12-2015 Appendix A.1.1 / RFC 7801 §5.1.
    const S_EXAMPLES: [&str; 5] = [
        "ffeeddccbbaa99881122334455667700",
        "b66cd8887d38e8d77765aeea0c9a7efc",
        "559d8dd7bd06cbfe7e7b262523280d39",
        "0c3322fed531e4630d80ef5c5a81c50b",
        "23ae65633f842d29c5df529c13f5acda",
    ];
    // Appendix A.1.2 / RFC 7801 §5.2.
    const R_EXAMPLES: [&str; 5] = [
        "00000000000000000000000000000100",
        "94000000000000000000000000000001",
        "a5940000000000000000000000000000",
        "64a59400000000000000000000000000",
        "0d64a594000000000000000000000000",
    ];
    // Appendix A.1.3 / RFC 7801 §5.3.
    const L_EXAMPLES: [&str; 5] = [
        "64a59400000000000000000000000000",
        "d456584dd0e3e84cc3166e4b7fa2890d",
        "79d26221b87b584cd42fbc4ffea5de9a",
        "0e93691a0cfc60408b7b68f66b513c13",
        "e6a8094fee0aa204fd97bcb0b44b8580",
    ];

    /// S, R and L (and their inverses) on the standard's example chains.
    #[test]
    fn transforms_match_the_standard() {
        let cases: [(fn(&mut Block), fn(&mut Block), &[&str]); 3] =
            [(s, s_inv, &S_EXAMPLES), (r, r_inv, &R_EXAMPLES), (l, l_inv, &L_EXAMPLES)];
        for (f, f_inv, examples) in cases {
            chain(f, examples);
            chain_back(f_inv, examples);
        }
    }

    #[test]
    fn gf_mul_basics() {
        // x · x^7 = x^8 = x^7 + x^6 + x + 1.
        assert_eq!(gf_mul(0x02, 0x80), 0xC3);
        for a in 0..=255u8 {
            assert_eq!(gf_mul(a, 1), a);
            assert_eq!(gf_mul(1, a), a);
            assert_eq!(gf_mul(a, 0), 0);
            for b in [2u8, 0x94, 0xFB, 0xC3] {
                assert_eq!(gf_mul(a, b), gf_mul(b, a));
            }
        }
    }

    #[test]
    fn r_inv_and_l_inv_invert_on_many_blocks() {
        let mut a: Block = core::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(11));
        for _ in 0..64 {
            let before = a;
            r(&mut a);
            let mut back = a;
            r_inv(&mut back);
            assert_eq!(back, before);

            let before = a;
            l(&mut a);
            let mut back = a;
            l_inv(&mut back);
            assert_eq!(back, before);

            s(&mut a); // move on to an unrelated-looking block
        }
    }
}
