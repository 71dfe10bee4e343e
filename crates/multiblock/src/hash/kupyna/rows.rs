//! Many Kupyna compressions at once in the row-sliced layout of Kalyna's
//! wide kernel: register i holds row i of several states. For up to
//! [`WAYS`] = 8 messages with 512-bit states (Kupyna-256), state q is in
//! 64-bit lane q (byte 8q + c = row i, column c); for up to 4 with
//! 1024-bit states (Kupyna-384/512, 16 columns), state q is in 128-bit lane
//! q (byte 16q + c). T⊕ of the messages is 8 registers, T+ of the same
//! another 8. The code is one, generic over the columns (`COLS`).
//!
//! A round on the 8 row registers of one permutation:
//! - SubBytes: row i uses π_{i mod 4}, one class per register: two
//!   `vpermi2b` over the halves of the table and a blend on bit 7 (3), or
//!   on Intel, for 512-bit states, four `vpermb` over its quarters
//!   ([`Lookup`]: 6 instructions, 7 µops against 8 there);
//! - ShiftBytes: row i moves right by δ_i columns inside every lane
//!   (δ_i = i, but δ_7 = 11 for 16 columns): one `vprolq` by 8i bits for
//!   64-bit lanes, one `vpshufb` with a constant index for 128-bit lanes
//!   (rows 1..7: 7 per permutation);
//! - MixColumns: no data movement, Kalyna's row-sliced pair-sum form
//!   (`kalyna/pair_sum.rs`): out_i = A ⊕ 2·B ⊕ 4·C ⊕ 8·R_{i+4} with
//!   P_j = R_j ⊕ R_{j+1}, A = P_i ⊕ P_{i+2} ⊕ R_{i+6}, B = P_{i+5},
//!   C = P_{i+5} ⊕ R_{i+2} ⊕ R_{i+7}: 8 instructions per register;
//! - T⊕'s constant ((c ≪ 4) ⊕ ν on row 0, column c) is one register,
//!   summed into the previous round's MixColumns of row 0 (an XOR before
//!   round 0);
//! - T+'s constant 0x00F0F0F0F0F0F0F3 ⊕ ((((cols − 1 − c) ≪ 4) ⊕ ν) ≪ 56),
//!   added mod 2^64 per column, is a byte addition with carries across the
//!   8 row registers. Rows 0..6 of the constant are F3, F0, .., F0 for
//!   both state sizes (checked at compile time). A ripple (the carry out
//!   as a `vpcmpub` mask, the next row's addition merge-masked under it)
//!   is a chain of 7 compare-and-add steps, 79 core cycles a round on AMD
//!   Zen 5, longer than all the rest of the round. So there the carries
//!   are found by lookahead ([`add_plus`]): each row's sums y + a and y + a + 1
//!   and its generate and propagate flags (bit 7 of a `vpternlogq` and of
//!   a `vpandn`) are independent of the other rows, and the chain is one
//!   `vpternlogq` per row (c ← g ∨ (p ∧ c)), then a select per row: row 0
//!   2 instructions, rows 1..6 7 each (two `vpaddb`, two flags, the chain
//!   step, `vpmovb2m` and `vpblendmb`), row 7 4: 48. Intel's cores take
//!   longer over a round's µops than over the ripple, so they run the
//!   ripple's 22 instructions ([`add_plus_ripple`], [`Carries`]).
//!
//! Count per round (8 messages of 512 bits or 4 of 1024): T⊕ 8·3 + 7 + 8·8
//! = 95, T+ 95 + 48 = 143: 238 (212 with the ripple), against 8 · 33 =
//! 264 for T+ alone in the natural layout beside T⊕ in rows, or 95 + 72
//! for T+ leaving the rows every round (two 8×8 transposes, 32 shuffles
//! each, and 8 `vpaddq`): the carries in rows are the cheapest, and none
//! of their instructions is a shuffle. Of a round's 238, 32 are
//! `vpermi2b` and 14 `vprolq` or `vpshufb`.
//!
//! 512-bit states, per 64-byte block of each of the 8 messages: 10 rounds
//! = 2380, the block into rows (8 `vpermb`, 24 `vpermt2q`,
//! `kalyna/zmm_transpose.rs`) and h ⊕ m, h ⊕ T⊕ ⊕ T+ (16): 2428
//! instructions per 512 bytes, 4.7 per byte, against 8 per byte for the
//! class-grouped pairs of `avx512_gfni.rs` (51 per pair and round).
//!
//! 1024-bit states, per 128-byte block of each of the 4 messages: 14
//! rounds = 3332, the block into rows (per state one `vpermi2b` over its
//! two 64-byte halves for rows 0..3, one for rows 4..7, row 4h + k in
//! 128-bit lane k; then two 4×4 transposes of 128-bit lanes, 8 `vpermt2q`
//! each: 8 + 16) and the 16 XORs: 3372 instructions per 512 bytes, 6.6 per
//! byte, against about 14 per byte in the natural layout of
//! `avx512_gfni.rs` (4 registers of 31-32 per round and message).
//!
//! The chaining values stay in rows from the first block to the last; only
//! the message blocks are transposed. `digest_many` gives one call all the
//! whole blocks its group of messages has in common: on AMD Zen 5, 64
//! messages of 1 KiB measure 1.24-1.28 ticks per byte for Kupyna-256 and
//! 1.78-1.84 for Kupyna-512, against 1.40-1.45 and 1.89-1.96 with a call
//! per block. Fewer messages than lanes run with
//! zero states in the free lanes (the count is public; the caller picks
//! this kernel from a minimum count on).
//!
//! Measured (AMD Zen 4 VM, TSC 2.596 GHz, ticks per byte; release
//! benchmark, `digest_many` of 64 messages, best of 7 × 20; 512-bit states
//! from an earlier run): Kupyna-256 2.76 for 1 KiB messages (4.70-4.74 in
//! the lanes of `avx512_gfni.rs`); Kupyna-384 and -512 3.81-3.83 for 1 KiB
//! (8.47 in the lanes, same build otherwise) and 10.8 for 64 B (22.2; two
//! blocks and the output transformation each). The 1024-bit compressions
//! alone (test profile, 16 blocks per state): 29.8-30.8k ticks for any 1
//! to 4 states (3.66 per byte for 4), the lanes 14.2k for 1 state, 25.5k
//! for 2, 38.1k for 3 and 49.5k for 4; so the rows take over from 3
//! (`avx512_gfni::ROWS_FROM_1024`).

