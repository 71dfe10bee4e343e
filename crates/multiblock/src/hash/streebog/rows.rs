//! Eight Streebog compressions at once, two states per 128-bit lane: the
//! `g_many` and `blocks_many` of `avx512-gfni`.
//!
//! Layout ("pairs"): register w holds word w of all 8 states; 128-bit lane
//! l holds states 2l and 2l + 1 byte by byte, 16-bit element e = (byte
//! `bit_reversed(e)` of state 2l's word w, the same byte of state 2l + 1's).
//! Loading 8 blocks is the 8×8 transpose of 64-bit lanes
//! (`kalyna/zmm_transpose.rs`, "rows": lane q = state q's word w) and one
//! `vpshufb` per register.
//!
//! LPS: S is bytewise, any layout. After it, register c holds byte c of
//! every word of B = P·S(X) (byte c of word w of B is byte w of word c of
//! S(X)), what `vgf2p8affineqb` needs: every byte of the register takes
//! the same matrix, and T_j = ⊕_c M_(j,c)·S(R_c) holds output byte j of
//! every word, at the place of its word index. That is the transposed
//! layout; the 8×8 transpose of 16-bit elements inside every 128-bit lane
//! ([`transpose_pairs`]: 3 stages of 8 word unpacks) brings the next LPS's
//! input back. A 64-bit lane per state (rows) needs a fourth stage, to put
//! each state back into its own lane: in pairs a 16-bit element carries
//! both states of its lane through the unpacks. The round key is added
//! before the transpose: K_(i+1) = transpose(T_K), so X_(i+1) =
//! transpose(T_X ⊕ T_K), one transpose for the sum.
//!
//! Count per LPS of 8 states: S 32 (2 `vpermi2b`, `vpmovb2m`, `vpblendmb`
//! per register), 63 `vgf2p8affineqb` (matrices broadcast from memory; l's
//! block from byte 6 to byte 4 is the identity), 32 `vpternlogq` for the
//! sums (the key folded in), 24 unpacks: 151, about 19 per state against
//! 24 in `affine.rs`.
//!
//! What bounds it on Intel. Two ports take the 512-bit µops, the shuffles
//! on one and the products on the other; a zmm `vpermi2b` is three µops,
//! two of them on the shuffle port, and a `vpermb` one. So on Intel S is
//! four `vpermb` over π's quarters, the second of each pair merge-masked
//! by bit 6 ([`PiLookup::QUARTERS`]): 7 µops a register against 8, an LPS
//! 175 µops against 183 (64 on the shuffle port, 71 on the other, 40 on
//! either), at least 88 core cycles, 4.3 per byte. Alone, the quarters'
//! lookup issues more slowly (`op_costs`: 4.6-4.8 core cycles against 4.1, its
//! 5 µops on the shuffle port), but the kernel measured faster with it: on
//! Intel Emerald Rapids, 64 messages of Streebog-512 measured 2.52-2.61
//! TSC ticks per byte at 64 KiB against 2.68-2.76 by the halves, 3.24-3.27
//! at 1 KiB against 3.38-3.56 and 12.2 at 64 B against 12.8-13.4
//! (alternating runs, the core at 1.75-1.86× the TSC).
//!
//! What bounds it on AMD Zen 5. The vector unit has four pipes;
//! `vpermi2b`, `vpmovb2m`, `vpshufb`, the 128-bit lane moves and
//! `vgf2p8affineqb` run on two of them only, the unpacks, `vpternlogq`,
//! `vpxorq` and the blends on any of the four (8 products with 16 unpacks
//! take 6 core cycles, 24 µops at four a cycle); the simple ones have 2
//! cycles of latency, the products 3, `vpermi2b` 5. A round of both chains
//! has 174 µops for the two shared pipes (87 core cycles) and 310 in all.
//! Its products and lookups alone run at the rate of the shared pipes;
//! with the rest beside them the round takes about 8% more, and every µop
//! of the other kinds taken out (an unpack, a sum, a blend) takes off
//! about 0.2 core cycles: they are issued to the shared pipes too when
//! the other two are busy. Hence the fewest of them: the pairs layout's
//! three stages (16 unpacks fewer per round than rows' four: 3.5% less
//! time per round), and [`l_beside_s`], which runs one chain's transpose
//! and lookups between the other's products so that no phase waits for
//! another. 87 core cycles a round is about 1.32 ticks per compressed byte
//! at the core's 1.63× the TSC rate.
//!
//! Measured (`digest_many` of 64 messages, Zen 5). With a 64-bit lane per
//! state, the core at 1.61-1.64× the TSC: 1.52-1.53 ticks per byte for
//! 64 KiB messages (about 100 core cycles a round), 2.07-2.10 for 1 KiB
//! (19 compressions per 16 blocks: 1.75 per compressed byte) and 9.5-9.8
//! for 64 B; the interleaved pairs of `affine.rs` measured 3.7-3.8 and
//! 14.0-14.3 for 1 KiB and 64 B. In pairs, with the core at 1.52× the
//! TSC: 1.60 for 64 KiB (2.43 core cycles per byte), 2.14 for 1 KiB
//! against 2.21 in rows in the same sitting, 10.18 for 64 B against
//! 10.30; the round alone in a loop 59.8-60.2 ticks against 61.8-63.0
//! (medians of 30 alternating runs). What the calls add to the
//! rounds: one call of [`Rows`] per compression cost about 1 160 ticks for
//! 8 states against 775 for its rounds (the copies of h, N and the block
//! into and out of rows, N's and Σ's additions); [`RowsBlocks`] keeps h, N
//! and Σ in rows across all the blocks the 8 messages have in common (for
//! 1 KiB messages a call of [`Rows`] per block measured 2.58 in a slower
//! phase of the VM where this takes 2.15-2.3). Σ's additions in rows,
//! with the carries between its words counted apart, take 2-4% less time
//! than 64 dependent scalar additions per block for messages of 8 KiB and
//! more, and the same for 1 KiB.
//!
//! Tried and measured slower: the padded last block, N and Σ of 8
//! messages in one call with h in rows (64 × 64 B: 10.8-11.1 against
//! 9.7-10.0, with g's code once or three times in the call); S's select
//! without a mask register (`vpminsb` with 0, `vpmaxsb` with -1 and a
//! `vpternlogd` select, all three on any of Zen 5's four pipes, where
//! `vpmovb2m` and every compare into a mask take one of the two shared
//! ones): 8 µops fewer on the shared pipes and 16 more elsewhere per LPS,
//! 4-6% slower on Zen 5 (64 × 64 KiB 1.61 against 1.54, 64 × 1 KiB 2.16
//! against 2.03; best of 6 alternating runs); S without the blend
//! (`vpmovb2m`, `knotq`, then two `vpermi2b` merge-masked by the mask and
//! its complement, the second indexed by the first's output), which
//! leaves the shared pipes' count as it is and takes 8 µops off the
//! others per LPS, but puts the two lookups in series (18 core cycles
//! from S's input to its output in a loop of S alone against 9): 8-15%
//! slower on Zen 5 (64 × 64 KiB 1.81 against 1.58, 64 × 1 KiB 2.36
//! against 2.19; best of 16 alternating runs, with `knotq` as inline asm,
//! since LLVM makes the complement a second compare, and the outputs of
//! [`l_beside_s`] written out one by one, since LLVM does not unroll a
//! loop that holds inline asm, which alone made the kernel 1.9× slower).
//!
//! Tried and measured the same: the mask as bytes by a product
//! (`vgf2p8affineqb` copying bit 7 to every bit) and a `vpternlogd`
//! select instead of `vpmovb2m` and the blend, on the same pipes, S's
//! latency 8.3 core cycles against 9.6; every product's matrix a
//! broadcast memory operand, read through a pointer LLVM cannot see
//! through (otherwise it loads the 61 matrices that the round's two L
//! share into registers by `vpbroadcastq`): 64 × 64 KiB 1.59 against
//! 1.57, 64 × 1 KiB 2.10 against 2.17 (best of 16 alternating runs);
//! two groups of 8 messages in one call, a block of one group then a
//! block of the other, so that each compression's first and last phases
//! (which wait for each other) could run beside the other group's: 64 ×
//! 64 KiB 1.592 against 1.589 (best of 12 alternating runs).

