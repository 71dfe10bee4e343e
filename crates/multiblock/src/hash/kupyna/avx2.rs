//! `avx2-gfni` and `avx2`: constant-time Kupyna on ymm registers (AVX2,
//! with or without GFNI), for x86 CPUs without AVX-512 (AMD Zen 3, Intel
//! client cores).
//!
//! The compressions and output transformations of these backends keep
//! the state in rows (`ymm_rows.rs`: no transposes in a round, T+'s
//! additions by a byte carry chain across the rows); this module has their
//! MixColumns forms and the column-layout permutation that `ssse3` runs.
//!
//! Column layout: T⊕ and T+ of one compression side by side, one per
//! 128-bit lane. Register i (4 for the 512-bit state, 8 for the 1024-bit
//! one) holds the 16-byte piece i of each state (bytes 16i..16i+16:
//! columns 2i and 2i+1, one per 64-bit element); lane 0 is T⊕'s, lane 1
//! T+'s. The same code runs on xmm (`ssse3.rs`) with T⊕ and T+ in two sets
//! of registers (the const parameter `K` of [`Compress`]).
//!
//! A round, per group of 4 registers (one 64-byte half of each state):
//! - round constants: a `vpaddq` (zero in lane 0) and a `vpxor` (zero in
//!   lane 1) per register: 8;
//! - into rows: Kalyna's 4-register transpose (`kalyna::nibble::to_rows`:
//!   4 `vpshufb` + 8 unpacks + 4 `vpshufb` = 16); lane L of register a is
//!   then row a ‖ row a + 4 (8 columns each) of state L, the bytes of S-box
//!   class a only;
//! - ShiftBytes: rotations of rows inside a lane, no lane crossing: for the
//!   512-bit state folded into the transpose's last `vpshufb`
//!   (`to_rows_then`; 4 shuffles fewer per round, 4% faster on Zen 3); for
//!   the 1024-bit state the two
//!   halves' row registers are first joined into whole 16-column rows
//!   (`vpunpck{l,h}qdq`, 2 per register pair, and 2 back after), each a
//!   `vpshufb` rotation;
//! - SubBytes: Kalyna's nibble S-box (`kalyna::nibble::sbox`: 16 `vpshufb`
//!   over the 16-byte rows of π_a, a 3-level `vpblendvb` tree on bits 4..6;
//!   35 ops per register), one S-box per register: no address or branch
//!   depends on data;
//! - out of rows: the inverse transpose, 16;
//! - MixColumns per register, each 64-bit element a column (row i = byte
//!   i), with R_j the column rotated by j rows (a `vpshufb`): on
//!   `avx2-gfni` v split at its middle, out = A ⊕ R_4(B) with
//!   A = R_0 ⊕ R_1 ⊕ 5·R_2 ⊕ R_3 and B = 8·R_0 ⊕ 6·R_1 ⊕ 7·R_2 ⊕ 4·R_3:
//!   4 `vpshufb`, 5 `vgf2p8affineqb` and 5 XORs (14 ops); on `avx2`, with
//!   P_0 = R_0 ⊕ R_7, out = A ⊕ 2·B ⊕ 4·C ⊕ 8·R_4 with A = P_0 ⊕ R_6(P_0)
//!   ⊕ R_2, B = R_3(P_0), C = B ⊕ R_6 ⊕ R_1 in Horner form
//!   A ⊕ 2·(B ⊕ 2·(C ⊕ 2·R_4)): 7 `vpshufb`, 8 XORs and 3 doublings in
//!   GF(2^8)/0x11D of 3 ops each (`vpaddb`, `vpblendvb` of 0x1D by bit 7,
//!   `vpxor`; 24 ops).
//!
//! Count per round and group of 4 registers (128 state bytes: the 64 of
//! T⊕ and of T+): 8 + 16 + 140 + 16 + 56 = 236 (`avx2-gfni`), 276
//! (`avx2`) for the 512-bit state; the 1024-bit state (two groups) adds a
//! ShiftBytes `vpshufb` per register and 16 unpacks per round (8 into
//! whole rows, 8 back). Per 64-byte block of Kupyna-256: 10 rounds × 236
//! ≈ 2.4k ops, 37 per byte (`avx2-gfni`); Kupyna-512: 14 rounds × 504
//! per 128-byte block, 55 per byte. The S-box is 55 % of it.
//!
//! In this layout a round has 276 ops (`avx2`), 124 of them shuffles, which
//! Zen 3 and Zen 4 run on two of their four vector pipes: 62 core cycles
//! a round for the shuffles alone. The row layout of the compressions has
//! 248 ops and 73 shuffles (`ymm_rows.rs`), and measured 10.1 ticks per
//! byte for a long Kupyna-256 message on Zen 3 against 12.0 here, and
//! 12.8 against 18.6 for Kupyna-512 (the speed tables are in
//! `docs/hash-kernels.md`). GFNI saves little in either: 5
//! products and 3 rotations fewer against 9 ops of doublings per
//! register, beside ≈ 60 shuffles.
//!
//! `digest_many` runs two messages of the 512-bit state at once
//! (`ymm_rows::CompressPairInRows`: message j in register set j, each step
//! of a round on both sets before the next): on Zen 3, 64 messages of
//! 1 KiB of Kupyna-256 took 11.2 ticks per byte in pairs against 11.9 one
//! at a time. A second message fills the gaps between a round's steps
//! (the carry chain, the start of the S-boxes), and so do their output
//! transformations (`ymm_rows::Output512InRows` on two states). Two
//! 1024-bit states do not fit the 16 ymm registers (see
//! [`compress_in_pairs`]); they run one at a time.

