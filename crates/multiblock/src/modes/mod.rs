//! Modes of operation from the standards, on top of [`Cipher`](crate::Cipher)'s
//! multi-block ECB (so every mode runs on the fast backends).
//!
//! - `gost/`: GOST R 34.13-2015 (ECB, CTR, OFB, CBC, CFB, MAC), RFC 8645
//!   (CTR-ACPKM, OMAC-ACPKM), RFC 9058 (MGM) for Kuznyechik and Magma, and
//!   GOST 28147-89 (RFC 5830 CNT, CFB, MAC; RFC 4357 key meshing);
//! - `dstu/`: DSTU 7624:2014 for Kalyna (CTR, CBC, CFB, OFB, CMAC, GCM,
//!   GMAC, CCM, XTS, KW) and uBlock CBC;
//! - `request.rs`: the modes, their parameters and the [`Request`];
//! - `oneshot.rs`: the one-shot calls and ECB with padding.
//!
//! The one-shot functions [`encrypt`], [`decrypt`] and [`mac`] take a
//! [`Request`]; [`stream`] streams them (with threads where the mode
//! allows); [`many`] runs the serial modes over many messages at once in
//! the SIMD lanes; [`aead`] implements the RustCrypto `aead` traits. The
//! families' own streaming types are in [`crate::hazmat::modes`], outside
//! the stable API.

pub mod aead;
pub mod aead_stream;
mod alloc;
mod buffers;
pub(crate) mod dstu;
mod gf;
pub(crate) mod gost;
pub mod many;
mod oneshot;
pub mod padding;
pub(crate) mod parallel;
pub(crate) mod threaded;
mod request;
pub mod stream;
mod stream_core;
pub(crate) mod tag;
mod threads;

pub use oneshot::{decrypt, encrypt, mac};
pub use padding::Padding;
pub use request::{Kind, Mode, Params, Request};
pub(crate) use request::check_kind;

#[cfg(test)]
mod key_setup_tests;
