//! Streebog on 16-byte registers with `pshufb` (`ssse3`, via `ssse3.rs`):
//! the algorithm of `paired.rs` on eight xmm, for x86-64 CPUs without
//! AVX2.
//!
//! Pairing, as in `paired.rs`: in round i of E(K, m) (RFC 6986 §7) the
//! state X and the key K both go through LPS (X ← LPS(X) ⊕ K_(i+1),
//! K_(i+1) = LPS(K_i ⊕ C_i)), two independent LPS with the same tables;
//! K_1 = LPS(h ⊕ N) is alone (X's and K's bytes both compute it).
//!
//! Layout. Register j holds byte j of the 8 words, word w in the 16-bit
//! element w: X's byte at byte 2w, K's at 2w + 1. The ymm kernel's lane j
//! is register j here, so its lane shift (`vperm2i128`) is gone: the
//! products for output register j take the input registers i as they are.
//!
//! LPS: S bytewise; P and the move to L's layout are one transposition
//! ([`transpose`]): the words of P(a) are the bytes of a (τ(8r + c) = 8c +
//! r, §5), so register a, element w ↔ register w, element a, an 8×8
//! transposition of 16-bit elements (X's and K's byte move together) by
//! 24 unpacks (2-, 4- and 8-byte elements) and nothing else, into the
//! same layout. L: output register j = ⊕_i M_(j, i)·(register i), M the
//! 8×8 blocks of l, each product by two 16-byte `pshufb` tables (its
//! input's nibbles), 128 tables (2 KiB) loaded from constant addresses.
//! The products run input by input (its nibbles, then its product into
//! each of the 8 sums): output by output (all 16 nibble registers first)
//! measured 25.4 against 23.9 ticks/byte.
//!
//! S is `paired.rs`'s: π's core c by logarithms (`ZeroingLogs` of
//! `pi_structure.rs`: `Logs` without the blend SSSE3 lacks), ω' folded into L's blocks
//! ([`folded_block`]), every value held under α bytewise (loads and
//! stores go through α and α⁻¹, C_i and L's blocks end in α), the core's
//! offset 0xc7 taken off by the round constants ([`round_constants`]).
//! After a round, X ← LPS(X) ⊕ K_(i+2) is one 16-bit shift (K's byte down
//! to X's) and an XOR; K ⊕ C_(i+2) one XOR with a constant.
//!
//! Count per LPS of the pair (xmm µops, SSSE3):
//!
//! | step | µops |
//! |---|---|
//! | S: 8 × π's core (`ZeroingLogs` 20; `Logs` 20 with SSSE3's blend) | 160 |
//! | transpose: 24 unpacks | 24 |
//! | nibble splits: 8 × (shift, 2 AND) | 24 |
//! | products: 128 `pshufb`, 64 XOR | 192 |
//! | sums: 8 × 7 XOR | 56 |
//! | K into X, C_i into K: 8 × (shift, 2 XOR) | 24 |
//! | **LPS** | **480** |
//!
//! besides 128 table loads (and register copies: SSSE3's two-operand
//! forms). Per block 13 LPS (K_1, then 12 rounds) and ≈ 150 µops to bring N
//! and m into the layout and finish h: ≈ 6 400 µops, 100 per byte. On Zen 4
//! (four vector pipes, of which `pshufb` and shifts mostly share two; see
//! `paired.rs`) 200 of the 480 are `pshufb` and shifts: ≈ 100 core cycles
//! for those two pipes, ≈ 120 for the 480 on four pipes, a floor of ≈ 24
//! core cycles (≈ 17 TSC ticks at the VM's ≈ 1.4 core cycles per tick, see
//! `paired.rs`) per byte.
//!
//! The compiled round (release build, the round loop counted in the
//! disassembly): 777 instructions, the 480 above, 150 loads (L's 128
//! tables, C_i, some of S's tables), 42 spills and reloads, and 116
//! register copies, which Zen 4 renames away: the same kernel in AVX's
//! three-operand encoding (`Xmm<Avx2>`, tried, not kept) ran 1% faster.
//!
//! Measured (Zen 4, TSC 2.596 GHz, best of 3 runs of the benchmark's best
//! of 7 in 20 rounds; 1 MiB, and one 64-byte message): `ssse3` 23.8
//! ticks/byte and 108.4, ≈ 117 ticks
//! (≈ 164 core cycles) per LPS against the 120 counted; in the same runs
//! `avx2` 15.1 and 64.0, `portable` 350 and 1 400. Not measured on a CPU
//! without AVX2. `ZeroingLogs` against `Logs` with SSSE3's blend, at the
//! same count: 23.8 against 24.0 ticks/byte and 100.7 against 101.3
//! (best of 6 alternating runs, Zen 4), the lookups not waiting on the
//! blend.
//!
//! A message's first compression, g_0(IV, m), takes the IV's keys
//! (`iv_keys.rs`) with m in both bytes ([`g_from_iv`]): 12 LPS of the
//! pair against 13. The 3 or 4 compressions that end a message run as one
//! chain with h in registers. A 64-byte message 101.8–102.2 ticks per
//! byte against 104.1–104.2 with neither (Zen 4, best of 6 alternating
//! runs).
//!
//! Everything is constant-time: the tables are indexed by constants or
//! looked up by `pshufb` in registers, the loops count public blocks.

