//! Between 8 chunks of 64 bytes in 64-byte registers (register q = chunk
//! q, 8 columns of 8 rows each) and rows (register i = row i of the 8
//! chunks, chunk q in 64-bit lane q): per register one `vpermb`
//! ([`BYTE_TRANSPOSE`]), and over the 8 registers [`transpose_lanes`] (24
//! `vpermt2q`). The row layout of Kalyna's `avx512-gfni` kernel
//! (`layers.rs`) and of Kupyna's many messages (`hash/kupyna/rows.rs`).

use crate::simd::{Avx512, Vbmi};

/// The 8×8 byte transpose inside each 64-byte chunk: byte 8i + c ← byte
/// 8c + i (column-major → row i in 64-bit lane i). Its own inverse.
pub(crate) static BYTE_TRANSPOSE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        t[p] = ((p % 8) * 8 + p / 8) as u8;
        p += 1;
    }
    t
};

/// `vpermt2q` indices of a transpose of lanes of `words` 64-bit words
/// (8 / `words` lanes a register) in `STAGES` = log2(8 / `words`) stages:
/// stage s exchanges lane q of register r with lane q ^ 2^s of register
/// r | 2^s where bit s of r is 0 and bit s of q is 1. [s][0] gives the new
/// r, [s][1] the new r | 2^s (little-endian 64-bit words).
pub(crate) const fn lane_exchanges<const STAGES: usize>(words: usize) -> [[[u8; 64]; 2]; STAGES] {
    let lanes = 8 / words;
    let mut t = [[[0u8; 64]; 2]; STAGES];
    let mut s = 0;
    while s < STAGES {
        let bit = 1 << s;
        let mut w = 0;
        while w < 8 {
            let (q, e) = (w / words, w % words);
            let (lo, hi) = if q & bit == 0 { (q, q ^ bit) } else { (lanes + (q ^ bit), lanes + q) };
            t[s][0][8 * w] = (words * lo + e) as u8;
            t[s][1][8 * w] = (words * hi + e) as u8;
            w += 1;
        }
        s += 1;
    }
    t
}

/// The stages of [`lane_exchanges`] over 8 registers: with 64-bit lanes
/// (3 stages) the 8×8 transpose, with 128-bit lanes (2 stages) registers
/// 0..3 and 4..7 each as a 4×4 transpose. Each is its own inverse.
#[inline(always)]
pub(crate) fn exchange_lanes<M: Avx512>(m: M, x: &mut [M::V; 8], stages: &[[[u8; 64]; 2]]) {
    for (s, idx) in stages.iter().enumerate() {
        let bit = 1 << s;
        let (i0, i1) = (m.load(&idx[0]), m.load(&idx[1]));
        for r in 0..8 {
            if r & bit == 0 {
                let (a, b) = (x[r], x[r | bit]);
                x[r] = m.permi2q(a, i0, b);
                x[r | bit] = m.permi2q(a, i1, b);
            }
        }
    }
}

/// The 8×8 transpose of 64-bit lanes' indices.
static LANE_TRANSPOSE: [[[u8; 64]; 2]; 3] = lane_exchanges::<3>(1);

/// The 8×8 transpose of 64-bit lanes: lane q of register r ↔ lane r of q.
#[inline(always)]
pub(crate) fn transpose_lanes<M: Avx512>(m: M, x: &mut [M::V; 8]) {
    exchange_lanes(m, x, &LANE_TRANSPOSE)
}

/// 8 chunks in their natural layout (register q = chunk q) to rows.
#[inline(always)]
pub(crate) fn to_rows<M: Vbmi + Avx512>(m: M, mut x: [M::V; 8]) -> [M::V; 8] {
    let t = m.load(&BYTE_TRANSPOSE);
    for v in x.iter_mut() {
        *v = m.permb(*v, t);
    }
    transpose_lanes(m, &mut x);
    x
}

/// The inverse of [`to_rows`].
#[inline(always)]
pub(crate) fn from_rows<M: Vbmi + Avx512>(m: M, mut x: [M::V; 8]) -> [M::V; 8] {
    transpose_lanes(m, &mut x);
    let t = m.load(&BYTE_TRANSPOSE);
    for v in x.iter_mut() {
        *v = m.permb(*v, t);
    }
    x
}
