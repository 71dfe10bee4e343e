//! `neon`: constant-time Kupyna on aarch64 Advanced SIMD (16-byte
//! registers), both state sizes. The kernel is generic over the machine
//! ([`Table256`]: NEON, and the emulator in the tests).
//!
//! Layout: a state is groups of 4 registers, one group per 64 bytes (8
//! columns; 1 group for the 512-bit state, 2 for the 1024-bit one). In the
//! natural layout register p of group g holds state bytes 64g + 16p.., two
//! columns; in the row layout (`kalyna::nibble::to_rows`, 16 operations per
//! group each way) register a holds row a then row a + 4 of the group's 8
//! columns: every byte of it goes through the same S-box π_a.
//!
//! T⊕ stays in the row layout for all its rounds (one transpose in, one
//! out): its round constant is XORed into row 0, the low half of register
//! 0. T+ adds its constants mod 2^64 to whole columns, so each of its
//! rounds goes back to the natural layout for the `ADD`s (a transpose out
//! and in per round; byte additions with carries across 8 row registers
//! would cost more). Both permutations of a compression run side by side
//! in one round loop (two independent chains); the output transformation
//! runs T⊕ alone.
//!
//! A round, per group (NEON instructions):
//! - round constants: T⊕ 1 `EOR`; T+ 4 `ADD` (64-bit) between the two
//!   transposes, 32;
//! - ShiftBytes: one `TBL` per register (the 512-bit state: rows rotate
//!   inside their halves); for the 1024-bit state, whose row 7 moves by 11
//!   columns, the two groups' halves are first joined into whole 16-column
//!   rows (`ZIP1`/`ZIP2` of 64-bit elements, 2 per register pair, 2 back
//!   after): 16 more per state and round;
//! - SubBytes: the whole table π_a in registers (`Table256`: `TBL` over its
//!   first 64 bytes, `TBX` over each next 64 with the index lowered by 64):
//!   7 per register, 28; no address or branch depends on data;
//! - MixColumns on rows ([`mix`]): the 8 row views (the 4 registers and
//!   their halves swapped, 4 `EXT`), 8 pair sums, then per register
//!   out = A ⊕ 2·(B ⊕ 2·(C ⊕ 2·D)) with doublings in GF(2^8)/0x11D of 4
//!   instructions (`ADD`, `CMLT`, `AND`, `EOR`): 4 + 8 + 4 × 19 = 88.
//!
//! Count: T⊕ 1 + 4 + 28 + 88 = 121 per group and round, T+ 4 + 32 + 4 +
//! 28 + 88 = 156. Kupyna-256 (one group each, 10 rounds): 2770 per 64-byte
//! block plus ≈ 45 per block around the permutations (the XORs of h and m,
//! T⊕'s transposes in and out, the feed-forward): ≈ 2815, 44 per byte.
//! Kupyna-384/512 (two groups each, 14 rounds, 16 + 16 joins per round):
//! 14 × (2 × 121 + 16 + 2 × 156 + 16) = 8204 plus ≈ 90: ≈ 8300 per
//! 128-byte block, 65 per byte. Beside these, each round loads the four
//! S-boxes (16 `LD1` of 4 registers, shared by the two permutations) and
//! the round's constants and shuffles. A short message adds the padding
//! block and the output transformation (T⊕ alone: 121 per group and round).
//!
//! The compiled round (release build, the 512-bit state's round loop,
//! counted in the disassembly): 291 vector instructions (the count above
//! and a few lane moves), 42 register copies, 114 loads (the S-box tables,
//! constants and spills), 32 stores (spills: the four S-boxes are 64
//! registers, more than NEON's 32), 73 scalar (addresses, loop): ≈ 550
//! instructions, ≈ 5.5k per Kupyna-256 block (≈ 86 per byte, 45 of them
//! vector arithmetic). The constant-time check under qemu counts the
//! same: ≈ 90k instructions for its Kupyna-256 case (12 compressions and
//! 6 output transformations), against ≈ 1.7M on `portable`. Not measured
//! on aarch64 hardware; under qemu-user (which says nothing of a real
//! CPU's speed) a 4 MiB message takes 0.31 of `portable`'s time for
//! Kupyna-256 and 0.38 for Kupyna-512.
//!
//! Not done: messages side by side in `digest_many` (the round already
//! has two independent chains); keeping the S-box tables of two classes
//! in registers across rounds (the spills above); T+'s additions on rows
//! with a byte carry chain instead of its two transposes per round.

