//! Kupyna on ymm registers with the state kept in rows for all its rounds:
//! the compressions and output transformations of `avx2` and `avx2-gfni`
//! (one message of a 512-bit state compresses in [`super::ymm_staggered`],
//! from this file's round steps).
//!
//! Layout. T⊕'s state in lane 0 of every register, T+'s in lane 1. The
//! 512-bit state: register a (0..4) holds row a and row a + 4, 8 columns
//! each, one per 64-bit half of a lane; the 1024-bit state: register i
//! (0..8) holds row i, 16 columns. A register's bytes then all take the
//! same S-box (π_{i mod 4}), ShiftBytes moves bytes inside lanes, and
//! MixColumns is sums of whole registers, so a round has no transposes;
//! the chaining value stays in rows from block to block, and only the
//! message goes into rows (`kalyna::nibble::to_rows`).
//!
//! What costs here is T+'s addition of its constant mod 2^64 to every
//! column, whose bytes are now one per row. Byte by byte: s_i = x_i + k_i;
//! the byte generates a carry (g_i) when s_i < k_i unsigned, a signed
//! compare of s_i ⊕ 0x80 (a second `vpaddb`, of k_i ⊕ 0x80) with
//! k_i ⊕ 0x80; it passes one on (p_i) when s_i = 0xFF. The carry into row
//! i + 1 is c_{i+1} = p_i ? c_i : g_i (g and p never hold together), one
//! `vpblendvb` per row, and row i is s_i − c_i (a carry is 0xFF, −1). In
//! T⊕'s lane k is 0 and no carry arises. For the 512-bit state the chain
//! runs rows 0..3 in the lower halves, moves row 3's carry to the upper
//! halves (`vpslldq`) and runs rows 4..7 there, which gives rows 1..3's
//! carries in the lower halves again. T⊕'s constant is in row 0 only: one
//! `vpxor`.
//!
//! Count per round of the 512-bit state (4 registers; `avx2`):
//!
//! | step | ops | shuffles |
//! |---|---:|---:|
//! | constants: 1 XOR; 4 × (2 `vpaddb`, compare, `vpcmpeqb`), 7 for the chain, 4 `vpsubb` | 28 | 1 |
//! | SubBytes: Kalyna's nibble S-box (`kalyna::nibble::sbox`), 4 × 35 | 140 | 64 |
//! | ShiftBytes into the 8 registers V_j = rows j, j + 4 (mod 8) | 8 | 8 |
//! | MixColumns by pair sums (`kalyna::pair_sum`): 8 sums, 4 × 16 (`avx2-gfni`: 4 × 10) | 72 | 0 |
//! | **round** | **248** | **73** |
//!
//! against 276 ops and 124 shuffles in the column layout (`avx2.rs`: 32
//! ops of transposes a round, MixColumns' row rotations 28). Zen 3 runs the
//! shuffles on two of its four vector pipes: the column layout's 124 bound
//! a round at 62 core cycles, the row layout's 248 ops at 62 over all four
//! pipes. The compiled round loop simulates at 76 core cycles under
//! `llvm-mca -mcpu=znver3` (a round is three phases that wait for each
//! other: the carry chain, the S-boxes, MixColumns) and measures about
//! 80. The 1024-bit state (8 registers): 46 + 280 + 8 + 136 = 470 ops and
//! 137 shuffles a round, against 576 and 272 for its two groups in
//! columns.
//!
//! The output transformation is T⊕ alone, packed so that no lane idles:
//! the 512-bit state in 2 registers (lane 0 rows 2q | 2q + 4, lane 1 rows
//! 2q + 1 | 2q + 5; [`t_xor_packed_512`], 119 ops a round), the 1024-bit
//! one in 4 (lane 0 row a, lane 1 row a + 4; [`t_xor_packed_1024`]). Each
//! lane then holds one S-box class, and MixColumns' other inputs are the
//! same registers with lanes or halves exchanged.
//!
//! Everything is constant-time: the tables are indexed by constants, the
//! loops count public blocks and rounds.

use core::marker::PhantomData;

use super::constants::{add_constant, rounds, shift, xor_constant, COLS_512};
use super::job_on::JobOn;
use super::kernel::State;
use crate::kalyna::nibble::{from_rows, join_lanes, sbox, to_rows, Lane, ENC_ROWS, ENC_ROWS_PACKED};
use crate::simd::{CrossLanes, Simd};

/// How MixColumns forms an output row from the 8 input rows.
pub(crate) trait RowMix<M: Simd> {
    /// Output row i of the rows `r` (p_j = r_j ⊕ r_{j+1}).
    fn row(m: M, r: &[M::V; 8], p: &[M::V; 8], i: usize) -> M::V;
}

