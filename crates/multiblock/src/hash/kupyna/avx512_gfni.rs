//! `avx512-gfni`: constant-time Kupyna on AVX-512 F/BW + VBMI + GFNI, the
//! state in its natural layout: byte p of a zmm is byte p of the state
//! (column p / 8, row p mod 8; a column is one 64-bit lane). The 512-bit
//! state is one zmm, the 1024-bit state two (columns 0-7, 8-15).
//!
//! One compression runs T⊕(h ⊕ m) and T+(m) side by side (independent
//! chains); one message of two runs of `rows::ways` blocks or more (16
//! blocks of 64 bytes, 8 of 128) chains T⊕ alone through its blocks and
//! takes T+ from the row layout, computed for the next run between T⊕'s
//! rounds ([`one_message`]); `digest_many` runs up to [`LANES`] messages'
//! compressions in one round loop (2·LANES independent chains) in this
//! layout, and from [`ROWS_FROM`] 512-bit states on up to 8 at once, from
//! [`ROWS_FROM_1024`] 1024-bit states on up to 4 at once, in the row
//! layout of `rows.rs`
//! (register i = row i of the states; see there).
//!
//! A round on one register:
//! - round constants: one `vpaddq` (T+) with a constant register of the
//!   round (a memory operand); T⊕'s XOR is part of the previous round's
//!   MixColumns sum (a `vpxorq` before round 0);
//! - SubBytes: row i uses π_{i mod 4}, and p mod 4 = i mod 4 is a public
//!   class of the byte position. Each π_a is two `vpermi2b` over its
//!   128-entry halves (8 lookups), then blends by the class (6, masks of a
//!   constant register) and by bit 7 of the input (`vpmovb2m` + 1 blend);
//!   no address depends on data. On Intel the 7 selects are bitwise
//!   instead (`vpternlogq` by byte masks of 00 or FF: two constant ones
//!   for the class, and one product spreading bit 7 over its byte), since
//!   a `vpblendmb` there takes 3 core cycles from its inputs to its
//!   output and a `vpternlogq` 1: three selects in series, 4 cycles fewer
//!   on the chain of a round;
//! - ShiftBytes: one `vpermb` (512-bit state) or, per output register, one
//!   `vpermi2b` over both registers (1024-bit state: row 7 moves by 11, so
//!   columns cross registers);
//! - MixColumns: the circulant w_i = ⊕_d v_d · s_{i+d}, v = (01 01 05 01 08
//!   06 07 04), split at its middle (see [`mix`]): 4 row rotations (each
//!   64-bit column rotated by 8d bits, `vprolq`), 5 products by 4, 5, 6, 7,
//!   8 (`vgf2p8affineqb` with the 8×8 bit matrix of x ↦ c·x in
//!   GF(2^8)/0x11D: the field is not AES's, so not `vgf2p8mulb`) and 5
//!   XORs (`vpternlogq` mostly), one also adding T⊕'s constant of the next
//!   round.
//!
//! Count per register and round: constants 1 (T+; T⊕'s are inside the
//! sums), S-box 16 (8 `vpermi2b`, 6 class blends, `vpmovb2m`, 1 blend),
//! ShiftBytes 1, MixColumns 14: 31-32 instructions, of which 13 are
//! shuffles (`vpermi2b`, `vpermb`, `vprolq`), 5 GFNI, 14 logic and blends.
//! One Kupyna-256 block: 2 registers × 10 rounds ≈ 640 instructions
//! (10 per byte); Kupyna-512: 4 × 14 ≈ 1790 per 128 bytes (14 per
//! byte). On Zen 4 (`cargo run --release -p multiblock-bench --example
//! op_costs`) `vpermi2b`, `vpermb` and `vprolq` on zmm each issue one per
//! core cycle, so a round of both permutations issues at least 26 of them:
//! 26 core cycles, 260 per Kupyna-256 block, about 2.9 TSC ticks per byte
//! on the VM measured (its core runs at about 1.4× the TSC rate). What
//! binds one message is the chain of a round: timed alone (one register's
//! round repeated on its own output) it takes about 45 core cycles: the
//! S-box 19 (its 8 lookups alone 15: they issue one per cycle, then 5 of
//! latency), ShiftBytes 5, MixColumns 13. With T+ beside it one
//! message measured 62 core cycles per round (6.9 ticks per byte), and T+
//! run a block ahead in the same layout (so that only T⊕ chains the
//! blocks) the same: T+ doubles the round's shuffles. In the row layout
//! T+ takes about 3 shuffles and 3 products per block and round, and
//! [`one_message`] issues it a part at a time (a quarter of a round:
//! the constant, SubBytes of rows 0..3, of rows 4..7, MixColumns) before
//! every second round of T⊕ (every round for 1024-bit states). Measured
//! on Zen 4 (1 MiB, alternating runs of both builds, core at about 1.37×
//! the TSC): Kupyna-256 5.46-5.70 ticks per byte against 6.31-6.45 (T⊕
//! alone, T+ left out for timing, 5.35); Kupyna-512 5.94-6.63 against
//! 7.08-7.27 (best and median of 6). Kupyna-256 in other sittings: a
//! whole T+ round after every 8 rounds of T⊕ 6.11-6.32 (the same layout
//! beside T⊕ 6.34-6.69 there); each part after its round of T⊕ instead of
//! before, best 5.64-5.69 against 5.47-5.53; eight parts (the constant
//! and MixColumns each split at row 4, SubBytes two rows at a time) as
//! four. The aim of 4 ticks per byte is 35 core cycles per round, below
//! one round's latency in this layout. Four messages in lanes run 34 per
//! pair (the grouped form below). (The middle split of MixColumns, 3
//! rotations fewer than the pair-sum form's 7, gained 1.5%.)
//!
//! One 512-bit message on AMD Zen 5 (shuffles and products two per core
//! cycle, on the same two pipes; a `vpermb` 5 cycles of latency, a
//! rotation 2, a product 3, a `vpternlogq` 2): with T+ taken out of the
//! loop (a wrong digest, for timing) a block took 2% less time, so T⊕'s
//! chain binds. There ShiftBytes and MixColumns run as [`shift_mix`]:
//! each of the circulant's 8 inputs R_d(ShiftBytes(s)) is one `vpermb` of
//! the S-box output s (both moves in one index), then the 5 products and
//! the sums in two levels: from s a permutation, a product and two sums
//! (about 12 cycles) instead of a permutation, a rotation, a product, four
//! sums and a last rotation (about 17), for 8 shuffles a register instead
//! of 5, which one message's two chains have room for. Measured in
//! alternating runs (the core at about 1.4× the TSC): one 1 MiB
//! Kupyna-256 message 4.00-4.03 ticks per byte against 4.22-4.24, one
//! 64-byte message 17.9-18.7 against 19.5. The 1024-bit state's two
//! registers per permutation fill the shuffle pipes: there the same form
//! (16 `vpermi2b` per state) took 4.16 against 3.79 for 1 MiB of
//! Kupyna-512, and its output transformation 20.7 against 20.2 at 64
//! bytes, so the 1024-bit state keeps [`mix`].
//!
//! Many messages in this layout (`digest_many` of fewer than
//! [`ROWS_FROM`] 512-bit states or [`ROWS_FROM_1024`] 1024-bit ones; up to
//! [`LANES`] at once):
//! 2·LANES chains, so throughput counts, and for 512-bit states SubBytes
//! runs on the pair's class-grouped registers ([`permute_grouped`]):
//! register g holds classes 2g and 2g + 1 of T⊕'s and T+'s states, so 4
//! lookups and 2 blends per register; 2 `vpermi2b` in, 2 out (these also do ShiftBytes): per pair
//! and round 2 + 16 + 2 + 28 (MixColumns) + 1 ≈ 49 instructions instead of
//! 64, 8 lookups instead of 16. For one message the grouping is slower (two
//! more 5-cycle permutations on the chain of each round), so it is used
//! only from two messages on: on Zen 4 one 1 MiB Kupyna-256 message took
//! 8.2-8.4 ticks per byte grouped against 6.8-7.0, and on Zen 5, where
//! the lookups issue two per core cycle, 4.73-4.83 against 4.10-4.17
//! (alternating runs of both builds).
//!
//! Measured (Zen 4 VM, TSC ticks per byte, 2.596 GHz; a shared 2-core
//! machine, best of 15-300 samples, test profile = opt-level 2; the
//! `digest_many` columns from the release benchmark, best of 7 × 20):
//!
//! | | 1 MiB | 64 B one by one | 64 × 64 B `digest_many` | 64 × 1 KiB `digest_many` |
//! |---|---|---|---|---|
//! | Kupyna-256 | 6.7-6.9 | 27.7-28 | 7.6 (rows; 12.4-12.5 in lanes) | 2.73 (rows; 4.70-4.74 in lanes) |
//! | Kupyna-512 | 7.35-7.4 | 33.4 | 10.8 (rows; 22.2-23.9 in lanes) | 3.81-3.83 (rows; 8.47-9.3 in lanes) |
//! | RustCrypto `kupyna` 0.1 (256 / 512) | 25.5 / 33.5 | 67 / 100 | | |
//! | `dstu-core` 0.7 (256 / 512) | 20.1 / 27.1 | 96 / 130 | | |
//!
//! (The peers' best of their runs; their 1 MiB numbers varied 2× between
//! runs on this machine.) One Kupyna-256 block costs 546-572 ticks, the
//! output transformation 416-442, a 64-byte message ≈ 1.9-2.0k (two
//! compressions, one output, setup). For many messages the row layout
//! (`rows.rs`: ≈ 212 instructions per round for 8 messages, 4.2 per byte
//! against 8 in the lanes above; at two per core cycle about 1.5 ticks
//! per byte) measures 2.73 ticks per byte for 64 × 1 KiB, 1.72× the
//! lanes. Compressions alone (release build, 16 blocks per state):
//! the row layout takes 17.1-17.4k ticks for any 1 to 8 states (2.13 per
//! byte for 8), the lanes 15.7k for 4 states, 22.8k for 5 (a run of 4 and
//! one of 1) and 31.3k for 8 (3.82 per byte); so the rows take over from
//! [`ROWS_FROM`] = 5 states. For 1024-bit states (`rows.rs`, 4 at once in
//! 128-bit lanes) the rows take 29.8-30.8k ticks for 1 to 4 states of 16
//! blocks, the lanes 25.5k for 2 and 38.1k for 3: [`ROWS_FROM_1024`] = 3.

