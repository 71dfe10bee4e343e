//! uBlock's three parameter sets ([`Variant`]) and the key every backend
//! takes ([`Keys`]), which each backend expands its own way.

use crate::CipherId;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The three uBlock variants (block bits / key bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// 128-bit block, 128-bit key, 16 rounds.
    U128_128,
    /// 128-bit block, 256-bit key, 24 rounds.
    U128_256,
    /// 256-bit block, 256-bit key, 24 rounds.
    U256_256,
}

impl Variant {
    /// The cipher of this variant.
    pub const fn id(self) -> CipherId {
        match self {
            Variant::U128_128 => CipherId::Ublock128_128,
            Variant::U128_256 => CipherId::Ublock128_256,
            Variant::U256_256 => CipherId::Ublock256_256,
        }
    }

    /// Block size n/8 in bytes.
    pub const fn block_bytes(self) -> usize {
        self.id().block_bytes()
    }

    /// Key size k/8 in bytes.
    pub const fn key_bytes(self) -> usize {
        self.id().key_bytes()
    }

    /// Number of rounds r (paper §1.2): r + 1 round keys.
    pub const fn rounds(self) -> usize {
        match self {
            Variant::U128_128 => 16,
            Variant::U128_256 | Variant::U256_256 => 24,
        }
    }
}

/// The key of one uBlock variant, wiped on drop. Each backend expands it
/// its own way when it is keyed: `reference` (and the tests) with the
/// spec-following `key_schedule.rs`, the SIMD backends with an in-register
/// schedule, so that their key setup is constant-time and fast too.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Keys {
    key: [u8; 32],
    #[zeroize(skip)]
    pub(crate) variant: Variant,
}

impl Keys {
    /// `key` must be `variant.key_bytes()` bytes.
    pub fn new(variant: Variant, key: &[u8]) -> Keys {
        assert_eq!(key.len(), variant.key_bytes(), "uBlock key length");
        let mut k = [0u8; 32];
        k[..key.len()].copy_from_slice(key);
        Keys { key: k, variant }
    }

    /// The key bytes (k/8 of them).
    pub(crate) fn key(&self) -> &[u8] {
        &self.key[..self.variant.key_bytes()]
    }
}
