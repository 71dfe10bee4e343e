//! Fast, constant-time multi-block implementations of the national block
//! ciphers of Ukraine (Kalyna, DSTU 7624:2014), Russia (Kuznyechik and
//! Magma, GOST R 34.12-2015; GOST 28147-89) and China (uBlock), with the
//! modes of operation their standards define; and the national hashes
//! Streebog (GOST R 34.11-2012) and Kupyna (DSTU 7564:2014) with HMAC,
//! Kupyna's MAC, the KDFs of RFC 7836 and TLSTREE.
//!
//! # Quick start
//!
//! Encrypt with a mode in one call: a [`modes::Request`] names the cipher,
//! the mode, the key and the mode's parameters. Here Kuznyechik in CTR mode,
//! checked against GOST R 34.13-2015 A.1.2:
//!
//! ```
//! use multiblock::modes::{self, Mode, Params, Request};
//! use multiblock::{BackendChoice, CipherId};
//! # fn hex(s: &str) -> Vec<u8> {
//! #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
//! # }
//! let key = hex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
//! let req = Request {
//!     cipher: CipherId::Kuznyechik,
//!     mode: Mode::Ctr,
//!     key: &key,
//!     sbox: None,
//!     backend: BackendChoice::Auto,
//!     params: Params { iv: Some(hex("1234567890abcef0")), ..Params::default() },
//! };
//! let plaintext = hex("1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a\
//!                      112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011");
//! let ciphertext = modes::encrypt(&req, &plaintext)?;
//! assert_eq!(ciphertext, hex("f195d8bec10ed1dbd57b5fa240bda1b885eee733f6a13e5df33ce4b33c45dee4\
//!                             a5eae88be6356ed3d5e877f13564a3a5cb91fab1f20cbab6d1c6d15820bdba73"));
//! assert_eq!(modes::decrypt(&req, &ciphertext)?, plaintext);
//! # Ok::<(), multiblock::Error>(())
//! ```
//!
//! # Which API for which task
//!
//! | task | use |
//! |---|---|
//! | a mode, one call (ECB, CTR, CBC, CFB, OFB, XTS, key wrap, MGM, GCM, CCM) | [`modes::encrypt`], [`modes::decrypt`] with a [`modes::Request`] |
//! | a MAC, one call (GOST MAC, OMAC-ACPKM, DSTU CMAC, GMAC, GOST 28147-89 MAC) | [`modes::mac`] |
//! | a text in pieces, bounded memory, optional threads | [`modes::stream::CipherStream`], [`modes::stream::MacStream`] |
//! | AEAD in pieces (MGM, DSTU GCM, DSTU CCM) | [`modes::aead_stream::AeadStream`] |
//! | AEAD through the RustCrypto [`aead`] traits | [`modes::aead`] ([`modes::aead::KuznyechikMgm`], [`modes::aead::Kalyna128_128Gcm`], …) |
//! | a family's own mode type (outside the stable API) | [`hazmat::modes`] ([`hazmat::modes::GostCtr`], [`hazmat::modes::KalynaKw`], …) |
//! | many messages of a serial mode (CBC/CFB/OFB encryption, MACs) at once | [`modes::many`] ([`modes::many::mac_many`], [`modes::many::encrypt_many`], …) |
//! | many uBlock (key, message) pairs in one call | [`ublock::encrypt_multi_key`] |
//! | the block cipher itself with the RustCrypto [`cipher`] traits | the typed ciphers: [`kalyna::Kalyna128_128`] … [`kalyna::Kalyna512_512`], [`kuznyechik::Kuznyechik`], [`magma::Magma`], [`magma::Gost89CryptoProA`] and the other S-box sets, [`ublock::Ublock128_128`], … |
//! | the block cipher chosen by name at run time (as the CLI and the bindings do) | [`Cipher`], [`CipherId`] |
//! | a hash: one message, in pieces, many at once, RustCrypto `Digest` | [`hash::digest`], [`hash::Hasher`], [`hash::digest_many`], [`hash::Streebog256`] … [`hash::Kupyna512`] |
//! | HMAC over a hash, Kupyna's MAC | [`hash::Hmac`] (by name), [`kdf::hmac::HmacStreebog256`] (RustCrypto `Mac`), [`hash::KupynaMac`] |
//! | key derivation (RFC 7836) and TLS record keys (TLSTREE) | [`kdf::kdf_gostr3411_2012_256`], [`kdf::kdf_tree_gostr3411_2012_256`], [`kdf::TlsTree`] |
//! | key export and wrap formats (KExp15/KImp15, Dstu7624Wrap) | [`wrap::kexp15`], [`wrap::kimp15`], [`wrap::dstu7624_wrap`], [`wrap::dstu7624_unwrap`] |
//! | choosing a backend | [`BackendChoice`], [`backends`], [`BACKEND_ENV`], [`DISABLE_ENV`], [`CORE_ENV`], [`Cipher::backend`] |
//! | padding of ECB and CBC | [`modes::Padding`] (GOST R 34.13-2015 procedures 1-3, PKCS#7) |
//! | errors | [`Error`] (one enum, one-line messages), [`Result`] |
//!
//! A typed cipher is a RustCrypto block cipher, so the ecosystem's mode
//! crates run on it. GOST R 34.13-2015 CTR is a 128-bit big-endian counter
//! that starts at IV ‖ 0⁶⁴, which is `ctr::Ctr128BE`:
//!
//! ```
//! use multiblock::cipher::{KeyIvInit, StreamCipher};
//! use multiblock::kuznyechik::Kuznyechik;
//! # fn hex(s: &str) -> Vec<u8> {
//! #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
//! # }
//! let key = hex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
//! let iv = hex("1234567890abcef00000000000000000"); // IV ‖ 0⁶⁴
//! let mut data = hex("1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a");
//! let mut ctr = ctr::Ctr128BE::<Kuznyechik>::new_from_slices(&key, &iv).unwrap();
//! ctr.apply_keystream(&mut data);
//! // GOST R 34.13-2015 A.1.2, the first two blocks.
//! assert_eq!(data, hex("f195d8bec10ed1dbd57b5fa240bda1b885eee733f6a13e5df33ce4b33c45dee4"));
//! ```
//!
//! # Backends
//!
//! Each keyed cipher runs on one backend ([`BackendInfo`]): by default the
//! fastest constant-time one this CPU supports (some send short calls to a
//! narrower constant-time kernel of their own). [`BackendChoice::Named`] or
//! the environment variable [`BACKEND_ENV`] (`MULTIBLOCK_BACKEND`) choose another;
//! [`DISABLE_ENV`] (`MULTIBLOCK_DISABLE`) hides CPU features, to test the
//! fallbacks; [`CORE_ENV`] (`MULTIBLOCK_CORE`) runs the forms of the kernels
//! chosen for another class of core. The `table` backends index memory by secret data and are
//! never chosen by default. Every backend gives the same bytes.
//!
//! Keys and round keys are wiped when a cipher is dropped.
//!
//! # Inside
//!
//! Six layers (ARCHITECTURE.md in the repository has the details): `simd`
//! (one vector vocabulary: machine tokens per register width and
//! instruction set, with an emulator for tests) → the families' kernels,
//! each written once over it → backends (`kernel`: one batch driver and one
//! adapter per kernel and machine, listed fastest first per family) →
//! ciphers ([`Cipher`] and the typed ones) → [`modes`] → the front ends
//! (the CLI, Python, C and OpenSSL crates). [`hazmat`] holds what the
//! benchmark and the self-test need and users do not, and the families' own
//! mode types, outside the stable API.

