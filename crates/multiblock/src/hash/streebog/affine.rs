//! One Streebog state in one 64-byte register: π by `vpermi2b`, P for free,
//! L by `vgf2p8affineqb` with one 8×8 matrix per 64-bit word.
//!
//! Layout: the state is held transposed, byte 8j + k = byte j of word k
//! (τ applied; τ is an involution, so loading and storing are one `vpermb`
//! each). Then S of the held register is, read in the standard layout,
//! P·S of the state: P costs nothing.
//!
//! L (per word k, output byte j = ⊕_c M_(j,c)·(byte c of word k), M_(j,c)
//! the 8×8 blocks of l): after S the register holds, in standard layout,
//! B = P·S(X), and byte c of word k of B is byte 8k + c of the register.
//! `vgf2p8affineqb` applies one matrix to the 8 bytes of a 64-bit lane, so
//! a lane must hold one byte position c of all 8 words, and lane j of a
//! product with M_(j,c) is the part of output byte j of all 8 words from
//! position c: the sum over c is the output, again transposed. Which c
//! lane j reads in each of the 8 inputs is free as long as every c comes
//! once; the order taken makes four of the inputs cheap. Input (t, 0),
//! t = 0..3, reads in lane j the position whose lane is lane j's moved by
//! t 128-bit quarters (one `vpermb`, which also transposes); input (t, 1)
//! is input (t, 0) with the two 64-bit lanes of every quarter swapped (a
//! `vpshufd`, which AMD Zen 5 runs on other pipes than the `vpermb` and
//! the products, four per cycle). The 8 (t, s) move a lane to every lane
//! once, so every c comes once. [`Spread`] names the three ways to make
//! the (t, 1) inputs' part: a `vpshufd` of each input, a `vpermb` of
//! each, or the products of the (t, 0) inputs with the matrices of the
//! other lane of their quarter, summed, then one `vpshufd`.
//!
//! Count per LPS (zmm µops), with `vpshufd` inputs: S 4 (2 `vpermi2b`, a
//! `vgf2p8affineqb` that spreads bit 7 over its byte, a `vpternlogq`
//! select); spreading 4 `vpermb` and 4 `vpshufd`; 8 `vgf2p8affineqb`; sums
//! 4 `vpternlogq` (the round key's XOR folded in): 24, of them 6 byte
//! permutations and 9 affine products. Per block: 25 S (K1 = LPS(h ⊕ N),
//! 12 keys, 12 state) and 24 L (the last key's L and the state's last are
//! one, see [`g_one`]) ≈ 590, + 12 XORs of C_i, 3 `vpermb` in and out (h is
//! kept transposed between blocks), 4 XORs: ≈ 610 µops per 64 bytes ≈ 9.5
//! per byte, 217 of them affine products.
//!
//! What bounds it (instruction costs in core cycles from `cargo run
//! --release -p multiblock-bench --example op_costs`):
//!
//! Zen 4 (a zmm `vgf2p8affineqb` 3 cycles of latency and one per cycle,
//! `vpermb` and `vpermi2b` 5 and one per cycle; the core at about 1.4×
//! the TSC rate of the 2.6 GHz VM measured; timed with 4 `vpermb` spreads
//! and a lane move of the summed half in place of the `vpshufd` inputs):
//! - Latency. One LPS is a chain: the lookup (5), the select, a spreading
//!   `vpermb` (5), 8 products issued one per cycle, the sums, the lane move
//!   (5): timed alone, the compiled LPS repeated on its own output takes 35
//!   core cycles. A block is two such chains side by side (the keys and the
//!   state), 13 LPS deep; the compiled round loop of one message runs 43.6
//!   core cycles per round, about 6.2 ticks per byte, and one long message
//!   measures 6.66 (the rest is the per-block N, Σ and transposes).
//! - Issue. With two messages interleaved (four chains) the same round
//!   loop runs 16.3-16.7 core cycles per LPS, about 4.6 ticks per byte: the
//!   rate of this instruction mix.
//! - Products. 200 per block at one per core cycle: 200 core cycles, about
//!   2.2 ticks per byte, for any layout and any number of messages.
//!
//! Zen 5 (the core at 1.61× the TSC rate of the 2.6 GHz VM; `vpermb`,
//! `vpermi2b`, `vpshufb`, `valignq`, `vshufi64x2` and `vgf2p8affineqb` two
//! per cycle, but any two of them together also only two per cycle: they
//! share two pipes; `vpshufd`, the unpacks and `vpternlogq` four per
//! cycle, on other pipes too). The chain of one LPS: lookup 5, select 2,
//! spread 5, the products issued two per cycle over 4 cycles (the `vpshufd`
//! inputs are ready by the time the last products issue), 3 latency, two
//! levels of sums: about 22 core cycles. The two chains of a block (keys
//! and state) each put 15 µops per LPS on the two shared pipes, and they
//! run in step (both LPS of round i wait for K_i), so their products
//! compete in the same cycles. With 8 `vpermb` spreads (19 shared µops per
//! LPS) two LPS side by side took 30-31 core cycles against 24-26 for one
//! alone, and one long message measured 3.8-3.9 ticks per byte; with the
//! `vpshufd` inputs it measures 3.4-3.6, about 28 core cycles per round.
//! Issued with the key chain one LPS ahead (see [`g_one`]), the keys win
//! the shared pipes when both chains are ready, and since they do not wait
//! for the state they can run ahead of it: 2-3% faster. Spreading bit 7
//! for S's select by a shift, an AND and a subtraction on the other
//! pipes, one shared µop fewer, measures the same: the rest is the chain.
//!
//! So one message is bound by the key chain, 13 LPS per block. [`g_one`]
//! takes from it what is not an LPS: C_i is added in the sums of the LPS
//! before (not as an XOR in front of the next), h ⊕ N of the next block
//! comes out of the last sums, and the last round's two LPS share one L.
//! With the core at 1.38-1.44× the TSC, one 1 MiB message then measured
//! 3.61-3.76 ticks per byte against 3.86-3.92 (alternating runs); with
//! the state's LPS taken out of the loop (a wrong digest, for timing)
//! 3.55 against 3.61: the state's chain, which has slack (held back by up
//! to 10 core cycles per block it costs nothing), now adds 2%, and the key
//! chain alone runs about 25 core cycles per LPS against the 22 counted.
//! 3.5 ticks per byte needs a round every 24 core cycles on Zen 4, less
//! than one LPS's 35 there, and every 27.7 on Zen 5 at 1.61× (every 23.8
//! at 1.38×). Many messages run in the lanes of `rows.rs` instead.
//!
//! N, the bit count, advances in a register across the blocks of one call
//! (see `Blocks::run`): through memory, each block's key chain would wait
//! for the stores of the previous addition, and the blocks would not
//! overlap (4.1-4.3 ticks per byte on Zen 5 against 4.0-4.1 measured).

