//! `avx2-gfni` and `avx2`: the kernel of `paired.rs` on ymm, L's products
//! by `vgf2p8affineqb` or by `pshufb` nibble tables, π's core by logarithm
//! tables with α by `vgf2p8affineqb` or by nibble tables (CPUs without
//! AVX-512: Intel client cores, AMD Zen 3 and earlier). One message on
//! `avx2-gfni` runs `split.rs` instead, the state and the key as two
//! chains in registers of their own.

use super::paired::{Affine, Nibbles, PairedKernel};
use super::split::SplitKernel;
use super::pi_structure::{AffineLogs, Logs};
use super::compress::Compress;
use crate::backend::Backend;
use crate::simd::{Avx2, Avx2Gfni, Machine, Ymm};
use crate::BackendInfo;

type Y = Ymm<Avx2>;
type Yg = Ymm<Avx2Gfni>;

pub(super) const BACKEND_GFNI: Backend<(), Box<dyn Compress>> = Backend {
    info: BackendInfo { name: "avx2-gfni", constant_time: true, ways: 2, needs: <Yg as Machine>::NEEDS },
    available: <Yg as Machine>::available,
    new: |_| {
        let m = Yg::detect().expect("a backend is built only where the CPU runs it");
        Box::new(SplitKernel::<Yg, AffineLogs, _>::new(m, PairedKernel::<Yg, Affine, AffineLogs>::new(m)))
    },
};

pub(super) const BACKEND: Backend<(), Box<dyn Compress>> = Backend {
    info: BackendInfo { name: "avx2", constant_time: true, ways: 2, needs: <Y as Machine>::NEEDS },
    available: <Y as Machine>::available,
    new: |_| Box::new(PairedKernel::<Y, Nibbles, Logs>::new(Y::detect().expect("a backend is built only where the CPU runs it"))),
};
