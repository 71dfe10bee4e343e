//! Eight Streebog compressions at once, one state per 64-bit lane: the
//! `g_many` of `avx512-gfni`.
//!
//! Layout ("rows"): register w, lane q holds word w of state q (bytes
//! 8w..8w + 7, byte k of the lane = byte 8w + k). Loading 8 blocks into it
//! is the 8×8 transpose of 64-bit lanes (`kalyna/zmm_transpose.rs`).
//!
//! LPS: after S (bytewise, any layout), lane q of register c holds
//! S(X)[8c + w] at byte w, which is byte c of word w of B = P·S(X). So a
//! register is one byte position of all 8 words, what `vgf2p8affineqb`
//! needs, and every lane takes the same matrix: T_j = ⊕_c M_(j,c)·S(R_c)
//! holds, at byte w, output byte j of word w. That is the transposed
//! layout; an 8×8 byte transpose inside every 64-bit lane
//! ([`transpose_bytes`]) brings the next LPS's input back to rows. The
//! round key is added before that transpose: K_(i+1) = transpose(T_K),
//! so X_(i+1) = transpose(T_X ⊕ T_K), one transpose for the sum.
//!
//! Count per LPS of 8 states: S 32 (2 `vpermi2b`, `vpmovb2m`, `vpblendmb`
//! per register), 64 `vgf2p8affineqb` (matrices broadcast from memory), 32
//! `vpternlogq` for the sums (the key folded in), 32 unpacks for the
//! transpose: 160, 20 per state against 22 in `affine.rs`. Of them 10 per
//! state (2 `vpermi2b`, 8 products) go to the two vector pipes that take
//! byte permutations and affine products on AMD Zen 5, against 16 there;
//! at two per core cycle they allow 125 core cycles per block and state,
//! about 1.2 TSC ticks per byte (the core at 1.61× the TSC rate of the
//! Zen 5 VM measured).
//!
//! Measured on Zen 5 (`digest_many` of 64 messages in the benchmark): 2.7
//! ticks per byte for 1 KiB messages (19 compressions per 16 blocks: 2.3
//! per compressed byte, about 1 160 ticks a call of 8 states) and 10.6 for
//! 64 B, where the interleaved pairs of `affine.rs` measure 3.7-3.8 and
//! 14.0-14.3. The compiled round (both chains, 445 instructions) takes
//! about 150 core cycles, near twice that bound, and what binds it is not
//! found: without S the same loop measures 2.2 for 1 KiB messages, without
//! the transposes 2.3, with the two chains run one after the other (the
//! 12 keys first, kept in memory) 3.4; 64 products and their sums timed
//! alone run at two products per cycle.

// Index loops over the row arrays: several arrays share the index.
#![allow(clippy::needless_range_loop)]

use super::affine::Machine64;
use super::constants::{l_block, C, PI};
use super::Block;
use crate::kalyna::zmm_transpose::transpose_lanes;
use crate::simd::{Job, Simd};

/// States one call holds: one per 64-bit lane.
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

/// C_1..C_12 as words (little-endian), to broadcast into rows.
const C_WORDS: [[u64; 8]; 12] = {
    let mut t = [[0u64; 8]; 12];
    let mut i = 0;
    while i < 12 {
        let mut w = 0;
        while w < 8 {
            let mut k = 0;
            while k < 8 {
                t[i][w] |= (C[i][8 * w + k] as u64) << (8 * k);
                k += 1;
            }
            w += 1;
        }
        i += 1;
    }
    t
};

