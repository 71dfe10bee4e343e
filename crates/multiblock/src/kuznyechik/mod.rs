//! Kuznyechik, GOST R 34.12-2015 (RFC 7801): 128-bit block, 256-bit key,
//! nine rounds X\[K\]·S·L then X\[K10\].
//!
//! Bytes as printed in the standard: the first byte of a block is a15 (the
//! byte ℓ multiplies by 148), the first 16 key bytes are K1.
//!
//! - `constants.rs`: π, π⁻¹, the ℓ coefficients (§4.1);
//! - `transforms.rs`: X, S, R, L and their inverses (§4.1.2);
//! - `key_schedule.rs`: the 32 Feistel steps (§4.3), into `keys.rs`'s
//!   expanded key, which every backend takes;
//! - `reference.rs`: the reference backend (§4.4), oracle for the others;
//! - `sliced.rs`: byte-sliced multi-block rounds (π per register, L as the
//!   LFSR in place with round keys folded into step constants), written once
//!   over a small vector-machine trait;
//! - `avx512_gfni.rs` (64 blocks, vpermi2b + vgf2p8affineqb) and `avx2.rs`
//!   (32 blocks, vpshufb): constant-time backends on `sliced.rs`;
//! - `narrow.rs` (`avx512-gfni-narrow`): 1 to 4 blocks, one zmm each, L as
//!   a 16×16 matrix product by `vgf2p8mulb` in the AES basis of
//!   `aes_basis.rs` (the field isomorphism GF(2^8)/0x1C3 → /0x11B); what
//!   `avx512-gfni` runs calls of up to 12 blocks (on Intel 16–20) on
//!   (`kernel::tiered_backend`), so chained modes (CBC/CFB/OFB encryption,
//!   MACs) stop paying a 64-block batch per block;
//! - `masked.rs` (`avx2-narrow`): one block in an xmm, π by the `avx2`
//!   lookup tree and L as the XOR of its bits' images picked by byte masks
//!   (`linear.rs`); what `avx2` and `avx2-gfni` run calls of up to 5 and 4
//!   blocks on, where the byte-sliced kernels pad to a 16-block batch;
//! - `portable.rs`: constant-time bitsliced backend in plain Rust (every
//!   CPU; circuits from `build.rs`, see `crate::bitslice`);
//! - `neon.rs` (16 blocks, `TBL`/`TBX` lookups): the aarch64 constant-time
//!   backend on `sliced.rs`;
//! - `table.rs`: the fused 64 KiB LS tables of the published table-based
//!   implementations (not constant-time, by name only).

mod backends;
#[cfg(any(target_arch = "x86_64", test))]
mod aes_basis;
mod key_schedule;
mod keys;
pub(crate) mod layers;
mod linear;
#[cfg(any(target_arch = "x86_64", test))]
mod masked;
#[cfg(any(target_arch = "x86_64", test))]
mod narrow;
mod sliced;
pub(crate) mod constants;
mod transforms;

use crate::backend::BackendChoice;
pub(crate) use backends::BACKENDS;
use crate::keyed::Cipher;
use crate::error::Result;
use crate::typed::block_cipher_type;
use crate::CipherId;
use cipher::consts::{U16, U32, U64};
pub(crate) use keys::Keys;


pub(crate) fn keyed(key: &[u8], choice: BackendChoice<'_>) -> Result<Cipher> {
    let keys = Keys::new(key);
    Cipher::keyed(CipherId::Kuznyechik, BACKENDS, &keys, choice)
}

block_cipher_type!(
    /// Kuznyechik, GOST R 34.12-2015 (RFC 7801), bytes as printed in the standard.
    ///
    /// A RustCrypto block cipher (`KeyInit`, `BlockCipherEncrypt`,
    /// `BlockCipherDecrypt`); checked against GOST R 34.12-2015 A.1
    /// (RFC 7801 §5.5):
    ///
    /// ```
    /// use multiblock::cipher::{Block, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
    /// use multiblock::kuznyechik::Kuznyechik;
    /// # fn hex(s: &str) -> Vec<u8> {
    /// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    /// # }
    /// let key = hex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
    /// let cipher = Kuznyechik::new_from_slice(&key).unwrap();
    /// let plaintext = hex("1122334455667700ffeeddccbbaa9988");
    /// let mut block = Block::<Kuznyechik>::try_from(&plaintext[..]).unwrap();
    /// cipher.encrypt_block(&mut block);
    /// assert_eq!(block.as_slice(), hex("7f679d90bebc24305a468d42b9d4edcd"));
    /// cipher.decrypt_block(&mut block);
    /// assert_eq!(block.as_slice(), plaintext);
    /// ```
    Kuznyechik, id = CipherId::Kuznyechik, block = U16, key = U32, par = U64,
    make = |key, choice| keyed(key, choice), backends = BACKENDS
);
