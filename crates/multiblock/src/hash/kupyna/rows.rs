//! Many Kupyna-256 compressions at once in the row-sliced layout of
//! Kalyna's wide kernel: for up to [`WAYS`] = 8 messages with 512-bit
//! states, register i holds row i of the 8 states, state q in 64-bit lane q
//! (byte 8q + c = row i, column c). T⊕ of the 8 messages is 8 registers,
//! T+ of the same 8 another 8.
//!
//! A round on the 8 row registers of one permutation:
//! - SubBytes: row i uses π_{i mod 4}, one class per register: two
//!   `vpermi2b` over the halves of the table and a blend on bit 7 (3);
//! - ShiftBytes: row i moves right by i columns inside every 64-bit lane,
//!   one `vprolq` by 8i bits (rows 1..7: 7 per permutation);
//! - MixColumns: no data movement, Kalyna's row-sliced pair-sum form
//!   (`kalyna/pair_sum.rs`): out_i = A ⊕ 2·B ⊕ 4·C ⊕ 8·R_{i+4} with
//!   P_j = R_j ⊕ R_{j+1}, A = P_i ⊕ P_{i+2} ⊕ R_{i+6}, B = P_{i+5},
//!   C = P_{i+5} ⊕ R_{i+2} ⊕ R_{i+7}: 8 instructions per register;
//! - T⊕'s constant ((c ≪ 4) ⊕ ν on row 0, column c) is one register,
//!   summed into the previous round's MixColumns of row 0 (an XOR before
//!   round 0);
//! - T+'s constant 0x00F0F0F0F0F0F0F3 ⊕ (((7 − c) ≪ 4 ⊕ ν) ≪ 56), added
//!   mod 2^64 per column, is a byte addition with carries across the 8 row
//!   registers. Every byte of rows 0..6 of the constant is non-zero (F3,
//!   F0), so with a carry c ∈ {0, 1} the addend a + c is in 1..255 and the
//!   carry out of r + a + c is (sum < r): per row one `vpaddb`, one
//!   merge-masked `vpaddb` of a + 1 under the incoming carry mask and one
//!   `vpcmpub`; row 0 has no carry in, row 7 no carry out: 2 + 6·3 + 2 = 22.
//!
//! Count per round for 8 messages: T⊕ 8·3 + 7 + 8·8 = 95, T+ 95 + 22 =
//! 117: 212, against 8 · 33 = 264 for T+ alone in the natural layout beside
//! T⊕ in rows, or 95 + 72 for T+ leaving the rows every round (two 8×8
//! transposes, 32 shuffles each, and 8 `vpaddq`): the carry chain is the
//! cheapest, and none of its instructions is a shuffle. Per 64-byte block
//! of each of the 8 messages: 10 rounds = 2120, the block into rows (8
//! `vpermb`, 24 `vpermt2q`) and h ⊕ m, h ⊕ T⊕ ⊕ T+ (16): 2168 instructions
//! per 512 bytes, 4.2 per byte, against 8 per byte for the class-grouped
//! pairs of `avx512_gfni.rs` (51 per pair and round). Of a round's 212, 32
//! are `vpermi2b` and 14 `vprolq`. The chaining values stay in rows from
//! the first block to the last; only the message blocks are transposed.
//!
//! Fewer than 8 messages run with zero states in the free lanes (the count
//! is public; the caller picks this kernel from a minimum count on).

// Index loops over the row arrays: several arrays share the index, and the
// kernel avoids closures (see `simd`).
#![allow(clippy::needless_range_loop)]

use super::constants::{rounds, COLS_512};
use super::State;
use super::job_on::JobOn;
use crate::kalyna::constants::SBOX;
use crate::kalyna::pair_sum::{mix, RowAddend};
use crate::kalyna::zmm_sbox::{sboxes, sub, Sboxes};
use crate::kalyna::zmm_transpose::{from_rows, to_rows};
use crate::simd::{Avx512, Gfni, Simd, Vbmi};

/// Messages one run holds: one 64-bit lane of a zmm each.
pub(crate) const WAYS: usize = 8;

/// ShiftBytes of row i: every column c ← column c − i, a rotation of each
/// 64-bit lane left by 8i bits.
#[inline(always)]
fn shift_row<M: Simd>(m: M, x: M::V, i: usize) -> M::V {
    match i {
        0 => x,
        1 => m.rotl64::<8>(x),
        2 => m.rotl64::<16>(x),
        3 => m.rotl64::<24>(x),
        4 => m.rotl64::<32>(x),
        5 => m.rotl64::<40>(x),
        6 => m.rotl64::<48>(x),
        _ => m.rotl64::<56>(x),
    }
}

/// MixColumns' addend (`kalyna/pair_sum.rs`): a register on row 0 (T⊕'s
/// round constant, or zero).
#[derive(Clone, Copy)]
struct Row0<V>(V);

impl<M: Simd> RowAddend<M> for Row0<M::V> {
    #[inline(always)]
    fn sum(self, m: M, i: usize, s: M::V, d: M::V) -> M::V {
        if i == 0 {
            m.xor3(s, d, self.0)
        } else {
            m.xor(s, d)
        }
    }
}

/// Bytes c = 0..7 of a word, each 0x01 (to spread a round number).
const ONES: u64 = 0x0101_0101_0101_0101;

/// T⊕'s constant of round ν on row 0: byte c = (c ≪ 4) ⊕ ν (ePrint
/// 2015/885 §3; `constants::xor_constant`).
const fn xor_row0(round: usize) -> u64 {
    0x7060_5040_3020_1000 ^ (round as u64 * ONES)
}