//! Forms by class of core (`cpu::core`, which `MULTIBLOCK_CORE` can set):
//! on Intel the bitwise selects above and, in the row layout, T+'s
//! carries rippling ([`rows::Carries`]); on AMD the blends and the
//! lookahead. On Intel Emerald Rapids, with the core at 1.89× the TSC,
//! the Intel forms against the AMD ones in alternating runs: Kupyna-256
//! one 1 MiB message 3.77-3.79 against 4.12-4.13 ticks per byte, one of
//! 64 bytes 14.4 against 15.8, 64 × 64 KiB 1.84-1.85 against 1.99;
//! Kupyna-512 4.70-4.72 against 4.96-4.98, 24.4 against 25.0, 2.45
//! against 2.73. The blends are measured on AMD Zen 4 and Zen 5; the
//! bitwise selects are not measured there.

// Index loops over the register arrays: several arrays share the index,
// and the kernel avoids closures (see `simd`).
#![allow(clippy::needless_range_loop)]

use super::constants::{add_constant, rounds, shift, xor_constant, COLS_1024, COLS_512};
use super::job_on::JobOn;
use super::rows;
use crate::cpu::Core;
use super::kernel::State;
use crate::kalyna::constants::SBOX;
use crate::kalyna::pair_sum::{M4, M5, M6, M7, M8};
use crate::kalyna::zmm_sbox::{sboxes, sub_by_class, sub_by_class_bitwise, Sboxes, CLASS, CLASS_BITS};
use crate::simd::{Avx512, Gfni, Simd, Vbmi};
#[cfg(target_arch = "x86_64")]
use {
    super::job_on::On,
    crate::cpu,
    super::{Kernel, KernelFns},
    crate::backend::{Backend, BackendInfo},
    crate::simd::{Avx512Gfni, Machine, Zmm},
};