use super::constants::{l_block, C, PI, TAU};
use super::rows::{Machine64, Rows, RowsBlocks, WAYS};
#[cfg(doc)]
use super::rows::PiLookup;
use crate::kalyna::zmm_sbox::select_by_bit7;
use super::compress::{add, add_small, blocks_many_by_g_many, Block, Compress, State, ZERO_N};
use crate::simd::{Job, Simd};


/// The 64-bit lane whose position lane j reads in input (t, 0): lane j
/// moved by t 128-bit quarters, its place in the quarter kept.
const fn quarter_moved(t: usize, j: usize) -> usize {
    2 * ((j / 2 + t) % 4) + j % 2
}

/// Input (t, s) at index 2t + s: lane j, byte k ← byte 8k + c (position c
/// of word k of B), c = quarter_moved(t, j ⊕ s).
const SPREAD: [[u8; 64]; 8] = {
    let mut table = [[0u8; 64]; 8];
    let mut i = 0;
    while i < 8 {
        let (t, s) = (i / 2, i % 2);
        let mut p = 0;
        while p < 64 {
            let (j, k) = (p / 8, p % 8);
            table[i][p] = (8 * k + quarter_moved(t, j ^ s)) as u8;
            p += 1;
        }
        i += 1;
    }
    table
};