use core::marker::PhantomData;

use super::job_on::{JobOn, On};
use super::constants::{add_constant, rounds, shift, xor_constant, COLS_512};
use super::kernel::State;
#[cfg(target_arch = "x86_64")]
use super::kernel::{Kernel, KernelFns};
#[cfg(target_arch = "x86_64")]
use crate::backend::{Backend, BackendInfo};
use super::ymm_staggered::{CompressStaggered, FinishStaggered};
use super::ymm_rows::{CompressInRows, CompressPairInRows, FinishInRows, Output1024InRows, Output512InRows, RowMix, SHIFTS_1024};
use crate::kalyna::pair_sum::{double, row_by_doublings, row_by_products, M4, M5, M6, M7, M8};
use crate::kalyna::nibble::{from_rows, rows_out_then, sbox, to_rows, to_rows_then, Lane, ENC_ROWS};
use crate::simd::{CrossLanes, Gfni, Simd};
#[cfg(target_arch = "x86_64")]
use crate::simd::{Avx2, Avx2Gfni, Machine, Ymm};
use zeroize::Zeroize;

#[cfg(target_arch = "x86_64")]
type YG = Ymm<Avx2Gfni>;
#[cfg(target_arch = "x86_64")]
type Y = Ymm<Avx2>;

/// AVX2 + GFNI.
#[cfg(target_arch = "x86_64")]
pub(crate) const AVX2_GFNI: Backend<(), Kernel> = Backend {
    info: BackendInfo { name: "avx2-gfni", constant_time: true, ways: 2, needs: <YG as Machine>::NEEDS },
    available: <YG as Machine>::available,
    new: |_| &KernelFns { compress: compress_gfni, output: output_gfni, compress_many: Some(compress_many_gfni), output_many: Some(output_many_gfni), lanes: 2, finish: Some(finish_gfni) },
};

/// AVX2 alone.
#[cfg(target_arch = "x86_64")]
pub(crate) const AVX2: Backend<(), Kernel> = Backend {
    info: BackendInfo { name: "avx2", constant_time: true, ways: 2, needs: <Y as Machine>::NEEDS },
    available: <Y as Machine>::available,
    new: |_| &KernelFns { compress: compress_avx2, output: output_avx2, compress_many: Some(compress_many_avx2), output_many: Some(output_many_avx2), lanes: 2, finish: Some(finish_avx2) },
};