/// Messages the natural-layout `compress_many` runs at once.
pub(crate) const LANES: usize = 4;

/// From this many 512-bit states on, `compress_many` and `output_many` run
/// them in the row layout (`rows.rs`), [`rows::WAYS`] at once.
pub(crate) const ROWS_FROM: usize = 5;

/// From this many 1024-bit states on, the same in the row layout of 1024-bit
/// states, `rows::ways(COLS_1024)` = 4 at once.
pub(crate) const ROWS_FROM_1024: usize = 3;

/// [`ROWS_FROM`] or [`ROWS_FROM_1024`].
#[cfg(target_arch = "x86_64")]
const fn rows_from(cols: usize) -> usize {
    if cols == COLS_512 {
        ROWS_FROM
    } else {
        ROWS_FROM_1024
    }
}

#[cfg(target_arch = "x86_64")]
type Z = Zmm<Avx512Gfni>;

#[cfg(target_arch = "x86_64")]
pub(crate) const BACKEND: Backend<(), Kernel> = Backend {
    info: BackendInfo { name: "avx512-gfni", constant_time: true, ways: rows::WAYS, needs: <Z as Machine>::NEEDS },
    available: <Z as Machine>::available,
    new: |_| &KernelFns { compress, output, compress_many: Some(compress_many), output_many: Some(output_many), lanes: rows::WAYS, finish: None },
};

#[cfg(target_arch = "x86_64")]
fn machine() -> Z {
    Z::detect().expect("the backend is chosen only where the CPU runs it")
}

#[cfg(target_arch = "x86_64")]
fn compress(cols: usize, h: &mut State, blocks: &[u8]) {
    let m = machine();
    m.vectorize(On(m, Compress { cols, states: core::slice::from_mut(h), blocks: &[blocks], core: cpu::core() }))
}