/// `vpshufd` control swapping the two 64-bit lanes of every quarter.
const SWAP_PAIRS: i32 = 0x4E;

/// 64 bytes (little-endian words) whose lane j is M_(j ⊕ d, c(j)).
const fn lane_matrices(c: [usize; 8], d: usize) -> [u8; 64] {
    let mut m = [0u8; 64];
    let mut j = 0;
    while j < 8 {
        let q = l_block(j ^ d, c[j]).to_le_bytes();
        let mut i = 0;
        while i < 8 {
            m[8 * j + i] = q[i];
            i += 1;
        }
        j += 1;
    }
    m
}

/// The positions lane j reads in input (t, s), for j = 0..7.
const fn positions(t: usize, s: usize) -> [usize; 8] {
    let mut c = [0; 8];
    let mut j = 0;
    while j < 8 {
        c[j] = quarter_moved(t, j ^ s);
        j += 1;
    }
    c
}

/// Matrices of input (t, s) at index 2t + s: lane j holds M_(j, c), c the
/// position lane j reads there, so the product lands in place.
const MATRICES: [[u8; 64]; 8] = {
    let mut m = [[0u8; 64]; 8];
    let mut i = 0;
    while i < 8 {
        m[i] = lane_matrices(positions(i / 2, i % 2), 0);
        i += 1;
    }
    m
};

/// Matrices of input (t, 0) for the output position of the other lane of
/// its quarter, M_(j ⊕ 1, c): the sum of these four products, its lanes
/// swapped, is the part of the (t, 1) inputs ([`Spread::MOVED`]).
const SWAPPED_OUT: [[u8; 64]; 4] = {
    let mut m = [[0u8; 64]; 4];
    let mut t = 0;
    while t < 4 {
        m[t] = lane_matrices(positions(t, 0), 1);
        t += 1;
    }
    m
};

/// How an LPS makes L's 8 inputs from S's output (a `u8` const parameter:
/// the kernels are compiled once per form).
pub(crate) struct Spread;

impl Spread {
    /// 4 `vpermb`, and the other 4 inputs by a `vpshufd` of each: on AMD
    /// Zen 5 the `vpshufd` runs on pipes the products do not use.
    pub(crate) const SWAPPED: u8 = 0;
    /// 8 `vpermb`: where a `vpshufd` takes the same port as a `vpermb`
    /// (Intel) it would only lengthen the chain by its latency.
    pub(crate) const EIGHT: u8 = 1;
    /// 4 `vpermb`, the products for the other lane of each quarter summed
    /// and moved by one `vpshufd`: the fewest shuffles, for interleaved
    /// chains that are bound by issue rather than latency.
    pub(crate) const MOVED: u8 = 2;
}

/// C_1..C_12 transposed like the state.
const C_T: [[u8; 64]; 12] = {
    let mut t = [[0u8; 64]; 12];
    let mut i = 0;
    while i < 12 {
        let mut p = 0;
        while p < 64 {
            t[i][p] = C[i][TAU[p] as usize];
            p += 1;
        }
        i += 1;
    }
    t
};

/// 512 in the low 64-bit word: N's step per block.
const N_STEP: [u8; 64] = {
    let mut t = [0u8; 64];
    t[1] = 2;
    t
};

/// The constants, loaded once per call into registers.
struct Regs<M: Simd> {
    pi: [M::V; 4],
    spread: [M::V; 8],
    matrices: [M::V; 8],
    swapped_out: [M::V; 4],
    transpose: M::V,
}