/// Most rounds of a state (the 1024-bit one's).
const MAX_ROUNDS: usize = 14;

/// Per round and row register: T+'s constant bytes in lane 1 (and in lane
/// 0 for T+ in both lanes; else zero there), and the same ⊕ 0x80.
#[repr(align(32))]
pub(super) struct PlusRows {
    k: [[Lane; 8]; MAX_ROUNDS],
    k80: [[Lane; 8]; MAX_ROUNDS],
}

/// Row and column of byte b (0..16) of a lane of row register i.
const fn row_col(cols: usize, i: usize, b: usize) -> (usize, usize) {
    if cols == COLS_512 {
        (i + 4 * (b / 8), b % 8)
    } else {
        (i, b)
    }
}

const fn plus_rows(cols: usize, both_lanes: bool) -> PlusRows {
    let mut t = PlusRows { k: [[[0; 32]; 8]; MAX_ROUNDS], k80: [[[0x80; 32]; 8]; MAX_ROUNDS] };
    let regs = if cols == COLS_512 { 4 } else { 8 };
    let mut round = 0;
    while round < rounds(cols) {
        let mut i = 0;
        while i < regs {
            let mut b = 0;
            while b < 16 {
                let (row, col) = row_col(cols, i, b);
                let k = add_constant(col, cols, round).to_le_bytes()[row];
                t.k[round][i][16 + b] = k;
                t.k80[round][i][16 + b] = k ^ 0x80;
                if both_lanes {
                    t.k[round][i][b] = k;
                    t.k80[round][i][b] = k ^ 0x80;
                }
                b += 1;
            }
            i += 1;
        }
        round += 1;
    }
    t
}

static PLUS_512: PlusRows = plus_rows(COLS_512, false);
static PLUS_1024: PlusRows = plus_rows(2 * COLS_512, false);
/// T+ of two blocks of the 512-bit state, one per lane.
pub(super) static PLUS_512_BOTH_LANES: PlusRows = plus_rows(COLS_512, true);

/// T⊕'s constants per round: row 0 in lane 0 of row register 0.
#[repr(align(32))]
struct XorRow0([Lane; MAX_ROUNDS]);

const fn xor_row0(cols: usize) -> XorRow0 {
    let mut t = [[0u8; 32]; MAX_ROUNDS];
    let mut round = 0;
    while round < rounds(cols) {
        let mut b = 0;
        while b < 16 {
            let (row, col) = row_col(cols, 0, b);
            if row == 0 {
                t[round][b] = xor_constant(col, round);
            }
            b += 1;
        }
        round += 1;
    }
    XorRow0(t)
}

static XOR_512: XorRow0 = xor_row0(COLS_512);
static XOR_1024: XorRow0 = xor_row0(2 * COLS_512);

/// ShiftBytes' `vpshufb` into V_j, the registers MixColumns takes: for the
/// 512-bit state V_j (j = 0..8) holds rows j and j + 4 (mod 8), taken from
/// register j mod 4 (whose upper half holds row j + 4 for j < 4 and row
/// j − 4 after); for the 1024-bit state V_j is row register j. Column c of
/// a row ShiftBytes moves by δ takes column c − δ.
#[repr(align(32))]
pub(super) struct Shifts(pub(super) [Lane; 8]);

const fn shifts(cols: usize) -> Shifts {
    let mut t = [[0u8; 32]; 8];
    let mut j = 0;
    while j < 8 {
        let mut b = 0;
        while b < 32 {
            let (half, c) = (b % 16 / 8, b % 8);
            t[j][b] = if cols == COLS_512 {
                let row = (j + 4 * half) % 8;
                (8 * (row / 4) + (c + 8 - shift(row, cols)) % 8) as u8
            } else {
                ((b % 16 + 16 - shift(j, cols)) % 16) as u8
            };
            b += 1;
        }
        j += 1;
    }
    Shifts(t)
}

static SHIFTS_512: Shifts = shifts(COLS_512);
/// ShiftBytes on whole 16-column rows, `[row]` (also the column-layout
/// kernels' rotation of joined rows).
pub(super) static SHIFTS_1024: Shifts = shifts(2 * COLS_512);

/// Lane 0 all ones, lane 1 zero.
static LANE0: Lane = {
    let mut t = [0u8; 32];
    let mut b = 0;
    while b < 16 {
        t[b] = 0xff;
        b += 1;
    }
    t
};

/// AddRoundConstant of both permutations on N row registers (see the
/// module comment).
#[inline(always)]
fn add_constants<M: Simd, const N: usize>(m: M, x: &mut [M::V; N], round: usize) {
    let (plus, xor) = if N == 4 { (&PLUS_512, &XOR_512) } else { (&PLUS_1024, &XOR_1024) };
    x[0] = m.xor(x[0], m.load(&xor.0[round]));
    add_plus(m, x, plus, round);
}

