//! `neon`: constant-time Streebog on aarch64 Advanced SIMD (16-byte
//! registers). The kernel is generic over the machine ([`Machine16`]: NEON,
//! and the emulator in the tests).
//!
//! Pairing, as in `paired.rs`: in round i of E(K, m) (RFC 6986 §7) the
//! state X and the key K both go through LPS (X ← LPS(X) ⊕ K_(i+1),
//! K_(i+1) = LPS(K_i ⊕ C_i)), two independent LPS that need the same
//! tables. So one LPS of the pair runs on 8 registers: register j holds
//! byte j of X's 8 words in its low half (slot w = byte 8w + j of X) and
//! byte j of K's 8 words in its high half (slot 8 + w). K_1 = LPS(h ⊕ N)
//! is alone: both halves compute it.
//!
//! LPS of the pair:
//! - S: π in registers (`Table256`: `TBL` over its first 64 bytes, then
//!   `SUB` and `TBX` over each next 64), 7 per register: 56;
//! - P: the words of P(a) are the bytes of a (τ(8r + c) = 8c + r, §5), so
//!   P is the transposition of the 8×8 byte matrix (register, slot) in
//!   both halves at once: `TRN1`/`TRN2` of byte, 16-bit and 32-bit
//!   elements swap the register index's bits with the slot's bits 0, 1,
//!   2 and leave bit 3 (the half): 3 × 8 = 24;
//! - L: output register j = ⊕_i M_(j, i)·(register i), M_(j, i) the 8×8
//!   bit block of A (§5) from input byte i to output byte j, each product
//!   by two 16-entry nibble tables (`TBL` on one register): the nibbles of
//!   each input (`AND`, `USHR`) 16, 128 `TBL`, 120 `EOR` (four chains per
//!   output): 264;
//! - the round's keys: X ⊕ K_(i+1) and K_(i+1) ⊕ C_(i+2) per register
//!   (`ZIP2` with zero moves K to X's half, two `EOR`): 24.
//!
//! Count: 368 per LPS of the pair, 13 per block (K_1, then 12 rounds):
//! 4 784, plus ≈ 120 per block to bring N and m into the layout (a
//! transposition each) and finish h: ≈ 4 900 vector instructions per
//! 64-byte block, 77 per byte. Beside these, the 128 nibble tables of L
//! (2 KiB) and π's 16 registers are loaded from constant addresses.
//!
//! The compiled round (release build for aarch64, the round loop counted
//! in the disassembly): 597 instructions, of which 375 vector arithmetic
//! (the count above, π's index steps of −128 as `EOR`, and 7 constants
//! made again), 152 loads (134 from the stack: L's 128 tables, which
//! LLVM hoists out of the loop and keeps there, and spills; π by 4 `LD1`
//! of four registers; C_i), 31 stores (spills), 31 register moves and 8
//! scalar: ≈ 7 800 instructions per block, ≈ 120 per byte. The
//! constant-time check under qemu counts ≈ 230k instructions for its
//! Streebog case (messages of 1 and 131 bytes, whole, split and many),
//! against ≈ 3.6M on `portable`. Counted, not measured: no aarch64
//! hardware was at hand; under qemu-user (which says nothing of a real
//! CPU's speed) a 1 MiB message and 64-byte messages one by one take
//! about a third of `portable`'s time (three runs on a shared machine:
//! 1 MiB 0.31, 0.33 and 0.52; 64-byte messages 0.33, 0.30, 0.33).
//!
//! A message's first compression, g_0(IV, m), takes the IV's keys
//! (`iv_keys.rs`) with m in both halves ([`g_from_iv`]): 12 LPS of the
//! pair against 13. The 3 or 4 compressions that end a message run as one
//! chain with h in registers, one transposition in and one out. Counted,
//! not measured: for a 64-byte message that is 51 LPS against 52, and 3
//! loads and stores of h in the layout fewer.
//!
//! Other ways, counted per LPS of the pair:
//! - L by masks over the 64 input bits of each word (64-bit lanes: shift,
//!   compare, `AND`, `EOR` per bit and register of two words): ≈ 2 000;
//! - L as an 8×8 matrix over GF(2^8) (Kazymyrov and Kazymyrova, 2013,
//!   IACR ePrint 2013/556) by `PMULL` of each input with its entry,
//!   summed unreduced in 16 bits and reduced once per output: 16 `PMULL`,
//!   14 `EOR` and ≈ 10 for the reduction per output: ≈ 320;
//! - L by larger tables (`TBL` on 2 or 4 registers, 5- or 6-bit chunks):
//!   still two lookups per byte, each of several registers;
//! - one state per LPS (X and K apart): half of every register unused,
//!   twice the count.
//!
//! Everything is constant-time: π and the nibble tables are looked up by
//! `TBL`/`TBX` in registers, every memory address is a constant or a
//! public offset, the loops count public blocks.

