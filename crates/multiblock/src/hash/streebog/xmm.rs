//! Streebog on 16-byte registers with `pshufb` (`ssse3`, via `ssse3.rs`):
//! the algorithm of `paired.rs` on eight xmm.
//!
//! DOC-TODO

// Index loops over the register arrays: several arrays share the index,
// and the kernel avoids closures (see `simd`).
#![allow(clippy::needless_range_loop)]

use super::constants::C;
use super::paired::{folded_block, k0};
use super::pi_structure::Core;
use super::{Block, Compress, State};
use crate::gf256;
use crate::simd::{Job, Simd};
use core::marker::PhantomData;

/// The 8 registers of a pair (or of one value in both bytes).
pub(super) type Regs<M> = [<M as Simd>::V; 8];

/// One 16-byte register's constant.
type Reg = [u8; 16];

/// `[j][i]`: B·n (low) and B·(n << 4) (high) for the nibbles n, B the
/// block from input byte i to output byte j ([`folded_block`]).
const fn nibble_tables(domain: u64) -> [[[Reg; 2]; 8]; 8] {
    let mut t = [[[[0u8; 16]; 2]; 8]; 8];
    let mut j = 0;
    while j < 8 {
        let mut i = 0;
        while i < 8 {
            let block = folded_block(j, i, domain);
            let mut n = 0;
            while n < 16 {
                t[j][i][0][n] = gf256::affine_byte(block, n as u8);
                t[j][i][1][n] = gf256::affine_byte(block, (n as u8) << 4);
                n += 1;
            }
            i += 1;
        }
        j += 1;
    }
    t
}