#[cfg(target_arch = "x86_64")]
fn compress_gfni(cols: usize, h: &mut State, blocks: &[u8]) {
    compress_one::<YG, ByGfni>(cols, h, blocks)
}

#[cfg(target_arch = "x86_64")]
fn output_gfni(cols: usize, h: &mut State) {
    output_one::<YG, ByGfni>(cols, h)
}

#[cfg(target_arch = "x86_64")]
fn finish_gfni(cols: usize, h: &mut State, blocks: &[u8]) {
    finish_one::<YG, ByGfni>(cols, h, blocks)
}

#[cfg(target_arch = "x86_64")]
fn compress_many_gfni(cols: usize, states: &mut [State], blocks: &[&[u8]]) {
    compress_in_pairs::<YG, ByGfni>(cols, states, blocks)
}

#[cfg(target_arch = "x86_64")]
fn output_many_gfni(cols: usize, states: &mut [State]) {
    output_in_pairs::<YG, ByGfni>(cols, states)
}

#[cfg(target_arch = "x86_64")]
fn compress_avx2(cols: usize, h: &mut State, blocks: &[u8]) {
    compress_one::<Y, ByDoubling>(cols, h, blocks)
}

#[cfg(target_arch = "x86_64")]
fn output_avx2(cols: usize, h: &mut State) {
    output_one::<Y, ByDoubling>(cols, h)
}

#[cfg(target_arch = "x86_64")]
fn finish_avx2(cols: usize, h: &mut State, blocks: &[u8]) {
    finish_one::<Y, ByDoubling>(cols, h, blocks)
}

#[cfg(target_arch = "x86_64")]
fn compress_many_avx2(cols: usize, states: &mut [State], blocks: &[&[u8]]) {
    compress_in_pairs::<Y, ByDoubling>(cols, states, blocks)
}

#[cfg(target_arch = "x86_64")]
fn output_many_avx2(cols: usize, states: &mut [State]) {
    output_in_pairs::<Y, ByDoubling>(cols, states)
}

/// `digest_many`'s compressions: 512-bit states two messages at once, one
/// per register set (a last one alone); 1024-bit states one at a time.
///
/// Two 1024-bit states fill all 16 ymm registers before any temporary (8
/// row registers each), and the spills cost more than the overlap gains:
/// in the column layout, with as many registers per state, 64 messages of
/// 1 KiB of Kupyna-512 on `avx2` took 30.7 ticks per byte in pairs against
/// 24.9 one at a time on Zen 3.
#[cfg(target_arch = "x86_64")]
fn compress_in_pairs<M: Machine + Simd + CrossLanes, P: RowMix<M>>(cols: usize, states: &mut [State], blocks: &[&[u8]]) {
    let m = M::detect().expect("the backend is chosen only where the CPU runs it");
    for (hs, bs) in states.chunks_mut(2).zip(blocks.chunks(2)) {
        match hs {
            [h0, h1] if cols == COLS_512 && bs[0].len() == bs[1].len() => {
                m.vectorize(On(m, CompressPairInRows::<P> { states: [h0, h1], blocks: [bs[0], bs[1]], mix: PhantomData }))
            }
            _ => {
                for (h, blocks) in hs.iter_mut().zip(bs) {
                    m.vectorize(On(m, CompressInRows::<P> { cols, h, blocks, mix: PhantomData }))
                }
            }
        }
    }
}

/// One message's compressions: a 512-bit state with T⊕ and T+ in
/// registers of their own (`ymm_staggered.rs`), a 1024-bit one in rows.
#[cfg(target_arch = "x86_64")]
fn compress_one<M: Machine + Simd + CrossLanes, P: RowMix<M>>(cols: usize, h: &mut State, blocks: &[u8]) {
    let m = M::detect().expect("the backend is chosen only where the CPU runs it");
    if cols == COLS_512 {
        m.vectorize(On(m, CompressStaggered::<P> { h, blocks, mix: PhantomData }))
    } else {
        m.vectorize(On(m, CompressInRows::<P> { cols, h, blocks, mix: PhantomData }))
    }
}