// Index loops over the register arrays: several arrays share the index,
// and the kernel avoids closures (see `simd`).
#![allow(clippy::needless_range_loop)]

use super::constants::{l_block, PI};
use super::iv_keys::by_digest;
use super::pair_constants::{iv_keys, round_constants, Slots, PLAIN};
use super::compress::{Block, Compress, State};
use crate::gf256;
use super::one_message::{one_message_methods, OneMessage};
use crate::simd::{Interleave, Table256};
#[cfg(target_arch = "aarch64")]
use {
    crate::backend::Backend,
    crate::simd::{Machine, Neon},
    crate::BackendInfo,
};

#[cfg(target_arch = "aarch64")]
pub(super) const BACKEND: Backend<(), Box<dyn Compress>> = Backend {
    info: BackendInfo { name: "neon", constant_time: true, ways: 1, needs: <Neon as Machine>::NEEDS },
    available: <Neon as Machine>::available,
    new: |_| Box::new(NeonKernel(Neon::detect().expect("a backend is built only where the CPU runs it"))),
};

/// What the kernel needs of a machine (16-byte registers).
pub(crate) trait Machine16: Table256 + Interleave {}
impl<M: Table256 + Interleave> Machine16 for M {}

/// The 8 registers of a pair (or of one value in both halves).
type Regs<M> = [<M as crate::simd::Simd>::V; 8];

/// One 16-byte register's constant.
type Reg = [u8; 16];

/// `[j][i]`: M_(j, i)·n (low) and M_(j, i)·(n << 4) (high) for the
/// nibbles n, M_(j, i) the block of l from input byte i to output byte j.
static NIBBLES: [[[Reg; 2]; 8]; 8] = {
    let mut t = [[[[0u8; 16]; 2]; 8]; 8];
    let mut j = 0;
    while j < 8 {
        let mut i = 0;
        while i < 8 {
            let mut n = 0;
            while n < 16 {
                t[j][i][0][n] = gf256::affine_byte(l_block(j, i), n as u8);
                t[j][i][1][n] = gf256::affine_byte(l_block(j, i), (n as u8) << 4);
                n += 1;
            }
            i += 1;
        }
        j += 1;
    }
    t
};

/// Register j, slot w: byte j of word w, X's in the low half and K's in
/// the high half.
const SLOTS: Slots = Slots { x_at: [0, 1, 2, 3, 4, 5, 6, 7], k_after_x: 8 };

/// C_1..C_12 in K's half of the layout (X's half zero), π by its table:
/// no offset, no domain.
static ROUND_CONSTANTS: [[u8; 128]; 12] = round_constants(SLOTS, PLAIN);

/// The IV's keys ([`iv_keys`]) of Streebog-256 and Streebog-512.
static IV_KEYS: [[[u8; 128]; 13]; 2] = [iv_keys(SLOTS, PLAIN, 32), iv_keys(SLOTS, PLAIN, 64)];

/// Register j, slot 8h + w ← register w, slot 8h + j: the 8×8 byte
/// matrices of both halves transposed (`TRN` of 1-, 2- and 4-byte
/// elements swap the register's index bit 0, 1, 2 with the slot's).
#[inline(always)]
fn transpose<M: Machine16>(m: M, r: Regs<M>) -> Regs<M> {
    let mut a = r;
    for k in [0, 2, 4, 6] {
        (a[k], a[k + 1]) = (m.trn1::<1>(r[k], r[k + 1]), m.trn2::<1>(r[k], r[k + 1]));
    }
    let mut b = a;
    for k in [0, 1, 4, 5] {
        (b[k], b[k + 2]) = (m.trn1::<2>(a[k], a[k + 2]), m.trn2::<2>(a[k], a[k + 2]));
    }
    let mut c = b;
    for k in 0..4 {
        (c[k], c[k + 4]) = (m.trn1::<4>(b[k], b[k + 4]), m.trn2::<4>(b[k], b[k + 4]));
    }
    c
}

/// L·P·S of both halves.
#[inline(always)]
fn lps<M: Machine16>(m: M, v: Regs<M>) -> Regs<M> {
    let mut s = v;
    for r in s.iter_mut() {
        *r = m.lookup256(&PI, *r);
    }
    let t = transpose(m, s);
    // The nibbles of every input, then output by output its 16 lookups.
    let low = m.splat8(0x0f);
    let mut lo = t;
    let mut hi = t;
    for i in 0..8 {
        lo[i] = m.and(t[i], low);
        hi[i] = m.shr8::<4>(t[i]);
    }
    let mut out = t;
    for j in 0..8 {
        let mut acc = [m.zero(); 4];
        for i in 0..8 {
            let tables = &NIBBLES[j][i];
            let p = m.xor(m.tbl(m.load(&tables[0]), lo[i]), m.tbl(m.load(&tables[1]), hi[i]));
            acc[i % 4] = if i < 4 { p } else { m.xor(acc[i % 4], p) };
        }
        out[j] = m.xor(m.xor(acc[0], acc[1]), m.xor(acc[2], acc[3]));
    }
    out
}