// Index loops over the row arrays: several arrays share the index.
#![allow(clippy::needless_range_loop)]

use super::constants::{l_block, C, PI};
use super::iv_keys::{by_digest, first_keys};
use super::compress::{add, Block, State};
use crate::kalyna::zmm_transpose::transpose_lanes;
use crate::simd::{lookup256, Avx512, Gfni, Job, Simd, Vbmi, AFFINE_IDENTITY};
use zeroize::Zeroize;

/// What the AVX-512 kernels need of a machine (64-byte registers): these
/// rows and one message's `affine.rs`.
pub(crate) trait Machine64: Simd + Gfni + Vbmi + Avx512 {}
impl<M: Simd + Gfni + Vbmi + Avx512> Machine64 for M {}

/// States one call holds: two per 128-bit lane.
pub(super) const WAYS: usize = 8;

/// `l_block(j, c)` for every output byte j and input byte c.
const MATRICES: [[u64; 8]; 8] = {
    let mut t = [[0u64; 8]; 8];
    let mut j = 0;
    while j < 8 {
        let mut c = 0;
        while c < 8 {
            t[j][c] = l_block(j, c);
            c += 1;
        }
        j += 1;
    }
    t
};

/// Element e of a 128-bit lane in the pairs layout holds byte
/// `bit_reversed(e)` of a word (the order three equal unpack stages leave,
/// [`transpose_pairs`]).
const fn bit_reversed(e: usize) -> usize {
    (e & 1) << 2 | (e & 2) | e >> 2
}

