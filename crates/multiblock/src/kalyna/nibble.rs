//! The nibble S-box and the 4-register lane transpose of the AVX2 kernels
//! (`avx2` and the S-boxes and transposes of `avx2-gfni`), written once for
//! xmm and ymm machines (and the emulator).
//!
//! S-box (the "row scan" idea of Sovyn et al., Zakhyst Informatsii 21(4),
//! 2019, made cheaper). The 256-byte table is 16 rows of 16 bytes;
//! `vpshufb(row, x)` looks up the low nibble and gives 0 when bit 7 is set, so
//! v_m = shuf(row m, x) ⊕ shuf(row m+8, x ⊕ 0x80) is the right value for every
//! x whose bits 4..6 equal m. A 3-level `vpblendvb` tree on bits 4, 5, 6
//! (moved to bit 7 by `vpaddb x,x` three times) picks v_m. Per register:
//! 16 vpshufb + 9 vpxor + 3 vpaddb + 7 vpblendvb = 35 (the paper's row scan:
//! 178 per register of mixed rows).

use super::constants::{SBOX, SBOX_INV};
use crate::simd::Simd;

/// A constant of one 16-byte lane, repeated for both ymm lanes (an xmm
/// machine loads the first 16 bytes).
pub(crate) type Lane = [u8; 32];

/// The 16 rows of 16 bytes of each S-box (row h = π[16h..16h+16]).
#[repr(align(32))]
pub(crate) struct Rows(pub(crate) [[Lane; 16]; 4]);

const fn rows(sbox: &[[u8; 256]; 4]) -> Rows {
    let mut r = [[[0u8; 32]; 16]; 4];
    let mut a = 0;
    while a < 4 {
        let mut i = 0;
        while i < 256 {
            r[a][i / 16][i % 16] = sbox[a][i];
            r[a][i / 16][16 + i % 16] = sbox[a][i];
            i += 1;
        }
        a += 1;
    }
    Rows(r)
}

/// π_a and π_a⁻¹ as rows.
pub(crate) static ENC_ROWS: Rows = rows(&SBOX);
pub(super) static DEC_ROWS: Rows = rows(&SBOX_INV);

/// Repeats a 16-byte lane pattern into both ymm lanes.
pub(super) const fn dup(l: [u8; 16]) -> Lane {
    let mut o = [0u8; 32];
    let mut i = 0;
    while i < 16 {
        o[i] = l[i];
        o[16 + i] = l[i];
        i += 1;
    }
    o
}

/// Lane 0 of `lo` and lane 1 of `hi`: a table whose two lanes differ.
pub(crate) const fn join_lanes(lo: &Lane, hi: &Lane) -> Lane {
    let mut o = *lo;
    let mut i = 16;
    while i < 32 {
        o[i] = hi[i];
        i += 1;
    }
    o
}

/// Transpose step 1: in a 16-byte piece (columns 2L, 2L+1), gather class k's
/// bytes into dword k: (row k, col 2L), (k, 2L+1), (k+4, 2L), (k+4, 2L+1).
const GATHER: Lane = dup([0, 8, 4, 12, 1, 9, 5, 13, 2, 10, 6, 14, 3, 11, 7, 15]);
/// Transpose step 3: dword L = (k,2L),(k,2L+1),(k+4,2L),(k+4,2L+1) → row k's
/// 8 columns then row k+4's.
const ROWS_OUT: Lane = dup([0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15]);
/// Inverses of the two steps above.
const GATHER_INV: Lane = dup([0, 4, 8, 12, 2, 6, 10, 14, 1, 5, 9, 13, 3, 7, 11, 15]);
const ROWS_OUT_INV: Lane = dup([0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15]);