impl<M: Machine64> Regs<M> {
    #[inline(always)]
    fn load(m: M) -> Regs<M> {
        assert_eq!(M::BYTES, 64, "one state per 64-byte register");
        let mut r = Regs { pi: [m.zero(); 4], spread: [m.zero(); 8], matrices: [m.zero(); 8], swapped_out: [m.zero(); 4], transpose: m.load(&TAU) };
        // Plain loops: a closure given to `array::map` would be called from
        // code compiled without the target's features.
        for i in 0..4 {
            r.pi[i] = m.load(&PI[64 * i..]);
            r.swapped_out[i] = m.load(&SWAPPED_OUT[i]);
        }
        for i in 0..8 {
            r.spread[i] = m.load(&SPREAD[i]);
            r.matrices[i] = m.load(&MATRICES[i]);
        }
        r
    }
}

/// LPS(x) ⊕ add, both transposed, L's inputs made as `FORM` says
/// ([`Spread`]).
#[inline(always)]
fn lps_add<M: Machine64, const FORM: u8>(m: M, r: &Regs<M>, x: M::V, add: M::V) -> M::V {
    lp_add::<M, FORM>(m, r, s(m, r, x), add)
}

/// π on every byte of x.
#[inline(always)]
fn s<M: Machine64>(m: M, r: &Regs<M>, x: M::V) -> M::V {
    let lo = m.permi2b(r.pi[0], x, r.pi[1]);
    let hi = m.permi2b(r.pi[2], x, r.pi[3]);
    // A bitwise select on bit 7: shorter on AMD Zen 5 than `vpmovb2m` and
    // a masked blend (7 against 8.4 core cycles).
    select_by_bit7(m, x, lo, hi)
}

/// L·P(s) ⊕ add, both transposed: the linear half of an LPS.
#[inline(always)]
fn lp_add<M: Machine64, const FORM: u8>(m: M, r: &Regs<M>, s: M::V, add: M::V) -> M::V {
    let i0 = m.permb(s, r.spread[0]);
    let i1 = m.permb(s, r.spread[2]);
    let i2 = m.permb(s, r.spread[4]);
    let i3 = m.permb(s, r.spread[6]);
    let mat = &r.matrices;
    // The first 4 inputs' products first: the others are ready later.
    let early = m.ternlog::<0x96>(m.affine_lanes(i0, mat[0]), m.affine_lanes(i1, mat[2]), m.affine_lanes(i2, mat[4]));
    let p3 = m.affine_lanes(i3, mat[6]);
    if FORM == Spread::MOVED {
        let out = &r.swapped_out;
        let other = m.ternlog::<0x96>(m.affine_lanes(i0, out[0]), m.affine_lanes(i1, out[1]), m.affine_lanes(i2, out[2]));
        let other = m.xor(other, m.affine_lanes(i3, out[3]));
        return m.xor(m.ternlog::<0x96>(early, p3, add), m.shuffle32::<SWAP_PAIRS>(other));
    }
    let second = |i: M::V, t: usize| {
        if FORM == Spread::SWAPPED {
            m.shuffle32::<SWAP_PAIRS>(i)
        } else {
            m.permb(s, r.spread[2 * t + 1])
        }
    };
    let mid = m.ternlog::<0x96>(p3, m.affine_lanes(second(i0, 0), mat[1]), add);
    let late = m.ternlog::<0x96>(
        m.affine_lanes(second(i1, 1), mat[3]),
        m.affine_lanes(second(i2, 2), mat[5]),
        m.affine_lanes(second(i3, 3), mat[7]),
    );
    m.ternlog::<0x96>(early, mid, late)
}