/// One message's last compressions and its output transformation in one
/// pass, laid out as [`compress_one`] lays out the state.
#[cfg(target_arch = "x86_64")]
fn finish_one<M: Machine + Simd + CrossLanes, P: RowMix<M>>(cols: usize, h: &mut State, blocks: &[u8]) {
    let m = M::detect().expect("the backend is chosen only where the CPU runs it");
    if cols == COLS_512 {
        m.vectorize(On(m, FinishStaggered::<P> { h, blocks, mix: PhantomData }))
    } else {
        m.vectorize(On(m, FinishInRows::<P> { cols, h, blocks, mix: PhantomData }))
    }
}

/// One output transformation: T⊕ alone in rows, every lane busy: a
/// 512-bit state in 2 ymm, a 1024-bit one in 4.
#[cfg(target_arch = "x86_64")]
fn output_one<M: Machine + Simd + CrossLanes, P: Products<M> + RowMix<M>>(cols: usize, h: &mut State) {
    let m = M::detect().expect("the backend is chosen only where the CPU runs it");
    if cols == COLS_512 {
        m.vectorize(On(m, Output512InRows::<P, 1> { states: [h], mix: PhantomData }))
    } else {
        m.vectorize(On(m, Output1024InRows::<P> { h, mix: PhantomData }))
    }
}

/// `digest_many`'s output transformations: 512-bit states two at once,
/// in two sets of 2 registers; 1024-bit ones one at a time.
#[cfg(target_arch = "x86_64")]
fn output_in_pairs<M: Machine + Simd + CrossLanes, P: Products<M> + RowMix<M>>(cols: usize, states: &mut [State]) {
    let m = M::detect().expect("the backend is chosen only where the CPU runs it");
    for hs in states.chunks_mut(2) {
        match hs {
            [h0, h1] if cols == COLS_512 => m.vectorize(On(m, Output512InRows::<P, 2> { states: [h0, h1], mix: PhantomData })),
            _ => {
                for h in hs {
                    output_one::<M, P>(cols, h)
                }
            }
        }
    }
}

/// How MixColumns multiplies by 2, 4 and 8.
pub(crate) trait Products<M: Simd> {
    /// MixColumns on each 64-bit column of `z`.
    fn mix(m: M, z: M::V) -> M::V;
}

/// `vgf2p8affineqb` by the matrices of the products.
pub(crate) struct ByGfni;

/// Doublings: `vpaddb`, and 0x1D XORed where bit 7 was set (`vpblendvb`).
pub(crate) struct ByDoubling;

/// `ROT[j]`: each 64-bit column rotated by j rows (byte i ← byte i − j mod
/// 8, a left rotation by 8j bits), in both lanes.
#[repr(align(32))]
struct Rot([Lane; 8]);

static ROT: Rot = {
    let mut t = [[0u8; 32]; 8];
    let mut j = 0;
    while j < 8 {
        let mut b = 0;
        while b < 32 {
            t[j][b] = (b / 8 * 8 + (b % 8 + 8 - j) % 8) as u8;
            b += 1;
        }
        j += 1;
    }
    Rot(t)
};

/// One `vpshufb` (kept as one: LLVM makes the 2-row rotations a
/// `vpshuflw` + `vpshufhw` pair, two shuffles where the S-box already keeps
/// the shuffle ports busy).
#[inline(always)]
fn rot<M: Simd>(m: M, z: M::V, j: usize) -> M::V {
    m.shuffle8_opaque(z, m.load(&ROT.0[j]))
}

/// (A, B, C, R_4) with MixColumns(z) = A ⊕ 2·B ⊕ 4·C ⊕ 8·R_4.
#[inline(always)]
fn mix_terms<M: Simd>(m: M, z: M::V) -> [M::V; 4] {
    let p0 = m.xor(z, rot(m, z, 7));
    let a = m.xor3(p0, rot(m, p0, 6), rot(m, z, 2));
    let b = rot(m, p0, 3);
    let c = m.xor3(b, rot(m, z, 6), rot(m, z, 1));
    [a, b, c, rot(m, z, 4)]
}