// Index loops over the register arrays: several arrays share the index,
// and the kernel avoids closures (see `simd`).
#![allow(clippy::needless_range_loop)]

use super::iv_keys::by_digest;
use super::pair_constants::{iv_keys, round_constants, Slots};
use super::paired::{core_domain, folded_block};
use super::pi_structure::Core;
use super::compress::{Block, Compress, State};
use crate::gf256;
use super::one_message::{one_message_methods, OneMessage};
use crate::simd::Simd;
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

/// Register j, element w: byte j of word w, X's in the element's low
/// byte and K's in its high byte.
const SLOTS: Slots = Slots { x_at: [0, 2, 4, 6, 8, 10, 12, 14], k_after_x: 1 };

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
    let c: &[[u8; 128]; 12] = const { &round_constants(SLOTS, core_domain(S::OFFSET, S::DOMAIN)) };
    let mut v = h;
    for j in 0..8 {
        v[j] = m.xor(h[j], n[j]);
    }
    // K_1 in both bytes; then X = m ⊕ K_1, K = K_1 ⊕ C_1.
    let k1 = lps::<M, S>(m, v);
    for j in 0..8 {
        v[j] = m.xor3(k1[j], msg[j], m.load(&c[0][16 * j..]));
    }
    for i in 0..12 {
        let w = lps::<M, S>(m, v);
        // X ← LPS(X) ⊕ K_(i+2) (K's byte moved down to X's), K ⊕ C_(i+2).
        for j in 0..8 {
            let x = m.xor(w[j], m.shr16::<8>(w[j]));
            v[j] = if i < 11 { m.xor(x, m.load(&c[i + 1][16 * j..])) } else { x };
        }
    }
    // h ⊕ m ⊕ E(K, m) in X's byte, copied to K's.
    let duplicate = m.load(&DUPLICATE_X);
    for j in 0..8 {
        v[j] = m.shuffle8(m.xor3(v[j], h[j], msg[j]), duplicate);
    }
    v
}

/// g_0(IV, m) from the IV's keys (h the IV of a `digest_bytes` digest, m
/// in both bytes): the state's chain alone, in both bytes, 12 LPS of the
/// pair against 13 for [`g`]. The result in both bytes.
#[inline(always)]
fn g_from_iv<M: Simd, S: Core<M>>(m: M, digest_bytes: usize, h: Regs<M>, msg: Regs<M>) -> Regs<M> {
    let keys = by_digest(digest_bytes, const { &iv_keys(SLOTS, core_domain(S::OFFSET, S::DOMAIN), 32) }, const { &iv_keys(SLOTS, core_domain(S::OFFSET, S::DOMAIN), 64) });
    // X_1 = m ⊕ K_1; X_(i+1) = LPS(X_i) ⊕ K_(i+1), the last one X_13.
    let mut v = msg;
    for j in 0..8 {
        v[j] = m.xor(msg[j], m.load(&keys[0][16 * j..]));
    }
    for k in &keys[1..] {
        let w = lps::<M, S>(m, v);
        for j in 0..8 {
            v[j] = m.xor(w[j], m.load(&k[16 * j..]));
        }
    }
    for j in 0..8 {
        v[j] = m.xor3(v[j], h[j], msg[j]);
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

impl<M: Simd, S: Core<M>> OneMessage for XmmKernel<M, S> {
    type M = M;
    type Regs = Regs<M>;
    #[inline(always)]
    fn load(m: M, v: &Block) -> Regs<M> {
        load::<M, S>(m, v, true)
    }
    #[inline(always)]
    fn load_message(m: M, v: &Block) -> Regs<M> {
        load::<M, S>(m, v, false)
    }
    #[inline(always)]
    fn store(m: M, h: Regs<M>, out: &mut Block) {
        store::<M, S>(m, h, out)
    }
    #[inline(always)]
    fn g(m: M, h: Regs<M>, n: Regs<M>, msg: Regs<M>) -> Regs<M> {
        g::<M, S>(m, h, n, msg)
    }
    #[inline(always)]
    fn g_from_iv(m: M, digest_bytes: usize, h: Regs<M>, msg: Regs<M>) -> Regs<M> {
        g_from_iv::<M, S>(m, digest_bytes, h, msg)
    }
}

impl<M: Simd, S: Core<M>> Compress for XmmKernel<M, S> {
    one_message_methods!(0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Job;
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