// Index loops over the register arrays: several arrays share the index,
// and the kernel avoids closures (see `simd`).
#![allow(clippy::needless_range_loop)]

use super::constants::{add_constant, rounds, shift, xor_constant, COLS_512};
use super::kernel::State;
use crate::gf256::KALYNA;
use crate::kalyna::constants::SBOX;
use crate::kalyna::nibble::{from_rows, to_rows};
use crate::simd::{Job, Simd, Table256};
#[cfg(target_arch = "aarch64")]
use {
    super::{Kernel, KernelFns},
    crate::backend::{Backend, BackendInfo},
    crate::simd::{Machine, Neon},
};

#[cfg(target_arch = "aarch64")]
pub(crate) const BACKEND: Backend<(), Kernel> = Backend {
    info: BackendInfo { name: "neon", constant_time: true, ways: 1, needs: <Neon as Machine>::NEEDS },
    available: <Neon as Machine>::available,
    new: |_| &KernelFns { compress, output, compress_many: None, output_many: None, lanes: 1, finish: None },
};

#[cfg(target_arch = "aarch64")]
fn machine() -> Neon {
    Neon::detect().expect("the backend is chosen only where the CPU runs it")
}

#[cfg(target_arch = "aarch64")]
fn compress(cols: usize, h: &mut State, blocks: &[u8]) {
    let m = machine();
    m.vectorize(Compress { m, cols, h, blocks })
}

#[cfg(target_arch = "aarch64")]
fn output(cols: usize, h: &mut State) {
    let m = machine();
    m.vectorize(Output { m, cols, h })
}

/// One 16-byte register's constant.
type Reg = [u8; 16];

/// T⊕'s round constants in the row layout: `[round][group]`, register 0
/// of the group (row 0 of its 8 columns in the low half, zeros above).
#[repr(align(16))]
struct XorRows([[Reg; 2]; 14]);

const fn xor_rows(cols: usize) -> XorRows {
    let mut t = [[[0u8; 16]; 2]; 14];
    let mut r = 0;
    while r < rounds(cols) {
        let mut j = 0;
        while j < cols {
            t[r][j / 8][j % 8] = xor_constant(j, r);
            j += 1;
        }
        r += 1;
    }
    XorRows(t)
}

/// T+'s round constants in the natural layout: `[round][register]`,
/// register i = columns 2i and 2i + 1 as little-endian 64-bit words.
#[repr(align(16))]
struct AddColumns([[Reg; 8]; 14]);

const fn add_columns(cols: usize) -> AddColumns {
    let mut t = [[[0u8; 16]; 8]; 14];
    let mut r = 0;
    while r < rounds(cols) {
        let mut j = 0;
        while j < cols {
            let b = add_constant(j, cols, r).to_le_bytes();
            let mut k = 0;
            while k < 8 {
                t[r][j / 2][8 * (j % 2) + k] = b[k];
                k += 1;
            }
            j += 1;
        }
        r += 1;
    }
    AddColumns(t)
}

/// `[512-bit, 1024-bit]`.
static XOR_RC: [XorRows; 2] = [xor_rows(8), xor_rows(16)];
static ADD_RC: [AddColumns; 2] = [add_columns(8), add_columns(16)];

/// ShiftBytes on the row registers of the 512-bit state: half 0 is row a,
/// half 1 row a + 4 (8 columns each); column c ← column c − δ.
#[repr(align(16))]
struct Shifts<const N: usize>([Reg; N]);

static SHIFT8: Shifts<4> = {
    let mut t = [[0u8; 16]; 4];
    let mut a = 0;
    while a < 4 {
        let mut b = 0;
        while b < 16 {
            let (half, c) = (b / 8, b % 8);
            let d = shift(a + 4 * half, 8);
            t[a][b] = (8 * half + (c + 8 - d) % 8) as u8;
            b += 1;
        }
        a += 1;
    }
    Shifts(t)
};

/// ShiftBytes on whole 16-column rows of the 1024-bit state: `[row]`.
static SHIFT16: Shifts<8> = {
    let mut t = [[0u8; 16]; 8];
    let mut i = 0;
    while i < 8 {
        let d = shift(i, 16);
        let mut b = 0;
        while b < 16 {
            t[i][b] = ((b + 16 - d) % 16) as u8;
            b += 1;
        }
        i += 1;
    }
    Shifts(t)
};