// Index loops over the row arrays: several arrays share the index, and the
// kernel avoids closures (see `simd`).
#![allow(clippy::needless_range_loop)]

use super::constants::{add_constant, rounds, shift, xor_constant, COLS_1024, COLS_512};
use super::job_on::JobOn;
use super::kernel::State;
use crate::kalyna::constants::SBOX;
use crate::kalyna::pair_sum::{mix, RowAddend};
use crate::kalyna::zmm_sbox::{sboxes, sub, sub_quarters, Sboxes};
use crate::kalyna::zmm_transpose::{exchange_lanes, from_rows, lane_exchanges, to_rows};
use crate::cpu::Core;
use crate::simd::{Avx512, Gfni, Simd, Vbmi};

/// Messages one run holds for states of `cols` columns: one lane of
/// 8·`cols` bits each (8 of 512 bits, 4 of 1024).
pub(crate) const fn ways(cols: usize) -> usize {
    64 / cols
}

/// Messages with 512-bit states one run holds: one 64-bit lane of a zmm
/// each.
pub(crate) const WAYS: usize = ways(COLS_512);

/// How T+'s additions find their carries across the 8 row registers; both
/// are constant-time, and which one runs depends on the class of core only
/// ([`Carries::for_core`]; `MULTIBLOCK_CORE` can set the class).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Carries {
    /// [`add_plus`]: 48 instructions a round, the chain one `vpternlogq` a
    /// row. On AMD Zen 5 the ripple's chain of 7 compares and masked
    /// additions takes 79 core cycles a round, longer than the rest of
    /// the round: there this form measures 1.43-1.45 ticks per byte for 64
    /// messages of 1 KiB of Kupyna-256 against 1.64-1.65.
    Lookahead,
    /// [`add_plus_ripple`]: 22 instructions a round. Intel's cores issue
    /// the round's 512-bit µops on two ports, in 186-198 core cycles with
    /// the lookahead (`op_costs`), so the chain is hidden and the 26
    /// instructions fewer count:
    /// on Intel Emerald Rapids, in six alternating pairs of runs, 64
    /// messages of 64 KiB of Kupyna-256 measure 7-19% faster (1.85-2.06
    /// ticks per byte against 1.99-2.21), one 1 MiB message 1-8%.
    Ripple,
}

