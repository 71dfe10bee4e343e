//! GF(2^8)-linear maps of a 128-bit block (L, L⁻¹, the sliced kernels' step
//! constants), applied in constant time and cheaply, for key setup.
//!
//! A map f is stored as the images of the 128 unit bit vectors; f(a) is the
//! XOR of the images of a's set bits, each selected by an all-ones/all-zeros
//! mask (no branch, no address depends on a): 128 × (shift, and, negate,
//! 2 and, 2 xor) ≈ 900 scalar ops, against 256 bit-serial GF(2^8) products
//! (≈ 13 000 ops, with data-dependent branches) for the spec-style L of
//! `transforms.rs`. Because f is linear over GF(2^8), its table needs only
//! the 16 images f(e_i) of the unit bytes: f(2^b·e_i) = 2^b·f(e_i) bytewise.

use crate::gf256::{self, KUZNYECHIK};
use super::transforms::{l, l_inv, Block};
use std::sync::OnceLock;

pub(crate) struct Linear {
    /// `cols[8 i + b]` = f(2^b in byte i), as two little-endian u64 halves.
    cols: [[u64; 2]; 128],
}

impl Linear {
    /// Tabulates `f`, which must be GF(2^8)-linear (16 calls of `f`).
    pub(crate) fn new(f: impl Fn(&Block) -> Block) -> Linear {
        let mut cols = [[0u64; 2]; 128];
        for i in 0..16 {
            let mut e = [0u8; 16];
            e[i] = 1;
            let image = f(&e);
            for b in 0..8 {
                let scaled: Block = core::array::from_fn(|j| gf256::mul(image[j], 1 << b, KUZNYECHIK));
                cols[8 * i + b] = halves(&scaled);
            }
        }
        Linear { cols }
    }

    /// f(a), in constant time.
    pub(crate) fn apply(&self, a: &Block) -> Block {
        let (mut lo, mut hi) = (0u64, 0u64);
        for (i, &byte) in a.iter().enumerate() {
            for b in 0..8 {
                let mask = 0u64.wrapping_sub(u64::from((byte >> b) & 1));
                let c = &self.cols[8 * i + b];
                lo ^= mask & c[0];
                hi ^= mask & c[1];
            }
        }
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&lo.to_le_bytes());
        out[8..].copy_from_slice(&hi.to_le_bytes());
        out
    }
}

fn halves(b: &Block) -> [u64; 2] {
    [u64::from_le_bytes(b[..8].try_into().unwrap()), u64::from_le_bytes(b[8..].try_into().unwrap())]
}

/// L = R^16 as a table (built once per process, from the spec-style `l`).
pub(crate) fn l_map() -> &'static Linear {
    static L: OnceLock<Linear> = OnceLock::new();
    tabulated(&L, l)
}

/// L⁻¹ as a table.
pub(crate) fn l_inv_map() -> &'static Linear {
    static L_INV: OnceLock<Linear> = OnceLock::new();
    tabulated(&L_INV, l_inv)
}

/// The table of the in-place map `f`, built once in `cell`.
fn tabulated(cell: &'static OnceLock<Linear>, f: fn(&mut Block)) -> &'static Linear {
    cell.get_or_init(|| {
        Linear::new(|a| {
            let mut t = *a;
            f(&mut t);
            t
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_the_spec_transforms_on_random_blocks() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let a: Block = core::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            });
            let (mut want, mut want_inv) = (a, a);
            l(&mut want);
            l_inv(&mut want_inv);
            assert_eq!(l_map().apply(&a), want);
            assert_eq!(l_inv_map().apply(&a), want_inv);
        }
    }
}