/// T+'s AddRoundConstant (+ mod 2^64 on every column) in the lanes where
/// `plus` has its constants; the others are left as they are.
#[inline(always)]
pub(super) fn add_plus<M: Simd, const N: usize>(m: M, x: &mut [M::V; N], plus: &PlusRows, round: usize) {
    let ones = m.splat8(0xff);
    let (mut s, mut g, mut p) = ([m.zero(); N], [m.zero(); N], [m.zero(); N]);
    for i in 0..N {
        let k80 = m.load(&plus.k80[round][i]);
        s[i] = m.add8(x[i], m.load(&plus.k[round][i]));
        g[i] = m.gt8(k80, m.add8(x[i], k80));
        p[i] = m.eq8(s[i], ones);
    }
    let mut c = [m.zero(); N];
    if N == 4 {
        let c4 = m.blendv(g[3], m.blendv(g[2], m.blendv(g[1], g[0], p[1]), p[2]), p[3]);
        c[0] = m.unpack_lo::<8>(m.zero(), c4);
        for i in 1..4 {
            c[i] = m.blendv(g[i - 1], c[i - 1], p[i - 1]);
        }
        x[0] = m.sub8(s[0], c[0]);
    } else {
        c[1] = g[0];
        for i in 2..N {
            c[i] = m.blendv(g[i - 1], c[i - 1], p[i - 1]);
        }
        x[0] = s[0];
    }
    for i in 1..N {
        x[i] = m.sub8(s[i], c[i]);
    }
}

/// SubBytes: row register i through π_{i mod 4}. Constant indices, so that
/// every table address is one.
#[inline(always)]
fn sub_bytes<M: Simd, const N: usize>(m: M, x: &mut [M::V; N]) {
    x[0] = sbox(m, x[0], &ENC_ROWS.0[0]);
    x[1] = sbox(m, x[1], &ENC_ROWS.0[1]);
    x[2] = sbox(m, x[2], &ENC_ROWS.0[2]);
    x[3] = sbox(m, x[3], &ENC_ROWS.0[3]);
    if N == 8 {
        x[4] = sbox(m, x[4], &ENC_ROWS.0[0]);
        x[5] = sbox(m, x[5], &ENC_ROWS.0[1]);
        x[6] = sbox(m, x[6], &ENC_ROWS.0[2]);
        x[7] = sbox(m, x[7], &ENC_ROWS.0[3]);
    }
}

/// ShiftBytes and MixColumns on N row registers.
#[inline(always)]
pub(super) fn shift_mix<M: Simd, P: RowMix<M>, const N: usize>(m: M, x: &mut [M::V; N]) {
    let shifts = if N == 4 { &SHIFTS_512 } else { &SHIFTS_1024 };
    let mut v = [m.zero(); 8];
    for (j, v) in v.iter_mut().enumerate() {
        *v = m.shuffle8_opaque(x[j % N], m.load(&shifts.0[j]));
    }
    mix_rows::<M, P, N>(m, &v, x, 1);
}

/// MixColumns: output rows 0, step, …, (N − 1)·step of the 8 rows `v`
/// (by their pair sums) into `x` (N = 2, 4 or 8).
#[inline(always)]
fn mix_rows<M: Simd, P: RowMix<M>, const N: usize>(m: M, v: &[M::V; 8], x: &mut [M::V; N], step: usize) {
    let mut p = *v;
    for j in 0..8 {
        p[j] = m.xor(v[j], v[(j + 1) % 8]);
    }
    // Written out: LLVM left a loop of 8 with indexed stack addresses.
    x[0] = P::row(m, v, &p, 0);
    x[1] = P::row(m, v, &p, step);
    if N >= 4 {
        x[2] = P::row(m, v, &p, 2 * step);
        x[3] = P::row(m, v, &p, 3 * step);
    }
    if N == 8 {
        x[4] = P::row(m, v, &p, 4 * step);
        x[5] = P::row(m, v, &p, 5 * step);
        x[6] = P::row(m, v, &p, 6 * step);
        x[7] = P::row(m, v, &p, 7 * step);
    }
}

/// 64 bytes as the natural layout's 4 registers, in both lanes.
#[inline(always)]
fn pieces<M: Simd>(m: M, bytes: &[u8]) -> [M::V; 4] {
    core::array::from_fn(|p| m.splat128(bytes[16 * p..16 * p + 16].try_into().expect("16 bytes")))
}

