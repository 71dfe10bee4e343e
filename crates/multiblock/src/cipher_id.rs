//! The cipher variants by name: a leaf module that the families, the
//! registry and the front ends all import (it imports nothing of theirs).

use crate::error::{Error, Result};

/// Every cipher variant the library implements, by its CLI name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CipherId {
    /// Kalyna, 128-bit block, 128-bit key (DSTU 7624:2014).
    Kalyna128_128,
    /// Kalyna, 128-bit block, 256-bit key.
    Kalyna128_256,
    /// Kalyna, 256-bit block, 256-bit key.
    Kalyna256_256,
    /// Kalyna, 256-bit block, 512-bit key.
    Kalyna256_512,
    /// Kalyna, 512-bit block, 512-bit key.
    Kalyna512_512,
    /// Kuznyechik (GOST R 34.12-2015, RFC 7801).
    Kuznyechik,
    /// Magma (GOST R 34.12-2015, RFC 8891): GOST 28147-89 with the tc26-z S-box and its byte order.
    Magma,
    /// GOST 28147-89 with a choice of S-box sets.
    Gost89,
    /// uBlock, 128-bit block, 128-bit key.
    Ublock128_128,
    /// uBlock, 128-bit block, 256-bit key.
    Ublock128_256,
    /// uBlock, 256-bit block, 256-bit key.
    Ublock256_256,
}

impl CipherId {
    /// Every variant, in the order `multiblock info` lists them.
    pub const ALL: [CipherId; 11] = [
        CipherId::Kalyna128_128,
        CipherId::Kalyna128_256,
        CipherId::Kalyna256_256,
        CipherId::Kalyna256_512,
        CipherId::Kalyna512_512,
        CipherId::Kuznyechik,
        CipherId::Magma,
        CipherId::Gost89,
        CipherId::Ublock128_128,
        CipherId::Ublock128_256,
        CipherId::Ublock256_256,
    ];

    /// The name used on the command line and in `bench` output.
    pub const fn name(self) -> &'static str {
        match self {
            CipherId::Kalyna128_128 => "kalyna-128-128",
            CipherId::Kalyna128_256 => "kalyna-128-256",
            CipherId::Kalyna256_256 => "kalyna-256-256",
            CipherId::Kalyna256_512 => "kalyna-256-512",
            CipherId::Kalyna512_512 => "kalyna-512-512",
            CipherId::Kuznyechik => "kuznyechik",
            CipherId::Magma => "magma",
            CipherId::Gost89 => "gost89",
            CipherId::Ublock128_128 => "ublock-128-128",
            CipherId::Ublock128_256 => "ublock-128-256",
            CipherId::Ublock256_256 => "ublock-256-256",
        }
    }

    /// The variant of a name from [`CipherId::name`].
    pub fn from_name(name: &str) -> Result<CipherId> {
        let known = || CipherId::ALL.map(CipherId::name).to_vec();
        CipherId::ALL.into_iter().find(|c| c.name() == name).ok_or_else(|| Error::UnknownCipher { name: name.into(), known: known() })
    }

    /// Block size in bytes.
    pub const fn block_bytes(self) -> usize {
        match self {
            CipherId::Kalyna128_128 | CipherId::Kalyna128_256 | CipherId::Kuznyechik => 16,
            CipherId::Ublock128_128 | CipherId::Ublock128_256 => 16,
            CipherId::Kalyna256_256 | CipherId::Kalyna256_512 | CipherId::Ublock256_256 => 32,
            CipherId::Kalyna512_512 => 64,
            CipherId::Magma | CipherId::Gost89 => 8,
        }
    }

    /// Key size in bytes.
    pub const fn key_bytes(self) -> usize {
        match self {
            CipherId::Kalyna128_128 | CipherId::Ublock128_128 => 16,
            CipherId::Kalyna256_512 | CipherId::Kalyna512_512 => 64,
            _ => 32,
        }
    }

    /// The family, which decides the key schedule and the modes.
    pub const fn family(self) -> Family {
        match self {
            CipherId::Kalyna128_128
            | CipherId::Kalyna128_256
            | CipherId::Kalyna256_256
            | CipherId::Kalyna256_512
            | CipherId::Kalyna512_512 => Family::Kalyna,
            CipherId::Kuznyechik => Family::Kuznyechik,
            CipherId::Magma => Family::Magma,
            CipherId::Gost89 => Family::Gost89,
            CipherId::Ublock128_128 | CipherId::Ublock128_256 | CipherId::Ublock256_256 => Family::Ublock,
        }
    }

    /// Whether an S-box set can be chosen for this cipher (GOST 28147-89's
    /// named sets; for Magma only its own, tc26-z).
    pub const fn takes_sbox(self) -> bool {
        matches!(self, CipherId::Gost89 | CipherId::Magma)
    }
}

/// Cipher families (Magma and GOST 28147-89 share a core but not their modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// The five Kalyna variants.
    Kalyna,
    /// Kuznyechik.
    Kuznyechik,
    /// Magma (its modes: GOST R 34.13-2015).
    Magma,
    /// GOST 28147-89 (its modes: GOST 28147-89 §§3-5, RFC 4357 key meshing).
    Gost89,
    /// The three uBlock variants.
    Ublock,
}

impl std::fmt::Display for CipherId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
