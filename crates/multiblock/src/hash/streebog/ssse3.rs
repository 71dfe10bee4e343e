//! `ssse3`: the kernel of `xmm.rs` on SSSE3 xmm, π's core by logarithm
//! tables without a blend (`ZeroingLogs`), L by `pshufb` nibble tables
//! (x86-64 CPUs without AVX2: Intel before Haswell, Atom cores through
//! Tremont, AMD before Excavator).

use super::pi_structure::ZeroingLogs;
use super::xmm::XmmKernel;
use super::compress::Compress;
use crate::backend::Backend;
use crate::simd::{Machine, Ssse3, Xmm};
use crate::BackendInfo;

type X = Xmm<Ssse3>;

pub(super) const BACKEND: Backend<(), Box<dyn Compress>> = Backend {
    info: BackendInfo { name: "ssse3", constant_time: true, ways: 1, needs: <X as Machine>::NEEDS },
    available: <X as Machine>::available,
    new: |_| Box::new(XmmKernel::<X, ZeroingLogs>::new(X::detect().expect("a backend is built only where the CPU runs it"))),
};
