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
//! a lane must hold one byte position c of all 8 words: input r (r = 0..3)
//! has in lane j the bytes 8k + (j + r mod 8), k = 0..7 (one `vpermb`
//! each). Lane j of input r times M_(j−b, j+r) (b = 0 or 4) is the part of
//! output byte j − b of all 8 words, and so lane j − b of the result, again
//! transposed: the 4 products with b = 0 are summed in place, the 4 with
//! b = 4 summed then moved by 4 lanes (one `vpermb`).
//!
//! Count per LPS (zmm µops): S 4 (2 `vpermi2b`, a `vgf2p8affineqb` that
//! spreads bit 7 over its byte, a `vpternlogq` select); spreading 4
//! `vpermb`; 8 `vgf2p8affineqb`; sums 4 `vpternlogq` and 1 `vpxorq` (the
//! round key's XOR folded into a ternlog); the lane move 1 `vpermb`: 22,
//! of them 7 shuffles and 9 affine products. Per block: 25 LPS (K1 =
//! LPS(h ⊕ N), 12 keys, 12 state) = 550, + 12 XORs of C_i, 3 `vpermb` in
//! and out (h is kept transposed between blocks), 4 XORs: ≈ 570 µops per
//! 64 bytes ≈ 8.9 per byte, 225 of them affine products. `SPREAD8`: 8
//! spreading `vpermb` and no lane move, 3 shuffles more and one fewer on
//! the chain.
//!
//! What bounds it (instruction costs in core cycles from `cargo run
//! --release -p multiblock-bench --example op_costs`):
//!
//! Zen 4 (a zmm `vgf2p8affineqb` 3 cycles of latency and one per cycle,
//! `vpermb` and `vpermi2b` 5 and one per cycle; the core at about 1.4×
//! the TSC rate of the 2.6 GHz VM measured):
//! - Latency. One LPS is a chain: the lookup (5), the select, a spreading
//!   `vpermb` (5), 8 products issued one per cycle, the sums, the lane move
//!   (5): timed alone, the compiled LPS repeated on its own output takes 35
//!   core cycles. A block is two such chains side by side (the keys and the
//!   state), 13 LPS deep; the compiled round loop of one message runs 43.6
//!   core cycles per round, about 6.2 ticks per byte, and one long message
//!   measures 6.66 (the rest is the per-block N, Σ and transposes).
//!   `SPREAD8` measures the same there.
//! - Issue. With two messages interleaved (four chains) the same round
//!   loop runs 16.3-16.7 core cycles per LPS, about 4.6 ticks per byte: the
//!   rate of this instruction mix.
//! - Products. 200 per block at one per core cycle: 200 core cycles, about
//!   2.2 ticks per byte, for any layout and any number of messages.
//!
//! Zen 5 (the core at 1.61× the TSC rate of the 2.6 GHz VM; `vpermb`,
//! `vpermi2b` and `vgf2p8affineqb` two per cycle, but two of them together
//! also only two per cycle: they share two pipes; `vpternlogq` four per
//! cycle): an LPS with `SPREAD8` timed alone on its own output takes 24-26
//! core cycles, a round (the key's and the state's LPS side by side) 30-31,
//! and three chains 14 per LPS: the two chains of one message already
//! contend for the pipes. One long message measures 3.8-3.9 ticks per byte
//! (30 core cycles per round).
//!
//! So one message is bound by the chain of 13 LPS per block: 3.5 ticks per
//! byte would need a round every 24 core cycles on Zen 4, less than one
//! LPS's 35, and every 27.7 on Zen 5, three fewer than two LPS side by
//! side take there. Many messages run in the lanes of `rows.rs` instead.
//!
//! N, the bit count, advances in a register across the blocks of one call
//! (see `Blocks::run`): through memory, each block's key chain would wait
//! for the stores of the previous addition, and the blocks would not
//! overlap (4.1-4.3 ticks per byte on Zen 5 against 4.0-4.1 measured).

use super::constants::{l_block, C, PI, TAU};
use super::rows::{Rows, WAYS};
use super::{add, add_small, Block, Compress, State};
use crate::simd::{Avx512, Gfni, Job, Simd, Vbmi};

/// What this kernel needs of a machine (64-byte registers).
pub(crate) trait Machine64: Simd + Gfni + Vbmi + Avx512 {}
impl<M: Simd + Gfni + Vbmi + Avx512> Machine64 for M {}

/// Input r: lane j, byte k ← byte 8k + (j + r mod 8).
const SPREAD: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut r = 0;
    while r < 8 {
        let mut p = 0;
        while p < 64 {
            let (j, k) = (p / 8, p % 8);
            t[r][p] = (8 * k + (j + r) % 8) as u8;
            p += 1;
        }
        r += 1;
    }
    t
};