/// The 8×8 byte transpose inside every 64-bit lane: byte c of register w
/// ↔ byte w of register c. Unpacks work on the two 64-bit lanes of each
/// 128-bit lane: the first three stages gather each state's bytes into
/// whole 128-bit lanes (two transposed rows of one state), the fourth puts
/// each state back into its own 64-bit lane.
#[inline(always)]
fn transpose_bytes<M: Simd>(m: M, r: &[M::V; 8]) -> [M::V; 8] {
    let zero = m.zero();
    // Stage 1, per state of the 64-bit lane pair (s = 0 low, 1 high):
    // registers 2i and 2i + 1 interleaved by byte.
    let mut a = [zero; 8];
    for i in 0..4 {
        a[i] = m.unpack_lo::<1>(r[2 * i], r[2 * i + 1]);
        a[4 + i] = m.unpack_hi::<1>(r[2 * i], r[2 * i + 1]);
    }
    // Stage 2: bytes 0..3 (lo) and 4..7 (hi) of registers 0..3 and 4..7
    // as 32-bit groups.
    let mut b = [zero; 8];
    for s in [0, 4] {
        b[s] = m.unpack_lo::<2>(a[s], a[s + 1]);
        b[s + 1] = m.unpack_hi::<2>(a[s], a[s + 1]);
        b[s + 2] = m.unpack_lo::<2>(a[s + 2], a[s + 3]);
        b[s + 3] = m.unpack_hi::<2>(a[s + 2], a[s + 3]);
    }
    // Stage 3: transposed rows (2t, 2t + 1) of one state per 128-bit lane.
    let mut c = [zero; 8];
    for s in [0, 4] {
        c[s] = m.unpack_lo::<4>(b[s], b[s + 2]);
        c[s + 1] = m.unpack_hi::<4>(b[s], b[s + 2]);
        c[s + 2] = m.unpack_lo::<4>(b[s + 1], b[s + 3]);
        c[s + 3] = m.unpack_hi::<4>(b[s + 1], b[s + 3]);
    }
    // Stage 4: row 2t (lo) and 2t + 1 (hi) of both states.
    let mut out = [zero; 8];
    for t in 0..4 {
        out[2 * t] = m.unpack_lo::<8>(c[t], c[4 + t]);
        out[2 * t + 1] = m.unpack_hi::<8>(c[t], c[4 + t]);
    }
    out
}

/// L·P·S of rows `x`, plus `add` (transposed), before the transpose back
/// to rows: T_j = ⊕_c M_(j,c)·S(x_c) ⊕ add_j.
#[inline(always)]
fn lps_transposed<M: Machine64>(m: M, pi: &[M::V; 4], x: &[M::V; 8], add: Option<&[M::V; 8]>) -> [M::V; 8] {
    let mut s = [m.zero(); 8];
    for c in 0..8 {
        let lo = m.permi2b(pi[0], x[c], pi[1]);
        let hi = m.permi2b(pi[2], x[c], pi[3]);
        s[c] = m.select_bit::<7>(x[c], lo, hi);
    }
    let mut t = [m.zero(); 8];
    for j in 0..8 {
        let p = |c: usize| m.affine(s[c], MATRICES[j][c]);
        let a = m.ternlog::<0x96>(p(0), p(1), p(2));
        let b = m.ternlog::<0x96>(p(3), p(4), p(5));
        let last = match add {
            Some(k) => m.ternlog::<0x96>(p(6), p(7), k[j]),
            None => m.xor(p(6), p(7)),
        };
        t[j] = m.ternlog::<0x96>(a, b, last);
    }
    t
}

/// 8 blocks (zero where `src` is shorter) in rows.
#[inline(always)]
fn load_rows<M: Machine64>(m: M, src: &[Block]) -> [M::V; 8] {
    let mut x = [m.zero(); 8];
    for (v, b) in x.iter_mut().zip(src) {
        *v = m.load(b);
    }
    transpose_lanes(m, &mut x);
    x
}

/// g_N(h, m) (RFC 6986 §7) of up to [`WAYS`] states: h[i] ← g_(n[i])(h[i],
/// m[i]). Free lanes run on zeros (the count is public).
pub(super) struct Rows<'a, M> {
    pub(super) m: M,
    pub(super) h: &'a mut [Block],
    pub(super) n: &'a [Block],
    pub(super) msg: &'a [Block],
}

impl<M: Machine64> Job for Rows<'_, M> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Rows { m, h, n, msg } = self;
        assert!(h.len() <= WAYS && n.len() == h.len() && msg.len() == h.len());
        let mut pi = [m.zero(); 4];
        for (i, v) in pi.iter_mut().enumerate() {
            *v = m.load(&PI[64 * i..]);
        }
        let hv = load_rows(m, h);
        let nv = load_rows(m, n);
        let mv = load_rows(m, msg);
        let mut start = [m.zero(); 8];
        for w in 0..8 {
            start[w] = m.xor(hv[w], nv[w]);
        }
        let mut k = transpose_bytes(m, &lps_transposed(m, &pi, &start, None));
        let mut x = [m.zero(); 8];
        for w in 0..8 {
            x[w] = m.xor(mv[w], k[w]);
        }
        for c in &C_WORDS {
            for w in 0..8 {
                start[w] = m.xor(k[w], m.splat64(c[w]));
            }
            let tk = lps_transposed(m, &pi, &start, None);
            let tx = lps_transposed(m, &pi, &x, Some(&tk));
            k = transpose_bytes(m, &tk);
            x = transpose_bytes(m, &tx);
        }
        for w in 0..8 {
            x[w] = m.xor3(x[w], hv[w], mv[w]);
        }
        transpose_lanes(m, &mut x);
        for (v, out) in x.iter().zip(h.iter_mut()) {
            m.store(*v, out);
        }
    }
}
