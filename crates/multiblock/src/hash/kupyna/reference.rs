//! `reference`: Kupyna written plainly from ePrint 2015/885 §3-§4 (DSTU
//! 7564:2014 §5), the oracle of the tests. Table lookups by data and a
//! branchy field multiplication: not constant-time, chosen only by name.

use super::constants::{add_constant, rounds, shift, xor_constant};
use super::kernel::{KernelFns, State};
use crate::kalyna::constants::{MDS, SBOX};

/// The kernel: one message at a time.
pub(crate) const KERNEL: KernelFns = KernelFns { compress, output, compress_many: None, output_many: None, lanes: 1, finish: None };

/// a·b in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1, bit by bit.
fn gf_mul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        let carry = a & 0x80 != 0;
        a <<= 1;
        if carry {
            a ^= 0x1d;
        }
        b >>= 1;
    }
    p
}

/// T⊕ (`plus` false) or T+ (`plus` true) on the first 8·cols bytes of `s`.
fn permutation(s: &mut State, cols: usize, plus: bool) {
    let n = 8 * cols;
    for round in 0..rounds(cols) {
        // AddRoundConstants.
        for j in 0..cols {
            if plus {
                let col = &mut s[8 * j..8 * j + 8];
                let w = u64::from_le_bytes(col.try_into().expect("8 bytes")).wrapping_add(add_constant(j, cols, round));
                col.copy_from_slice(&w.to_le_bytes());
            } else {
                s[8 * j] ^= xor_constant(j, round);
            }
        }
        // SubBytes: row i through π_{i mod 4}.
        for p in 0..n {
            s[p] = SBOX[p % 4][s[p] as usize];
        }
        // ShiftBytes: row i moves right by δ_i columns.
        let mut t = [0u8; 128];
        for j in 0..cols {
            for i in 0..8 {
                t[8 * ((j + shift(i, cols)) % cols) + i] = s[8 * j + i];
            }
        }
        // MixColumns: column ← the circulant matrix of MDS times the column.
        for j in 0..cols {
            for i in 0..8 {
                let mut acc = 0;
                for k in 0..8 {
                    acc ^= gf_mul(MDS[(k + 8 - i) % 8], t[8 * j + k]);
                }
                s[8 * j + i] = acc;
            }
        }
    }
}

/// h ← T⊕(h ⊕ m) ⊕ T+(m) ⊕ h for each block m.
fn compress(cols: usize, h: &mut State, blocks: &[u8]) {
    let n = 8 * cols;
    for m in blocks.chunks_exact(n) {
        let (mut a, mut b) = ([0u8; 128], [0u8; 128]);
        for p in 0..n {
            a[p] = h[p] ^ m[p];
            b[p] = m[p];
        }
        permutation(&mut a, cols, false);
        permutation(&mut b, cols, true);
        for p in 0..n {
            h[p] ^= a[p] ^ b[p];
        }
    }
}

/// h ← T⊕(h) ⊕ h.
fn output(cols: usize, h: &mut State) {
    let mut a = *h;
    permutation(&mut a, cols, false);
    for p in 0..8 * cols {
        h[p] ^= a[p];
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn field_products() {
        // x · x^7 = x^8 = x^4 + x^3 + x^2 + 1.
        assert_eq!(super::gf_mul(2, 0x80), 0x1d);
        assert_eq!(super::gf_mul(1, 0xab), 0xab);
        assert_eq!(super::gf_mul(5, 3), 15);
    }
}