/// E(h ⊕ N, m) ⊕ `feed` (RFC 6986 §7: g is `feed` = h ⊕ m) for one
/// message, transposed, from `hn` = h ⊕ N.
///
/// With `KEYS_AHEAD` the key chain is issued one LPS ahead of the state's
/// in program order. Both LPS of a round wait for the same key, the older
/// µops win the shared pipes, and the keys, which do not wait for the
/// state, can run ahead of it (AMD Zen 5, one 1 MiB message: 3.73-3.81 TSC
/// ticks per byte against 3.83-3.88 in step; two or three LPS ahead
/// measured 1% and 10% slower than one; two interleaved messages measured
/// 3% slower this way, so they stay in step). Without it the two are
/// issued in step, the state's LPS of a round before the key's next one:
/// on Intel Emerald Rapids, whose products and shuffles each have one port
/// for 512-bit µops, 1.5-2% faster (one 1 MiB message 3.92 against 3.98-3.99
/// ticks per byte with the core at 1.85× the TSC, 64 bytes 17.54-17.56
/// against 17.80-17.82, three alternating runs; in a slower phase of the
/// VM 4.49-4.50 against 4.58-4.70, 2-4%).
///
/// The key chain carries K_i ⊕ C_i, C_i added in the sums of the LPS that
/// makes K_i: that addition is then off the chain, on the way to the
/// state's LPS, which needs K_i only at its end. The last round, LPS(X) ⊕
/// K_13 with K_13 = LPS(K_12 ⊕ C_12), is L·P(S(X) ⊕ S(K_12 ⊕ C_12)), L and
/// P being linear: one linear half for both, with `feed` added in its sums.
/// A caller that adds the next block's N there gets the next h ⊕ N as the
/// output, so the next block's key chain starts without waiting for an
/// addition.
#[inline(always)]
fn g_one<M: Machine64, const FORM: u8, const KEYS_AHEAD: bool>(m: M, r: &Regs<M>, hn: M::V, msg: M::V, feed: M::V) -> M::V {
    let c = |i: usize| m.load(&C_T[i]);
    let first = lps_add::<M, FORM>(m, r, hn, c(0));
    let mut x = m.xor3(first, msg, c(0));
    let mut keyed = lps_add::<M, FORM>(m, r, first, c(1));
    for i in 1..11 {
        if KEYS_AHEAD {
            let after = lps_add::<M, FORM>(m, r, keyed, c(i + 1));
            x = lps_add::<M, FORM>(m, r, x, m.xor(keyed, c(i)));
            keyed = after;
        } else {
            x = lps_add::<M, FORM>(m, r, x, m.xor(keyed, c(i)));
            keyed = lps_add::<M, FORM>(m, r, keyed, c(i + 1));
        }
    }
    x = lps_add::<M, FORM>(m, r, x, m.xor(keyed, c(11)));
    lp_add::<M, FORM>(m, r, m.xor(s(m, r, x), s(m, r, keyed)), feed)
}

/// g_N(h, m) (RFC 6986 §7) on `L` ≥ 2 independent transposed (h, N, m),
/// the L chains interleaved (one chain is [`g_one`]).
#[inline(always)]
fn g<M: Machine64, const FORM: u8, const L: usize>(
    m: M,
    r: &Regs<M>,
    h: [M::V; L],
    n: [M::V; L],
    msg: [M::V; L],
) -> [M::V; L] {
    let zero = m.zero();
    let mut k = [zero; L];
    let mut x = [zero; L];
    for i in 0..L {
        k[i] = lps_add::<M, FORM>(m, r, m.xor(h[i], n[i]), zero);
        x[i] = m.xor(msg[i], k[i]);
    }
    for c in &C_T[..11] {
        let c = m.load(c);
        for i in 0..L {
            let next = lps_add::<M, FORM>(m, r, m.xor(k[i], c), zero);
            x[i] = lps_add::<M, FORM>(m, r, x[i], next);
            k[i] = next;
        }
    }
    // The last round as in `g_one`: one linear half for K_13 and X.
    let c = m.load(&C_T[11]);
    for i in 0..L {
        let both = m.xor(s(m, r, x[i]), s(m, r, m.xor(k[i], c)));
        x[i] = lp_add::<M, FORM>(m, r, both, m.xor(h[i], msg[i]));
    }
    x
}