/// `shuffle8` index from rows to pairs, per 128-bit lane: byte 2e + s ←
/// byte 8s + `bit_reversed(e)` (s: the lane's first or second state).
const TO_PAIRS: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = (8 * (i % 2) + bit_reversed(i / 2)) as u8;
        i += 1;
    }
    t
};

/// The inverse of [`TO_PAIRS`]: byte 8s + k ← byte 2·`bit_reversed(k)` + s.
const FROM_PAIRS: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = (2 * bit_reversed(i % 8) + i / 8) as u8;
        i += 1;
    }
    t
};

/// Rows to pairs (or back), register by register: `index` is
/// [`TO_PAIRS`] (or [`FROM_PAIRS`]) in every lane.
#[inline(always)]
fn reorder<M: Machine64>(m: M, x: &mut [M::V; 8], index: M::V) {
    for v in x.iter_mut() {
        *v = m.shuffle8(*v, index);
    }
}

/// A 64-byte value the same in every state, in pairs: register w, byte
/// 2e + s of every lane = byte `bit_reversed(e)` of the value's word w.
/// Whole registers, loaded as operands (a 16-byte broadcast from memory
/// takes a vector pipe on AMD Zen 5).
const fn in_pairs(v: &Block) -> [[u8; 64]; 8] {
    let mut t = [[0u8; 64]; 8];
    let mut w = 0;
    while w < 8 {
        let mut b = 0;
        while b < 64 {
            t[w][b] = v[8 * w + bit_reversed(b % 16 / 2)];
            b += 1;
        }
        w += 1;
    }
    t
}

/// C_1..C_12 in pairs ([`in_pairs`]).
const C_PAIRS: [[[u8; 64]; 8]; 12] = {
    let mut t = [[[0u8; 64]; 8]; 12];
    let mut i = 0;
    while i < 12 {
        t[i] = in_pairs(&C[i]);
        i += 1;
    }
    t
};

/// The keys of g_0(IV, ·) ([`first_keys`]) of a `digest_bytes` digest in
/// pairs ([`in_pairs`]).
const fn iv_keys_pairs(digest_bytes: usize) -> [[[u8; 64]; 8]; 13] {
    let keys = first_keys(digest_bytes);
    let mut t = [[[0u8; 64]; 8]; 13];
    let mut i = 0;
    while i < 13 {
        t[i] = in_pairs(&keys[i]);
        i += 1;
    }
    t
}

/// The 8×8 transpose of 16-bit elements inside every 128-bit lane (word w
/// of the lane's two states ↔ byte w of their 8 words): three times the
/// same stage, which leaves the elements in bit-reversed order, the order
/// they came in.
#[inline(always)]
fn transpose_pairs<M: Simd>(m: M, r: &[M::V; 8]) -> [M::V; 8] {
    let mut x = *r;
    for _ in 0..3 {
        x = transpose_stage(m, &x);
    }
    x
}

/// One stage of [`transpose_pairs`]: registers 2i and 2i + 1 interleaved by
/// 16-bit element, the low halves into register i, the high into i + 4.
#[inline(always)]
fn transpose_stage<M: Simd>(m: M, r: &[M::V; 8]) -> [M::V; 8] {
    let mut out = [m.zero(); 8];
    for i in 0..4 {
        out[i] = m.unpack_lo::<2>(r[2 * i], r[2 * i + 1]);
        out[4 + i] = m.unpack_hi::<2>(r[2 * i], r[2 * i + 1]);
    }
    out
}