/// 64·R bytes (R = 1, 2) in rows, in both lanes.
#[inline(always)]
pub(super) fn into_rows<M: Simd, const N: usize>(m: M, bytes: &[u8]) -> [M::V; N] {
    let y0 = to_rows(m, pieces(m, bytes));
    let mut x = [m.zero(); N];
    if N == 4 {
        x[..4].copy_from_slice(&y0);
    } else {
        // Columns 0..8 and 8..16 side by side in whole rows.
        let y1 = to_rows(m, pieces(m, &bytes[64..]));
        for a in 0..4 {
            x[a] = m.unpack_lo::<8>(y0[a], y1[a]);
            x[a + 4] = m.unpack_hi::<8>(y0[a], y1[a]);
        }
    }
    x
}

/// Lane 0 of N row registers back to 64·R bytes.
#[inline(always)]
pub(super) fn store_rows<M: Simd, const N: usize>(m: M, x: &[M::V; N], out: &mut [u8]) {
    let groups: [[M::V; 4]; 2] = if N == 4 {
        [core::array::from_fn(|a| x[a]), [m.zero(); 4]]
    } else {
        [core::array::from_fn(|a| m.unpack_lo::<8>(x[a], x[a + 4])), core::array::from_fn(|a| m.unpack_hi::<8>(x[a], x[a + 4]))]
    };
    for (g, rows) in groups.iter().take(N / 4).enumerate() {
        for (p, v) in from_rows(m, *rows).iter().enumerate() {
            m.store_lane(*v, 0, &mut out[64 * g + 16 * p..]);
        }
    }
}

/// h_k ← T⊕(h_k ⊕ m) ⊕ T+(m) ⊕ h_k for every block m of `blocks[k]`
/// (all as long), K states of N row registers at once: each step of a
/// round runs on every set before the next, so that one set's work fills
/// the gaps of the other's (its carry chain, the S-boxes' start).
#[inline(always)]
fn compress_sets<M: Simd + CrossLanes, P: RowMix<M>, const N: usize, const K: usize>(m: M, hs: [&mut State; K], blocks: [&[u8]; K]) {
    let n = 16 * N;
    let lane0 = m.load(&LANE0);
    let mut hr = [[m.zero(); N]; K];
    for (hr, h) in hr.iter_mut().zip(&hs) {
        *hr = chaining_rows(m, h, lane0);
    }
    compress_rows::<M, P, N, K>(m, &mut hr, blocks, lane0);
    for (h, rows) in hs.into_iter().zip(&hr) {
        store_rows(m, rows, &mut h[..n]);
    }
}

/// A chaining value in N row registers as [`compress_rows`] takes it: h
/// in lane 0, zero in lane 1 (`lane0`: [`LANE0`]).
#[inline(always)]
fn chaining_rows<M: Simd, const N: usize>(m: M, h: &State, lane0: M::V) -> [M::V; N] {
    let mut rows: [M::V; N] = into_rows(m, &h[..16 * N]);
    for v in rows.iter_mut() {
        *v = m.and(*v, lane0);
    }
    rows
}

/// [`compress_sets`] on chaining values already in rows: h in lane 0 and
/// zero in lane 1 of `hr`, before and after (`lane0`: [`LANE0`]).
#[inline(always)]
fn compress_rows<M: Simd + CrossLanes, P: RowMix<M>, const N: usize, const K: usize>(m: M, hr: &mut [[M::V; N]; K], blocks: [&[u8]; K], lane0: M::V) {
    let n = 16 * N;
    for b in 0..blocks[0].len() / n {
        // x = h ⊕ m | m.
        let mut x = [[m.zero(); N]; K];
        for (x, block) in x.iter_mut().zip(&blocks) {
            *x = into_rows(m, &block[n * b..n * (b + 1)]);
        }
        for (v, h) in x.as_flattened_mut().iter_mut().zip(hr.as_flattened()) {
            *v = m.xor(*v, *h);
        }
        for r in 0..rounds(2 * N) {
            for x in x.iter_mut() {
                add_constants(m, x, r);
            }
            for x in x.iter_mut() {
                sub_bytes(m, x);
            }
            for x in x.iter_mut() {
                shift_mix::<M, P, N>(m, x);
            }
        }
        // T⊕ ⊕ h in lane 0 and T+ in lane 1, each lane ⊕ the other.
        for (v, h) in x.as_flattened().iter().zip(hr.as_flattened_mut()) {
            let y = m.xor(*v, *h);
            *h = m.and(m.xor(y, m.lanes_between(y, y)), lane0);
        }
    }
}