impl Carries {
    /// The faster form on a class of core: the ripple on Intel, the
    /// lookahead elsewhere (measured on AMD Zen 5; Zen 4 runs the
    /// lookahead unmeasured against the ripple).
    pub(crate) fn for_core(core: Core) -> Self {
        match core {
            Core::Intel => Carries::Ripple,
            Core::AmdHalfZmm | Core::AmdFullZmm => Carries::Lookahead,
        }
    }
}

/// How SubBytes looks π_a up in rows of 512-bit states; both are
/// constant-time, and which one runs depends on the class of core only
/// ([`Lookup::for_core`]). Rows of 1024-bit states always take the halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// Two `vpermi2b` over the halves, bit 7 selects ([`sub`]): on AMD's
    /// cores a `vpermi2b` is one µop.
    Halves,
    /// Four `vpermb` over the quarters, bit 6 and bit 7 select
    /// ([`sub_quarters`]): on Intel a zmm `vpermi2b` is three µops, two
    /// of them on the shuffle port, and a `vpermb` one, so a lookup is 7
    /// µops against 8. On Intel Emerald Rapids, 64 messages of Kupyna-256
    /// measured 1.68-1.73 ticks per byte at 64 KiB against 1.89-1.95 and
    /// 1.99 at 1 KiB against 2.10-2.17 (three alternating runs); 1024-bit
    /// states, whose ShiftBytes is a `vpshufb` on the shuffle port too,
    /// 2.71-2.78 against 2.50-2.52, so they keep the halves.
    Quarters,
}

impl Lookup {
    /// The faster form on a class of core: the quarters on Intel, the
    /// halves on AMD's cores.
    pub(crate) fn for_core(core: Core) -> Self {
        match core {
            Core::Intel => Lookup::Quarters,
            Core::AmdHalfZmm | Core::AmdFullZmm => Lookup::Halves,
        }
    }
}

/// SubBytes of row register `x` with π_a, as `QUARTERS` says ([`Lookup`]).
#[inline(always)]
fn sub_row<M: Vbmi + Avx512, const QUARTERS: bool>(m: M, t: &Sboxes<M>, x: M::V, a: usize) -> M::V {
    if QUARTERS {
        sub_quarters(m, t, x, a)
    } else {
        sub(m, t, x, a)
    }
}

/// ShiftBytes of row i of 16 columns: byte b of each 128-bit lane ←
/// byte (b − δ_i) mod 16 (`vpshufb` indices).
static SHIFT_1024: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut i = 0;
    while i < 8 {
        let mut p = 0;
        while p < 64 {
            t[i][p] = ((p + 16 - shift(i, COLS_1024)) % 16) as u8;
            p += 1;
        }
        i += 1;
    }
    t
};