/// How [`s_box`] looks π up; the CPU class picks (`avx512_gfni.rs`).
pub(crate) struct PiLookup;

impl PiLookup {
    /// Two `vpermi2b` over π's halves, then bit 7 selects (`vpmovb2m`,
    /// `vpblendmb`): 4 instructions a register, 3 of them on the two vector
    /// pipes AMD Zen 5 shares with the products.
    pub(crate) const HALVES: u8 = 0;
    /// Four `vpermb` over π's quarters, the second of each pair
    /// merge-masked by bit 6 (`vptestmb`), then bit 7 selects: 7 µops a
    /// register against 8 on Intel, whose zmm `vpermi2b` is 3 µops (two on
    /// the shuffle port) and `vpermb` one.
    pub(crate) const QUARTERS: u8 = 1;
}

/// π's 256 bytes in four registers, looked up as `LOOKUP` says
/// ([`PiLookup`]).
struct Pi<V, const LOOKUP: u8>([V; 4]);

#[inline(always)]
fn pi_tables<M: Machine64, const LOOKUP: u8>(m: M) -> Pi<M::V, LOOKUP> {
    let mut pi = [m.zero(); 4];
    for (i, v) in pi.iter_mut().enumerate() {
        *v = m.load(&PI[64 * i..]);
    }
    Pi(pi)
}

/// π of every byte.
#[inline(always)]
fn s_box<M: Machine64, const LOOKUP: u8>(m: M, pi: &Pi<M::V, LOOKUP>, x: M::V) -> M::V {
    if LOOKUP == PiLookup::QUARTERS {
        lookup256::by_quarters(m, &pi.0, x)
    } else {
        lookup256::by_halves(m, &pi.0, x)
    }
}

/// L·P of S's output `s` (pairs), plus `add`, transposed: T_j = ⊕_c
/// M_(j,c)·s_c ⊕ add_j. Between its products runs the other chain's way
/// to its next lookups: `other` (that chain's L output) transposed, one
/// stage after each of the first three outputs, plus `constant` (the key
/// chain's round constant), then S of it, two registers after each of the
/// last four outputs. So the unpacks, the lookups and the products share
/// the pipes instead of running one phase after the other. On Zen 5, in
/// the rows layout, this order measured about 5% faster (64 × 64 KiB:
/// 1.52-1.53 ticks per byte against 1.60-1.64) than the transpose as a
/// block before the products with one lookup after each output, and 2-3%
/// faster than the transpose as a block with the lookups after the last
/// four outputs, which beat the lookups after the first four or after the
/// last two; in pairs, the lookups after outputs 3 to 6 measured 2% slower
/// and the stages after outputs 1 to 3 the same. Returns T and, with
/// `other`, S of the other chain's next input.
#[inline(always)]
fn l_beside_s<M: Machine64, const LOOKUP: u8>(m: M, pi: &Pi<M::V, LOOKUP>, s: &[M::V; 8], add: Option<&[M::V; 8]>, other: Option<&[M::V; 8]>, constant: Option<&[[u8; 64]; 8]>) -> ([M::V; 8], [M::V; 8]) {
    let mut t = [m.zero(); 8];
    let mut next = match other {
        Some(o) => *o,
        None => [m.zero(); 8],
    };
    let mut s_next = [m.zero(); 8];
    for j in 0..8 {
        // l's block from byte 6 to byte 4 is the identity: no product.
        let p = |c: usize| if MATRICES[j][c] == AFFINE_IDENTITY { s[c] } else { m.affine(s[c], MATRICES[j][c]) };
        let a = m.ternlog::<0x96>(p(0), p(1), p(2));
        let b = m.ternlog::<0x96>(p(3), p(4), p(5));
        let last = match add {
            Some(k) => m.ternlog::<0x96>(p(6), p(7), k[j]),
            None => m.xor(p(6), p(7)),
        };
        t[j] = m.ternlog::<0x96>(a, b, last);
        if other.is_some() {
            if j < 3 {
                next = transpose_stage(m, &next);
            }
            if j == 2 {
                if let Some(c) = constant {
                    next = plus_constant(m, &next, c);
                }
            }
            if j >= 4 {
                s_next[2 * (j - 4)] = s_box(m, pi, next[2 * (j - 4)]);
                s_next[2 * (j - 4) + 1] = s_box(m, pi, next[2 * (j - 4) + 1]);
            }
        }
    }
    (t, s_next)
}