/// The compression of `cols` columns over whole blocks, MixColumns by `P`.
pub(crate) struct CompressInRows<'a, P> {
    pub(crate) cols: usize,
    pub(crate) h: &'a mut State,
    pub(crate) blocks: &'a [u8],
    pub(crate) mix: PhantomData<P>,
}

impl<M: Simd + CrossLanes, P: RowMix<M>> JobOn<M> for CompressInRows<'_, P> {
    #[inline(always)]
    fn run_on(self, m: M) {
        if self.cols == COLS_512 {
            compress_sets::<M, P, 4, 1>(m, [self.h], [self.blocks])
        } else {
            compress_sets::<M, P, 8, 1>(m, [self.h], [self.blocks])
        }
    }
}

/// Two compressions of 512-bit states over as many blocks at once, in two
/// sets of 4 row registers (two 1024-bit states would take all 16 ymm
/// registers before any temporary). The caller passes blocks of equal
/// length (`digest_many`: one block each).
pub(crate) struct CompressPairInRows<'a, P> {
    pub(crate) states: [&'a mut State; 2],
    pub(crate) blocks: [&'a [u8]; 2],
    pub(crate) mix: PhantomData<P>,
}

impl<M: Simd + CrossLanes, P: RowMix<M>> JobOn<M> for CompressPairInRows<'_, P> {
    #[inline(always)]
    fn run_on(self, m: M) {
        debug_assert_eq!(self.blocks[0].len(), self.blocks[1].len(), "a pair runs as many blocks of each message");
        compress_sets::<M, P, 4, 2>(m, self.states, self.blocks)
    }
}

/// `vpshufb` controls of ShiftBytes on a packed state, one per register,
/// aligned so that no load splits a cache line.
#[repr(align(32))]
struct PackedShifts<const N: usize>([Lane; N]);

/// The 1024-bit state packed in 4 registers (lane 0 row a, lane 1 row
/// a + 4): `[a]`.
static PACKED_SHIFTS: PackedShifts<4> = {
    let mut t = [[0u8; 32]; 4];
    let mut a = 0;
    while a < 4 {
        t[a] = join_lanes(&SHIFTS_1024.0[a], &SHIFTS_1024.0[a + 4]);
        a += 1;
    }
    PackedShifts(t)
};

/// T⊕ of a 1024-bit state alone in 4 registers, no lane idle: register a
/// holds row a in lane 0 and row a + 4 in lane 1, both S-box class a. The
/// rows MixColumns takes are the 4 registers after ShiftBytes and the same
/// with their lanes swapped (`vperm2i128`): per round 1 + 140 + 4 + 4 + 72
/// ops, against 280 in the column layout's halves (`avx2.rs`).
#[inline(always)]
fn t_xor_packed_1024<M: Simd + CrossLanes, P: RowMix<M>>(m: M, x: &mut [M::V; 4]) {
    for round in 0..rounds(2 * COLS_512) {
        x[0] = m.xor(x[0], m.load(&XOR_1024.0[round]));
        sub_bytes(m, x);
        let mut v = [m.zero(); 8];
        for a in 0..4 {
            v[a] = m.shuffle8_opaque(x[a], m.load(&PACKED_SHIFTS.0[a]));
            v[a + 4] = m.lanes_between(v[a], v[a]);
        }
        mix_rows::<M, P, 4>(m, &v, x, 1);
    }
}

/// h ← T⊕(h) ⊕ h for a 1024-bit state (the output transformation), in
/// [`t_xor_packed_1024`]'s layout.
pub(crate) struct Output1024InRows<'a, P> {
    pub(crate) h: &'a mut State,
    pub(crate) mix: PhantomData<P>,
}

impl<M: Simd + CrossLanes, P: RowMix<M>> JobOn<M> for Output1024InRows<'_, P> {
    #[inline(always)]
    fn run_on(self, m: M) {
        let out = output_1024_rows::<M, P>(m, into_rows(m, &self.h[..]));
        store_rows(m, &out, &mut self.h[..]);
    }
}

/// T⊕(h) ⊕ h of a 1024-bit state in its 8 row registers, both lanes
/// alike; the result has lane 0 right (what [`store_rows`] takes).
#[inline(always)]
fn output_1024_rows<M: Simd + CrossLanes, P: RowMix<M>>(m: M, rows: [M::V; 8]) -> [M::V; 8] {
    let lane0 = m.load(&LANE0);
    let h: [M::V; 4] = core::array::from_fn(|a| m.or(m.and(rows[a], lane0), m.andnot(lane0, rows[a + 4])));
    let mut x = h;
    t_xor_packed_1024::<M, P>(m, &mut x);
    let mut out = rows;
    for a in 0..4 {
        let y = m.xor(x[a], h[a]);
        out[a] = y;
        out[a + 4] = m.lanes_between(y, y);
    }
    out
}