/// ShiftBytes of row i: every column c ← column c − δ_i, a rotation of
/// each 64-bit lane left by 8i bits (512-bit states) or of each 128-bit
/// lane by δ_i bytes (1024-bit: one `vpshufb`).
#[inline(always)]
fn shift_row<M: Simd, const COLS: usize>(m: M, x: M::V, i: usize) -> M::V {
    if COLS == COLS_1024 {
        return if i == 0 { x } else { m.shuffle8(x, m.load(&SHIFT_1024[i])) };
    }
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

/// T⊕'s constant of round ν on row 0 of 8 columns: byte c = (c ≪ 4) ⊕ ν
/// (ePrint 2015/885 §3; `constants::xor_constant`).
const fn xor_row0(round: usize) -> u64 {
    0x7060_5040_3020_1000 ^ (round as u64 * ONES)
}

/// Row 7 of T+'s constant of round ν, 8 columns: byte c = ((7 − c) ≪ 4) ⊕
/// ν, the top byte of `constants::add_constant(c, 8, ν)`; rows 1..6 are
/// F0, row 0 F3.
const fn plus_row7(round: usize) -> u64 {
    0x0010_2030_4050_6070 ^ (round as u64 * ONES)
}

/// For 16 columns, `[round][c]`: with `ROW0`, T⊕'s constant on row 0
/// ((c ≪ 4) ⊕ ν); else row 7 of T+'s (((15 − c) ≪ 4) ⊕ ν), plus `carry`
/// (bytewise: no byte is FF).
const fn rows_1024(row0: bool, carry: u8) -> [[u8; 16]; 14] {
    let mut t = [[0u8; 16]; 14];
    let mut r = 0;
    while r < rounds(COLS_1024) {
        let mut c = 0;
        while c < COLS_1024 {
            let b = if row0 { xor_constant(c, r) } else { (add_constant(c, COLS_1024, r) >> 56) as u8 };
            assert!(b != 0xff);
            t[r][c] = b + carry;
            c += 1;
        }
        r += 1;
    }
    t
}

static XOR_ROW0_1024: [[u8; 16]; 14] = rows_1024(true, 0);
static PLUS_ROW7_1024: [[u8; 16]; 14] = rows_1024(false, 0);
static PLUS_ROW7_CARRY_1024: [[u8; 16]; 14] = rows_1024(false, 1);

// The bytes of T+'s constant as `add_plus` splits them: rows 0..6 are F3,
// F0, .., F0 in every column of both state sizes (so never zero); row 7
// and T⊕'s row 0 as above.
const _: () = {
    let mut cols = COLS_512;
    while cols <= COLS_1024 {
        let mut r = 0;
        while r < rounds(cols) {
            let mut c = 0;
            while c < cols {
                let w = add_constant(c, cols, r);
                assert!(w & 0xff == 0xf3);
                let mut i = 1;
                while i < 7 {
                    assert!((w >> (8 * i)) as u8 == 0xf0);
                    i += 1;
                }
                if cols == COLS_512 {
                    assert!((w >> 56) as u8 == (plus_row7(r) >> (8 * c)) as u8);
                    assert!((xor_row0(r) >> (8 * c)) as u8 == xor_constant(c, r));
                }
                c += 1;
            }
            r += 1;
        }
        cols += COLS_1024 - COLS_512;
    }
};

/// T⊕'s round constant `round` on row 0, as a register.
#[inline(always)]
fn xor_row0_reg<M: Simd, const COLS: usize>(m: M, round: usize) -> M::V {
    if COLS == COLS_512 {
        m.splat64(xor_row0(round))
    } else {
        m.splat128(&XOR_ROW0_1024[round])
    }
}

/// Row 7 of T+'s round constant `round`, and it plus one in every byte.
#[inline(always)]
fn plus_row7_regs<M: Simd, const COLS: usize>(m: M, round: usize) -> (M::V, M::V) {
    if COLS == COLS_512 {
        let k = plus_row7(round);
        (m.splat64(k), m.splat64(k + ONES))
    } else {
        (m.splat128(&PLUS_ROW7_1024[round]), m.splat128(&PLUS_ROW7_CARRY_1024[round]))
    }
}

/// T+'s constant of round `round` added to each 64-bit column of the rows:
/// byte additions whose carries are found by lookahead, so that the chain
/// from row 0 to row 7 is one `vpternlogq` per row. Row i adds a (F3 on
/// row 0, F0 on rows 1..6) into s_i and a + 1 into s1_i; bit 7 of each
/// byte carries the flags: g_i (the byte generates a carry, the majority
/// of y, a and ¬s_i) and p_i (it passes one on: s_i = FF, so s1_i wraps
/// to 0 and s_i ∧ ¬s1_i has bit 7 set). The carry into row i + 1 is
/// g_i ∨ (p_i ∧ c_i), and row i is s1_i where c_i is set, else s_i. Row 7
/// has no carry out; its a and a + 1 differ per column (no byte is FF).
/// A ripple through `vpcmpub` masks instead measures 79 core cycles per
/// round on AMD Zen 5, this chain about 25.
#[inline(always)]
fn add_plus<M: Avx512, const COLS: usize>(m: M, y: &mut [M::V; 8], round: usize) {
    // vpternlogq immediates: bit (a·4 + b·2 + c) of the result's truth table.
    const CARRY_OUT: i32 = 0xD4; // maj(a, b, ¬c): y + a overflowed, c = the sum
    const CARRY_ON: i32 = 0xF8; // a ∨ (b ∧ c)
    let (f0, f1, f3) = (m.splat8(0xf0), m.splat8(0xf1), m.splat8(0xf3));
    let s = m.add8(y[0], f3);
    let mut carry = m.ternlog::<CARRY_OUT>(y[0], f3, s);
    y[0] = s;
    for i in 1..7 {
        let (s, s1) = (m.add8(y[i], f0), m.add8(y[i], f1));
        let generate = m.ternlog::<CARRY_OUT>(y[i], f0, s);
        let propagate = m.andnot(s1, s);
        y[i] = m.select_bit::<7>(carry, s, s1);
        carry = m.ternlog::<CARRY_ON>(generate, propagate, carry);
    }
    let (k, k1) = plus_row7_regs::<M, COLS>(m, round);
    y[7] = m.select_bit::<7>(carry, m.add8(y[7], k), m.add8(y[7], k1));
}

/// T+'s constant of round `round` added with carries rippling from row
/// to row: with a carry c ∈ {0, 1} the addend a + c of rows 0..6 is in
/// 1..255 (a is F3 or F0), so the carry out of y + a + c is (sum < y):
/// per row one `vpaddb`, one `vpaddb` of a + 1 merge-masked under the
/// incoming carry and one `vpcmpub`; row 0 has no carry in, row 7 no
/// carry out: 2 + 6·3 + 2 = 22 instructions against [`add_plus`]'s 48,
/// on a chain of 7 compares and masked additions.
#[inline(always)]
fn add_plus_ripple<M: Avx512, const COLS: usize>(m: M, y: &mut [M::V; 8], round: usize) {
    let (f0, f1) = (m.splat8(0xf0), m.splat8(0xf1));
    let s = m.add8(y[0], m.splat8(0xf3));
    let mut carry = m.lt8u(s, y[0]);
    y[0] = s;
    for i in 1..7 {
        let s = m.add8_masked(m.add8(y[i], f0), carry, y[i], f1);
        carry = m.lt8u(s, y[i]);
        y[i] = s;
    }
    let (k, k1) = plus_row7_regs::<M, COLS>(m, round);
    y[7] = m.add8_masked(m.add8(y[7], k), carry, y[7], k1);
}

/// The rounds of T⊕ on `x` and, with PLUS, of T+ on `y` (side by side).
#[inline(always)]
fn permute<M: Gfni + Vbmi + Avx512, const COLS: usize, const PLUS: bool, const RIPPLE: bool, const QUARTERS: bool>(
    m: M,
    t: &Sboxes<M>,
    x: &mut [M::V; 8],
    y: &mut [M::V; 8],
) {
    let n = rounds(COLS);
    x[0] = m.xor(x[0], xor_row0_reg::<M, COLS>(m, 0));
    for round in 0..n {
        if PLUS {
            if RIPPLE {
                add_plus_ripple::<M, COLS>(m, y, round);
            } else {
                add_plus::<M, COLS>(m, y, round);
            }
        }
        for i in 0..8 {
            x[i] = shift_row::<M, COLS>(m, sub_row::<M, QUARTERS>(m, t, x[i], i % 4), i);
            if PLUS {
                y[i] = shift_row::<M, COLS>(m, sub_row::<M, QUARTERS>(m, t, y[i], i % 4), i);
            }
        }
        let rc = if round + 1 < n { xor_row0_reg::<M, COLS>(m, round + 1) } else { m.zero() };
        *x = mix(m, x, Row0(rc));
        if PLUS {
            *y = mix(m, y, Row0(m.zero()));
        }
    }
}

/// Parts of a round of [`PlusRun`] ([`PlusRun::part`]).
pub(crate) const PLUS_PARTS: usize = 4;

/// T+ of `ways(COLS)` consecutive blocks of one message (8 of 64 bytes or
/// 4 of 128), block q in lane q of the rows, a part of a round at a time:
/// one message's compressions in the natural layout (`avx512_gfni.rs`)
/// run these parts for the next blocks between the rounds of T⊕, so that
/// T⊕ chains the blocks alone while T+ fills the pipes its chain leaves
/// idle. Per 512-bit block and round T+ costs here 143 / 8 instructions,
/// about 5 of them shuffles or products, against 31 and 21 in the natural
/// layout; per 1024-bit block 143 / 4, about 11, against 62 and 42.
pub(crate) struct PlusRun<M: Simd, const COLS: usize, const RIPPLE: bool> {
    y: [M::V; 8],
}

impl<M: Gfni + Vbmi + Avx512, const COLS: usize, const RIPPLE: bool> PlusRun<M, COLS, RIPPLE> {
    /// The blocks (`ways(COLS)` × 8·COLS bytes) into rows.
    #[inline(always)]
    pub(crate) fn new(m: M, blocks: &[u8]) -> Self {
        let bb = 8 * COLS;
        let mut src: [&[u8]; WAYS] = [&[]; WAYS];
        for q in 0..ways(COLS) {
            src[q] = &blocks[bb * q..bb * (q + 1)];
        }
        PlusRun { y: load_rows::<M, &[u8], COLS>(m, &src[..ways(COLS)]) }
    }

    /// Round `round` of T+ on every block.
    #[inline(always)]
    pub(crate) fn round(&mut self, m: M, t: &Sboxes<M>, round: usize) {
        for part in 0..PLUS_PARTS {
            self.part(m, t, PLUS_PARTS * round + part);
        }
    }

    /// Part `k` mod [`PLUS_PARTS`] of round `k` / [`PLUS_PARTS`], so that
    /// a caller can spread a round thinly: the constant, SubBytes and
    /// ShiftBytes of rows 0..3, of rows 4..7, and MixColumns.
    #[inline(always)]
    pub(crate) fn part(&mut self, m: M, t: &Sboxes<M>, k: usize) {
        let y = &mut self.y;
        match k % PLUS_PARTS {
            0 if RIPPLE => add_plus_ripple::<M, COLS>(m, y, k / PLUS_PARTS),
            0 => add_plus::<M, COLS>(m, y, k / PLUS_PARTS),
            1 => {
                for i in 0..4 {
                    y[i] = shift_row::<M, COLS>(m, sub(m, t, y[i], i % 4), i);
                }
            }
            2 => {
                for i in 4..8 {
                    y[i] = shift_row::<M, COLS>(m, sub(m, t, y[i], i % 4), i);
                }
            }
            _ => *y = mix(m, y, Row0(m.zero())),
        }
    }

    /// After all rounds, T+ of block q in the natural layout ([`natural`]).
    #[inline(always)]
    pub(crate) fn finish(self, m: M) -> [M::V; 8] {
        natural::<M, COLS>(m, self.y)
    }
}

/// 1024-bit states into rows, step 1: `SPLIT_1024[h]` indexes a state's
/// two halves (columns 0..7 ‖ 8..15) for its rows 4h..4h + 3, row 4h + k
/// in 128-bit lane k (byte 16k + c ← state byte 8c + 4h + k).
static SPLIT_1024: [[u8; 64]; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut h = 0;
    while h < 2 {
        let mut p = 0;
        while p < 64 {
            let (k, c) = (p / 16, p % 16);
            t[h][p] = (8 * c + 4 * h + k) as u8;
            p += 1;
        }
        h += 1;
    }
    t
};

/// The inverse of [`SPLIT_1024`]: `JOIN_1024[h]` indexes (rows 0..3 ‖
/// rows 4..7) of a state for its columns 8h..8h + 7.
static JOIN_1024: [[u8; 64]; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut h = 0;
    while h < 2 {
        let mut p = 0;
        while p < 64 {
            let (c, i) = (p / 8 + 8 * h, p % 8);
            t[h][p] = (64 * (i / 4) + 16 * (i % 4) + c) as u8;
            p += 1;
        }
        h += 1;
    }
    t
};

/// `vpermt2q` indices of the 4×4 transpose of 128-bit lanes.
static LANE128_TRANSPOSE: [[[u8; 64]; 2]; 2] = lane_exchanges::<2>(2);

/// Registers 0..3 and 4..7 each transposed as 4×4 matrices of 128-bit
/// lanes: lane q of register r ↔ lane r of register q (8 `vpermt2q` each).
/// Its own inverse.
#[inline(always)]
fn transpose_lanes128<M: Avx512>(m: M, x: &mut [M::V; 8]) {
    exchange_lanes(m, x, &LANE128_TRANSPOSE)
}

/// The first 8·COLS bytes of each of `src` (at most `ways(COLS)`) in rows,
/// zero in the free lanes. 512-bit states: `kalyna::zmm_transpose`;
/// 1024-bit: per state two `vpermi2b` ([`SPLIT_1024`]: rows 0..3 and
/// 4..7), then [`transpose_lanes128`].
#[inline(always)]
fn load_rows<M: Vbmi + Avx512, T: AsRef<[u8]>, const COLS: usize>(m: M, src: &[T]) -> [M::V; 8] {
    let mut x = [m.zero(); 8];
    if COLS == COLS_512 {
        for (v, s) in x.iter_mut().zip(src) {
            *v = m.load(s.as_ref());
        }
        return to_rows(m, x);
    }
    let (lo, hi) = (m.load(&SPLIT_1024[0]), m.load(&SPLIT_1024[1]));
    for (q, s) in src.iter().enumerate() {
        let s = s.as_ref();
        let (a, b) = (m.load(s), m.load(&s[64..]));
        x[q] = m.permi2b(a, lo, b);
        x[4 + q] = m.permi2b(a, hi, b);
    }
    transpose_lanes128(m, &mut x);
    x
}

/// The inverse of [`load_rows`]: rows `x` out to the first 8·COLS bytes of
/// each of `dst`.
#[inline(always)]
fn store_rows<M: Vbmi + Avx512, const COLS: usize>(m: M, x: [M::V; 8], dst: &mut [State]) {
    let x = natural::<M, COLS>(m, x);
    for (q, d) in dst.iter_mut().enumerate() {
        m.store(x[q], &mut d[..64]);
        if COLS == COLS_1024 {
            m.store(x[4 + q], &mut d[64..]);
        }
    }
}

/// Rows `x` in the natural layout: state q in register q (512-bit states),
/// or its columns 0..7 in register q and 8..15 in register 4 + q
/// (1024-bit: [`transpose_lanes128`], then per state two `vpermi2b` by
/// [`JOIN_1024`]).
#[inline(always)]
fn natural<M: Vbmi + Avx512, const COLS: usize>(m: M, mut x: [M::V; 8]) -> [M::V; 8] {
    if COLS == COLS_512 {
        return from_rows(m, x);
    }
    transpose_lanes128(m, &mut x);
    let (lo, hi) = (m.load(&JOIN_1024[0]), m.load(&JOIN_1024[1]));
    let mut out = x;
    for q in 0..4 {
        out[q] = m.permi2b(x[q], lo, x[4 + q]);
        out[4 + q] = m.permi2b(x[q], hi, x[4 + q]);
    }
    out
}

/// The compressions of up to `ways(cols)` states of `cols` columns, each
/// over its own blocks (the same number of whole blocks for each).
pub(crate) struct CompressRows<'a> {
    pub(crate) cols: usize,
    pub(crate) states: &'a mut [State],
    pub(crate) blocks: &'a [&'a [u8]],
    pub(crate) carries: Carries,
    /// Ignored for 1024-bit states (always [`Lookup::Halves`]).
    pub(crate) lookup: Lookup,
}