/// Row 7 of T+'s constant of round ν: byte c = ((7 − c) ≪ 4) ⊕ ν, the top
/// byte of `constants::add_constant(c, 8, ν)`; rows 1..6 are F0, row 0 F3.
const fn plus_row7(round: usize) -> u64 {
    0x0010_2030_4050_6070 ^ (round as u64 * ONES)
}

// The bytes of T+'s constant as `add_plus` splits them.
const _: () = {
    let mut r = 0;
    while r < 10 {
        let mut c = 0;
        while c < 8 {
            let w = super::constants::add_constant(c, COLS_512, r);
            assert!(w & 0xff == 0xf3 && (w >> 56) as u8 == (plus_row7(r) >> (8 * c)) as u8);
            let mut i = 1;
            while i < 7 {
                assert!((w >> (8 * i)) as u8 == 0xf0);
                i += 1;
            }
            assert!((xor_row0(r) >> (8 * c)) as u8 == super::constants::xor_constant(c, r));
            c += 1;
        }
        r += 1;
    }
};

/// T+'s constant of round `round` added to each 64-bit column of the rows:
/// byte additions with the carry (a mask) from row i to row i + 1. Rows
/// 0..6 add a non-zero byte a (F3 or F0) and a + carry ≤ F1, so the carry
/// out is exactly (sum < row).
#[inline(always)]
fn add_plus<M: Avx512>(m: M, y: &mut [M::V; 8], round: usize) {
    let (f0, f1) = (m.splat8(0xf0), m.splat8(0xf1));
    let s = m.add8(y[0], m.splat8(0xf3));
    let mut carry = m.lt8u(s, y[0]);
    y[0] = s;
    for i in 1..7 {
        let s = m.add8_masked(m.add8(y[i], f0), carry, y[i], f1);
        carry = m.lt8u(s, y[i]);
        y[i] = s;
    }
    let k = plus_row7(round);
    y[7] = m.add8_masked(m.add8(y[7], m.splat64(k)), carry, y[7], m.splat64(k + ONES));
}

/// The rounds of T⊕ on `x` and, with PLUS, of T+ on `y` (side by side).
#[inline(always)]
fn permute<M: Gfni + Vbmi + Avx512, const PLUS: bool>(m: M, t: &Sboxes<M>, x: &mut [M::V; 8], y: &mut [M::V; 8]) {
    let n = rounds(COLS_512);
    x[0] = m.xor(x[0], m.splat64(xor_row0(0)));
    for round in 0..n {
        if PLUS {
            add_plus(m, y, round);
        }
        for i in 0..8 {
            x[i] = shift_row(m, sub(m, t, x[i], i % 4), i);
            if PLUS {
                y[i] = shift_row(m, sub(m, t, y[i], i % 4), i);
            }
        }
        let rc = if round + 1 < n { m.splat64(xor_row0(round + 1)) } else { m.zero() };
        *x = mix(m, x, Row0(rc));
        if PLUS {
            *y = mix(m, y, Row0(m.zero()));
        }
    }
}

/// Loads the first 64 bytes of each of `src` (at most 8) as registers,
/// zero in the free ones.
#[inline(always)]
fn load_natural<M: Simd>(m: M, src: &[&[u8]]) -> [M::V; 8] {
    let mut x = [m.zero(); 8];
    for (v, s) in x.iter_mut().zip(src) {
        *v = m.load(s);
    }
    x
}

/// The compressions of up to 8 512-bit states, each over its own blocks
/// (the same number of whole 64-byte blocks for each).
pub(crate) struct CompressRows<'a> {
    pub(crate) states: &'a mut [State],
    pub(crate) blocks: &'a [&'a [u8]],
}

impl<M: Gfni + Vbmi + Avx512> JobOn<M> for CompressRows<'_> {
    #[inline(always)]
    fn run_on(self, m: M) {
        let k = self.states.len();
        assert!(k <= WAYS && self.blocks.len() == k, "up to 8 states, one block run each");
        let t = sboxes(m, &SBOX);
        let mut h = [m.zero(); 8];
        for q in 0..k {
            h[q] = m.load(&self.states[q][..64]);
        }
        let mut h = to_rows(m, h);
        let n = self.blocks[0].len() / 64;
        let mut src: [&[u8]; WAYS] = [&[]; WAYS];
        for b in 0..n {
            for q in 0..k {
                src[q] = &self.blocks[q][64 * b..64 * b + 64];
            }
            let mut y = to_rows(m, load_natural(m, &src[..k]));
            let mut x = y;
            for i in 0..8 {
                x[i] = m.xor(h[i], y[i]);
            }
            permute::<M, true>(m, &t, &mut x, &mut y);
            for i in 0..8 {
                h[i] = m.xor3(h[i], x[i], y[i]);
            }
        }
        let h = from_rows(m, h);
        for q in 0..k {
            m.store(h[q], &mut self.states[q][..64]);
        }
    }
}

/// h ← T⊕(h) ⊕ h for up to 8 512-bit states.
pub(crate) struct OutputRows<'a> {
    pub(crate) states: &'a mut [State],
}

impl<M: Gfni + Vbmi + Avx512> JobOn<M> for OutputRows<'_> {
    #[inline(always)]
    fn run_on(self, m: M) {
        let k = self.states.len();
        assert!(k <= WAYS, "up to 8 states");
        let t = sboxes(m, &SBOX);
        let mut h = [m.zero(); 8];
        for q in 0..k {
            h[q] = m.load(&self.states[q][..64]);
        }
        let h = to_rows(m, h);
        let mut x = h;
        let mut unused = h;
        permute::<M, false>(m, &t, &mut x, &mut unused);
        for i in 0..8 {
            x[i] = m.xor(x[i], h[i]);
        }
        let x = from_rows(m, x);
        for q in 0..k {
            m.store(x[q], &mut self.states[q][..64]);
        }
    }
}
