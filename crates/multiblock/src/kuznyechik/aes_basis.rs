//! Kuznyechik's field in the AES basis, for `vgf2p8mulb`.
//!
//! GOST R 34.12-2015 §4.1 computes in F = GF(2)[x]/(x^8+x^7+x^6+x+1)
//! (0x1C3); `vgf2p8mulb` multiplies in GF(2)[y]/(y^8+y^4+y^3+y+1) (0x11B,
//! FIPS-197 §4.2). Both are GF(2^8), so they are isomorphic: if β is a root
//! of x^8+x^7+x^6+x+1 in the AES field, φ(Σ b_j x^j) = Σ b_j β^j is a field
//! isomorphism that is GF(2)-linear, i.e. one 8×8 bit matrix
//! (`vgf2p8affineqb`). So φ(a·b) = φ(a)·φ(b) and φ(a ⊕ b) = φ(a) ⊕ φ(b), and
//! a kernel can hold φ(state), multiply by φ(constants) with `vgf2p8mulb`,
//! look up π' = φ∘π∘φ⁻¹ and convert back with φ⁻¹ at the end.
//!
//! Everything here is a public constant of the cipher, computed at compile
//! time; [`to_aes`] on key bytes is a constant-time matrix product.

use super::constants::{PI, PI_INV};
use super::transforms::Block;
use crate::gf256::{self, AES, KUZNYECHIK};

/// The smallest root β of Kuznyechik's polynomial in the AES field
/// (x^8 = x^7 + x^6 + x + 1, so β^8 ⊕ β^7 ⊕ β^6 ⊕ β ⊕ 1 = 0).
pub(crate) const ROOT: u8 = {
    let mut b = 2u16;
    let mut found = 0u8;
    while b < 256 && found == 0 {
        // Powers of b in the AES field: 1 + b + b^6 + b^7 + b^8 (the bits
        // of 0x1C3).
        let mut acc = 0u8;
        let mut p = 1u8;
        let mut e = 0;
        while e <= 8 {
            if e == 8 || (KUZNYECHIK >> e) & 1 == 1 {
                acc ^= p;
            }
            p = gf256::mul(p, b as u8, AES);
            e += 1;
        }
        if acc == 0 {
            found = b as u8;
        }
        b += 1;
    }
    found
};

/// φ as a `vgf2p8affineqb` matrix: 2^j ↦ β^j.
pub(crate) const PHI: u64 = {
    let mut images = [0u8; 8];
    let mut p = 1u8;
    let mut j = 0;
    while j < 8 {
        images[j] = p;
        p = gf256::mul(p, ROOT, AES);
        j += 1;
    }
    gf256::matrix_of(&images)
};

/// φ⁻¹ as a matrix.
pub(crate) const PHI_INV: u64 = gf256::inverse_matrix(PHI);

/// φ(x), in constant time.
pub(crate) const fn to_aes(x: u8) -> u8 {
    gf256::affine_byte(PHI, x)
}

/// φ⁻¹(y), in constant time.
pub(crate) const fn from_aes(y: u8) -> u8 {
    gf256::affine_byte(PHI_INV, y)
}

/// φ on each byte of a block (round keys), in constant time.
pub(crate) fn block_to_aes(b: &Block) -> Block {
    let mut out = [0u8; 16];
    for (o, &x) in out.iter_mut().zip(b) {
        *o = to_aes(x);
    }
    out
}

/// φ⁻¹ on each byte of a block, in constant time.
pub(crate) fn block_from_aes(b: &Block) -> Block {
    let mut out = [0u8; 16];
    for (o, &y) in out.iter_mut().zip(b) {
        *o = from_aes(y);
    }
    out
}

/// π' = φ∘π∘φ⁻¹: π on states held in the AES basis.
pub(crate) const PI_AES: [u8; 256] = conjugate(&PI);
/// π'⁻¹ = φ∘π⁻¹∘φ⁻¹.
pub(crate) const PI_INV_AES: [u8; 256] = conjugate(&PI_INV);

const fn conjugate(t: &[u8; 256]) -> [u8; 256] {
    let mut out = [0u8; 256];
    let mut y = 0;
    while y < 256 {
        out[y] = to_aes(t[from_aes(y as u8) as usize]);
        y += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::transforms::gf_mul;

    /// The AES product, bit by bit (independent of `gf256`).
    fn aes_mul(mut a: u8, mut b: u8) -> u8 {
        let mut r = 0;
        while b != 0 {
            if b & 1 == 1 {
                r ^= a;
            }
            a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
            b >>= 1;
        }
        r
    }

    #[test]
    fn phi_is_a_field_isomorphism() {
        assert_ne!(ROOT, 0, "x^8+x^7+x^6+x+1 has a root in the AES field");
        let mut seen = [false; 256];
        for a in 0..=255u8 {
            assert_eq!(from_aes(to_aes(a)), a);
            assert!(!seen[to_aes(a) as usize]);
            seen[to_aes(a) as usize] = true;
            for b in 0..=255u8 {
                assert_eq!(to_aes(gf_mul(a, b)), aes_mul(to_aes(a), to_aes(b)), "{a:#x}·{b:#x}");
                assert_eq!(to_aes(a ^ b), to_aes(a) ^ to_aes(b));
            }
        }
        assert_eq!((to_aes(0), to_aes(1), to_aes(2)), (0, 1, ROOT));
    }

    #[test]
    fn conjugated_sboxes_are_pi_in_the_new_basis() {
        for x in 0..=255u8 {
            assert_eq!(PI_AES[to_aes(x) as usize], to_aes(PI[x as usize]));
            assert_eq!(PI_INV_AES[PI_AES[x as usize] as usize], x);
        }
    }
}