/// ShiftBytes and SubBytes on row register `A` of each state: T⊕'s (`xr`)
/// and, with `PLUS`, T+'s (`yp`), sharing π_A's table registers. `A` is a
/// constant so that every table address is one.
#[inline(always)]
fn shift_sub<M: Table256, const R: usize, const PLUS: bool, const A: usize>(
    m: M,
    xr: &mut [[M::V; 4]; R],
    yp: &mut [[M::V; 4]; R],
) {
    if R == 1 {
        let idx = m.load(&SHIFT8.0[A]);
        xr[0][A] = m.lookup256(&SBOX[A], m.shuffle8(xr[0][A], idx));
        if PLUS {
            yp[0][A] = m.lookup256(&SBOX[A], m.shuffle8(yp[0][A], idx));
        }
    } else {
        [xr[0][A], xr[R - 1][A]] = join_sub_shift::<M, A>(m, xr[0][A], xr[R - 1][A]);
        if PLUS {
            [yp[0][A], yp[R - 1][A]] = join_sub_shift::<M, A>(m, yp[0][A], yp[R - 1][A]);
        }
    }
}

/// The 1024-bit state's row register `A` of both groups (`lo`: columns
/// 0..7, `hi`: 8..15): joined into the whole rows A and A + 4, SubBytes,
/// ShiftBytes, and split back into (`lo`, `hi`).
#[inline(always)]
fn join_sub_shift<M: Table256, const A: usize>(m: M, lo: M::V, hi: M::V) -> [M::V; 2] {
    let u = m.lookup256(&SBOX[A], m.unpack_lo::<8>(lo, hi));
    let v = m.lookup256(&SBOX[A], m.unpack_hi::<8>(lo, hi));
    let u = m.shuffle8(u, m.load(&SHIFT16.0[A]));
    let v = m.shuffle8(v, m.load(&SHIFT16.0[A + 4]));
    [m.unpack_lo::<8>(u, v), m.unpack_hi::<8>(u, v)]
}

/// Each byte times x in GF(2^8)/0x11D, without branches or lookups.
#[inline(always)]
fn double<M: Simd>(m: M, poly: M::V, x: M::V) -> M::V {
    m.xor(m.add8(x, x), m.blendv(m.zero(), poly, x))
}

/// MixColumns on a group in the row layout. Output row i is
/// Σ_d v_d · row (i + d) with v = (01 01 05 01 08 06 07 04) (the circulant
/// of DSTU 7624:2014 §5.3 that Kupyna uses). With the row views
/// W_r = [row r | row r + 4] (W_{a+4} is register a with its halves
/// swapped), register a of the output is A ⊕ 2·(B ⊕ 2·(C ⊕ 2·D)) with
/// A = W_a ⊕ W_{a+1} ⊕ W_{a+2} ⊕ W_{a+3} ⊕ W_{a+6}, B = W_{a+5} ⊕ W_{a+6},
/// C = W_{a+2} ⊕ W_{a+5} ⊕ W_{a+6} ⊕ W_{a+7}, D = W_{a+4} (indices mod 8;
/// 5 = 4 ⊕ 1, 6 = 4 ⊕ 2, 7 = 4 ⊕ 2 ⊕ 1), from the pair sums
/// P_r = W_r ⊕ W_{r+1}.
#[inline(always)]
fn mix<M: Simd>(m: M, y: [M::V; 4]) -> [M::V; 4] {
    let poly = m.splat8(KALYNA);
    let mut w = [y[0]; 8];
    for a in 0..4 {
        w[a] = y[a];
        w[a + 4] = m.shuffle32::<0x4e>(y[a]);
    }
    let mut p = w;
    for r in 0..8 {
        p[r] = m.xor(w[r], w[(r + 1) % 8]);
    }
    let mut out = y;
    for a in 0..4 {
        let big_a = m.xor3(p[a], p[(a + 2) % 8], w[(a + 6) % 8]);
        let big_b = p[(a + 5) % 8];
        let big_c = m.xor3(big_b, w[(a + 2) % 8], w[(a + 7) % 8]);
        let t = m.xor(big_c, double(m, poly, w[(a + 4) % 8]));
        let t = m.xor(big_b, double(m, poly, t));
        out[a] = m.xor(big_a, double(m, poly, t));
    }
    out
}

