//! `avx512-gfni`: the kernel of `affine.rs` on zmm (AVX-512 VBMI + GFNI).

use super::affine::AffineKernel;
use super::rows::WAYS;
use super::Compress;
use crate::backend::Backend;
use crate::simd::{Avx512Gfni, Machine, Zmm};
use crate::BackendInfo;

type Z = Zmm<Avx512Gfni>;

/// 8 spreading `vpermb` per LPS rather than 4 and a lane move (see
/// `affine.rs`) where one chain runs (a message's blocks, `g`): one
/// shuffle fewer on the chain. On AMD Zen 5 one long message measures
/// 4.1-4.2 TSC ticks per byte with it against 4.65 without (both with N
/// through memory and a masked blend in S); on Zen 4 both measure the
/// same. The interleaved pairs of `g_many` keep 4 and a move.
pub(super) const SPREAD8: bool = true;

pub(super) const BACKEND: Backend<(), Box<dyn Compress>> = Backend {
    info: BackendInfo { name: "avx512-gfni", constant_time: true, ways: WAYS, needs: <Z as Machine>::NEEDS },
    available: <Z as Machine>::available,
    new: |_| Box::new(AffineKernel::<Z, SPREAD8>(Z::detect().expect("a backend is built only where the CPU runs it"))),
};