impl<M: Gfni + Vbmi + Avx512> JobOn<M> for CompressRows<'_> {
    #[inline(always)]
    fn run_on(self, m: M) {
        match (self.cols, self.carries, self.lookup) {
            (COLS_512, Carries::Lookahead, Lookup::Halves) => compress::<M, COLS_512, false, false>(m, self),
            (COLS_512, Carries::Lookahead, Lookup::Quarters) => compress::<M, COLS_512, false, true>(m, self),
            (COLS_512, Carries::Ripple, Lookup::Halves) => compress::<M, COLS_512, true, false>(m, self),
            (COLS_512, Carries::Ripple, Lookup::Quarters) => compress::<M, COLS_512, true, true>(m, self),
            (_, Carries::Lookahead, _) => compress::<M, COLS_1024, false, false>(m, self),
            (_, Carries::Ripple, _) => compress::<M, COLS_1024, true, false>(m, self),
        }
    }
}

/// Blocks ahead whose lines [`compress`] asks for while it loads a block:
/// up to 8 messages are as many streams, which the hardware prefetchers
/// do not always keep ahead of, and the next block's loads come a whole
/// compression later in program order, past the out-of-order window. On
/// AMD Zen 5, 64 messages of 64 KiB of Kupyna-256: the loads held 10% of
/// the samples without it, 4% two blocks ahead and none four ahead (1.16
/// ticks per byte against 1.19).
const AHEAD: usize = 4;