/// A 64-byte value in memory order → the layout, in both halves.
#[inline(always)]
fn load_both<M: Machine16>(m: M, v: &Block) -> Regs<M> {
    let mut r = [m.zero(); 8];
    for (w, word) in v.as_chunks::<8>().0.iter().enumerate() {
        r[w] = m.splat64(u64::from_le_bytes(*word));
    }
    transpose(m, r)
}

/// A 64-byte value → the layout, in the low (X's) half, zeros above.
#[inline(always)]
fn load_low<M: Machine16>(m: M, v: &Block) -> Regs<M> {
    let zero = m.zero();
    let mut r = [zero; 8];
    for (w, word) in v.as_chunks::<8>().0.iter().enumerate() {
        r[w] = m.unpack_lo::<8>(m.splat64(u64::from_le_bytes(*word)), zero);
    }
    transpose(m, r)
}

/// The low half of the layout back to memory order.
#[inline(always)]
fn store<M: Machine16>(m: M, r: Regs<M>, out: &mut Block) {
    let t = transpose(m, r);
    for (w, word) in out.as_chunks_mut::<8>().0.iter_mut().enumerate() {
        *word = m.low64(t[w]).to_le_bytes();
    }
}

/// g_N(h, m) on the layout: h and N in both halves, m in the low half;
/// the result in both halves.
#[inline(always)]
fn g<M: Machine16>(m: M, h: Regs<M>, n: Regs<M>, msg: Regs<M>) -> Regs<M> {
    let zero = m.zero();
    let mut v = h;
    for j in 0..8 {
        v[j] = m.xor(h[j], n[j]);
    }
    // K_1 in both halves; then X = m ⊕ K_1, K = K_1 ⊕ C_1.
    let k1 = lps(m, v);
    for j in 0..8 {
        v[j] = m.xor3(k1[j], msg[j], m.load(&ROUND_CONSTANTS[0][16 * j..]));
    }
    for i in 0..12 {
        let w = lps(m, v);
        // X ← LPS(X) ⊕ K_(i+2) (K copied down to X's half), K ⊕ C_(i+2).
        for j in 0..8 {
            let x = m.xor(w[j], m.unpack_hi::<8>(w[j], zero));
            v[j] = if i < 11 { m.xor(x, m.load(&ROUND_CONSTANTS[i + 1][16 * j..])) } else { x };
        }
    }
    // h ⊕ m ⊕ E(K, m) in X's half, copied to K's.
    for j in 0..8 {
        let x = m.xor3(v[j], h[j], msg[j]);
        v[j] = m.unpack_lo::<8>(x, x);
    }
    v
}

/// g_0(IV, m) from the IV's keys (h the IV of a `digest_bytes` digest, m
/// in both halves): the state's chain alone, in both halves, 12 LPS of
/// the pair against 13 for [`g`]. The result in both halves.
#[inline(always)]
fn g_from_iv<M: Machine16>(m: M, digest_bytes: usize, h: Regs<M>, msg: Regs<M>) -> Regs<M> {
    let keys = by_digest(digest_bytes, &IV_KEYS[0], &IV_KEYS[1]);
    // X_1 = m ⊕ K_1; X_(i+1) = LPS(X_i) ⊕ K_(i+1), the last one X_13.
    let mut v = msg;
    for j in 0..8 {
        v[j] = m.xor(msg[j], m.load(&keys[0][16 * j..]));
    }
    for k in &keys[1..] {
        let w = lps(m, v);
        for j in 0..8 {
            v[j] = m.xor(w[j], m.load(&k[16 * j..]));
        }
    }
    for j in 0..8 {
        v[j] = m.xor3(v[j], h[j], msg[j]);
    }
    v
}

/// The kernel on machine `M`.
pub(crate) struct NeonKernel<M>(pub(crate) M);

impl<M: Machine16> OneMessage for NeonKernel<M> {
    type M = M;
    type Regs = Regs<M>;
    #[inline(always)]
    fn load(m: M, v: &Block) -> Regs<M> {
        load_both(m, v)
    }
    #[inline(always)]
    fn load_message(m: M, v: &Block) -> Regs<M> {
        load_low(m, v)
    }
    #[inline(always)]
    fn store(m: M, h: Regs<M>, out: &mut Block) {
        store(m, h, out)
    }
    #[inline(always)]
    fn g(m: M, h: Regs<M>, n: Regs<M>, msg: Regs<M>) -> Regs<M> {
        g(m, h, n, msg)
    }
    #[inline(always)]
    fn g_from_iv(m: M, digest_bytes: usize, h: Regs<M>, msg: Regs<M>) -> Regs<M> {
        g_from_iv(m, digest_bytes, h, msg)
    }
}

impl<M: Machine16> Compress for NeonKernel<M> {
    one_message_methods!(0);
}