/// Lane j ← lane j + 4 mod 8.
const SWAP_HALVES: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        t[p] = ((p + 32) % 64) as u8;
        p += 1;
    }
    t
};

/// Matrices of input r for b = 0 (index 2r) and b = 4 (2r + 1): lane j
/// holds M_(j − b, j + r), as 64 bytes (little-endian words).
const MATRICES: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut r = 0;
    while r < 4 {
        let mut half = 0;
        while half < 2 {
            let b = 4 * half;
            let mut j = 0;
            while j < 8 {
                let q = l_block((j + 8 - b) % 8, (j + r) % 8).to_le_bytes();
                let mut i = 0;
                while i < 8 {
                    t[2 * r + half][8 * j + i] = q[i];
                    i += 1;
                }
                j += 1;
            }
            half += 1;
        }
        r += 1;
    }
    t
};

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
    swap: M::V,
    matrices: [M::V; 8],
    /// The b = 4 matrices moved by 4 lanes (for `SPREAD8`).
    moved: [M::V; 4],
    transpose: M::V,
}

impl<M: Machine64> Regs<M> {
    #[inline(always)]
    fn load(m: M) -> Regs<M> {
        assert_eq!(M::BYTES, 64, "one state per 64-byte register");
        let mut pi = [m.zero(); 4];
        for (i, v) in pi.iter_mut().enumerate() {
            *v = m.load(&PI[64 * i..]);
        }
        let mut spread = [m.zero(); 8];
        for (v, idx) in spread.iter_mut().zip(&SPREAD) {
            *v = m.load(idx);
        }
        let mut matrices = [m.zero(); 8];
        for (v, mat) in matrices.iter_mut().zip(&MATRICES) {
            *v = m.load(mat);
        }
        let swap = m.load(&SWAP_HALVES);
        let mut moved = [m.zero(); 4];
        for (i, v) in moved.iter_mut().enumerate() {
            *v = m.permb(matrices[2 * i + 1], swap);
        }
        Regs { pi, spread, swap, matrices, moved, transpose: m.load(&TAU) }
    }
}

/// LPS(x) ⊕ add, both transposed. `SPREAD8`: 8 `vpermb` inputs and no
/// lane move (3 more shuffles, one fewer on the chain), else 4 and a move.
#[inline(always)]
fn lps_add<M: Machine64, const SPREAD8: bool>(m: M, r: &Regs<M>, x: M::V, add: M::V) -> M::V {
    let lo = m.permi2b(r.pi[0], x, r.pi[1]);
    let hi = m.permi2b(r.pi[2], x, r.pi[3]);
    // Bit 7 of x spread over its byte by a product (every row of the
    // matrix picks bit 7), then a bitwise select: shorter on AMD Zen 5
    // than `vpmovb2m` and a masked blend (7 against 8.4 core cycles).
    let s = m.ternlog::<0xCA>(m.affine(x, 0x8080_8080_8080_8080), hi, lo);
    let i0 = m.permb(s, r.spread[0]);
    let i1 = m.permb(s, r.spread[1]);
    let i2 = m.permb(s, r.spread[2]);
    let i3 = m.permb(s, r.spread[3]);
    let mat = &r.matrices;
    let q0 = m.ternlog::<0x96>(m.affine_lanes(i0, mat[0]), m.affine_lanes(i1, mat[2]), m.affine_lanes(i2, mat[4]));
    let q0 = m.ternlog::<0x96>(q0, m.affine_lanes(i3, mat[6]), add);
    if SPREAD8 {
        // Input r + 4 is input r moved by 4 lanes, so its products land
        // in place with the b = 4 matrices moved likewise.
        let i4 = m.permb(s, r.spread[4]);
        let i5 = m.permb(s, r.spread[5]);
        let i6 = m.permb(s, r.spread[6]);
        let i7 = m.permb(s, r.spread[7]);
        let q4 = m.ternlog::<0x96>(m.affine_lanes(i4, r.moved[0]), m.affine_lanes(i5, r.moved[1]), m.affine_lanes(i6, r.moved[2]));
        m.ternlog::<0x96>(q0, q4, m.affine_lanes(i7, r.moved[3]))
    } else {
        let q4 = m.ternlog::<0x96>(m.affine_lanes(i0, mat[1]), m.affine_lanes(i1, mat[3]), m.affine_lanes(i2, mat[5]));
        let q4 = m.xor(q4, m.affine_lanes(i3, mat[7]));
        m.xor(q0, m.permb(q4, r.swap))
    }
}

