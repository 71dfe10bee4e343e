//! A 256-entry byte lookup over four 64-byte table registers (AVX-512
//! VBMI, zmm), in the two forms the wide kernels choose between by class
//! of core: no memory address depends on the data.

use super::{Avx512, Vbmi};

/// Two `vpermi2b` over the table's 128-entry halves (index bits 0..6), then
/// bit 7 picks (`vpmovb2m`, `vpblendmb`): 4 instructions; on AMD's cores a
/// `vpermi2b` is one µop.
#[inline(always)]
pub(crate) fn by_halves<M: Vbmi + Avx512>(m: M, t: &[M::V; 4], x: M::V) -> M::V {
    let lo = m.permi2b(t[0], x, t[1]);
    let hi = m.permi2b(t[2], x, t[3]);
    m.select_bit::<7>(x, lo, hi)
}

/// Four `vpermb` over the table's 64-entry quarters (index bits 0..5), the
/// second of each pair merge-masked by bit 6 (`vptestmb`), then bit 7
/// picks: 7 µops on Intel, where a zmm `vpermi2b` is three (two on the
/// shuffle port) and overwrites an input, against 8 for [`by_halves`].
#[inline(always)]
pub(crate) fn by_quarters<M: Vbmi + Avx512>(m: M, t: &[M::V; 4], x: M::V) -> M::V {
    let bit6 = m.test8(x, m.splat8(0x40));
    let lo = m.permb_masked(m.permb(t[0], x), bit6, t[1], x);
    let hi = m.permb_masked(m.permb(t[2], x), bit6, t[3], x);
    m.select_bit::<7>(x, lo, hi)
}