/// ShiftBytes of the 512-bit state packed in 2 registers (register q:
/// lane 0 rows 2q | 2q + 4, lane 1 rows 2q + 1 | 2q + 5): `[q]`.
static PACKED_SHIFTS_512: PackedShifts<2> = PackedShifts([join_lanes(&SHIFTS_512.0[0], &SHIFTS_512.0[1]), join_lanes(&SHIFTS_512.0[2], &SHIFTS_512.0[3])]);

/// Halves of lane 1 swapped, lane 0 as it is: `vpshufb` control.
static SWAP_LANE1: Lane = {
    let mut t = [0u8; 32];
    let mut b = 0;
    while b < 32 {
        t[b] = if b < 16 { b as u8 } else { (b as u8 + 8) % 16 };
        b += 1;
    }
    t
};

/// T⊕ alone of K 512-bit states in 2 registers each, no lane idle:
/// register q holds rows 2q | 2q + 4 in lane 0 and 2q + 1 | 2q + 5 in lane
/// 1, one S-box class per lane. MixColumns' inputs are
/// U_j = (j | j + 4 ; j + 1 | j + 5) after ShiftBytes: the two registers
/// (U_0, U_2), their lanes crossed (`vperm2i128`: U_1 and, with lane 1's
/// halves swapped, U_3), and all four with the halves of each lane swapped
/// (U_{j+4}); output register q is MixColumns' row 2q of the U_j. Per
/// round and state 1 + 70 + 8 + 40 = 119 ops (`avx2`), 40 of them
/// shuffles, with no transposes.
#[inline(always)]
pub(super) fn t_xor_packed_512<M: Simd + CrossLanes, P: RowMix<M>, const K: usize>(m: M, x: &mut [[M::V; 2]; K]) {
    for round in 0..rounds(COLS_512) {
        t_xor_packed_512_round::<M, P, K>(m, x, round);
    }
}

/// One round of [`t_xor_packed_512`].
#[inline(always)]
pub(super) fn t_xor_packed_512_round<M: Simd + CrossLanes, P: RowMix<M>, const K: usize>(m: M, x: &mut [[M::V; 2]; K], round: usize) {
    for x in x.iter_mut() {
        x[0] = m.xor(x[0], m.load(&XOR_512.0[round]));
    }
    for x in x.iter_mut() {
        x[0] = sbox(m, x[0], &ENC_ROWS_PACKED.0[0]);
        x[1] = sbox(m, x[1], &ENC_ROWS_PACKED.0[1]);
    }
    for x in x.iter_mut() {
        let mut u = [m.zero(); 8];
        u[0] = m.shuffle8_opaque(x[0], m.load(&PACKED_SHIFTS_512.0[0]));
        u[2] = m.shuffle8_opaque(x[1], m.load(&PACKED_SHIFTS_512.0[1]));
        u[1] = m.lanes_between(u[0], u[2]);
        u[3] = m.shuffle8(m.lanes_between(u[2], u[0]), m.load(&SWAP_LANE1));
        for j in 0..4 {
            u[j + 4] = m.shuffle32::<0x4e>(u[j]);
        }
        mix_rows::<M, P, 2>(m, &u, x, 2);
    }
}

/// h_k ← T⊕(h_k) ⊕ h_k for K 512-bit states (the output transformation),
/// in [`t_xor_packed_512`]'s layout: K = 1 for one message, 2 for a pair
/// of `digest_many`, whose steps then overlap.
pub(crate) struct Output512InRows<'a, P, const K: usize> {
    pub(crate) states: [&'a mut State; K],
    pub(crate) mix: PhantomData<P>,
}

impl<M: Simd + CrossLanes, P: RowMix<M>, const K: usize> JobOn<M> for Output512InRows<'_, P, K> {
    #[inline(always)]
    fn run_on(self, m: M) {
        let mut rows = [[m.zero(); 4]; K];
        for (rows, state) in rows.iter_mut().zip(&self.states) {
            *rows = into_rows(m, &state[..64]);
        }
        let out = output_512_rows::<M, P, K>(m, rows);
        for (state, out) in self.states.into_iter().zip(&out) {
            store_rows(m, out, &mut state[..64]);
        }
    }
}

