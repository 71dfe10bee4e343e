//! `ssse3`: the kernel of `avx2.rs` on xmm registers, for x86 CPUs without
//! AVX2 (Intel before Haswell, the Atom, Pentium and Celeron cores through
//! Tremont, AMD before Excavator), which would otherwise run the bitsliced
//! `portable` backend.
//!
//! The 512-bit state is 4 xmm, T⊕ and T+ in two sets of registers
//! interleaved step by step (`avx2.rs`: a ymm holds both in its lanes).
//! SSSE3 has no `pblendvb`: each of the S-box's 7 blends and each doubling's
//! blend is a signed compare, AND, ANDNOT and OR (`Xmm::blendv`), so the
//! S-box takes 56 µops per register instead of 35, and twice as many
//! registers carry the same bytes: about 2.4× the µops of `avx2` per byte.
//! The output transformation runs T⊕ alone, in one set.
//! Constant-time as `avx2.rs`: every table is indexed by constants or read
//! by `pshufb` in registers.

use super::avx2::{ByDoubling, Compress, Output};
use super::job_on::On;
use super::kernel::{Kernel, KernelFns, State};
use crate::backend::{Backend, BackendInfo};
use crate::simd::{Machine, Ssse3, Xmm};
use core::marker::PhantomData;

type X = Xmm<Ssse3>;

/// SSSE3 alone.
pub(crate) const SSSE3: Backend<(), Kernel> = Backend {
    info: BackendInfo { name: "ssse3", constant_time: true, ways: 1, needs: <X as Machine>::NEEDS },
    available: <X as Machine>::available,
    new: |_| &KernelFns { compress, output, compress_many: None, output_many: None, lanes: 1, finish: None },
};

fn compress(cols: usize, h: &mut State, blocks: &[u8]) {
    let m = X::detect().expect("the backend is chosen only where the CPU runs it");
    m.vectorize(On(m, Compress::<ByDoubling, 2> { cols, h, blocks, products: PhantomData }))
}

/// One set of registers: T⊕ alone (the constants' lane 0 adds zero and
/// XORs T⊕'s), half the work of a compression.
fn output(cols: usize, h: &mut State) {
    let m = X::detect().expect("the backend is chosen only where the CPU runs it");
    m.vectorize(On(m, Output::<ByDoubling, 1> { cols, h, products: PhantomData }))
}