/// The kernel on machine `M`, one chain (a message's blocks, `g`) with L's
/// inputs made as `FORM` says ([`Spread`]) and its key chain issued one LPS
/// ahead of the state's with `KEYS_AHEAD` (see [`g_one`]); interleaved
/// pairs with [`Spread::MOVED`] unless `FORM` is [`Spread::SWAPPED`];
/// 6 to 8 compressions at once by [`Rows`], π looked up as `LOOKUP` says
/// ([`PiLookup`]).
pub(crate) struct AffineKernel<M, const FORM: u8, const KEYS_AHEAD: bool, const LOOKUP: u8>(pub(crate) M);

struct Blocks<'a, M, const FORM: u8, const KEYS_AHEAD: bool> {
    m: M,
    st: &'a mut State,
    data: &'a [u8],
}

impl<M: Machine64, const FORM: u8, const KEYS_AHEAD: bool> Job for Blocks<'_, M, FORM, KEYS_AHEAD> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Blocks { m, st, data } = self;
        let r = Regs::load(m);
        let blocks = data.as_chunks::<64>().0;
        let t = r.transpose;
        let mut h = m.permb(m.load(&st.h), t);
        // N in a register, advanced by a 64-bit addition: read back from
        // memory, the next block's key chain would wait for the eight
        // 8-byte stores of the 512-bit addition to commit (a 64-byte load
        // is not forwarded from them), so blocks could not overlap. Where
        // N's low word carries (public: N counts the message's bits), the
        // addition goes through memory.
        let step = m.load(&N_STEP);
        let mut n = m.load(&st.n);
        let mut low = u64::from_le_bytes(st.n[..8].try_into().expect("8 bytes"));
        // h ⊕ N, which starts each block's key chain, comes out of the
        // previous block's last sums (see `g_one`).
        let mut hn = m.xor(h, m.permb(n, t));
        for block in blocks {
            let msg = m.permb(m.load(block), t);
            let carried;
            (low, carried) = low.overflowing_add(512);
            if carried {
                m.store(n, &mut st.n);
                add_small(&mut st.n, 512);
                n = m.load(&st.n);
            } else {
                n = m.add64(n, step);
            }
            let next_n = m.permb(n, t);
            hn = g_one::<M, FORM, KEYS_AHEAD>(m, &r, hn, msg, m.xor3(h, msg, next_n));
            h = m.xor(hn, next_n);
            add(&mut st.sigma, block);
        }
        m.store(n, &mut st.n);
        m.store(m.permb(h, t), &mut st.h);
    }
}

/// One chain of compressions (`Compress::chain`): the constants loaded
/// once, h transposed in a register from one to the next, and each one's
/// h ⊕ N out of the previous one's sums (see `g_one`).
struct Chain<'a, M, const FORM: u8, const KEYS_AHEAD: bool> {
    m: M,
    h: &'a mut Block,
    n: &'a [Block],
    msg: &'a [Block],
}

impl<M: Machine64, const FORM: u8, const KEYS_AHEAD: bool> Job for Chain<'_, M, FORM, KEYS_AHEAD> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Chain { m, h, n, msg } = self;
        let r = Regs::load(m);
        let t = r.transpose;
        let Some(first) = n.first() else { return };
        let mut hv = m.permb(m.load(h), t);
        let mut hn = m.xor(hv, m.permb(m.load(first), t));
        for (i, block) in msg.iter().enumerate() {
            let mv = m.permb(m.load(block), t);
            let n_next = match n.get(i + 1) {
                Some(next) => m.permb(m.load(next), t),
                None => m.zero(),
            };
            hn = g_one::<M, FORM, KEYS_AHEAD>(m, &r, hn, mv, m.xor3(hv, mv, n_next));
            hv = m.xor(hn, n_next);
        }
        m.store(m.permb(hv, t), h);
    }
}

/// Two messages' common blocks, their chains interleaved, h and N of both
/// in registers across the blocks (N's low words do not carry: the caller
/// checks). Against one `g_many` call per block (the constants loaded, h
/// and N moved in and out each time): 2 × 64 KiB on Zen 5 2.73 against
/// 3.15 TSC ticks per byte, 5 × 64 KiB 3.01 against 3.31.
struct BlocksPair<'a, 'b, M, const FORM: u8> {
    m: M,
    states: &'a mut [&'b mut State],
    data: &'a [&'a [u8]],
}