/// T⊕(h) ⊕ h of K 512-bit states in their 4 row registers each, both
/// lanes alike; the results have lane 0 right (what [`store_rows`] takes).
#[inline(always)]
fn output_512_rows<M: Simd + CrossLanes, P: RowMix<M>, const K: usize>(m: M, rows: [[M::V; 4]; K]) -> [[M::V; 4]; K] {
    // With both lanes alike, lanes_between(a, b) is a's rows in lane 0
    // and b's in lane 1.
    // (Loops, not `array::from_fn`: its closures are compiled apart from
    // the caller's target features, the intrinsics in them as calls.)
    let mut h = [[m.zero(); 2]; K];
    for (h, rows) in h.iter_mut().zip(&rows) {
        *h = [m.lanes_between(rows[0], rows[1]), m.lanes_between(rows[2], rows[3])];
    }
    let mut x = h;
    t_xor_packed_512::<M, P, K>(m, &mut x);
    let mut out = rows;
    for ((out, x), h) in out.iter_mut().zip(&x).zip(&h) {
        let y = [m.xor(x[0], h[0]), m.xor(x[1], h[1])];
        *out = [y[0], m.lanes_between(y[0], y[0]), y[1], m.lanes_between(y[1], y[1])];
    }
    out
}

/// The compressions of whole blocks and then the output transformation,
/// h ← T⊕(h') ⊕ h' with h' the chaining value after `blocks`, in one
/// pass: the state stays in rows from the first block to the digest
/// (what `Core::finalize_into` runs on the last blocks and the padding).
/// The backends run it on 1024-bit states; a 512-bit state finishes in
/// [`super::ymm_staggered`]. The 512-bit branch stays (and is tested):
/// without it the 1024-bit one compiled to other register assignments,
/// and a 64-byte Kupyna-512 message measured 5–9% slower on Zen 5.
pub(crate) struct FinishInRows<'a, P> {
    pub(crate) cols: usize,
    pub(crate) h: &'a mut State,
    pub(crate) blocks: &'a [u8],
    pub(crate) mix: PhantomData<P>,
}

impl<M: Simd + CrossLanes, P: RowMix<M>> JobOn<M> for FinishInRows<'_, P> {
    #[inline(always)]
    fn run_on(self, m: M) {
        if self.cols == COLS_512 {
            let out = output_512_rows::<M, P, 1>(m, [compressed_rows::<M, P, 4>(m, self.h, self.blocks)])[0];
            store_rows(m, &out, &mut self.h[..64]);
        } else {
            let out = output_1024_rows::<M, P>(m, compressed_rows::<M, P, 8>(m, self.h, self.blocks));
            store_rows(m, &out, &mut self.h[..]);
        }
    }
}