/// T⊕ on `xr` (row layout, R groups) and, with `PLUS`, T+ on `xp`
/// (natural layout) in the same round loop.
#[inline(always)]
fn permute<M: Table256, const R: usize, const PLUS: bool>(m: M, xr: &mut [[M::V; 4]; R], xp: &mut [[M::V; 4]; R]) {
    let s = R - 1;
    let n = rounds(8 * R);
    for (xc, ac) in XOR_RC[s].0.iter().zip(&ADD_RC[s].0).take(n) {
        let mut yp = *xp;
        if PLUS {
            for g in 0..R {
                for p in 0..4 {
                    yp[g][p] = m.add64(xp[g][p], m.load(&ac[4 * g + p]));
                }
                yp[g] = to_rows(m, yp[g]);
            }
        }
        for g in 0..R {
            xr[g][0] = m.xor(xr[g][0], m.load(&xc[g]));
        }
        shift_sub::<M, R, PLUS, 0>(m, xr, &mut yp);
        shift_sub::<M, R, PLUS, 1>(m, xr, &mut yp);
        shift_sub::<M, R, PLUS, 2>(m, xr, &mut yp);
        shift_sub::<M, R, PLUS, 3>(m, xr, &mut yp);
        for g in 0..R {
            xr[g] = mix(m, xr[g]);
            if PLUS {
                xp[g] = from_rows(m, mix(m, yp[g]));
            }
        }
    }
}

/// The state's `R` groups in the natural layout.
#[inline(always)]
fn load<M: Simd, const R: usize>(m: M, src: &[u8]) -> [[M::V; 4]; R] {
    let mut x = [[m.zero(); 4]; R];
    for g in 0..R {
        for p in 0..4 {
            x[g][p] = m.load(&src[64 * g + 16 * p..]);
        }
    }
    x
}

#[inline(always)]
fn store<M: Simd, const R: usize>(m: M, x: &[[M::V; 4]; R], dst: &mut [u8]) {
    for g in 0..R {
        for p in 0..4 {
            m.store(x[g][p], &mut dst[64 * g + 16 * p..]);
        }
    }
}

/// h ← T⊕(h ⊕ m) ⊕ T+(m) ⊕ h for each whole block m of `blocks`.
pub(crate) struct Compress<'a, M> {
    pub(crate) m: M,
    pub(crate) cols: usize,
    pub(crate) h: &'a mut State,
    pub(crate) blocks: &'a [u8],
}

impl<M: Table256> Job for Compress<'_, M> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        if self.cols == COLS_512 {
            compress_blocks::<M, 1>(self.m, self.h, self.blocks)
        } else {
            compress_blocks::<M, 2>(self.m, self.h, self.blocks)
        }
    }
}

/// The chaining value stays in registers over all the blocks.
#[inline(always)]
fn compress_blocks<M: Table256, const R: usize>(m: M, h: &mut State, blocks: &[u8]) {
    let mut hv = load::<M, R>(m, &h[..]);
    for blk in blocks.chunks_exact(64 * R) {
        let mut xp = load::<M, R>(m, blk);
        let mut xr = xp;
        for g in 0..R {
            for p in 0..4 {
                xr[g][p] = m.xor(hv[g][p], xp[g][p]);
            }
            xr[g] = to_rows(m, xr[g]);
        }
        permute::<M, R, true>(m, &mut xr, &mut xp);
        for g in 0..R {
            let t = from_rows(m, xr[g]);
            for p in 0..4 {
                hv[g][p] = m.xor3(hv[g][p], t[p], xp[g][p]);
            }
        }
    }
    store::<M, R>(m, &hv, &mut h[..]);
}

/// h ← T⊕(h) ⊕ h.
pub(crate) struct Output<'a, M> {
    pub(crate) m: M,
    pub(crate) cols: usize,
    pub(crate) h: &'a mut State,
}

impl<M: Table256> Job for Output<'_, M> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        if self.cols == COLS_512 {
            output_state::<M, 1>(self.m, self.h)
        } else {
            output_state::<M, 2>(self.m, self.h)
        }
    }
}

#[inline(always)]
fn output_state<M: Table256, const R: usize>(m: M, h: &mut State) {
    let hv = load::<M, R>(m, &h[..]);
    let mut xr = hv;
    for g in 0..R {
        xr[g] = to_rows(m, xr[g]);
    }
    // T+ is not run: its registers are unused.
    let mut none = hv;
    permute::<M, R, false>(m, &mut xr, &mut none);
    for g in 0..R {
        let t = from_rows(m, xr[g]);
        for p in 0..4 {
            xr[g][p] = m.xor(hv[g][p], t[p]);
        }
    }
    store::<M, R>(m, &xr, &mut h[..]);
}