impl<M: Machine64, const FORM: u8> Job for BlocksPair<'_, '_, M, FORM> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let BlocksPair { m, states, data } = self;
        let [a, b] = states else { unreachable!("two states") };
        let r = Regs::load(m);
        let t = r.transpose;
        let step = m.load(&N_STEP);
        let (mut h, mut n) = ([m.permb(m.load(&a.h), t), m.permb(m.load(&b.h), t)], [m.load(&a.n), m.load(&b.n)]);
        for (x, y) in data[0].as_chunks::<64>().0.iter().zip(data[1].as_chunks::<64>().0) {
            let msg = [m.permb(m.load(x), t), m.permb(m.load(y), t)];
            let nt = [m.permb(n[0], t), m.permb(n[1], t)];
            // The pairs' form, as in `g_many`.
            h = if FORM == Spread::SWAPPED {
                g::<M, { Spread::SWAPPED }, PAIR>(m, &r, h, nt, msg)
            } else {
                g::<M, { Spread::MOVED }, PAIR>(m, &r, h, nt, msg)
            };
            n = [m.add64(n[0], step), m.add64(n[1], step)];
            add(&mut a.sigma, x);
            add(&mut b.sigma, y);
        }
        for (st, (h, n)) in [&mut **a, &mut **b].into_iter().zip(h.into_iter().zip(n)) {
            m.store(m.permb(h, t), &mut st.h);
            m.store(n, &mut st.n);
        }
    }
}

/// g on `L` ≥ 2 independent inputs, interleaved.
struct Many<'a, M, const FORM: u8, const L: usize> {
    m: M,
    h: &'a mut [Block],
    n: &'a [Block],
    msg: &'a [Block],
}

impl<M: Machine64, const FORM: u8, const L: usize> Job for Many<'_, M, FORM, L> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Many { m, h, n, msg } = self;
        let r = Regs::load(m);
        let t = r.transpose;
        let (mut hv, mut nv, mut mv) = ([m.zero(); L], [m.zero(); L], [m.zero(); L]);
        for i in 0..L {
            hv[i] = m.permb(m.load(&h[i]), t);
            nv[i] = m.permb(m.load(&n[i]), t);
            mv[i] = m.permb(m.load(&msg[i]), t);
        }
        let out = g::<M, FORM, L>(m, &r, hv, nv, mv);
        for i in 0..L {
            m.store(m.permb(out[i], t), &mut h[i]);
        }
    }
}

/// Independent compressions interleaved when fewer than [`ROWS_FROM`]
/// remain (two chains fill the pipes that one chain's latency leaves idle).
const PAIR: usize = 2;

/// From this many independent compressions on, [`Rows`] runs them (up to
/// [`WAYS`] per call, free lanes on zeros). On AMD Zen 5 a call of
/// [`Rows`] takes about 1 160 TSC ticks whatever the count, a pair of
/// chains about 400 and one chain about 250: pairs are cheaper up to 5.
const ROWS_FROM: usize = 6;

impl<M: Machine64, const FORM: u8, const KEYS_AHEAD: bool, const LOOKUP: u8> AffineKernel<M, FORM, KEYS_AHEAD, LOOKUP> {
    /// [`Rows`] on groups of up to [`WAYS`] compressions while
    /// [`ROWS_FROM`] or more remain (`n`: their N, unread with `from_iv`);
    /// returns the rest.
    fn rows<'a>(&self, h: &'a mut [Block], n: &[Block], msg: &'a [Block], from_iv: Option<usize>) -> (&'a mut [Block], &'a [Block]) {
        let m = self.0;
        let (mut h, mut msg, mut done) = (h, msg, 0);
        while h.len() >= ROWS_FROM {
            let take = h.len().min(WAYS);
            let (h0, h1) = h.split_at_mut(take);
            let n0 = if from_iv.is_some() { &[][..] } else { &n[done..done + take] };
            m.vectorize(Rows::<M, LOOKUP> { m, h: h0, n: n0, msg: &msg[..take], from_iv });
            (h, msg, done) = (h1, &msg[take..], done + take);
        }
        (h, msg)
    }
}

