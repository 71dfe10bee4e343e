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
//! Count per LPS (zmm µops): S 4 (2 `vpermi2b`, `vpmovb2m`, `vpblendmb`);
//! spreading 4 `vpermb`; 8 `vgf2p8affineqb`; sums 4 `vpternlogq` and 1
//! `vpxorq` (the round key's XOR folded into a ternlog); the lane move
//! 1 `vpermb`: 22, of them 7 shuffles and 8 affine products. Per block:
//! 25 LPS (K1 = LPS(h ⊕ N), 12 keys, 12 state) = 550, + 12 XORs of C_i,
//! 3 `vpermb` in and out (h is kept transposed between blocks), 4 XORs:
//! ≈ 570 µops per 64 bytes ≈ 8.9 per byte. On Zen 4 a zmm µop takes both
//! halves of the 256-bit pipes: about 2 zmm µops per cycle, shuffles
//! (175 per block) and affine products (200) 1 per cycle each, so the
//! floor is ≈ 285 cycles per block ≈ 4.5 cycles per byte whatever the
//! order. Latency of the state chain per LPS: `vpermi2b` 3 + blend 1 +
//! `vpermb` 3 + affine 3 + ternlog 2 + `vpermb` 3 + xor 1 ≈ 16 cycles,
//! × 13 ≈ 210 per block: below the throughput floor, so the key schedule
//! (independent of the state) fills the gaps. (8 `vpermb` inputs and no
//! lane move: 3 more shuffles per LPS, 3 cycles less latency; the
//! throughput floor is what binds.)
//!
//! Several messages across lanes instead (one message per 64-bit lane, 8
//! messages in 8 zmm, register c = word c of each): S is the same 4 µops
//! per register, the products 64 per LPS of 8 messages (8 per message, as
//! here, with uniform matrices), and P becomes an 8×8 byte transpose
//! across the 8 registers (24 two-source shuffles): 19 µops per message
//! per LPS against 22, the same 8 affine products. The affine products
//! bound both, so it gains at most ≈ 15%; not done.

use super::constants::{l_block, C, PI, TAU};
use super::{Block, Compress, State};
use crate::simd::{Avx512, Gfni, Job, Simd, Vbmi};

/// What this kernel needs of a machine (64-byte registers).
pub(crate) trait Machine64: Simd + Gfni + Vbmi + Avx512 {}
impl<M: Simd + Gfni + Vbmi + Avx512> Machine64 for M {}

/// Input r: lane j, byte k ← byte 8k + (j + r mod 8).
const SPREAD: [[u8; 64]; 4] = {
    let mut t = [[0u8; 64]; 4];
    let mut r = 0;
    while r < 4 {
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

/// The constants, loaded once per call into registers.
struct Regs<M: Simd> {
    pi: [M::V; 4],
    spread: [M::V; 4],
    swap: M::V,
    matrices: [M::V; 8],
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
        let mut spread = [m.zero(); 4];
        for (v, idx) in spread.iter_mut().zip(&SPREAD) {
            *v = m.load(idx);
        }
        let mut matrices = [m.zero(); 8];
        for (v, mat) in matrices.iter_mut().zip(&MATRICES) {
            *v = m.load(mat);
        }
        Regs { pi, spread, swap: m.load(&SWAP_HALVES), matrices, transpose: m.load(&TAU) }
    }
}

/// LPS(x) ⊕ add, both transposed.
#[inline(always)]
fn lps_add<M: Machine64>(m: M, r: &Regs<M>, x: M::V, add: M::V) -> M::V {
    let lo = m.permi2b(r.pi[0], x, r.pi[1]);
    let hi = m.permi2b(r.pi[2], x, r.pi[3]);
    let s = m.select_bit::<7>(x, lo, hi);
    let i0 = m.permb(s, r.spread[0]);
    let i1 = m.permb(s, r.spread[1]);
    let i2 = m.permb(s, r.spread[2]);
    let i3 = m.permb(s, r.spread[3]);
    let mat = &r.matrices;
    let q0 = m.ternlog::<0x96>(m.affine_lanes(i0, mat[0]), m.affine_lanes(i1, mat[2]), m.affine_lanes(i2, mat[4]));
    let q0 = m.ternlog::<0x96>(q0, m.affine_lanes(i3, mat[6]), add);
    let q4 = m.ternlog::<0x96>(m.affine_lanes(i0, mat[1]), m.affine_lanes(i1, mat[3]), m.affine_lanes(i2, mat[5]));
    let q4 = m.xor(q4, m.affine_lanes(i3, mat[7]));
    m.xor(q0, m.permb(q4, r.swap))
}

/// g_N(h, m) (RFC 6986 §7) on transposed h, N and m.
#[inline(always)]
fn g<M: Machine64>(m: M, r: &Regs<M>, h: M::V, n: M::V, msg: M::V) -> M::V {
    let zero = m.zero();
    let mut k = lps_add(m, r, m.xor(h, n), zero);
    let mut x = m.xor(msg, k);
    for c in &C_T {
        let next = lps_add(m, r, m.xor(k, m.load(c)), zero);
        x = lps_add(m, r, x, next);
        k = next;
    }
    m.xor3(x, h, msg)
}

/// The kernel on machine `M`.
pub(crate) struct AffineKernel<M>(pub(crate) M);

struct Blocks<'a, M> {
    m: M,
    st: &'a mut State,
    data: &'a [u8],
}

impl<M: Machine64> Job for Blocks<'_, M> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Blocks { m, st, data } = self;
        let r = Regs::load(m);
        let mut h = m.permb(m.load(&st.h), r.transpose);
        for block in data.as_chunks::<64>().0 {
            let n = m.permb(m.load(&st.n), r.transpose);
            let msg = m.permb(m.load(block), r.transpose);
            h = g(m, &r, h, n, msg);
            st.advance(block);
        }
        m.store(m.permb(h, r.transpose), &mut st.h);
    }
}

struct One<'a, M> {
    m: M,
    h: &'a mut Block,
    n: &'a Block,
    msg: &'a Block,
}

impl<M: Machine64> Job for One<'_, M> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let One { m, h, n, msg } = self;
        let r = Regs::load(m);
        let t = r.transpose;
        let out = g(m, &r, m.permb(m.load(h), t), m.permb(m.load(n), t), m.permb(m.load(msg), t));
        m.store(m.permb(out, t), h);
    }
}

impl<M: Machine64> Compress for AffineKernel<M> {
    fn g(&self, h: &mut Block, n: &Block, msg: &Block) {
        self.0.vectorize(One { m: self.0, h, n, msg })
    }
    fn blocks(&self, st: &mut State, data: &[u8]) {
        if data.len() >= 64 {
            self.0.vectorize(Blocks { m: self.0, st, data })
        }
    }
}