#![deny(missing_docs)]

// The x86 strategies (GFNI, VBMI, AVX-512 layers, their constant tables) are
// generic over the SIMD traits and compiled on every architecture so that the
// emulated machines test them anywhere; elsewhere only the tests use them.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

/// Declares a family's backend modules (`<family>/backends/`) by the
/// architectures they build on.
macro_rules! backend_modules {
    (x86_64: [$($x86:ident),*], aarch64: [$($arm:ident),*], everywhere: [$($any:ident),*],) => {
        $(#[cfg(target_arch = "x86_64")] pub(super) mod $x86;)*
        $(#[cfg(target_arch = "aarch64")] pub(super) mod $arm;)*
        $(pub(super) mod $any;)*
    };
}
pub(crate) use backend_modules;

mod cipher_id;
mod bitslice;
mod backend;
mod cpu;
mod keyed;
mod gf256;
pub mod hash;
mod permutation;
pub(crate) mod simd;
mod kernel;
mod error;
pub mod kalyna;
pub mod kuznyechik;
pub mod magma;
pub mod modes;
mod registry;
pub mod hazmat;
pub mod kdf;
mod typed;
pub mod ublock;
mod wipe;
pub mod wrap;
#[cfg(test)]
mod zeroize_tests;
#[cfg(test)]
mod test_rng;
#[cfg(test)]
mod test_util;

/// The RustCrypto `cipher` crate whose traits the typed ciphers implement.
pub use cipher;
/// The RustCrypto `digest` crate whose traits the hash types implement.
pub use digest;
/// The RustCrypto `aead` crate whose traits [`modes::aead`] implements.
pub use aead;
pub use backend::{BackendChoice, BackendInfo, BackendStatus, BACKEND_ENV};
pub use cpu::{core_class, disabled_features, CpuFeatures, CORE_ENV, DISABLE_ENV};
pub use error::{Error, Result};
pub use keyed::Direction;
#[cfg(test)]
#[allow(unused_imports)] // the mode tests that count key setups use it
pub(crate) use keyed::key_setups_on_this_thread;
pub use cipher_id::{CipherId, Family};
pub use keyed::Cipher;
pub use registry::{all_backend_names, backends, env_backend};

/// The crate's README.md, whose example `cargo test --doc` runs too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The repository's front page, whose Rust example `cargo test --doc` runs
/// too (only in the repository: a packaged crate has no such file, and
/// `cfg(doctest)` is set only when rustdoc tests).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct RepositoryReadmeDoctests;