/// g_N(h, m) (RFC 6986 §7) on `L` independent transposed (h, N, m), the
/// L chains interleaved.
#[inline(always)]
fn g<M: Machine64, const SPREAD8: bool, const L: usize>(
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
        k[i] = lps_add::<M, SPREAD8>(m, r, m.xor(h[i], n[i]), zero);
        x[i] = m.xor(msg[i], k[i]);
    }
    for c in &C_T {
        let c = m.load(c);
        for i in 0..L {
            let next = lps_add::<M, SPREAD8>(m, r, m.xor(k[i], c), zero);
            x[i] = lps_add::<M, SPREAD8>(m, r, x[i], next);
            k[i] = next;
        }
    }
    for i in 0..L {
        x[i] = m.xor3(x[i], h[i], msg[i]);
    }
    x
}

/// The kernel on machine `M` (`SPREAD8`: see [`lps_add`]).
pub(crate) struct AffineKernel<M, const SPREAD8: bool = false>(pub(crate) M);

struct Blocks<'a, M, const SPREAD8: bool> {
    m: M,
    st: &'a mut State,
    data: &'a [u8],
}

impl<M: Machine64, const SPREAD8: bool> Job for Blocks<'_, M, SPREAD8> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Blocks { m, st, data } = self;
        let r = Regs::load(m);
        let blocks = data.as_chunks::<64>().0;
        let mut h = m.permb(m.load(&st.h), r.transpose);
        // N in a register, advanced by a 64-bit addition: read back from
        // memory, the next block's key chain would wait for the eight
        // 8-byte stores of the 512-bit addition to commit (a 64-byte load
        // is not forwarded from them), so blocks could not overlap. Where
        // N's low word carries (public: N counts the message's bits), the
        // addition goes through memory.
        let step = m.load(&N_STEP);
        let mut n = m.load(&st.n);
        let mut low = u64::from_le_bytes(st.n[..8].try_into().expect("8 bytes"));
        for block in blocks {
            let msg = m.permb(m.load(block), r.transpose);
            [h] = g::<M, SPREAD8, 1>(m, &r, [h], [m.permb(n, r.transpose)], [msg]);
            let carried;
            (low, carried) = low.overflowing_add(512);
            if carried {
                m.store(n, &mut st.n);
                add_small(&mut st.n, 512);
                n = m.load(&st.n);
            } else {
                n = m.add64(n, step);
            }
            add(&mut st.sigma, block);
        }
        m.store(n, &mut st.n);
        m.store(m.permb(h, r.transpose), &mut st.h);
    }
}

/// g on `L` independent inputs.
struct Many<'a, M, const SPREAD8: bool, const L: usize> {
    m: M,
    h: &'a mut [Block],
    n: &'a [Block],
    msg: &'a [Block],
}

impl<M: Machine64, const SPREAD8: bool, const L: usize> Job for Many<'_, M, SPREAD8, L> {
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
        let out = g::<M, SPREAD8, L>(m, &r, hv, nv, mv);
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

impl<M: Machine64, const SPREAD8: bool> Compress for AffineKernel<M, SPREAD8> {
    fn g(&self, h: &mut Block, n: &Block, msg: &Block) {
        let m = self.0;
        m.vectorize(Many::<M, SPREAD8, 1> { m, h: core::slice::from_mut(h), n: core::slice::from_ref(n), msg: core::slice::from_ref(msg) })
    }
    fn blocks(&self, st: &mut State, data: &[u8]) {
        if data.len() >= 64 {
            self.0.vectorize(Blocks::<M, SPREAD8> { m: self.0, st, data })
        }
    }
    fn lanes(&self) -> usize {
        WAYS
    }
    fn g_many(&self, h: &mut [Block], n: &[Block], msg: &[Block]) {
        let m = self.0;
        let (mut h, mut n, mut msg) = (h, n, msg);
        while h.len() >= ROWS_FROM {
            let take = h.len().min(WAYS);
            let (h0, h1) = h.split_at_mut(take);
            m.vectorize(Rows { m, h: h0, n: &n[..take], msg: &msg[..take] });
            (h, n, msg) = (h1, &n[take..], &msg[take..]);
        }
        while h.len() >= PAIR {
            let (h0, h1) = h.split_at_mut(PAIR);
            m.vectorize(Many::<M, false, PAIR> { m, h: h0, n: &n[..PAIR], msg: &msg[..PAIR] });
            (h, n, msg) = (h1, &n[PAIR..], &msg[PAIR..]);
        }
        for ((h, n), msg) in h.iter_mut().zip(n).zip(msg) {
            self.g(h, n, msg);
        }
    }
}