/// With products, v splits at its middle instead (R_j: rows moved up by
/// j): MixColumns(z) = A ⊕ R_4(B), A = R_0 ⊕ R_1 ⊕ 5·R_2 ⊕ R_3 and
/// B = 8·R_0 ⊕ 6·R_1 ⊕ 7·R_2 ⊕ 4·R_3: 4 `vpshufb` and 5 products instead
/// of 7 and 3, a shuffle being the scarcer of the two here.
impl<M: Gfni> Products<M> for ByGfni {
    #[inline(always)]
    fn mix(m: M, z: M::V) -> M::V {
        let (r1, r2, r3) = (rot(m, z, 7), rot(m, z, 6), rot(m, z, 5));
        let b = m.xor(m.xor3(m.affine(z, M8), m.affine(r1, M6), m.affine(r2, M7)), m.affine(r3, M4));
        m.xor3(m.xor3(z, r1, r3), m.affine(r2, M5), rot(m, b, 4))
    }
}

impl<M: Gfni> RowMix<M> for ByGfni {
    #[inline(always)]
    fn row(m: M, r: &[M::V; 8], p: &[M::V; 8], i: usize) -> M::V {
        row_by_products(m, r, p, i)
    }
}

impl<M: Simd> RowMix<M> for ByDoubling {
    #[inline(always)]
    fn row(m: M, r: &[M::V; 8], p: &[M::V; 8], i: usize) -> M::V {
        row_by_doublings(m, r, p, i)
    }
}

impl<M: Simd> Products<M> for ByDoubling {
    #[inline(always)]
    fn mix(m: M, z: M::V) -> M::V {
        let [a, b, c, r4] = mix_terms(m, z);
        let t = m.xor(c, double(m, r4));
        let t = m.xor(b, double(m, t));
        m.xor(a, double(m, t))
    }
}

/// Round constants per register, `[round][register]`.
type RoundTable = [[Lane; 8]; 14];

/// Round constants per register: lane L of register p holds those of
/// columns c + 2p and c + 2p + 1 where `lanes[L]` is `Some(c)`, zeros where
/// `None`; T+'s (added) if `plus`, else T⊕'s (XORed).
const fn round_constants(cols: usize, plus: bool, lanes: [Option<usize>; 2]) -> RoundTable {
    let mut t = [[[0u8; 32]; 8]; 14];
    let mut r = 0;
    while r < rounds(cols) {
        let mut lane = 0;
        while lane < 2 {
            if let Some(c) = lanes[lane] {
                let mut j = c;
                while j < cols {
                    let w = if plus { add_constant(j, cols, r) } else { xor_constant(j, r) as u64 };
                    let b = w.to_le_bytes();
                    let (p, at) = ((j - c) / 2, 16 * lane + 8 * ((j - c) % 2));
                    let mut k = 0;
                    while k < 8 {
                        t[r][p][at + k] = b[k];
                        k += 1;
                    }
                    j += 1;
                }
            }
            lane += 1;
        }
        r += 1;
    }
    t
}

#[repr(align(32))]
struct Aligned<T>(T);

/// T⊕'s (XOR, lane 0) and T+'s (added, lane 1) beside each other: one
/// compression, `[512-bit, 1024-bit]`.
static XOR_RC: Aligned<[RoundTable; 2]> = Aligned([round_constants(8, false, [Some(0), None]), round_constants(16, false, [Some(0), None])]);
static ADD_RC: Aligned<[RoundTable; 2]> = Aligned([round_constants(8, true, [None, Some(0)]), round_constants(16, true, [None, Some(0)])]);
/// What a permutation adds and XORs in each round.
#[derive(Clone, Copy)]
struct RoundConstants {
    /// Added mod 2^64 per 64-bit element (T+), if any.
    add: Option<&'static RoundTable>,
    xor: &'static RoundTable,
}

