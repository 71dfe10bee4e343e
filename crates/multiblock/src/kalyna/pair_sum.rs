//! MixColumns (DSTU 7624:2014 §5.3) by pair sums, for the GFNI kernels of
//! Kalyna (`row_sliced.rs`) and Kupyna (which uses Kalyna's MDS matrix).
//!
//! With v = (01 01 05 01 08 06 07 04), out_i = ⊕_j v_j·R_{i+j} (indices
//! mod 8), the pair sums P_j = R_j ⊕ R_{j+1} give out_i = A ⊕ 2·B ⊕ 4·C ⊕
//! 8·R_{i+4} with A = P_i ⊕ P_{i+2} ⊕ R_{i+6}, B = P_{i+5},
//! C = P_{i+5} ⊕ R_{i+2} ⊕ R_{i+7}: three products by a constant, each
//! one `vgf2p8affineqb` with the 8×8 bit matrix of x ↦ c·x in
//! GF(2^8)/0x11D (not AES's field, so not `vgf2p8mulb`).

use super::constants::MDS;
use crate::gf256::{mul_matrix, KALYNA};
use crate::simd::{Gfni, Simd};

/// x ↦ 2·x in GF(2^8)/0x11D as a `vgf2p8affineqb` matrix.
pub(crate) const M2: u64 = mul_matrix(2, KALYNA);
/// x ↦ 4·x.
pub(crate) const M4: u64 = mul_matrix(4, KALYNA);
/// x ↦ 8·x.
pub(crate) const M8: u64 = mul_matrix(8, KALYNA);
/// x ↦ 5·x, 6·x, 7·x: with M4 and M8, the products of MixColumns split at
/// the middle of its circulant instead (Kupyna's column-layout kernels,
/// `hash/kupyna/avx512_gfni.rs` and `avx2.rs`).
pub(crate) const M5: u64 = mul_matrix(5, KALYNA);
/// x ↦ 6·x.
pub(crate) const M6: u64 = mul_matrix(6, KALYNA);
/// x ↦ 7·x.
pub(crate) const M7: u64 = mul_matrix(7, KALYNA);

// The decomposition relies on v = (1, 1, 1^4, 1, 8, 2^4, 1^2^4, 4).
const _: () = assert!(
    MDS[0] == 1 && MDS[1] == 1 && MDS[2] == 5 && MDS[3] == 1 && MDS[4] == 8 && MDS[5] == 6 && MDS[6] == 7 && MDS[7] == 4
);

/// What [`mix`] adds to output row i in the row's last XOR: a round key's
/// row, a round constant, or nothing.
pub(crate) trait RowAddend<M: Simd>: Copy {
    /// s ⊕ d ⊕ the addend of row i (if it has one).
    fn sum(self, m: M, i: usize, s: M::V, d: M::V) -> M::V;
}

/// MixColumns on 8 rows (register i = row i), ⊕ `add`'s row i on row i.
#[inline(always)]
pub(crate) fn mix<M: Simd + Gfni, A: RowAddend<M>>(m: M, r: &[M::V; 8], add: A) -> [M::V; 8] {
    let mut p = *r;
    for j in 0..8 {
        p[j] = m.xor(r[j], r[(j + 1) % 8]);
    }
    let mut out = *r;
    for i in 0..8 {
        let [a, b, c] = terms(m, r, &p, i);
        let s = m.xor3(a, m.affine(b, M2), m.affine(c, M4));
        let d = m.affine(r[(i + 4) % 8], M8);
        out[i] = add.sum(m, i, s, d);
    }
    out
}

/// (A, B, C) of output row i from the rows `r` and their pair sums `p`
/// (p_j = r_j ⊕ r_{j+1}): 4 XORs.
#[inline(always)]
pub(crate) fn terms<M: Simd>(m: M, r: &[M::V; 8], p: &[M::V; 8], i: usize) -> [M::V; 3] {
    let b = p[(i + 5) % 8];
    [m.xor3(p[i], p[(i + 2) % 8], r[(i + 6) % 8]), b, m.xor3(b, r[(i + 2) % 8], r[(i + 7) % 8])]
}

/// Output row i of MixColumns by GFNI products: A ⊕ 2·B ⊕ 4·C ⊕ 8·R_{i+4}.
#[inline(always)]
pub(crate) fn row_by_products<M: Simd + Gfni>(m: M, r: &[M::V; 8], p: &[M::V; 8], i: usize) -> M::V {
    let [a, b, c] = terms(m, r, p, i);
    m.xor(m.xor3(a, m.affine(b, M2), m.affine(c, M4)), m.affine(r[(i + 4) % 8], M8))
}

/// Each byte times x in GF(2^8)/0x11D without GFNI, branches or lookups:
/// `vpaddb`, and 0x1D XORed where bit 7 was set (`vpblendvb`).
#[inline(always)]
pub(crate) fn double<M: Simd>(m: M, x: M::V) -> M::V {
    m.xor(m.add8(x, x), m.blendv_opaque(m.zero(), m.splat8(0x1d), x))
}

/// Output row i of MixColumns by doublings, in Horner form:
/// A ⊕ 2·(B ⊕ 2·(C ⊕ 2·R_{i+4})): 3 doublings and 7 XORs.
#[inline(always)]
pub(crate) fn row_by_doublings<M: Simd>(m: M, r: &[M::V; 8], p: &[M::V; 8], i: usize) -> M::V {
    let [a, b, c] = terms(m, r, p, i);
    let t = m.xor(c, double(m, r[(i + 4) % 8]));
    let t = m.xor(b, double(m, t));
    m.xor(a, double(m, t))
}