/// C_1..C_12 in K's bytes (X's zero) of register j, in the core's domain,
/// for a core that returns c ⊕ `offset`: K's bytes take off the k0 that
/// every LPS adds ([`k0`]), and X's bytes of C_1 take it off K_1 in X = m
/// ⊕ K_1 (as `paired.rs`'s `c_packed`).
const fn c_packed(offset: u8, domain: u64) -> [[Reg; 8]; 12] {
    let k0 = k0(offset, domain);
    let mut t = [[[0u8; 16]; 8]; 12];
    let mut i = 0;
    while i < 12 {
        let mut j = 0;
        while j < 8 {
            let mut w = 0;
            while w < 8 {
                t[i][j][2 * w + 1] = gf256::affine_byte(domain, C[i][8 * w + j]) ^ k0[j];
                if i == 0 {
                    t[i][j][2 * w] = k0[j];
                }
                w += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
}

/// X's byte of each 16-bit element copied to K's.
const DUPLICATE_X: Reg = [0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14];

/// Register a, element w ↔ register w, element a: the 8×8 transposition
/// of 16-bit elements (X's and K's byte together), by unpacks of 2-, 4-
/// and 8-byte elements that swap the register index's bits 0, 1, 2 with
/// the element's.
#[inline(always)]
pub(super) fn transpose<M: Simd>(m: M, r: Regs<M>) -> Regs<M> {
    // a[4g + k]: elements 4g..4g + 4 of registers 2k, 2k + 1, interleaved.
    let mut a = r;
    for k in 0..4 {
        a[k] = m.unpack_lo::<2>(r[2 * k], r[2 * k + 1]);
        a[4 + k] = m.unpack_hi::<2>(r[2 * k], r[2 * k + 1]);
    }
    // b[4g + 2f + p]: elements 4g + 2f, 4g + 2f + 1 of registers 4p..4p + 4.
    let mut b = a;
    for g in 0..2 {
        for p in 0..2 {
            let (x, y) = (a[4 * g + 2 * p], a[4 * g + 2 * p + 1]);
            b[4 * g + p] = m.unpack_lo::<4>(x, y);
            b[4 * g + 2 + p] = m.unpack_hi::<4>(x, y);
        }
    }
    // Element e = 4g + 2f + d of all eight registers.
    let mut c = b;
    for g in 0..2 {
        for f in 0..2 {
            let (x, y) = (b[4 * g + 2 * f], b[4 * g + 2 * f + 1]);
            c[4 * g + 2 * f] = m.unpack_lo::<8>(x, y);
            c[4 * g + 2 * f + 1] = m.unpack_hi::<8>(x, y);
        }
    }
    c
}

/// L·P·S of both halves (S's core by `S`, the rest of π in L's blocks).
#[inline(always)]
fn lps<M: Simd, S: Core<M>>(m: M, v: Regs<M>) -> Regs<M> {
    let tables: &[[[Reg; 2]; 8]; 8] = const { &nibble_tables(S::DOMAIN) };
    let mut s = v;
    for r in s.iter_mut() {
        *r = S::core(m, *r);
    }
    let t = transpose(m, s);
    // Input by input: its nibbles, then its product into every output.
    let nibble = m.splat8_opaque(0x0f);
    let mut acc = t;
    for i in 0..8 {
        let lo = m.and(t[i], nibble);
        let hi = m.and(m.shr16::<4>(t[i]), nibble);
        for j in 0..8 {
            let p = m.xor(m.shuffle8(m.load(&tables[j][i][0]), lo), m.shuffle8(m.load(&tables[j][i][1]), hi));
            acc[j] = if i == 0 { p } else { m.xor(acc[j], p) };
        }
    }
    acc
}

/// A 64-byte value in memory order → the layout (register j, element w:
/// byte j of word w), in the core's domain; in both bytes of each
/// element, or in X's with K's zero.
#[inline(always)]
fn load<M: Simd, S: Core<M>>(m: M, v: &Block, both: bool) -> Regs<M> {
    let zero = m.zero();
    let mut r = [zero; 8];
    for p in 0..4 {
        let x = S::enter(m, m.load(&v[16 * p..]));
        let y = if both { x } else { zero };
        // Register w (= 2p, 2p + 1), element j: byte j of word w.
        r[2 * p] = m.unpack_lo::<1>(x, y);
        r[2 * p + 1] = m.unpack_hi::<1>(x, y);
    }
    transpose(m, r)
}

/// X's bytes of the layout back to memory order, out of the core's domain.
#[inline(always)]
fn store<M: Simd, S: Core<M>>(m: M, r: Regs<M>, out: &mut Block) {
    let t = transpose(m, r);
    let low = m.splat32(0x00ff_00ff);
    for p in 0..4 {
        let words = m.packus16(m.and(t[2 * p], low), m.and(t[2 * p + 1], low));
        m.store(S::leave(m, words), &mut out[16 * p..]);
    }
}

/// g_N(h, m) on the layout: h and N in both bytes, m in X's; the result
/// in both.
#[inline(always)]
fn g<M: Simd, S: Core<M>>(m: M, h: Regs<M>, n: Regs<M>, msg: Regs<M>) -> Regs<M> {
    let c: &[[Reg; 8]; 12] = const { &c_packed(S::OFFSET, S::DOMAIN) };
    let mut v = h;
    for j in 0..8 {
        v[j] = m.xor(h[j], n[j]);
    }
    // K_1 in both bytes; then X = m ⊕ K_1, K = K_1 ⊕ C_1.
    let k1 = lps::<M, S>(m, v);
    for j in 0..8 {
        v[j] = m.xor3(k1[j], msg[j], m.load(&c[0][j]));
    }
    for i in 0..12 {
        let w = lps::<M, S>(m, v);
        // X ← LPS(X) ⊕ K_(i+2) (K's byte moved down to X's), K ⊕ C_(i+2).
        for j in 0..8 {
            let x = m.xor(w[j], m.shr16::<8>(w[j]));
            v[j] = if i < 11 { m.xor(x, m.load(&c[i + 1][j])) } else { x };
        }
    }
    // h ⊕ m ⊕ E(K, m) in X's byte, copied to K's.
    let duplicate = m.load(&DUPLICATE_X);
    for j in 0..8 {
        v[j] = m.shuffle8(m.xor3(v[j], h[j], msg[j]), duplicate);
    }
    v
}

/// The kernel on machine `M` (16-byte registers) with π's core `S`.
pub(crate) struct XmmKernel<M, S>(pub(crate) M, PhantomData<fn() -> S>);

impl<M: Simd, S> XmmKernel<M, S> {
    pub(crate) fn new(m: M) -> Self {
        assert_eq!(M::BYTES, 16, "the xmm kernel takes 16-byte registers");
        XmmKernel(m, PhantomData)
    }
}

/// Stage 2 of §8 on whole blocks, h in registers across them.
struct Blocks<'a, M, S> {
    m: M,
    st: &'a mut State,
    data: &'a [u8],
    _s: PhantomData<fn() -> S>,
}

impl<M: Simd, S: Core<M>> Job for Blocks<'_, M, S> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Blocks { m, st, data, .. } = self;
        let mut h = load::<M, S>(m, &st.h, true);
        for block in data.as_chunks::<64>().0 {
            let n = load::<M, S>(m, &st.n, true);
            let msg = load::<M, S>(m, block, false);
            h = g::<M, S>(m, h, n, msg);
            st.advance(block);
        }
        store::<M, S>(m, h, &mut st.h);
    }
}