#[cfg(target_arch = "x86_64")]
fn compress_many(cols: usize, states: &mut [State], blocks: &[&[u8]]) {
    let m = machine();
    let ways = rows::ways(cols);
    for (s, b) in states.chunks_mut(ways).zip(blocks.chunks(ways)) {
        if s.len() >= rows_from(cols) {
            m.vectorize(On(m, rows::CompressRows { cols, states: s, blocks: b, carries: rows::Carries::for_core(cpu::core()), lookup: rows::Lookup::for_core(cpu::core()) }));
            continue;
        }
        for (s, b) in s.chunks_mut(LANES).zip(b.chunks(LANES)) {
            m.vectorize(On(m, Compress { cols, states: s, blocks: b, core: cpu::core() }))
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn output(cols: usize, h: &mut State) {
    let m = machine();
    m.vectorize(On(m, Output { cols, states: core::slice::from_mut(h), core: cpu::core() }))
}

#[cfg(target_arch = "x86_64")]
fn output_many(cols: usize, states: &mut [State]) {
    let m = machine();
    for s in states.chunks_mut(rows::ways(cols)) {
        if s.len() >= rows_from(cols) {
            m.vectorize(On(m, rows::OutputRows { cols, states: s }));
            continue;
        }
        for s in s.chunks_mut(LANES) {
            m.vectorize(On(m, Output { cols, states: s, core: cpu::core() }))
        }
    }
}

/// One register's bytes.
type Pattern = [u8; 64];

/// ShiftBytes as byte indices over the whole state (64 or 128 bytes):
/// output byte 8c + i ← byte 8((c − δ_i) mod cols) + i.
const fn shift_index(cols: usize) -> [u8; 128] {
    let mut idx = [0u8; 128];
    let mut p = 0;
    while p < 8 * cols {
        let (c, i) = (p / 8, p % 8);
        idx[p] = (8 * ((c + cols - shift(i, cols)) % cols) + i) as u8;
        p += 1;
    }
    idx
}

/// [512-bit state, 1024-bit state].
static SHIFT: [[u8; 128]; 2] = [shift_index(COLS_512), shift_index(COLS_1024)];

/// ShiftBytes of the 512-bit state followed by R_d (row i ← row i + d in
/// every column), as byte indices, for d = 0..7 (the inputs of
/// [`shift_mix`]).
static SHIFT_ROWS: [Pattern; 8] = {
    let sh = shift_index(COLS_512);
    let mut t = [[0u8; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut p = 0;
        while p < 64 {
            t[d][p] = sh[8 * (p / 8) + (p % 8 + d) % 8];
            p += 1;
        }
        d += 1;
    }
    t
};

/// T⊕'s and T+'s 512-bit states regrouped by S-box class: register g
/// holds classes 2g and 2g + 1; its byte q is state q / 32 (0: T⊕, 1: T+),
/// class 2g + (q / 16) mod 2, byte 4·(q mod 16) + class of that state.
/// `GROUP[g]` indexes (T⊕ ‖ T+) for register g.
static GROUP: [Pattern; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut g = 0;
    while g < 2 {
        let mut q = 0;
        while q < 64 {
            let (st, class, k) = (q / 32, 2 * g + (q / 16) % 2, q % 16);
            t[g][q] = (64 * st + 4 * k + class) as u8;
            q += 1;
        }
        g += 1;
    }
    t
};

/// Back from the groups with ShiftBytes: `UNGROUP[st]` indexes (group 0 ‖
/// group 1) for state st (0: T⊕, 1: T+) in its natural layout.
static UNGROUP: [Pattern; 2] = {
    let sh = shift_index(COLS_512);
    let mut t = [[0u8; 64]; 2];
    let mut st = 0;
    while st < 2 {
        let mut p = 0;
        while p < 64 {
            let src = sh[p] as usize;
            let class = src % 4;
            t[st][p] = (64 * (class / 2) + 32 * st + 16 * (class % 2) + src / 4) as u8;
            p += 1;
        }
        st += 1;
    }
    t
};

/// Bit 0 of byte q: which of its register's two classes byte q has.
static GROUP_CLASS: Pattern = {
    let mut c = [0u8; 64];
    let mut q = 0;
    while q < 64 {
        c[q] = ((q / 16) % 2) as u8;
        q += 1;
    }
    c
};

/// The round constants as registers: `[state][round]`, T⊕'s (XOR) and T+'s
/// (added per 64-bit column).
const fn constants(cols: usize, plus: bool) -> [[u8; 128]; 14] {
    let mut t = [[0u8; 128]; 14];
    let mut r = 0;
    while r < rounds(cols) {
        let mut j = 0;
        while j < cols {
            let w = if plus { add_constant(j, cols, r) } else { xor_constant(j, r) as u64 };
            let b = w.to_le_bytes();
            let mut k = 0;
            while k < 8 {
                t[r][8 * j + k] = b[k];
                k += 1;
            }
            j += 1;
        }
        r += 1;
    }
    t
}

static XOR_RC: [[[u8; 128]; 14]; 2] = [constants(COLS_512, false), constants(COLS_1024, false)];
static ADD_RC: [[[u8; 128]; 14]; 2] = [constants(COLS_512, true), constants(COLS_1024, true)];

/// What every round reads: the S-boxes (`t[a][q]` = entries 64q..64q+64 of
/// π_a), the class register, the ShiftBytes indices.
struct Consts<M: Simd> {
    t: Sboxes<M>,
    class: M::V,
    /// [`CLASS_BITS`].
    class_bits: [M::V; 2],
    shift: [M::V; 2],
    /// [`SHIFT_ROWS`] (used by the 512-bit state only).
    shift_rows: [M::V; 8],
    /// [`GROUP`], [`UNGROUP`], [`GROUP_CLASS`].
    group: [M::V; 2],
    ungroup: [M::V; 2],
    group_class: M::V,
}

// No closures below: they would not inherit the target features (see `simd`).

#[inline(always)]
fn consts<M: Simd>(m: M, r: usize) -> Consts<M> {
    let s = &SHIFT[r - 1];
    let mut shift_rows = [m.zero(); 8];
    for d in 0..8 {
        shift_rows[d] = m.load(&SHIFT_ROWS[d]);
    }
    Consts {
        t: sboxes(m, &SBOX),
        class: m.load(&CLASS),
        class_bits: [m.load(&CLASS_BITS[0]), m.load(&CLASS_BITS[1])],
        shift: [m.load(&s[..64]), m.load(&s[64..])],
        shift_rows,
        group: [m.load(&GROUP[0]), m.load(&GROUP[1])],
        ungroup: [m.load(&UNGROUP[0]), m.load(&UNGROUP[1])],
        group_class: m.load(&GROUP_CLASS),
    }
}

/// π_{2g} or π_{2g+1} on a class-grouped register `x` (by bit 0 of
/// `group_class`): 4 lookups and 2 blends instead of 8 and 6.
#[inline(always)]
fn sub_grouped<M: Vbmi + Avx512>(m: M, t: &Sboxes<M>, group_class: M::V, x: M::V, g: usize) -> M::V {
    let (a, b) = (&t[2 * g], &t[2 * g + 1]);
    let lo = m.select_bit::<0>(group_class, m.permi2b(a[0], x, a[1]), m.permi2b(b[0], x, b[1]));
    let hi = m.select_bit::<0>(group_class, m.permi2b(a[2], x, a[3]), m.permi2b(b[2], x, b[3]));
    m.select_bit::<7>(x, lo, hi)
}

/// SubBytes of a register in the natural layout (byte p through
/// π_{p mod 4}): on Intel with bitwise selects, whose chain is shorter
/// there ([`sub_by_class_bitwise`]); on AMD with blends.
#[inline(always)]
fn sub<M: Gfni + Vbmi + Avx512, const INTEL: bool>(m: M, c: &Consts<M>, x: M::V) -> M::V {
    if INTEL {
        sub_by_class_bitwise(m, &c.t, &c.class_bits, x)
    } else {
        sub_by_class(m, &c.t, c.class, x)
    }
}

/// MixColumns on every column of `z`, ⊕ `rc`. With R_j the state whose
/// row i is row i + j (each 64-bit column rotated right by 8j bits), the
/// circulant v = (01 01 05 01 08 06 07 04) splits at its middle:
/// out = A ⊕ R_4(B), A = R_0 ⊕ R_1 ⊕ 5·R_2 ⊕ R_3 and
/// B = 8·R_0 ⊕ 6·R_1 ⊕ 7·R_2 ⊕ 4·R_3 (R_4 of R_j is R_(j+4), and the
/// products are bytewise, so they commute with the rotations): 4 rotations,
/// 5 products, 5 XORs, against 7 rotations and 3 products for the
/// pair-sum form of `kalyna/pair_sum.rs` (a zmm rotation issues one
/// per core cycle on Zen 4, like a lookup; a product too).
#[inline(always)]
fn mix<M: Gfni + Avx512>(m: M, z: M::V, rc: M::V) -> M::V {
    let r1 = m.rotl64::<56>(z);
    let r2 = m.rotl64::<48>(z);
    let r3 = m.rotl64::<40>(z);
    let b = m.xor(m.xor3(m.affine(z, M8), m.affine(r1, M6), m.affine(r2, M7)), m.affine(r3, M4));
    let a = m.xor3(m.xor3(z, r1, r3), m.affine(r2, M5), rc);
    m.xor(a, m.rotl64::<32>(b))
}

/// ShiftBytes and MixColumns of the 512-bit state, ⊕ `rc`, with each of
/// the circulant's 8 inputs R_d(ShiftBytes(z)) made by one `vpermb` of z
/// ([`SHIFT_ROWS`]): the chain from z is one permutation, one product and
/// two levels of sums.
#[inline(always)]
fn shift_mix<M: Gfni + Vbmi + Avx512>(m: M, idx: &[M::V; 8], z: M::V, rc: M::V) -> M::V {
    let mut r = [z; 8];
    for d in 0..8 {
        r[d] = m.permb(z, idx[d]);
    }
    let p = m.xor3(m.affine(r[2], M5), m.affine(r[4], M8), m.affine(r[5], M6));
    let q = m.xor3(m.affine(r[6], M7), m.affine(r[7], M4), rc);
    m.xor3(m.xor3(r[0], r[1], r[3]), p, q)
}

/// Round `round`'s constant on state register `r`: T+'s (`plus`) or T⊕'s.
#[inline(always)]
fn add_round_constant<M: Simd, const R: usize>(m: M, x: M::V, plus: bool, r: usize, round: usize) -> M::V {
    if plus {
        m.add64(x, m.load(&ADD_RC[R - 1][round][64 * r..]))
    } else {
        m.xor(x, m.load(&XOR_RC[R - 1][round][64 * r..]))
    }
}

/// With PAIRS, T⊕ on the states of even index and T+ on the odd ones;
/// without, T⊕ on all. R registers per
/// state (1: 512-bit, 2: 1024-bit). T⊕'s constants of the next round are
/// summed inside MixColumns.
#[inline(always)]
fn permute<M: Gfni + Vbmi + Avx512, const R: usize, const S: usize, const PAIRS: bool, const INTEL: bool>(
    m: M,
    c: &Consts<M>,
    x: &mut [[M::V; R]; S],
) {
    let n = rounds(8 * R);
    for s in 0..S {
        for r in 0..R {
            x[s][r] = add_round_constant::<M, R>(m, x[s][r], PAIRS && s % 2 == 1, r, 0);
        }
    }
    // Grouped SubBytes for two or more messages (throughput); one message
    // is faster without it (its chain has 2 permutations more per round;
    // measured in the module comment).
    if R == 1 && PAIRS && S >= 4 {
        return permute_grouped::<M, R, S>(m, c, x, n);
    }
    for round in 0..n {
        for s in 0..S {
            for r in 0..R {
                x[s][r] = sub::<M, INTEL>(m, c, x[s][r]);
            }
        }
        let next = round + 1;
        for s in 0..S {
            let mut rc = [m.zero(); R];
            if !(PAIRS && s % 2 == 1) && next < n {
                for r in 0..R {
                    rc[r] = m.load(&XOR_RC[R - 1][next][64 * r..]);
                }
            }
            if R == 1 && S <= 2 {
                x[s][0] = shift_mix(m, &c.shift_rows, x[s][0], rc[0]);
            } else if R == 1 {
                x[s][0] = mix(m, m.permb(x[s][0], c.shift[0]), rc[0]);
            } else {
                let (a, b) = (x[s][0], x[s][1]);
                x[s][0] = mix(m, m.permi2b(a, c.shift[0], b), rc[0]);
                x[s][1] = mix(m, m.permi2b(a, c.shift[1], b), rc[R - 1]);
            }
            if PAIRS && s % 2 == 1 && next < n {
                for r in 0..R {
                    x[s][r] = add_round_constant::<M, R>(m, x[s][r], true, r, next);
                }
            }
        }
    }
}

/// The rounds of [`permute`] for pairs of 512-bit states (T⊕, T+) with
/// SubBytes on the class-grouped registers: per pair and round 2
/// `vpermi2b` into the groups, 8 lookups and 4 blends, 2 `vpermi2b` out
/// (with ShiftBytes) instead of 16 lookups, 14 blends and 2 `vpermb`.
#[inline(always)]
fn permute_grouped<M: Gfni + Vbmi + Avx512, const R: usize, const S: usize>(
    m: M,
    c: &Consts<M>,
    x: &mut [[M::V; R]; S],
    n: usize,
) {
    for round in 0..n {
        let mut g = [[m.zero(); 2]; S];
        for k in 0..S / 2 {
            let (a, b) = (x[2 * k][0], x[2 * k + 1][0]);
            g[k][0] = m.permi2b(a, c.group[0], b);
            g[k][1] = m.permi2b(a, c.group[1], b);
        }
        for k in 0..S / 2 {
            for h in 0..2 {
                g[k][h] = sub_grouped(m, &c.t, c.group_class, g[k][h], h);
            }
        }
        let next = round + 1;
        for k in 0..S / 2 {
            let (g0, g1) = (g[k][0], g[k][1]);
            let rc = if next < n { m.load(&XOR_RC[0][next][..64]) } else { m.zero() };
            x[2 * k][0] = mix(m, m.permi2b(g0, c.ungroup[0], g1), rc);
            let p = mix(m, m.permi2b(g0, c.ungroup[1], g1), m.zero());
            x[2 * k + 1][0] = if next < n { add_round_constant::<M, 1>(m, p, true, 0, next) } else { p };
        }
    }
}

/// The compressions of up to `LANES` states, each over its own blocks (the
/// same number of whole blocks for each).
pub(crate) struct Compress<'a> {
    pub(crate) cols: usize,
    pub(crate) states: &'a mut [State],
    pub(crate) blocks: &'a [&'a [u8]],
    /// The class of core whose forms run (the module comment).
    pub(crate) core: Core,
}

impl<M: Gfni + Vbmi + Avx512> JobOn<M> for Compress<'_> {
    #[inline(always)]
    fn run_on(self, m: M) {
        if self.core == Core::Intel {
            compress_on::<M, true>(m, self)
        } else {
            compress_on::<M, false>(m, self)
        }
    }
}

/// [`Compress`] in the forms of Intel's cores (INTEL) or AMD's.
#[inline(always)]
fn compress_on<M: Gfni + Vbmi + Avx512, const INTEL: bool>(m: M, job: Compress<'_>) {
    match (job.cols, job.states.len()) {
        (COLS_512, 1) => one_message::<M, 1, COLS_512, INTEL>(m, job),
        (COLS_512, 2) => lanes::<M, 1, 2, 4, INTEL>(m, job),
        (COLS_512, 3) => lanes::<M, 1, 3, 6, INTEL>(m, job),
        (COLS_512, _) => lanes::<M, 1, 4, 8, INTEL>(m, job),
        (_, 1) => one_message::<M, 2, COLS_1024, INTEL>(m, job),
        (_, 2) => lanes::<M, 2, 2, 4, INTEL>(m, job),
        (_, 3) => lanes::<M, 2, 3, 6, INTEL>(m, job),
        (_, _) => lanes::<M, 2, 4, 8, INTEL>(m, job),
    }
}

/// One message, from two runs of `rows::ways(cols)` blocks on (8 of 64
/// bytes, 4 of 128): T⊕ alone chains the blocks of a run, T+ of each taken
/// from the row layout ([`rows::PlusRun`]), whose parts for the next run
/// are issued between the rounds of T⊕ (a run is 80 rounds of T⊕ for
/// 512-bit states and 56 for 1024-bit ones; T+ is 10 or 14 rounds of
/// [`rows::PLUS_PARTS`] parts: one part every 2 or every round), each
/// before a round. The rest of the blocks run as [`lanes`], T⊕ and T+ side
/// by side. On AMD Zen 4, where the zmm lookups and products issue once
/// per core cycle, T+ beside T⊕ in the natural layout doubles the
/// shuffles of a round; see the module comment for the measurements.
#[inline(always)]
fn one_message<M: Gfni + Vbmi + Avx512, const R: usize, const COLS: usize, const INTEL: bool>(m: M, job: Compress<'_>) {
    let ways = rows::ways(COLS);
    let bb = 64 * R;
    let run_bytes = bb * ways;
    let n = rounds(COLS);
    // Rounds of T⊕ per part of T+ (2 or 1): a run is `ways` × n rounds of
    // T⊕ and n × PLUS_PARTS parts of T+.
    let stride = ways / rows::PLUS_PARTS;
    let blocks = job.blocks[0];
    let runs = blocks.len() / run_bytes;
    let whole = if runs >= 2 { runs * run_bytes } else { 0 };
    if whole > 0 {
        let c = consts(m, R);
        let mut h = [m.zero(); R];
        for r in 0..R {
            h[r] = m.load(&job.states[0][64 * r..]);
        }
        let mut first = rows::PlusRun::<M, COLS, INTEL>::new(m, &blocks[..run_bytes]);
        for round in 0..n {
            first.round(m, &c.t, round);
        }
        let mut plus = first.finish(m);
        for g in 0..runs {
            let run = &blocks[g * run_bytes..(g + 1) * run_bytes];
            let last = g + 1 == runs;
            // After the last run there is none: `next` then holds this run's
            // blocks, takes no part and its result is not used.
            let mut next = rows::PlusRun::<M, COLS, INTEL>::new(m, &blocks[(g + 1 - usize::from(last)) * run_bytes..][..run_bytes]);
            for q in 0..ways {
                let mut x = [m.zero(); R];
                for r in 0..R {
                    x[r] = add_round_constant::<M, R>(m, m.xor(h[r], m.load(&run[bb * q + 64 * r..])), false, r, 0);
                }
                for round in 0..n {
                    let k = q * n + round;
                    if !last && k.is_multiple_of(stride) {
                        next.part(m, &c.t, k / stride);
                    }
                    xor_round::<M, R, INTEL>(m, &c, &mut x, round);
                }
                for r in 0..R {
                    h[r] = m.xor3(h[r], x[r], plus[q + 4 * r]);
                }
            }
            plus = next.finish(m);
        }
        for r in 0..R {
            m.store(h[r], &mut job.states[0][64 * r..]);
        }
    }
    lanes::<M, R, 1, 2, INTEL>(m, Compress { cols: COLS, states: job.states, blocks: &[&blocks[whole..]], core: job.core });
}

/// Round `round` of T⊕ alone on one state of R registers, the next
/// round's constant summed inside MixColumns (as [`permute`] does).
#[inline(always)]
fn xor_round<M: Gfni + Vbmi + Avx512, const R: usize, const INTEL: bool>(m: M, c: &Consts<M>, x: &mut [M::V; R], round: usize) {
    let next = round + 1;
    let mut rc = [m.zero(); R];
    if next < rounds(8 * R) {
        for r in 0..R {
            rc[r] = m.load(&XOR_RC[R - 1][next][64 * r..]);
        }
    }
    for r in 0..R {
        x[r] = sub::<M, INTEL>(m, c, x[r]);
    }
    if R == 1 {
        x[0] = shift_mix(m, &c.shift_rows, x[0], rc[0]);
    } else {
        let (a, b) = (x[0], x[1]);
        x[0] = mix(m, m.permi2b(a, c.shift[0], b), rc[0]);
        x[1] = mix(m, m.permi2b(a, c.shift[1], b), rc[R - 1]);
    }
}

/// L states (S = 2L registers groups: T⊕ and T+ of each) of R registers.
#[inline(always)]
fn lanes<M: Gfni + Vbmi + Avx512, const R: usize, const L: usize, const S: usize, const INTEL: bool>(m: M, job: Compress<'_>) {
    const { assert!(S == 2 * L) };
    let c = consts(m, R);
    let bb = 64 * R;
    let n = job.blocks[0].len() / bb;
    let mut h = [[m.zero(); R]; L];
    for k in 0..L {
        for r in 0..R {
            h[k][r] = m.load(&job.states[k][64 * r..]);
        }
    }
    for b in 0..n {
        let mut x = [[m.zero(); R]; S];
        for k in 0..L {
            let blk = &job.blocks[k][b * bb..(b + 1) * bb];
            for r in 0..R {
                let v = m.load(&blk[64 * r..]);
                x[2 * k][r] = m.xor(h[k][r], v);
                x[2 * k + 1][r] = v;
            }
        }
        permute::<M, R, S, true, INTEL>(m, &c, &mut x);
        for k in 0..L {
            for r in 0..R {
                h[k][r] = m.xor3(h[k][r], x[2 * k][r], x[2 * k + 1][r]);
            }
        }
    }
    for k in 0..L {
        for r in 0..R {
            m.store(h[k][r], &mut job.states[k][64 * r..]);
        }
    }
}

/// h ← T⊕(h) ⊕ h for each of up to `LANES` states.
pub(crate) struct Output<'a> {
    pub(crate) cols: usize,
    pub(crate) states: &'a mut [State],
    /// The class of core whose forms run (the module comment).
    pub(crate) core: Core,
}

