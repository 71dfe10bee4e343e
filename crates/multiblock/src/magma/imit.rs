//! The GOST 28147-89 MAC steps (RFC 5830 §8, [`BlockKernel::imit_steps`])
//! of the backends that run one block at a time on general registers
//! (`table`, `table12`, `reference`, and `portable`, whose 64-block bitsliced
//! kernel would pay for 64 blocks per step): one loop over a g, and the
//! constant-time g of `portable`.
//!
//! [`BlockKernel::imit_steps`]: crate::backend::BlockKernel::imit_steps

use super::keys::ByteOrder;
use super::Sbox;
use crate::kernel::bitslice::anf;

/// For each 8-byte block M of `data`, `state = E16(state ⊕ M)`: 16 rounds
/// (N1, N2) ← (N2 ⊕ g(N1 + K), N1) with round keys `rk` (K0..K7 twice) and
/// `g` = rotl11 ∘ S, no final swap; words in byte order `order`.
#[inline(always)]
pub(super) fn steps(order: ByteOrder, rk: &[u32; 16], g: impl Fn(u32) -> u32, state: &mut [u8; 8], data: &[u8]) {
    let (mut n1, mut n2) = order.load(state);
    for block in data.chunks_exact(8) {
        // The load is a byte permutation: it commutes with the XOR.
        let (m1, m2) = order.load(block);
        (n1, n2) = (n1 ^ m1, n2 ^ m2);
        for &k in rk {
            (n1, n2) = (n2 ^ g(n1.wrapping_add(k)), n1);
        }
    }
    order.store(n1, n2, state);
}

/// The eight S-boxes of a set for [`Anf::g`]: nibble i of word m holds
/// the coefficients (output bits 0..3) of monomial m (bit j: x_j) in the
/// algebraic normal form of S-box i (`bitslice::anf`).
pub(super) struct Anf([u32; 16]);

impl Anf {
    pub(super) const fn new(sbox: &Sbox) -> Anf {
        let mut c = [0u32; 16];
        let mut i = 0;
        while i < 8 {
            let a = anf(&sbox[i]);
            let mut m = 0;
            while m < 16 {
                let mut o = 0;
                while o < 4 {
                    c[m] |= (((a >> (16 * o + m)) & 1) as u32) << (4 * i + o);
                    o += 1;
                }
                m += 1;
            }
            i += 1;
        }
        Anf(c)
    }

    /// `rotl11(S(x))`, the eight S-boxes at once in one word (SWAR) with
    /// no secret-dependent address or branch: input bit j of every nibble
    /// spread over its nibble, the 15 monomials as ANDs of those, and S(x)
    /// the XOR of each monomial masked by its coefficient word. About 55
    /// operations; the former masked-table g read 16 words at about 190.
    #[inline(always)]
    pub(super) fn g(&self, x: u32) -> u32 {
        const LOW: u32 = 0x1111_1111;
        let bit = |j: u32| ((x >> j) & LOW).wrapping_mul(0xf);
        let (x0, x1, x2, x3) = (bit(0), bit(1), bit(2), bit(3));
        let (x01, x02, x03, x12, x13, x23) = (x0 & x1, x0 & x2, x0 & x3, x1 & x2, x1 & x3, x2 & x3);
        let terms =
            [!0, x0, x1, x01, x2, x02, x12, x01 & x2, x3, x03, x13, x01 & x3, x23, x02 & x3, x12 & x3, x01 & x23];
        let mut y = 0;
        for (t, c) in terms.iter().zip(&self.0) {
            y ^= t & c;
        }
        y.rotate_left(11)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magma::SboxSet;

    #[test]
    fn anf_g_is_the_sbox_then_rotl11() {
        let mut rng = crate::test_rng::Rng(0x0005_8308);
        for set in SboxSet::ALL {
            let (s, a) = (set.table(), Anf::new(set.table()));
            let want = |x: u32| -> u32 {
                let y: u32 = (0..8).map(|i| u32::from(s[i][((x >> (4 * i)) & 15) as usize]) << (4 * i)).sum();
                y.rotate_left(11)
            };
            // Every value in every nibble, then random words.
            for v in 0..16u32 {
                let x = v.wrapping_mul(0x1111_1111);
                assert_eq!(a.g(x), want(x), "{} {x:08x}", set.name());
            }
            for _ in 0..1000 {
                let x = rng.next() as u32;
                assert_eq!(a.g(x), want(x), "{} {x:08x}", set.name());
            }
        }
    }
}
