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
//! `half_row.rs` with `TBL`/`TBX` S-boxes). Every backend takes the
//! expanded key of `variant.rs`, which `key_schedule.rs` fills.

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
mod variant;
pub(crate) mod constants;

use crate::backend::BackendChoice;
pub(crate) use backends::BACKENDS;
use crate::keyed::Cipher;
use crate::error::Result;
use crate::typed::block_cipher_type;
use crate::CipherId;
use cipher::consts::{U16, U32, U4, U64, U8};
pub use variant::Variant;
pub(crate) use variant::Keys;


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