#[inline(always)]
fn compress<M: Gfni + Vbmi + Avx512, const COLS: usize, const RIPPLE: bool, const QUARTERS: bool>(m: M, job: CompressRows<'_>) {
    let k = job.states.len();
    assert!(k <= ways(COLS) && job.blocks.len() == k, "up to 64 / cols states, one block run each");
    let t = sboxes(m, &SBOX);
    let bb = 8 * COLS;
    let mut h = load_rows::<M, State, COLS>(m, job.states);
    let n = job.blocks[0].len() / bb;
    let mut src: [&[u8]; WAYS] = [&[]; WAYS];
    for b in 0..n {
        for q in 0..k {
            src[q] = &job.blocks[q][bb * b..bb * b + bb];
            if b + AHEAD < n {
                m.prefetch(&job.blocks[q][bb * (b + AHEAD)..bb * (b + AHEAD + 1)]);
            }
        }
        let mut y = load_rows::<M, &[u8], COLS>(m, &src[..k]);
        let mut x = y;
        for i in 0..8 {
            x[i] = m.xor(h[i], y[i]);
        }
        permute::<M, COLS, true, RIPPLE, QUARTERS>(m, &t, &mut x, &mut y);
        for i in 0..8 {
            h[i] = m.xor3(h[i], x[i], y[i]);
        }
    }
    store_rows::<M, COLS>(m, h, job.states);
}

/// h ← T⊕(h) ⊕ h for up to `ways(cols)` states of `cols` columns.
pub(crate) struct OutputRows<'a> {
    pub(crate) cols: usize,
    pub(crate) states: &'a mut [State],
}

impl<M: Gfni + Vbmi + Avx512> JobOn<M> for OutputRows<'_> {
    #[inline(always)]
    fn run_on(self, m: M) {
        if self.cols == COLS_512 {
            output::<M, COLS_512>(m, self.states)
        } else {
            output::<M, COLS_1024>(m, self.states)
        }
    }
}

#[inline(always)]
fn output<M: Gfni + Vbmi + Avx512, const COLS: usize>(m: M, states: &mut [State]) {
    let k = states.len();
    assert!(k <= ways(COLS), "up to 64 / cols states");
    let t = sboxes(m, &SBOX);
    let h = load_rows::<M, State, COLS>(m, states);
    let mut x = h;
    let mut unused = h;
    permute::<M, COLS, false, false, false>(m, &t, &mut x, &mut unused);
    for i in 0..8 {
        x[i] = m.xor(x[i], h[i]);
    }
    store_rows::<M, COLS>(m, x, states);
}
