//! Bitslicing on `u64` for the `portable` backends: 64 blocks side by side,
//! word i holding bit i of every block (bit j of the word is block j).
//!
//! - [`transpose64`]: a 64×64 bit-matrix transpose (6 rounds of 32 masked
//!   swaps, 6 ops each: 1152 ops, 18 per word), to and from bitsliced form;
//! - [`sub4`]: any 4-bit S-box as a Boolean circuit, from its algebraic
//!   normal form ([`anf`]): the 11 nonlinear monomials of 4 variables in 11
//!   ANDs, then each output bit the XOR of the monomials its ANF selects.
//!   The S-box is public (a standard's table, chosen with the key), so the
//!   selection is a constant folded at compile time; the data only ever
//!   meets AND, XOR and NOT.
//!
//! Plain Rust on `u64`: no table, branch or address depends on the data.

use crate::backend::{always, Backend, BackendInfo, BlockKernel};

/// Blocks per batch of every `portable` backend: one per bit of a `u64`.
pub(crate) const WAYS: usize = 64;

/// The registry entry of a family's `portable` backend; `new` keys the
/// kernel its key needs (per S-box set, per block size).
pub(crate) const fn portable_backend<K>(new: fn(&K) -> Box<dyn BlockKernel>) -> Backend<K> {
    Backend { info: BackendInfo { name: "portable", constant_time: true, ways: WAYS, needs: "nothing" }, available: always, new }
}

/// Transposes the 64×64 bit matrix `a` in place: afterwards bit j of
/// `a[i]` is what bit i of `a[j]` was (Hacker's Delight §7-3, recursive
/// block swap, here with bit 0 the first column).
#[inline(always)]
pub(crate) fn transpose64(a: &mut [u64; 64]) {
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_ffff_ffff;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            // Swap the top-right and bottom-left width×width blocks.
            let t = ((a[k] >> width) ^ a[k + width]) & mask;
            a[k + width] ^= t;
            a[k] ^= t << width;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

/// The ANF of the 4-bit S-box `s`: bit 16·o + m is the coefficient of the
/// monomial ∏{x_i : bit i of m} in output bit o (x0, bit 0, the least
/// significant input bit). The binary Möbius transform of each output's
/// truth table.
pub(crate) const fn anf(s: &[u8; 16]) -> u64 {
    let mut out = 0u64;
    let mut o = 0;
    while o < 4 {
        let mut f = [0u8; 16];
        let mut x = 0;
        while x < 16 {
            f[x] = (s[x] >> o) & 1;
            x += 1;
        }
        let mut i = 0;
        while i < 4 {
            let mut x = 0;
            while x < 16 {
                if x & (1 << i) != 0 {
                    f[x] ^= f[x ^ (1 << i)];
                }
                x += 1;
            }
            i += 1;
        }
        let mut m = 0;
        while m < 16 {
            out |= (f[m] as u64) << (16 * o + m);
            m += 1;
        }
        o += 1;
    }
    out
}

/// The S-box of ANF `anf` (a constant at every call, see [`anf`]) on four
/// bitsliced input bits, least significant first: at most 11 ANDs and
/// (terms − 1) XORs per output bit, a NOT for a constant term.
#[inline(always)]
pub(crate) fn sub4(anf: u64, x: [u64; 4]) -> [u64; 4] {
    let [x0, x1, x2, x3] = x;
    let (x01, x02, x03, x12, x13, x23) = (x0 & x1, x0 & x2, x0 & x3, x1 & x2, x1 & x3, x2 & x3);
    // Indexed by the monomial's variable set m (bit i: x_i).
    let terms = [
        !0, x0, x1, x01, x2, x02, x12, x01 & x2, x3, x03, x13, x01 & x3, x23, x02 & x3, x12 & x3, x01 & x23,
    ];
    let mut y = [0u64; 4];
    for (o, y) in y.iter_mut().enumerate() {
        for (m, t) in terms.iter().enumerate() {
            if (anf >> (16 * o + m)) & 1 != 0 {
                *y ^= t;
            }
        }
    }
    y
}

/// The all-ones word where `bit` (0 or 1) is 1, else zero: a key bit as a
/// bitsliced constant, without a branch.
#[inline(always)]
pub(crate) fn spread(bit: u64) -> u64 {
    0u64.wrapping_sub(bit & 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn transpose_moves_bit_i_of_word_j_to_bit_j_of_word_i() {
        let mut rng = Rng(7);
        let mut a = [0u64; 64];
        a.iter_mut().for_each(|w| *w = rng.next());
        let orig = a;
        transpose64(&mut a);
        for i in 0..64 {
            for j in 0..64 {
                assert_eq!((a[i] >> j) & 1, (orig[j] >> i) & 1, "bit ({i}, {j})");
            }
        }
    }

    /// Every input in every lane against the table: uBlock's S-box, tc26-z's
    /// π0, and x ⊕ 0xf (constant terms).
    #[test]
    fn sub4_computes_the_table() {
        let tables: [[u8; 16]; 3] = [
            [0x7, 0x4, 0x9, 0xc, 0xb, 0xa, 0xd, 0x8, 0xf, 0xe, 0x1, 0x6, 0x0, 0x3, 0x2, 0x5],
            [0xC, 0x4, 0x6, 0x2, 0xA, 0x5, 0xB, 0x9, 0xE, 0x8, 0xD, 0x7, 0x0, 0x3, 0xF, 0x1],
            core::array::from_fn(|i| i as u8 ^ 0xf),
        ];
        for s in tables {
            // Lane j of the words holds input j % 16.
            let x: [u64; 4] = core::array::from_fn(|b| (0..64).map(|j| ((j as u64 % 16) >> b & 1) << j).sum());
            let y = sub4(anf(&s), x);
            for j in 0..64 {
                let out: u8 = (0..4).map(|b| (((y[b] >> j) & 1) as u8) << b).sum();
                assert_eq!(out, s[j % 16], "input {}", j % 16);
            }
        }
    }

    #[test]
    fn spread_is_all_or_nothing() {
        assert_eq!(spread(0), 0);
        assert_eq!(spread(1), u64::MAX);
    }
}