/// One g_N(h, m).
struct One<'a, M, S> {
    m: M,
    h: &'a mut Block,
    n: &'a Block,
    msg: &'a Block,
    _s: PhantomData<fn() -> S>,
}

impl<M: Simd, S: Core<M>> Job for One<'_, M, S> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let One { m, h, n, msg, .. } = self;
        let out = g::<M, S>(m, load::<M, S>(m, h, true), load::<M, S>(m, n, true), load::<M, S>(m, msg, false));
        store::<M, S>(m, out, h);
    }
}

impl<M: Simd, S: Core<M>> Compress for XmmKernel<M, S> {
    fn g(&self, h: &mut Block, n: &Block, msg: &Block) {
        let m = self.0;
        m.vectorize(One::<M, S> { m, h, n, msg, _s: PhantomData })
    }
    fn blocks(&self, st: &mut State, data: &[u8]) {
        if data.len() >= 64 {
            self.0.vectorize(Blocks::<M, S> { m: self.0, st, data, _s: PhantomData })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::emu::Emu;
    use crate::test_rng::Rng;

    /// Runs [`transpose`] on `M` over 8 registers of bytes.
    struct Transpose<M> {
        m: M,
        input: [[u8; 16]; 8],
    }

    impl<M: Simd> Job for Transpose<M> {
        type Output = [[u8; 16]; 8];
        #[inline(always)]
        fn run(self) -> [[u8; 16]; 8] {
            let Transpose { m, input } = self;
            let mut r = [m.zero(); 8];
            for k in 0..8 {
                r[k] = m.load(&input[k]);
            }
            let t = transpose(m, r);
            let mut out = [[0u8; 16]; 8];
            for k in 0..8 {
                m.store(t[k], &mut out[k]);
            }
            out
        }
    }

    /// Register a, bytes 2w + s ↔ register w, bytes 2a + s, by the
    /// definition, on the emulator and on SSSE3 where the CPU has it.
    fn check_transpose<M: Simd>(m: M, rng: &mut Rng) {
        for _ in 0..20 {
            let mut input = [[0u8; 16]; 8];
            for r in input.iter_mut() {
                r.copy_from_slice(&rng.bytes(16));
            }
            let got = m.vectorize(Transpose { m, input });
            for a in 0..8 {
                for w in 0..8 {
                    for s in 0..2 {
                        assert_eq!(got[w][2 * a + s], input[a][2 * w + s], "register {w}, element {a}, byte {s}");
                    }
                }
            }
        }
    }

    #[test]
    fn transpose_swaps_registers_and_elements() {
        let mut rng = Rng(0x7a_05);
        check_transpose(Emu::<16>, &mut rng);
        #[cfg(target_arch = "x86_64")]
        if let Some(m) = <crate::simd::Xmm<crate::simd::Ssse3> as crate::simd::Machine>::detect() {
            check_transpose(m, &mut rng);
        }
    }

    /// The layout by the definition: register j, element w holds byte j
    /// of word w (X's byte, then K's).
    #[test]
    fn load_and_store_are_the_layout() {
        use super::super::pi_structure::TreeCore;
        let mut rng = Rng(0x10_ad);
        let m = Emu::<16>;
        let v: Block = rng.bytes(64).try_into().unwrap();
        for both in [false, true] {
            let r = load::<_, TreeCore>(m, &v, both);
            for j in 0..8 {
                for w in 0..8 {
                    assert_eq!(r[j][2 * w], v[8 * w + j]);
                    assert_eq!(r[j][2 * w + 1], if both { v[8 * w + j] } else { 0 });
                }
            }
            let mut out = [0u8; 64];
            store::<_, TreeCore>(m, r, &mut out);
            assert_eq!(out, v);
        }
    }
}
