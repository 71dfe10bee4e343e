//! Kalyna, DSTU 7624:2014 (Ukraine): an SPN on an 8 × nb byte state with
//! 128-, 256- or 512-bit blocks and keys.
//!
//! Bytes are as in DSTU 7624:2014 Annex B, Bouncy Castle and Crypto++: the
//! state column j is block bytes 8j..8j+8, which the reference implementation
//! reads as a little-endian 64-bit word.
//!
//! Encryption (§5): ⊞K0, then t−1 rounds ψ and ⊕K_r, then ψ and ⊞K_t, where
//! ψ = MixColumns∘ShiftRows∘SubBytes. Decryption runs the inverse transforms
//! with the same round keys (⊟ for the first and last).
//!
//! Backends: `avx512-gfni` and `avx2-gfni` (constant-time, rows sliced over
//! 512 or 256 bytes, GFNI products in MixColumns; see `row_sliced.rs`),
//! `avx512-gfni-narrow` (constant-time, one zmm of whole blocks in their natural
//! layout, for short calls and chained modes: what `avx512-gfni` runs
//! short calls on (up to 96-192 bytes by direction and CPU); see
//! `narrow.rs`; its round is also the key schedule's
//! ψ on CPUs with AVX-512 VBMI and GFNI),
//! `avx2` (constant-time, rows a and a+4 per lane, vpshufb S-boxes, many
//! blocks per call, generic over xmm and ymm in `half_row.rs`; the default
//! where only AVX2 exists), `portable` (constant-time, bitsliced plain Rust
//! on every CPU, circuits from `build.rs`; the default without AVX2 or
//! NEON), `table` (8 T-tables per direction, not constant-time, only by
//! name), `reference` (the oracle); on aarch64 `neon` (constant-time,
//! `half_row.rs` with `TBL`/`TBX` S-boxes).

/// The modules of the x86-64 kernels.
macro_rules! x86_64_modules {
    ($($name:ident),*) => {$(
        #[cfg(target_arch = "x86_64")]
        mod $name;
    )*};
}

x86_64_modules!(layers, row_sliced);
// Pieces of the AVX-512 and GFNI kernels that Kupyna's share; Kupyna's
// also build, on the emulator, for the tests on every architecture.
#[cfg(any(target_arch = "x86_64", test))]
pub(crate) mod pair_sum;
#[cfg(any(target_arch = "x86_64", test))]
pub(crate) mod zmm_sbox;
#[cfg(any(target_arch = "x86_64", test))]
pub(crate) mod zmm_transpose;
mod backends;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod half_row;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) mod nibble;
mod key_schedule;
pub(crate) mod constants;

use crate::backend::BackendChoice;
pub(crate) use backends::BACKENDS;
use crate::keyed::Cipher;
use crate::error::Result;
use crate::typed::block_cipher_type;
use crate::CipherId;
use cipher::consts::{U16, U32, U4, U64, U8};
use key_schedule::{MAX_BLOCK, MAX_ROUND_KEYS};


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
    /// `key` must be `variant.key_bytes()` long.
    pub fn new(variant: Variant, key: &[u8]) -> Keys {
        assert_eq!(key.len(), variant.key_bytes(), "{} keys are {} bytes", variant.id(), variant.key_bytes());
        let mut keys = Keys { variant, rk: [[0u8; MAX_BLOCK]; MAX_ROUND_KEYS] };
        key_schedule::expand(variant, key, &mut keys.rk);
        keys
    }

    /// Round key K_i (0 ≤ i ≤ rounds), block_bytes long.
    #[inline(always)]
    pub(crate) fn round_key(&self, i: usize) -> &[u8] {
        &self.rk[i][..self.variant.block_bytes()]
    }
}

pub(crate) fn keyed(v: Variant, key: &[u8], choice: BackendChoice<'_>) -> Result<Cipher> {
    let keys = Keys::new(v, key);
    Cipher::keyed(v.id(), BACKENDS, &keys, choice)
}

/// One typed cipher per variant (`block_cipher_type!` with its engine).
macro_rules! kalyna_types {
    ($($(#[$doc:meta])* $name:ident: $variant:ident, block = $block:ty, key = $key:ty, par = $par:ty;)*) => {$(
        block_cipher_type!(
            $(#[$doc])*
            $name, id = CipherId::$name, block = $block, key = $key, par = $par,
            make = |key, choice| keyed(Variant::$variant, key, choice), backends = BACKENDS
        );
    )*};
}

kalyna_types! {
    /// Kalyna-128/128 (DSTU 7624:2014): 16-byte block, 16-byte key, 10 rounds.
    ///
    /// Checked against DSTU 7624:2014 Annex B, on the default backend and
    /// on the plain-Rust `portable` one, which every CPU runs:
    ///
    /// ```
    /// use multiblock::kalyna::Kalyna128_128;
    /// use multiblock::BackendChoice;
    /// # fn hex(s: &str) -> Vec<u8> {
    /// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    /// # }
    /// let key = hex("000102030405060708090a0b0c0d0e0f");
    /// for choice in [BackendChoice::Auto, BackendChoice::Named("portable")] {
    ///     let kalyna = Kalyna128_128::with_backend(&key, choice)?;
    ///     let mut block = hex("101112131415161718191a1b1c1d1e1f");
    ///     kalyna.encrypt_buffer(&mut block)?;
    ///     assert_eq!(block, hex("81bf1c7d779bac20e1c9ea39b4d2ad06"), "{}", kalyna.backend().name);
    /// }
    /// # Ok::<(), multiblock::Error>(())
    /// ```
    Kalyna128_128: K128_128,
        block = U16, key = U16, par = U16;
    /// Kalyna-128/256 (DSTU 7624:2014): 16-byte block, 32-byte key, 14 rounds.
    Kalyna128_256: K128_256,
        block = U16, key = U32, par = U16;
    /// Kalyna-256/256 (DSTU 7624:2014): 32-byte block, 32-byte key, 14 rounds.
    Kalyna256_256: K256_256,
        block = U32, key = U32, par = U8;
    /// Kalyna-256/512 (DSTU 7624:2014): 32-byte block, 64-byte key, 18 rounds.
    Kalyna256_512: K256_512,
        block = U32, key = U64, par = U8;
    /// Kalyna-512/512 (DSTU 7624:2014): 64-byte block, 64-byte key, 18 rounds.
    Kalyna512_512: K512_512,
        block = U64, key = U64, par = U4;
}
