//! The binary fields of the authenticated modes, in one place:
//!
//! - [`mgm`]: MGM (GOST R 34.13-2015 companion R 1323565.1.026-2019,
//!   RFC 9058 §4.1): GF(2^128) for Kuznyechik, GF(2^64) for Magma,
//!   big-endian blocks, products summed unreduced;
//! - [`dstu`]: DSTU 7624:2014 §12 (GCM/GMAC) and XTS: GF(2^128),
//!   GF(2^256), GF(2^512), little-endian elements; [`ghash`] is the GHASH
//!   chain over them.
//!
//! The products come from one of two multiplies, both constant time (no
//! branch or memory index depends on a key or the data): [`clmul`], the
//! `pclmulqdq` of the SIMD vocabulary ([`crate::simd::Clmul`]), run on an
//! `Xmm<Pclmul>` token where the CPU has it; else [`portable`]. The tests
//! check each against the other, the kernels of [`clmul`] on the emulator
//! so they run on any CPU.

pub(crate) mod clmul;
pub(crate) mod dstu;
pub(crate) mod ghash;
pub(crate) mod mgm;
pub(crate) mod portable;

/// MGM's unreduced sum of products (`mgm.rs`, the `clmul.rs` kernels): 2n
/// bits as (hi, lo); for n = 64 only the low 128 bits are used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Acc {
    pub(crate) hi: u128,
    pub(crate) lo: u128,
}
