//! `avx512-gfni`: the kernel of `affine.rs` on zmm (AVX-512 VBMI + GFNI).

use super::affine::{AffineKernel, Spread};
use super::rows::{PiLookup, WAYS};
use super::compress::Compress;
use crate::backend::Backend;
use crate::cpu::{self, Core};
use crate::simd::{Avx512Gfni, Machine, Zmm};
use crate::BackendInfo;

type Z = Zmm<Avx512Gfni>;

pub(super) const BACKEND: Backend<(), Box<dyn Compress>> = Backend {
    info: BackendInfo { name: "avx512-gfni", constant_time: true, ways: WAYS, needs: <Z as Machine>::NEEDS },
    available: <Z as Machine>::available,
    new: |_| {
        let z = Z::detect().expect("a backend is built only where the CPU runs it");
        // One long message on AMD Zen 5: 3.4-3.6 TSC ticks per byte with
        // `vpshufd` inputs against 3.7-3.9 with 8 `vpermb`. Intel runs a
        // `vpshufd` on the port of `vpermb` (llvm-mca's Ice Lake model: 32
        // cycles a round against 30); Zen 4 measured 8 `vpermb` no slower
        // than 4 and a move.
        // The key chain one LPS ahead of the state's: 2-3% faster on Zen 5,
        // 1.5-2% slower on Intel than the two in step (`affine::g_one`).
        // Many messages on Intel: π by four `vpermb` (7 µops a register
        // against 8 by two `vpermi2b`), 6-8% faster at 64 B, 1 KiB and
        // 64 KiB; AMD's cores issue a `vpermi2b` as one µop.
        match cpu::core() {
            Core::AmdFullZmm => Box::new(AffineKernel::<Z, { Spread::SWAPPED }, true, { PiLookup::HALVES }>(z)),
            Core::AmdHalfZmm => Box::new(AffineKernel::<Z, { Spread::EIGHT }, true, { PiLookup::HALVES }>(z)),
            Core::Intel => Box::new(AffineKernel::<Z, { Spread::EIGHT }, false, { PiLookup::QUARTERS }>(z)),
        }
    },
};