/// T⊕ and T+ of one compression of R groups (lane 0 and lane 1).
#[inline(always)]
fn compression_constants<const R: usize>() -> RoundConstants {
    RoundConstants { add: Some(&ADD_RC.0[R - 1]), xor: &XOR_RC.0[R - 1] }
}

/// ShiftBytes on the row registers of the 512-bit state: lane half 0 is
/// row a, half 1 row a + 4 (8 columns each); column c ← column c − δ.
#[repr(align(32))]
struct Shifts8([Lane; 4]);

static SHIFT8: Shifts8 = {
    let mut t = [[0u8; 32]; 4];
    let mut a = 0;
    while a < 4 {
        let mut b = 0;
        while b < 32 {
            let (half, c) = (b % 16 / 8, b % 8);
            let d = shift(a + 4 * half, 8);
            t[a][b] = (8 * half + (c + 8 - d) % 8) as u8;
            b += 1;
        }
        a += 1;
    }
    Shifts8(t)
};

/// Into rows and ShiftBytes in one: [`SHIFT8`] after the transpose's last
/// `vpshufb`, per row register.
#[repr(align(32))]
struct RowsShifted8([Lane; 4]);

static ROWS_SHIFTED8: RowsShifted8 = {
    let mut t = [[0u8; 32]; 4];
    let mut a = 0;
    while a < 4 {
        t[a] = rows_out_then(&SHIFT8.0[a]);
        a += 1;
    }
    RowsShifted8(t)
};

/// SubBytes on row register a of the 512-bit state. `A` is a constant so
/// that every table address is one (a loop over a kept bounds checks and
/// computed addresses in the compiled code).
#[inline(always)]
fn sub8<M: Simd, const A: usize>(m: M, y: &mut [M::V; 4]) {
    y[A] = sbox(m, y[A], &ENC_ROWS.0[A]);
}

/// SubBytes and ShiftBytes on rows a and a + 4 of the 1024-bit state: the
/// halves' row registers joined into whole rows and back.
#[inline(always)]
fn sub_shift16<M: Simd, const A: usize>(m: M, y: &[[M::V; 4]; 2], z: &mut [[M::V; 4]; 2]) {
    let u = sbox(m, m.unpack_lo::<8>(y[0][A], y[1][A]), &ENC_ROWS.0[A]);
    let v = sbox(m, m.unpack_hi::<8>(y[0][A], y[1][A]), &ENC_ROWS.0[A]);
    let u = m.shuffle8(u, m.load(&SHIFTS_1024.0[A]));
    let v = m.shuffle8(v, m.load(&SHIFTS_1024.0[A + 4]));
    z[0][A] = m.unpack_lo::<8>(u, v);
    z[1][A] = m.unpack_hi::<8>(u, v);
}