/// The 4×4 transpose of dwords inside each 128-bit lane (the middle of
/// [`to_rows`] and [`from_rows`]).
#[inline(always)]
fn transpose_dwords<M: Simd>(m: M, p: [M::V; 4]) -> [M::V; 4] {
    let t0 = m.unpack_lo::<4>(p[0], p[1]);
    let t1 = m.unpack_hi::<4>(p[0], p[1]);
    let t2 = m.unpack_lo::<4>(p[2], p[3]);
    let t3 = m.unpack_hi::<4>(p[2], p[3]);
    [m.unpack_lo::<8>(t0, t2), m.unpack_hi::<8>(t0, t2), m.unpack_lo::<8>(t1, t3), m.unpack_hi::<8>(t1, t3)]
}

/// The last `vpshufb` of [`to_rows`] followed by `then` (a byte move
/// inside each lane, such as a rotation of the rows), as one table.
pub(crate) const fn rows_out_then(then: &Lane) -> Lane {
    let mut t = [0u8; 32];
    let mut b = 0;
    while b < 32 {
        t[b] = ROWS_OUT[16 * (b / 16) + (then[b] % 16) as usize];
        b += 1;
    }
    t
}

/// `vpshufb` of each register by the same lane pattern.
#[inline(always)]
fn shuffle_each<M: Simd>(m: M, mut x: [M::V; 4], idx: &Lane) -> [M::V; 4] {
    let idx = m.load(idx);
    for v in x.iter_mut() {
        *v = m.shuffle8(*v, idx);
    }
    x
}

/// Natural layout (4 pieces of 16 bytes of a 64-byte chunk per lane) →
/// rows: lane a = [row a | row a+4], 8 columns each.
#[inline(always)]
pub(crate) fn to_rows<M: Simd>(m: M, x: [M::V; 4]) -> [M::V; 4] {
    shuffle_each(m, transpose_dwords(m, shuffle_each(m, x, &GATHER)), &ROWS_OUT)
}

/// [`to_rows`] with register a's last `vpshufb` by `last[a]` (from
/// [`rows_out_then`]): a move inside the rows at no cost.
#[inline(always)]
pub(crate) fn to_rows_then<M: Simd>(m: M, x: [M::V; 4], last: &[Lane; 4]) -> [M::V; 4] {
    let mut z = transpose_dwords(m, shuffle_each(m, x, &GATHER));
    for (v, t) in z.iter_mut().zip(last) {
        *v = m.shuffle8(*v, m.load(t));
    }
    z
}

/// Rows → natural layout (the inverse of [`to_rows`]).
#[inline(always)]
pub(crate) fn from_rows<M: Simd>(m: M, y: [M::V; 4]) -> [M::V; 4] {
    shuffle_each(m, transpose_dwords(m, shuffle_each(m, y, &ROWS_OUT_INV)), &GATHER_INV)
}

/// Per-lane S-box rows for registers that hold two S-box classes: `[r]`,
/// lane L π_{2r+L}'s rows (or their inverses').
#[repr(align(32))]
pub(crate) struct PackedRows(pub(crate) [[Lane; 16]; 2]);

const fn packed_rows(rows: &Rows) -> PackedRows {
    let mut t = [[[0u8; 32]; 16]; 2];
    let mut i = 0;
    while i < 32 {
        let (r, h) = (i / 16, i % 16);
        t[r][h] = join_lanes(&rows.0[2 * r][h], &rows.0[2 * r + 1][h]);
        i += 1;
    }
    PackedRows(t)
}

pub(crate) static ENC_ROWS_PACKED: PackedRows = packed_rows(&ENC_ROWS);