/// The rows of `r` plus a round constant: the next key's input.
#[inline(always)]
fn plus_constant<M: Machine64>(m: M, r: &[M::V; 8], c: &[[u8; 64]; 8]) -> [M::V; 8] {
    let mut out = [m.zero(); 8];
    for w in 0..8 {
        out[w] = m.xor(r[w], m.load(&c[w]));
    }
    out
}

/// S of 8 registers. (Plain loops here and above: a closure passed to
/// `array::map` would be called from code compiled without the target's
/// features, not inlined.)
#[inline(always)]
fn s_rows<M: Machine64, const LOOKUP: u8>(m: M, pi: &Pi<M::V, LOOKUP>, x: &[M::V; 8]) -> [M::V; 8] {
    let mut s = [m.zero(); 8];
    for w in 0..8 {
        s[w] = s_box(m, pi, x[w]);
    }
    s
}

/// g_N(h, m) (RFC 6986 §7) of the 8 states in pairs.
#[inline(always)]
fn g_pairs<M: Machine64, const LOOKUP: u8>(m: M, pi: &Pi<M::V, LOOKUP>, hv: &[M::V; 8], nv: &[M::V; 8], mv: &[M::V; 8]) -> [M::V; 8] {
    let mut start = [m.zero(); 8];
    for w in 0..8 {
        start[w] = m.xor(hv[w], nv[w]);
    }
    let k = transpose_pairs(m, &l_beside_s(m, pi, &s_rows(m, pi, &start), None, None, None).0);
    let mut x = [m.zero(); 8];
    for w in 0..8 {
        x[w] = m.xor(mv[w], k[w]);
    }
    // Two chains, the keys and the state, each a round of lookups, then
    // products, then a transpose, every phase needing all of the last:
    // the state's products carry the key's transpose and next lookups,
    // the key's products the state's.
    let mut sk = s_rows(m, pi, &plus_constant(m, &k, &C_PAIRS[0]));
    let mut sx = s_rows(m, pi, &x);
    let mut tk = l_beside_s(m, pi, &sk, None, None, None).0;
    for c in &C_PAIRS[1..11] {
        let tx;
        (tx, sk) = l_beside_s(m, pi, &sx, Some(&tk), Some(&tk), Some(c));
        (tk, sx) = l_beside_s(m, pi, &sk, None, Some(&tx), None);
    }
    let tx;
    (tx, sk) = l_beside_s(m, pi, &sx, Some(&tk), Some(&tk), Some(&C_PAIRS[11]));
    // The last round, LPS(X) ⊕ K_13 with K_13 = LPS(K_12 ⊕ C_12), is L·P
    // of S(X) ⊕ S(K_12 ⊕ C_12), L and P being linear: one L for both.
    sx = s_rows(m, pi, &transpose_pairs(m, &tx));
    for w in 0..8 {
        sx[w] = m.xor(sx[w], sk[w]);
    }
    x = transpose_pairs(m, &l_beside_s(m, pi, &sx, None, None, None).0);
    for w in 0..8 {
        x[w] = m.xor3(x[w], hv[w], mv[w]);
    }
    x
}

/// g_0(IV, m) of the 8 states in pairs from the IV's keys (`keys`:
/// [`iv_keys_pairs`]): the state's chain alone, 12 LPS. With no key chain
/// beside it, each phase waits for the one before (lookups, products,
/// transpose), but a round is about half of [`g_pairs`]' round of two.
#[inline(always)]
fn g_from_iv_pairs<M: Machine64, const LOOKUP: u8>(m: M, pi: &Pi<M::V, LOOKUP>, keys: &[[[u8; 64]; 8]; 13], hv: &[M::V; 8], mv: &[M::V; 8]) -> [M::V; 8] {
    let mut x = [m.zero(); 8];
    for w in 0..8 {
        x[w] = m.xor(mv[w], m.load(&keys[0][w]));
    }
    for k in &keys[1..] {
        x = transpose_pairs(m, &l_beside_s(m, pi, &s_rows(m, pi, &x), None, None, None).0);
        for w in 0..8 {
            x[w] = m.xor(x[w], m.load(&k[w]));
        }
    }
    for w in 0..8 {
        x[w] = m.xor3(x[w], hv[w], mv[w]);
    }
    x
}