/// The chaining value after `blocks` in N row registers, both lanes alike.
#[inline(always)]
fn compressed_rows<M: Simd + CrossLanes, P: RowMix<M>, const N: usize>(m: M, h: &State, blocks: &[u8]) -> [M::V; N] {
    let lane0 = m.load(&LANE0);
    let mut hr = [chaining_rows(m, h, lane0)];
    compress_rows::<M, P, N, 1>(m, &mut hr, [blocks], lane0);
    // Lane 1 is zero: ⊕ with the lanes swapped copies lane 0 into it.
    let [mut rows] = hr;
    for v in rows.iter_mut() {
        *v = m.xor(*v, m.lanes_between(*v, *v));
    }
    rows
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::hash::kupyna::job_on::On;
    use crate::hash::kupyna::reference;
    use crate::kalyna::pair_sum::{row_by_doublings, row_by_products};
    use crate::simd::emu::Emu;
    use crate::simd::{Gfni, Job};
    use crate::test_rng::Rng;

    /// MixColumns by doublings (`avx2`'s form) and by GFNI products
    /// (`avx2-gfni`'s), for the emulator tests of the ymm kernels.
    pub(in crate::hash::kupyna) struct Doublings;
    pub(in crate::hash::kupyna) struct Products;

    impl<M: Simd> RowMix<M> for Doublings {
        fn row(m: M, r: &[M::V; 8], p: &[M::V; 8], i: usize) -> M::V {
            row_by_doublings(m, r, p, i)
        }
    }

    impl<M: Simd + Gfni> RowMix<M> for Products {
        fn row(m: M, r: &[M::V; 8], p: &[M::V; 8], i: usize) -> M::V {
            row_by_products(m, r, p, i)
        }
    }

    /// Both MixColumns forms on the emulated 32-byte machine against
    /// `reference`, 0 to 3 blocks of both states. Random chaining values
    /// and messages reach every carry pattern of T+'s addition often (a
    /// byte 0x0F under 0xF0 passes a carry on); messages of all 0x0F, 0xFF
    /// and 0x00 make long and no carry chains in the first round.
    #[test]
    fn rows_on_the_emulated_ymm_machine() {
        let mut rng = Rng(0x005e_ed2a);
        for cols in [8, 16] {
            let n = 8 * cols;
            for blocks in 0..=3 {
                for fill in [None, Some(0x0f), Some(0xff), Some(0x00)] {
                    let h: State = rng.bytes(128).try_into().expect("128 bytes");
                    let msg = match fill {
                        None => rng.bytes(n * blocks),
                        Some(b) => vec![b; n * blocks],
                    };
                    let mut want = h;
                    (reference::KERNEL.compress)(cols, &mut want, &msg);
                    let (mut a, mut b) = (h, h);
                    On(Emu::<32>, CompressInRows::<Doublings> { cols, h: &mut a, blocks: &msg, mix: PhantomData }).run();
                    On(Emu::<32>, CompressInRows::<Products> { cols, h: &mut b, blocks: &msg, mix: PhantomData }).run();
                    assert_eq!(a[..n], want[..n], "doublings: {cols} columns, {blocks} blocks, fill {fill:?}");
                    assert_eq!(b[..n], want[..n], "products: {cols} columns, {blocks} blocks, fill {fill:?}");
                }
            }
        }
    }

    /// The compressions and output transformation in one pass, both
    /// state sizes, 0 to 3 blocks, on the emulated 32-byte machine with
    /// both MixColumns forms, against `reference`'s compression then its
    /// output transformation.
    #[test]
    fn finish_on_the_emulated_ymm_machine() {
        let mut rng = Rng(0x0066_696e);
        for cols in [8, 16] {
            let n = 8 * cols;
            for blocks in 0..=3 {
                let h: State = rng.bytes(128).try_into().expect("128 bytes");
                let msg = rng.bytes(n * blocks);
                let mut want = h;
                (reference::KERNEL.compress)(cols, &mut want, &msg);
                (reference::KERNEL.output)(cols, &mut want);
                let (mut a, mut b) = (h, h);
                On(Emu::<32>, FinishInRows::<Doublings> { cols, h: &mut a, blocks: &msg, mix: PhantomData }).run();
                On(Emu::<32>, FinishInRows::<Products> { cols, h: &mut b, blocks: &msg, mix: PhantomData }).run();
                assert_eq!(a[..n], want[..n], "doublings: {cols} columns, {blocks} blocks");
                assert_eq!(b[..n], want[..n], "products: {cols} columns, {blocks} blocks");
            }
        }
    }

    /// The packed output transformation of the 1024-bit state on the
    /// emulated 32-byte machine against `reference`, with both MixColumns
    /// forms.
    #[test]
    fn packed_output_on_the_emulated_ymm_machine() {
        let mut rng = Rng(0x0075_7470);
        for _ in 0..4 {
            let h: State = rng.bytes(128).try_into().expect("128 bytes");
            let mut want = h;
            (reference::KERNEL.output)(16, &mut want);
            let (mut a, mut b) = (h, h);
            On(Emu::<32>, Output1024InRows::<Doublings> { h: &mut a, mix: PhantomData }).run();
            On(Emu::<32>, Output1024InRows::<Products> { h: &mut b, mix: PhantomData }).run();
            assert_eq!(a, want, "doublings");
            assert_eq!(b, want, "products");
        }
    }

    /// The packed output transformation of the 512-bit state, one state
    /// and a pair, on the emulated 32-byte machine against `reference`
    /// with both MixColumns forms; the bytes past the 512-bit state stay
    /// as they were.
    #[test]
    fn packed_512_output_on_the_emulated_ymm_machine() {
        let mut rng = Rng(0x0035_1270);
        for _ in 0..4 {
            let (h0, h1): (State, State) = (rng.bytes(128).try_into().expect("128 bytes"), rng.bytes(128).try_into().expect("128 bytes"));
            let (mut w0, mut w1) = (h0, h1);
            (reference::KERNEL.output)(8, &mut w0);
            (reference::KERNEL.output)(8, &mut w1);
            let (mut a, mut b) = (h0, h0);
            On(Emu::<32>, Output512InRows::<Doublings, 1> { states: [&mut a], mix: PhantomData }).run();
            On(Emu::<32>, Output512InRows::<Products, 1> { states: [&mut b], mix: PhantomData }).run();
            assert_eq!(a, w0, "doublings, one state");
            assert_eq!(b, w0, "products, one state");
            let (mut a0, mut a1) = (h0, h1);
            On(Emu::<32>, Output512InRows::<Doublings, 2> { states: [&mut a0, &mut a1], mix: PhantomData }).run();
            assert_eq!((a0, a1), (w0, w1), "doublings, a pair");
            let (mut b0, mut b1) = (h0, h1);
            On(Emu::<32>, Output512InRows::<Products, 2> { states: [&mut b0, &mut b1], mix: PhantomData }).run();
            assert_eq!((b0, b1), (w0, w1), "products, a pair");
        }
    }
}