/// One S-box (`t`: π_a or π_a⁻¹ as rows) on every byte; see the module
/// comment. One register at a time: two (sharing the table loads) spilled
/// the 16 ymm registers, which cost more than the 16 loads saved.
#[inline(always)]
pub(crate) fn sbox<M: Simd>(m: M, x: M::V, t: &[Lane; 16]) -> M::V {
    let y = m.xor(x, m.splat8(0x80));
    let b6 = m.add8_opaque(x, x);
    let b5 = m.add8_opaque(b6, b6);
    let b4 = m.add8_opaque(b5, b5);
    let w0 = m.blendv_opaque(row_pair(m, x, y, t, 0), row_pair(m, x, y, t, 1), b4);
    let w1 = m.blendv_opaque(row_pair(m, x, y, t, 2), row_pair(m, x, y, t, 3), b4);
    let z0 = m.blendv_opaque(w0, w1, b5);
    let w2 = m.blendv_opaque(row_pair(m, x, y, t, 4), row_pair(m, x, y, t, 5), b4);
    let w3 = m.blendv_opaque(row_pair(m, x, y, t, 6), row_pair(m, x, y, t, 7), b4);
    let z1 = m.blendv_opaque(w2, w3, b5);
    m.blendv_opaque(z0, z1, b6)
}

/// v_k = rows k and k+8 looked up by x and x ⊕ 0x80.
#[inline(always)]
fn row_pair<M: Simd>(m: M, x: M::V, y: M::V, t: &[Lane; 16], k: usize) -> M::V {
    let (lo, hi) = (m.load(&t[k]), m.load(&t[k + 8]));
    m.xor(m.shuffle8(lo, x), m.shuffle8(hi, y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::emu::Emu;

    fn check<M: Simd<V = [u8; N]>, const N: usize>(m: M) {
        let x: [u8; N] = core::array::from_fn(|i| (i * 37 + 11) as u8);
        for a in 0..4 {
            let want: [u8; N] = core::array::from_fn(|i| SBOX[a][x[i] as usize]);
            assert_eq!(sbox(m, x, &ENC_ROWS.0[a]), want);
            assert_eq!(sbox(m, want, &DEC_ROWS.0[a]), x);
        }
        let regs: [[u8; N]; 4] = core::array::from_fn(|r| core::array::from_fn(|i| (64 * r + i) as u8));
        let rows = to_rows(m, regs);
        // Lane L of register a: row a then a+4 of chunk L (byte 8j + i of a
        // chunk is row i of column j).
        for a in 0..4 {
            for i in 0..N {
                let (lane, h, c) = (i / 16, i % 16 / 8, i % 8);
                let piece = (8 * c + a + 4 * h) / 16;
                assert_eq!(rows[a][i], regs[piece][16 * lane + (8 * c + a + 4 * h) % 16], "reg {a} byte {i}");
            }
        }
        assert_eq!(from_rows(m, rows), regs);
    }

    /// The per-lane S-box tables: lane L of register r through π_{2r+L}.
    #[test]
    fn packed_sboxes() {
        for r in 0..2 {
            let x: [u8; 32] = core::array::from_fn(|i| (i * 73 + 5 + 101 * r) as u8);
            let sboxed = sbox(Emu::<32>, x, &ENC_ROWS_PACKED.0[r]);
            for i in 0..32 {
                assert_eq!(sboxed[i], SBOX[2 * r + i / 16][x[i] as usize], "S-box of register {r} byte {i}");
            }
        }
    }

    /// [`to_rows_then`]: the rows, then each register's own byte move.
    #[test]
    fn rows_then_a_move() {
        let x: [[u8; 32]; 4] = core::array::from_fn(|r| core::array::from_fn(|i| (32 * r + i * 7) as u8));
        let rows = to_rows(Emu::<32>, x);
        let moves: [Lane; 4] = core::array::from_fn(|a| core::array::from_fn(|b| ((b + 3 * a + 1) % 16) as u8));
        let last: [Lane; 4] = core::array::from_fn(|a| rows_out_then(&moves[a]));
        let got = to_rows_then(Emu::<32>, x, &last);
        for a in 0..4 {
            let want: [u8; 32] = core::array::from_fn(|b| rows[a][16 * (b / 16) + moves[a][b] as usize]);
            assert_eq!(got[a], want, "register {a}");
        }
    }

    #[test]
    fn sbox_and_transposes_on_xmm_and_ymm_widths() {
        check(Emu::<16>);
        check(Emu::<32>);
    }
}