/// 8 blocks (zero where `src` is shorter) in pairs.
#[inline(always)]
fn load_pairs<M: Machine64>(m: M, src: &[Block]) -> [M::V; 8] {
    let mut x = [m.zero(); 8];
    // Eight tests of the (public) count: a loop to `src.len()` is compiled
    // into a call of `memcpy` to the stack and loads from there.
    for i in 0..WAYS {
        if i < src.len() {
            x[i] = m.load(&src[i]);
        }
    }
    transpose_lanes(m, &mut x);
    reorder(m, &mut x, m.splat128(&TO_PAIRS));
    x
}

/// g_N(h, m) (RFC 6986 §7) of up to [`WAYS`] states: h[i] ← g_(n[i])(h[i],
/// m[i]). Free lanes run on zeros (the count is public).
pub(super) struct Rows<'a, M, const LOOKUP: u8> {
    pub(super) m: M,
    pub(super) h: &'a mut [Block],
    pub(super) n: &'a [Block],
    pub(super) msg: &'a [Block],
    /// Every compression is a message's first, g_0(IV, `msg[i]`) of this
    /// digest length (`h[i]` the IV, `n` unread): by [`g_from_iv_pairs`].
    pub(super) from_iv: Option<usize>,
}

impl<M: Machine64, const LOOKUP: u8> Job for Rows<'_, M, LOOKUP> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Rows { m, h, n, msg, from_iv } = self;
        assert!(h.len() <= WAYS && msg.len() == h.len());
        let pi = pi_tables::<M, LOOKUP>(m);
        let hv = load_pairs(m, h);
        let mv = load_pairs(m, msg);
        let mut x = match from_iv {
            Some(digest_bytes) => {
                let keys = by_digest(digest_bytes, const { &iv_keys_pairs(32) }, const { &iv_keys_pairs(64) });
                g_from_iv_pairs(m, &pi, keys, &hv, &mv)
            }
            None => {
                assert_eq!(n.len(), h.len(), "one N per block");
                g_pairs(m, &pi, &hv, &load_pairs(m, n), &mv)
            }
        };
        reorder(m, &mut x, m.splat128(&FROM_PAIRS));
        transpose_lanes(m, &mut x);
        for i in 0..WAYS {
            if i < h.len() {
                m.store(x[i], &mut h[i]);
            }
        }
    }
}

/// [`super::Compress::blocks_many`] of up to [`WAYS`] messages: h stays in
/// pairs across the blocks, N and Σ in rows (no transposes or copies
/// between them), Σ with the carries out of its words counted apart
/// (below).
/// The caller checks that no N's low word carries within the call (N is
/// public).
pub(super) struct RowsBlocks<'a, 'b, M, const LOOKUP: u8> {
    pub(super) m: M,
    pub(super) states: &'a mut [&'b mut State],
    pub(super) data: &'a [&'a [u8]],
}

/// Bit 63 of a + b (mod 2^64) is `s`: the carry out of bit 63 in bit 63,
/// (a ∧ b) ∨ ((a ∨ b) ∧ ¬s).
const CARRY_OUT: i32 = 0xd4;

/// Blocks ahead whose lines [`RowsBlocks`] asks for while it loads a
/// block: 8 messages are 8 streams, which the hardware prefetchers do not
/// always keep ahead of, and the next block's loads come a whole
/// compression (some 2 400 instructions) later in program order, past the
/// out-of-order window, so each would wait for its line. On AMD Zen 5, 64
/// messages of 64 KiB (4 MiB, past L2): without it the loads held 5-10%
/// of the samples; with it 1.59 ticks per byte against 1.61 when the VM's
/// memory was quiet, and 1.65 against 1.70 when it was not. Messages that
/// fit in L2 take the same time either way.
const AHEAD: usize = 2;