/// T⊕ (lane 0) and T+ (lane 1) of R groups of 4 registers (R = 1: the
/// 512-bit state, 2: the 1024-bit one), in `K` sets of registers: on ymm
/// each set holds T⊕ and T+ of one message in its two lanes (K = 2: two
/// messages), on xmm set 2j T⊕ and set 2j + 1 T+ (K = 1: T⊕ alone). Each
/// step runs on every set before the next, so that the sets' work
/// overlaps: a round's transposes join its 4 registers, and one set alone
/// leaves the vector pipes idle between its steps. `rc`: each round's
/// constants, as the lanes hold them.
#[allow(clippy::needless_range_loop)] // constant indices once unrolled
#[inline(always)]
fn permute<M: Simd, P: Products<M>, const R: usize, const K: usize>(m: M, x: &mut [[[M::V; 4]; R]; K], rc: RoundConstants) {
    for round in 0..rounds(8 * R) {
        let xor = &rc.xor[round];
        for k in 0..K {
            for g in 0..R {
                for p in 0..4 {
                    let (v, i) = (&mut x[k][g][p], 4 * g + p);
                    // Whether a register holds both lanes of the tables (ymm,
                    // or xmm with one set: lane 0) or one of T⊕ and T+ (xmm
                    // sets 2j and 2j + 1).
                    let whole = M::BYTES == 32 || K == 1;
                    match (whole, rc.add) {
                        (true, Some(add)) => *v = m.xor(m.add64(*v, m.load(&add[round][i])), m.load(&xor[i])),
                        (true, None) => *v = m.xor(*v, m.load(&xor[i])),
                        // An even xmm set is T⊕ alone: lane 0 of the constants.
                        (false, _) if k % 2 == 0 => *v = m.xor(*v, m.load(&xor[i])),
                        // An odd one T+ alone: lane 1.
                        (false, add) => {
                            let add = add.expect("two xmm sets are a compression: T+ adds constants");
                            *v = m.add64(*v, m.load(&add[round][i][16..]));
                        }
                    }
                }
            }
        }
        if R == 1 {
            let mut y = [[m.zero(); 4]; K];
            for k in 0..K {
                y[k] = to_rows_then(m, x[k][0], &ROWS_SHIFTED8.0);
            }
            for y in y.iter_mut() {
                sub8::<M, 0>(m, y);
                sub8::<M, 1>(m, y);
                sub8::<M, 2>(m, y);
                sub8::<M, 3>(m, y);
            }
            for k in 0..K {
                x[k][0] = from_rows(m, y[k]);
            }
        } else {
            for k in 0..K {
                let y = [to_rows(m, x[k][0]), to_rows(m, x[k][R - 1])];
                let mut z = y;
                sub_shift16::<M, 0>(m, &y, &mut z);
                sub_shift16::<M, 1>(m, &y, &mut z);
                sub_shift16::<M, 2>(m, &y, &mut z);
                sub_shift16::<M, 3>(m, &y, &mut z);
                x[k][0] = from_rows(m, z[0]);
                x[k][R - 1] = from_rows(m, z[1]);
            }
        }
        for k in 0..K {
            for g in 0..R {
                for p in 0..4 {
                    x[k][g][p] = P::mix(m, x[k][g][p]);
                }
            }
        }
    }
}

/// Where set k's bytes start in the buffer of [`load`]: each set holds
/// 4·R registers of `M::BYTES`.
const fn set_at(r: usize, bytes: usize, k: usize) -> usize {
    4 * r * bytes * k
}

/// Loads the buffer (per message, T⊕'s input then T+'s, each `64·R`
/// bytes) into the registers: piece i of each state into register i's
/// lanes (ymm), or of state k into set k (xmm, whose `load_lanes` reads
/// one lane).
#[inline(always)]
fn load<M: Simd, const R: usize, const K: usize>(m: M, buf: &[u8]) -> [[[M::V; 4]; R]; K] {
    let mut x = [[[m.zero(); 4]; R]; K];
    for k in 0..K {
        for g in 0..R {
            for p in 0..4 {
                x[k][g][p] = m.load_lanes(&buf[set_at(R, M::BYTES, k) + 64 * g + 16 * p..], 64 * R);
            }
        }
    }
    x
}

#[inline(always)]
fn store<M: Simd, const R: usize, const K: usize>(m: M, x: &[[[M::V; 4]; R]; K], buf: &mut [u8]) {
    for k in 0..K {
        for g in 0..R {
            for p in 0..4 {
                m.store_lanes(x[k][g][p], &mut buf[set_at(R, M::BYTES, k) + 64 * g + 16 * p..], 64 * R);
            }
        }
    }
}

/// The compression's input for one block: `out` ← (h ⊕ m ‖ m), the inputs
/// of T⊕ and T+ (`h` and `m` of n bytes, `out` of 2n).
#[inline(always)]
fn stage_block<M: Simd>(m: M, h: &[u8], block: &[u8], out: &mut [u8]) {
    let n = h.len();
    for k in (0..n).step_by(M::BYTES) {
        let v = m.load(&block[k..]);
        m.store(m.xor(m.load(&h[k..]), v), &mut out[k..]);
        m.store(v, &mut out[n + k..]);
    }
}