impl<M: Machine64, const FORM: u8, const KEYS_AHEAD: bool, const LOOKUP: u8> Compress for AffineKernel<M, FORM, KEYS_AHEAD, LOOKUP> {
    fn g(&self, h: &mut Block, n: &Block, msg: &Block) {
        self.chain(h, core::slice::from_ref(n), core::slice::from_ref(msg))
    }
    fn chain(&self, h: &mut Block, n: &[Block], msg: &[Block]) {
        assert_eq!(n.len(), msg.len(), "one N per block");
        self.0.vectorize(Chain::<M, FORM, KEYS_AHEAD> { m: self.0, h, n, msg })
    }
    fn blocks(&self, st: &mut State, data: &[u8]) {
        if data.len() >= 64 {
            self.0.vectorize(Blocks::<M, FORM, KEYS_AHEAD> { m: self.0, st, data })
        }
    }
    fn lanes(&self) -> usize {
        WAYS
    }
    fn blocks_many(&self, states: &mut [&mut State], data: &[&[u8]]) {
        let count = data.first().map_or(0, |d| d.len() / 64) as u64;
        // N counts bits (public): where a low word would carry within the
        // call, the general path, which adds N in full.
        let low = |st: &&mut State| u64::from_le_bytes(st.n[..8].try_into().expect("8 bytes"));
        let carries = states.iter().any(|st| low(st).checked_add(512 * count).is_none());
        if carries {
            return blocks_many_by_g_many(self, states, data);
        }
        let m = self.0;
        for (states, data) in states.chunks_mut(WAYS).zip(data.chunks(WAYS)) {
            if states.len() >= ROWS_FROM {
                m.vectorize(RowsBlocks::<M, LOOKUP> { m, states, data });
                continue;
            }
            // Fewer: pairs of chains interleaved, then one alone.
            let (mut states, mut data) = (states, data);
            while states.len() >= PAIR {
                let (pair, rest) = states.split_at_mut(PAIR);
                m.vectorize(BlocksPair::<M, FORM> { m, states: pair, data: &data[..PAIR] });
                (states, data) = (rest, &data[PAIR..]);
            }
            blocks_many_by_g_many(self, states, data);
        }
    }
    fn g_many_from_iv(&self, digest_bytes: usize, h: &mut [Block], msg: &[Block]) {
        let (h, msg) = self.rows(h, &[], msg, Some(digest_bytes));
        // Fewer than ROWS_FROM: as other compressions (pairs of chains, then
        // one alone).
        self.g_many(h, &ZERO_N[..h.len()], msg);
    }
    fn g_many(&self, h: &mut [Block], n: &[Block], msg: &[Block]) {
        let m = self.0;
        let count = h.len();
        let (mut h, mut msg) = self.rows(h, n, msg, None);
        let mut n = &n[count - h.len()..];
        while h.len() >= PAIR {
            let (h0, h1) = h.split_at_mut(PAIR);
            let (n0, msg0) = (&n[..PAIR], &msg[..PAIR]);
            if FORM == Spread::SWAPPED {
                m.vectorize(Many::<M, { Spread::SWAPPED }, PAIR> { m, h: h0, n: n0, msg: msg0 });
            } else {
                m.vectorize(Many::<M, { Spread::MOVED }, PAIR> { m, h: h0, n: n0, msg: msg0 });
            }
            (h, n, msg) = (h1, &n[PAIR..], &msg[PAIR..]);
        }
        for ((h, n), msg) in h.iter_mut().zip(n).zip(msg) {
            self.g(h, n, msg);
        }
    }
}