impl<M: Gfni + Vbmi + Avx512> JobOn<M> for Output<'_> {
    #[inline(always)]
    fn run_on(self, m: M) {
        if self.core == Core::Intel {
            output_on::<M, true>(m, self)
        } else {
            output_on::<M, false>(m, self)
        }
    }
}

/// [`Output`] in the forms of Intel's cores (INTEL) or AMD's.
#[inline(always)]
fn output_on<M: Gfni + Vbmi + Avx512, const INTEL: bool>(m: M, job: Output<'_>) {
    match (job.cols, job.states.len()) {
        (COLS_512, 1) => output_lanes::<M, 1, 1, INTEL>(m, job.states),
        (COLS_512, 2) => output_lanes::<M, 1, 2, INTEL>(m, job.states),
        (COLS_512, 3) => output_lanes::<M, 1, 3, INTEL>(m, job.states),
        (COLS_512, _) => output_lanes::<M, 1, 4, INTEL>(m, job.states),
        (_, 1) => output_lanes::<M, 2, 1, INTEL>(m, job.states),
        (_, 2) => output_lanes::<M, 2, 2, INTEL>(m, job.states),
        (_, 3) => output_lanes::<M, 2, 3, INTEL>(m, job.states),
        (_, _) => output_lanes::<M, 2, 4, INTEL>(m, job.states),
    }
}

#[inline(always)]
fn output_lanes<M: Gfni + Vbmi + Avx512, const R: usize, const L: usize, const INTEL: bool>(m: M, h: &mut [State]) {
    let c = consts(m, R);
    let mut x = [[m.zero(); R]; L];
    for k in 0..L {
        for r in 0..R {
            x[k][r] = m.load(&h[k][64 * r..]);
        }
    }
    permute::<M, R, L, false, INTEL>(m, &c, &mut x);
    for k in 0..L {
        for r in 0..R {
            let v = m.xor(x[k][r], m.load(&h[k][64 * r..]));
            m.store(v, &mut h[k][64 * r..]);
        }
    }
}