/// The feed-forward: h ← h ⊕ a (⊕ b): T⊕'s output, and in the compression
/// T+'s as well.
#[inline(always)]
fn feed_forward<M: Simd>(m: M, h: &mut [u8], a: &[u8], b: Option<&[u8]>) {
    for k in (0..h.len()).step_by(M::BYTES) {
        let v = match b {
            Some(b) => m.xor3(m.load(&h[k..]), m.load(&a[k..]), m.load(&b[k..])),
            None => m.xor(m.load(&h[k..]), m.load(&a[k..])),
        };
        m.store(v, &mut h[k..]);
    }
}

/// h ← T⊕(h ⊕ m) ⊕ T+(m) ⊕ h for each whole block m.
/// `K`: sets of registers (1 on ymm, 2 on xmm; see [`permute`]).
pub(crate) struct Compress<'a, P, const K: usize> {
    pub(crate) cols: usize,
    pub(crate) h: &'a mut State,
    pub(crate) blocks: &'a [u8],
    pub(crate) products: PhantomData<P>,
}

impl<M: Simd, P: Products<M>, const K: usize> JobOn<M> for Compress<'_, P, K> {
    #[inline(always)]
    fn run_on(self, m: M) {
        if self.cols == COLS_512 {
            compress_blocks::<M, P, 1, K>(m, self.h, self.blocks)
        } else {
            compress_blocks::<M, P, 2, K>(m, self.h, self.blocks)
        }
    }
}

#[inline(always)]
fn compress_blocks<M: Simd, P: Products<M>, const R: usize, const K: usize>(m: M, h: &mut State, blocks: &[u8]) {
    let n = 64 * R;
    let mut buf = [0u8; 256];
    for blk in blocks.chunks_exact(n) {
        stage_block(m, &h[..n], blk, &mut buf[..2 * n]);
        let mut x = load::<M, R, K>(m, &buf);
        permute::<M, P, R, K>(m, &mut x, compression_constants::<R>());
        store::<M, R, K>(m, &x, &mut buf);
        feed_forward(m, &mut h[..n], &buf[..n], Some(&buf[n..2 * n]));
    }
    // As a slice: one memset and a barrier (the array impl writes a byte at a time).
    buf[..].zeroize();
}

/// h ← T⊕(h) ⊕ h.
/// `K` as in [`Compress`].
pub(crate) struct Output<'a, P, const K: usize> {
    pub(crate) cols: usize,
    pub(crate) h: &'a mut State,
    pub(crate) products: PhantomData<P>,
}

impl<M: Simd, P: Products<M>, const K: usize> JobOn<M> for Output<'_, P, K> {
    #[inline(always)]
    fn run_on(self, m: M) {
        if self.cols == COLS_512 {
            output_state::<M, P, 1, K>(m, self.h)
        } else {
            output_state::<M, P, 2, K>(m, self.h)
        }
    }
}

#[inline(always)]
fn output_state<M: Simd, P: Products<M>, const R: usize, const K: usize>(m: M, h: &mut State) {
    let n = 64 * R;
    // (h ‖ h): on xmm with one set (`ssse3`) T⊕ reads the first copy
    // alone; a 32-byte machine permutes the second in lane 1, unused (the
    // ymm backends take `ymm_rows`' packed output transformations
    // instead).
    let mut buf = [0u8; 256];
    buf[..n].copy_from_slice(&h[..n]);
    buf[n..2 * n].copy_from_slice(&h[..n]);
    let mut x = load::<M, R, K>(m, &buf);
    permute::<M, P, R, K>(m, &mut x, RoundConstants { add: None, xor: &XOR_RC.0[R - 1] });
    store::<M, R, K>(m, &x, &mut buf);
    feed_forward(m, &mut h[..n], &buf[..n], None);
    // As a slice: one memset and a barrier (the array impl writes a byte at a time).
    buf[..].zeroize();
}
