//! The byte conventions of Magma and GOST 28147-89 ([`ByteOrder`]) and the
//! expanded key every backend takes ([`Keys`]: the key words, the S-box
//! and the byte order).

use super::sbox::{Sbox, SboxSet};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// How block and key bytes map onto the core's 32-bit words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteOrder {
    /// GOST R 34.12-2015 Magma: big-endian words, halves in printed order.
    Magma,
    /// GOST 28147-89 (RFC 5830): little-endian words, N1 first.
    Gost89,
}

/// The expanded key: the eight 32-bit key words, the S-box and the byte order.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Keys {
    pub(crate) k: [u32; 8],
    #[zeroize(skip)]
    pub(crate) sbox: &'static Sbox,
    /// The set `sbox` comes from (the `portable` backend's circuits are per set).
    #[zeroize(skip)]
    pub(crate) set: SboxSet,
    #[zeroize(skip)]
    pub(crate) order: ByteOrder,
}

impl Keys {
    /// `key` must be 32 bytes.
    pub fn new(key: &[u8], sbox: SboxSet, order: ByteOrder) -> Keys {
        assert_eq!(key.len(), 32, "GOST 28147-89 / Magma keys are 32 bytes");
        let mut k = [0u32; 8];
        for (w, chunk) in k.iter_mut().zip(key.chunks_exact(4)) {
            let bytes = [chunk[0], chunk[1], chunk[2], chunk[3]];
            *w = match order {
                ByteOrder::Magma => u32::from_be_bytes(bytes),
                ByteOrder::Gost89 => u32::from_le_bytes(bytes),
            };
        }
        Keys { k, sbox: sbox.table(), set: sbox, order }
    }

    /// The key word used in round `i` (0..32) when encrypting.
    #[inline(always)]
    pub(crate) fn enc_round_key(&self, i: usize) -> u32 {
        if i < 24 { self.k[i % 8] } else { self.k[7 - (i % 8)] }
    }

    /// Reads a block as (N1, N2).
    #[inline(always)]
    pub(crate) fn load(&self, b: &[u8]) -> (u32, u32) {
        self.order.load(b)
    }

    /// Writes (N1, N2) back in the same convention as [`Keys::load`].
    #[inline(always)]
    pub(crate) fn store(&self, n1: u32, n2: u32, b: &mut [u8]) {
        self.order.store(n1, n2, b)
    }
}

impl ByteOrder {
    /// Reads a block as (N1, N2).
    #[inline(always)]
    pub(crate) fn load(self, b: &[u8]) -> (u32, u32) {
        match self {
            ByteOrder::Gost89 => (
                u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
            ),
            ByteOrder::Magma => (
                u32::from_be_bytes([b[4], b[5], b[6], b[7]]),
                u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            ),
        }
    }

    /// Writes (N1, N2) back in the same convention as [`ByteOrder::load`].
    #[inline(always)]
    pub(crate) fn store(self, n1: u32, n2: u32, b: &mut [u8]) {
        match self {
            ByteOrder::Gost89 => {
                b[0..4].copy_from_slice(&n1.to_le_bytes());
                b[4..8].copy_from_slice(&n2.to_le_bytes());
            }
            ByteOrder::Magma => {
                b[0..4].copy_from_slice(&n2.to_be_bytes());
                b[4..8].copy_from_slice(&n1.to_be_bytes());
            }
        }
    }
}
