//! Kalyna's five parameter sets ([`Variant`], DSTU 7624:2014 §5 table 1)
//! and the expanded key every backend takes ([`Keys`]; the key schedule,
//! `key_schedule.rs`, fills it).

use crate::CipherId;

/// Largest block in bytes (Kalyna-512).
pub(crate) const MAX_BLOCK: usize = 64;
/// Most round keys of any variant: 18 rounds + 1.
pub(crate) const MAX_ROUND_KEYS: usize = 19;

/// The five parameter sets: block bits / key bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// 128-bit block, 128-bit key, 10 rounds.
    K128_128,
    /// 128-bit block, 256-bit key, 14 rounds.
    K128_256,
    /// 256-bit block, 256-bit key, 14 rounds.
    K256_256,
    /// 256-bit block, 512-bit key, 18 rounds.
    K256_512,
    /// 512-bit block, 512-bit key, 18 rounds.
    K512_512,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 5] =
        [Variant::K128_128, Variant::K128_256, Variant::K256_256, Variant::K256_512, Variant::K512_512];

    /// The cipher of this variant.
    pub const fn id(self) -> CipherId {
        match self {
            Variant::K128_128 => CipherId::Kalyna128_128,
            Variant::K128_256 => CipherId::Kalyna128_256,
            Variant::K256_256 => CipherId::Kalyna256_256,
            Variant::K256_512 => CipherId::Kalyna256_512,
            Variant::K512_512 => CipherId::Kalyna512_512,
        }
    }

    /// Block length l in bytes.
    pub const fn block_bytes(self) -> usize {
        self.id().block_bytes()
    }

    /// Key length k in bytes.
    pub const fn key_bytes(self) -> usize {
        self.id().key_bytes()
    }

    /// State columns nb = l / 64.
    pub const fn nb(self) -> usize {
        self.block_bytes() / 8
    }

    /// Key columns nk = k / 64.
    pub const fn nk(self) -> usize {
        self.key_bytes() / 8
    }

    /// Rounds t: 10, 14 or 18 for a 128-, 256- or 512-bit key (§5, table 1).
    pub const fn rounds(self) -> usize {
        match self.key_bytes() {
            16 => 10,
            32 => 14,
            _ => 18,
        }
    }
}

/// The expanded key: round keys K_0..K_t, each block_bytes long (the rest of
/// each row is zero). Encryption and decryption use the same round keys.
#[derive(Clone)]
pub(crate) struct Keys {
    pub(crate) variant: Variant,
    pub(crate) rk: [[u8; MAX_BLOCK]; MAX_ROUND_KEYS],
}

crate::wipe::wiped_as_slices!(Keys: rk);

impl Keys {
    /// Round key K_i (0 ≤ i ≤ rounds), block_bytes long.
    #[inline(always)]
    pub(crate) fn round_key(&self, i: usize) -> &[u8] {
        &self.rk[i][..self.variant.block_bytes()]
    }
}
