//! Where the bytes of a block's two 32-bit words sit, for the SIMD load and
//! store shuffles. The kernels keep N1 of many blocks apart from their N2
//! (`lanes`: one 32-bit lane per block; `sliced`: one byte register per
//! word byte); these byte permutations move blocks in and out of those
//! layouts and apply the byte order (Magma big-endian or gost89
//! little-endian) in the same shuffle.

use super::keys::ByteOrder;
use crate::permutation::inverse;

/// Offset inside an 8-byte block of byte `j` (0 = least significant) of word
/// `half` (0 = N1, 1 = N2), as [`super::Keys::load`] reads them.
pub(super) const fn word_byte(order: ByteOrder, half: usize, j: usize) -> usize {
    match order {
        ByteOrder::Gost89 => 4 * half + j,
        // N1 = bytes 4..8 big-endian, N2 = bytes 0..4 big-endian.
        ByteOrder::Magma => 4 * (1 - half) + 3 - j,
    }
}

/// A 16-byte shuffle (pshufb) taking two blocks to the dwords
/// `[N1 of block 0, N1 of block 1, N2 of block 0, N2 of block 1]`.
pub(super) fn pair_gather(order: ByteOrder) -> [u8; 16] {
    match order {
        ByteOrder::Magma => PAIR_GATHER[0],
        ByteOrder::Gost89 => PAIR_GATHER[1],
    }
}

/// The inverse of [`pair_gather`].
pub(super) fn pair_scatter(order: ByteOrder) -> [u8; 16] {
    match order {
        ByteOrder::Magma => PAIR_SCATTER[0],
        ByteOrder::Gost89 => PAIR_SCATTER[1],
    }
}

// Built at compile time: a key setup only picks them (built per key they
// would cost a few percent of a 64-byte message with key setup).
const PAIR_GATHER: [[u8; 16]; 2] = [gather(ByteOrder::Magma), gather(ByteOrder::Gost89)];
const PAIR_SCATTER: [[u8; 16]; 2] = [inverse(&PAIR_GATHER[0]), inverse(&PAIR_GATHER[1])];

const fn gather(order: ByteOrder) -> [u8; 16] {
    let mut p = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        let (w, j) = (i / 4, i % 4);
        let (half, block) = (w / 2, w % 2);
        p[i] = (8 * block + word_byte(order, half, j)) as u8;
        i += 1;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magma::{Keys, SboxSet};

    const ORDERS: [ByteOrder; 2] = [ByteOrder::Magma, ByteOrder::Gost89];

    #[test]
    fn word_byte_agrees_with_keys_load() {
        let block: Vec<u8> = (0..8).map(|i| 0x10 * i + 1).collect();
        for order in ORDERS {
            let keys = Keys::new(&[0; 32], SboxSet::Tc26Z, order);
            let (n1, n2) = keys.load(&block);
            for j in 0..4 {
                assert_eq!((n1 >> (8 * j)) as u8, block[word_byte(order, 0, j)]);
                assert_eq!((n2 >> (8 * j)) as u8, block[word_byte(order, 1, j)]);
            }
        }
    }

    #[test]
    fn pair_scatter_inverts_pair_gather() {
        for order in ORDERS {
            let (g, s) = (pair_gather(order), pair_scatter(order));
            for i in 0..16 {
                assert_eq!(g[usize::from(s[i])], i as u8);
            }
        }
    }
}
