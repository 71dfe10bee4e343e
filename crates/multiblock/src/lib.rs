//! multiblock: fast, constant-time multi-block implementations of the
//! national block ciphers of Ukraine (Kalyna, DSTU 7624:2014), Russia
//! (Kuznyechik and Magma, GOST R 34.12-2015; GOST 28147-89) and China (uBlock).
//!
//! Two ways in:
//! - typed ciphers ([`kalyna::Kalyna128_128`], [`kuznyechik::Kuznyechik`],
//!   [`magma::Magma`], [`magma::Gost89`], [`ublock::Ublock128_128`], …) that
//!   implement the RustCrypto `cipher` 0.5 traits and so work with the
//!   ecosystem's mode crates;
//! - [`Cipher`], chosen by name at run time, as the CLI and bindings use it.
//!
//! Each keyed cipher runs on one backend ([`BackendInfo`]); by default the
//! fastest constant-time one this CPU supports (an explicit name, or the
//! environment variable [`BACKEND_ENV`], chooses another).
//!
//! Inside, six layers (ARCHITECTURE.md in the repository has the details):
//! `simd` (one vector vocabulary: machine tokens per register width and
//! instruction set, with an emulator for tests) → the families' kernels,
//! each written once over it → backends (`kernel`: one batch driver and one
//! adapter per kernel and machine, listed fastest first per family) →
//! ciphers ([`Cipher`] and the typed ones) → [`modes`] → the front ends
//! (the CLI, Python, C and OpenSSL crates). [`hazmat`] holds what the
//! benchmark needs and users do not.

// The x86 strategies (GFNI, VBMI, AVX-512 layers, their constant tables) are
// generic over the SIMD traits and compiled on every architecture so that the
// emulated machines test them anywhere; elsewhere only the tests use them.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

mod cipher_id;
mod bitslice;
mod cpu;
mod dispatch;
mod engine;
mod gf256;
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
mod typed;
pub mod ublock;
mod wipe;
#[cfg(test)]
mod zeroize_tests;
#[cfg(test)]
mod test_rng;
#[cfg(test)]
mod test_util;

pub use cipher;
pub use cpu::{disabled_features, BackendChoice, BackendInfo, CpuFeatures, BACKEND_ENV, DISABLE_ENV};
pub use error::{Error, Result};
pub use cipher_id::{CipherId, Family};
pub use registry::{all_backend_names, backends, env_backend, BackendStatus, Cipher};

