//! `avx512-gfni`: the kernel of `affine.rs` on zmm (AVX-512 VBMI + GFNI).

use super::affine::{AffineKernel, LANES};
use super::Compress;
use crate::backend::Backend;
use crate::simd::{Avx512Gfni, Machine, Zmm};
use crate::BackendInfo;

type Z = Zmm<Avx512Gfni>;

/// 8 spreading `vpermb` per LPS rather than 4 and a lane move (see
/// `affine.rs`): no faster on Zen 4 (6.82 against 6.81 cycles/byte), so
/// the variant with fewer shuffles.
pub(super) const SPREAD8: bool = false;

pub(super) const BACKEND: Backend<(), Box<dyn Compress>> = Backend {
    info: BackendInfo { name: "avx512-gfni", constant_time: true, ways: LANES, needs: <Z as Machine>::NEEDS },
    available: <Z as Machine>::available,
    new: |_| Box::new(AffineKernel::<Z, SPREAD8>(Z::detect().expect("a backend is built only where the CPU runs it"))),
};