impl<M: Machine64, const LOOKUP: u8> Job for RowsBlocks<'_, '_, M, LOOKUP> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let RowsBlocks { m, states, data } = self;
        let count = data.first().map_or(0, |d| d.len() / 64);
        assert!(states.len() <= WAYS && data.len() == states.len() && data.iter().all(|d| d.len() == 64 * count));
        let pi = pi_tables::<M, LOOKUP>(m);
        let (mut hv, mut nv, mut sigma) = ([m.zero(); 8], [m.zero(); 8], [m.zero(); 8]);
        for (i, st) in states.iter().enumerate() {
            hv[i] = m.load(&st.h);
            nv[i] = m.load(&st.n);
            sigma[i] = m.load(&st.sigma);
        }
        transpose_lanes(m, &mut hv);
        transpose_lanes(m, &mut nv);
        transpose_lanes(m, &mut sigma);
        let to_pairs = m.splat128(&TO_PAIRS);
        reorder(m, &mut hv, to_pairs);
        // N in pairs for g, in rows for its additions (only row 0 changes).
        let mut n_pairs = nv;
        reorder(m, &mut n_pairs, to_pairs);
        // Σ ← Σ + m word by word (mod 2^64), and carries_w counts the
        // carries out of word w: a few vector instructions per block where
        // a 512-bit addition per state would be 64 dependent scalar ones.
        // They go into words w + 1 once, after the blocks.
        let mut carries = [m.zero(); 8];
        let step = m.splat64(512);
        for b in 0..count {
            let mut mv = [m.zero(); 8];
            for (v, d) in mv.iter_mut().zip(data) {
                *v = m.load(&d[64 * b..]);
                if b + AHEAD < count {
                    m.prefetch(&d[64 * (b + AHEAD)..64 * (b + AHEAD + 1)]);
                }
            }
            transpose_lanes(m, &mut mv);
            for w in 0..8 {
                let sum = m.add64(sigma[w], mv[w]);
                let carry = m.shr64::<63>(m.ternlog::<CARRY_OUT>(sigma[w], mv[w], sum));
                carries[w] = m.add64(carries[w], carry);
                sigma[w] = sum;
            }
            reorder(m, &mut mv, to_pairs);
            hv = g_pairs(m, &pi, &hv, &n_pairs, &mv);
            // Row 0 is N's low word of every state.
            nv[0] = m.add64(nv[0], step);
            n_pairs[0] = m.shuffle8(nv[0], to_pairs);
        }
        // Word w's carries move up to word w + 1 (word 7's leave: mod
        // 2^512), then the rows go back to the states.
        let mut shifted = [m.zero(); 8];
        shifted[1..].copy_from_slice(&carries[..7]);
        reorder(m, &mut hv, m.splat128(&FROM_PAIRS));
        transpose_lanes(m, &mut hv);
        transpose_lanes(m, &mut nv);
        transpose_lanes(m, &mut sigma);
        transpose_lanes(m, &mut shifted);
        let mut moved = [0u8; 64];
        for (i, st) in states.iter_mut().enumerate() {
            m.store(hv[i], &mut st.h);
            m.store(nv[i], &mut st.n);
            m.store(sigma[i], &mut st.sigma);
            m.store(shifted[i], &mut moved);
            add(&mut st.sigma, &moved);
        }
        moved.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::emu::Emu;

    /// Byte k of word w of the lane's state s (0 or 1), as a distinct label.
    fn label(s: usize, w: usize, k: usize) -> u8 {
        (64 * s + 8 * w + k) as u8
    }

    /// 8 registers whose byte 2e + s of every lane is `f(s, w, e)`, w the
    /// register.
    fn pairs(f: impl Fn(usize, usize, usize) -> u8) -> [[u8; 64]; 8] {
        core::array::from_fn(|w| core::array::from_fn(|b| f(b % 2, w, b % 16 / 2)))
    }

    #[test]
    fn rows_go_to_pairs_and_back() {
        let m = Emu::<64>;
        // Rows: register w, 64-bit lane q = word w of state q.
        let rows: [[u8; 64]; 8] = core::array::from_fn(|w| core::array::from_fn(|b| label(b / 8 % 2, w, b % 8)));
        let mut x = rows;
        reorder(m, &mut x, m.splat128(&TO_PAIRS));
        assert_eq!(x, pairs(|s, w, e| label(s, w, bit_reversed(e))));
        reorder(m, &mut x, m.splat128(&FROM_PAIRS));
        assert_eq!(x, rows);
    }

    #[test]
    fn transpose_pairs_swaps_words_and_bytes() {
        let m = Emu::<64>;
        let x = pairs(|s, w, e| label(s, w, bit_reversed(e)));
        let t = transpose_pairs(m, &x);
        // Register c now holds byte c of every word, word w at the element
        // that held byte w.
        assert_eq!(t, pairs(|s, c, e| label(s, bit_reversed(e), c)));
    }
}
