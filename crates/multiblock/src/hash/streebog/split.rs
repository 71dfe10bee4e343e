//! One Streebog message on 256-bit registers with GFNI (`avx2-gfni`): the
//! state X and the key K of g_N (RFC 6986 §7) as two chains in registers
//! of their own, the key's half an LPS ahead, so that the out-of-order
//! core runs one chain's lookups beside the other's products.
//!
//! Why not side by side in the same registers (`paired.rs`, which still
//! runs `avx2` and two messages at once): there the two LPS of a round are
//! one instruction stream, each phase (π's core, the transposition, L's
//! products) waiting for the whole of the one before, with the four
//! registers of the pair all the independent work a phase has; an LPS of
//! the pair takes about 73 core cycles on AMD Zen 4 and Zen 5 against 40
//! to issue its µops. Here each chain is half the work, and the other
//! chain's µops fill the pipes while one waits. The count per LPS of both
//! is the pair's, 156.
//!
//! L·P, from words: byte j of word w of the output is ⊕_c M_(j,c)·(byte
//! w of word c of S(X)), M the 8×8 blocks of l. With 64-bit word c of the
//! value in slot c (register c / 4, word c mod 4), output slot t = ⊕_c
//! M_(j,c)·(slot c) holds byte j of every word, word w at byte w.
//! `vgf2p8affineqb` takes one matrix per 64-bit word: each input register
//! goes in with its words permuted by q ↦ q ⊕ d for d = 0..3, 8 products per
//! output register, each word with its own block ([`matrices`]).
//!
//! The way back to words: a `pshufb` and an unpack per register leave the
//! value "in halves" ([`to_halves`]: each register holds 4 words, their
//! low 32 bits in the low 128-bit lane and their high 32 bits in the high
//! one), with the slots interleaved in the order 0, 1, 4, 5, 2, 3, 6, 7, so
//! L's output slot t holds byte [`ORDER`]`[t]` and the bytes come back in
//! order. The chains keep their values in halves: S is bytewise, so the
//! move across lanes that would end the transposition comes after S, as
//! one `vpermd` per input of L with its word permutation
//! ([`inputs_from_halves`]). Only h ⊕ N (for K_1), m and the output are in
//! words.
//!
//! π's core and its offset are `paired.rs`'s: L's blocks end in π's last
//! linear map, the core returns c ⊕ 0xc7, whose L is a constant k0 (in
//! every word) that every LPS adds; X ⊕ K cancels it, and the key's round
//! constants take it off. The last round's two LPS share one L:
//! LPS(X_12) ⊕ LPS(K_12 ⊕ C_12) = L·P(S(X_12) ⊕ S(K_12 ⊕ C_12)).
//!
//! The key (on X's chain) and the round constants (on the key's) go into
//! L's first sums, before the way back to halves: that way is a byte
//! permutation, so it commutes with the sums, and no step follows it but
//! S. Against adding them after it, Streebog-512 on 64 bytes took 36.4
//! against 37.0 ticks per byte, and on 1 MiB 9.08 against 9.13 (medians
//! of 10 alternating runs on Zen 5): 2 of some 72 core cycles a round.
//!
//! Count per LPS of one chain: S 2 × 16, to halves 4, 8 `vpermd`, 16
//! products, 14 sums, the key or the constant 2: 76 (X's key, K ⊕ C ⊕ C,
//! one more, off its chain).
//!
//! What bounds it on AMD Zen 5, where the simple vector instructions have
//! 2 cycles of latency, `vpermd` 4 and the products 3, and `pshufb`,
//! `vpermd`, the blends and the products share two of the four pipes:
//! the chain of one LPS. With the key chain taken out (X alone, a wrong
//! digest, for timing only) an LPS of X took about 62 core cycles; with
//! both chains a round takes about 72 (against 79 for an LPS of the pair),
//! and with π's core replaced by an XOR (timing only) 46. On AMD Zen 4
//! (one cycle for the simple instructions, 2 for `pshufb`) one 1 MiB
//! Streebog-512 message takes 9.40 ticks per byte with the core at 1.42×
//! the TSC, about 66 core cycles a round of both chains. Measured and not
//! kept: both chains in step instead of the key half an LPS ahead, 1–2%
//! slower; S's chain shortened by 6 steps (−log r by its own lookup, and
//! each sum mod 15 with its table as two lookups and a blend on the sum's
//! bit 4: 4 more µops per register on the two shared pipes), the same
//! time; each of L's inputs taken by both output registers at once (fewer
//! live registers), about 10% slower; the inputs with words swapped inside
//! the lanes (d = 1, 3) as `vpshufd` of the other two (4 `vpermd` per LPS
//! of a chain instead of 8, the rest off the shared pipes), the same time
//! (9.84 against 9.85 ticks per byte for 1 MiB, best of 6 alternating
//! runs): the chain of one LPS binds, not the shared pipes; π's core with
//! its ν0 and ν1 lookups zeroing each other (`ZeroingLogs`' form, α by
//! the products) instead of the blend, one shared-pipe step fewer on the
//! chain, the same time (9.78 against 9.87, best of 8).
//!
//! S's µops count as much as its steps. With three of its any-pipe µops,
//! and their steps, left out (with −log r as log r ⊕ 15: that XOR and the
//! first sum's mod 15; a wrong digest, for timing only) Streebog-512 took
//! 34.1 against 38.3 ticks per byte at 64 bytes and 8.15 against 9.42 at
//! 64 KiB (medians of 6 alternating runs, Zen 5). The first sum as the
//! difference log l − log r mod 15 takes one µop and one step off
//! (`pi_structure.rs`: 1–4% on Zen 4 and Zen 5). Correct forms that take
//! steps off S's chain but not µops measured the same in the benchmark,
//! or slower: the second sum's s and s − 15 made at once (log r − 15 off
//! the chain, one µop more), the same to 1% slower on Zen 4 (best of 6
//! alternating runs); three steps off with the work moved onto the
//! shared pipes (−log r by its own table, each sum mod 15 by two lookups
//! from sums offset so that `pshufb` zeroes the wrong one: 12 `pshufb`
//! per register against 6), in every LPS or only where one chain runs
//! alone (the first compression from the IV's keys, K_1), within the ±5%
//! by which code placement moved the rows between two builds (the
//! many-message rows, whose code did not change, moved as much). Slower:
//! X's chain taking the key's S output instead of its L output (the next
//! X ⊕ K as L·P of S(X ⊕ K) ⊕ S(K ⊕ C), so that X waits for K before L
//! rather than in L's first sum), 8–10%; L's products of both output
//! registers interleaved and their sums shaped to the order the products
//! finish in, the same or 2%.
//!
//! Constant-time: the tables are looked up by `pshufb` in registers and
//! the matrices and `vpermd` indices are constants; the loops count public
//! blocks.

use super::constants::C;
use super::iv_keys::{by_digest, first_keys};
use super::paired::{folded_block, k0, Machine32};
use super::pi_structure::Core;
use super::one_message::{one_message_methods, OneMessage};
use super::compress::{Block, Compress, State};
use crate::gf256;
use crate::simd::{Gfni, Simd};
use core::marker::PhantomData;

/// A 64-byte value: words 0..3, words 4..7.
type Value<M> = [<M as Simd>::V; 2];

/// L's output slot t holds byte `ORDER[t]` of every word (the order
/// [`to_halves`] interleaves the slots in; it is its own inverse).
const ORDER: [usize; 8] = [0, 1, 4, 5, 2, 3, 6, 7];

/// `MATRICES[p][r][d]`: for output register p, input register r with its
/// words permuted by q ↦ q ⊕ d, word q's block: from input slot 4r + (q ⊕
/// d) to output byte `ORDER[4p + q]`.
const fn matrices(domain: u64) -> [[[[u8; 32]; 4]; 2]; 2] {
    let mut t = [[[[0u8; 32]; 4]; 2]; 2];
    let mut p = 0;
    while p < 2 {
        let mut r = 0;
        while r < 2 {
            let mut d = 0;
            while d < 4 {
                let mut q = 0;
                while q < 4 {
                    let block = folded_block(ORDER[4 * p + q], 4 * r + (q ^ d), domain).to_le_bytes();
                    let mut b = 0;
                    while b < 8 {
                        t[p][r][d][8 * q + b] = block[b];
                        b += 1;
                    }
                    q += 1;
                }
                d += 1;
            }
            r += 1;
        }
        p += 1;
    }
    t
}

/// k0 in every word (the core's domain): what every LPS adds.
const fn k0_words(offset: u8, domain: u64) -> Block {
    let k0 = k0(offset, domain);
    let mut t = [0u8; 64];
    let mut b = 0;
    while b < 64 {
        t[b] = k0[b % 8];
        b += 1;
    }
    t
}

/// A value from words to the layout the chains keep between LPS (the
/// transposition's output before its move across lanes): in each
/// register, the low 32 bits of its 4 words in the low 128-bit lane, the
/// high 32 bits in the high lane. 32-bit word q + 4h ← word 2q + h. (Back
/// to words is [`INPUTS_FROM_HALVES`]`[0]`.)
const TO_HALVES: [u32; 8] = [0, 2, 4, 6, 1, 3, 5, 7];

/// A `vpermd` index as bytes.
const fn index(words: [u32; 8]) -> [u8; 32] {
    let mut t = [0u8; 32];
    let mut k = 0;
    while k < 8 {
        t[4 * k] = words[k] as u8;
        k += 1;
    }
    t
}

/// L's inputs from a register in halves: the words permuted by q ↦ q ⊕ d
/// and back from halves in one `vpermd` (32-bit word 2q + h ← (q ⊕ d) + 4h;
/// d = 0 is the way back to words alone).
const INPUTS_FROM_HALVES: [[u8; 32]; 4] = {
    let mut t = [[0u8; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut words = [0u32; 8];
        let mut k = 0;
        while k < 8 {
            words[k] = ((k / 2) ^ d) as u32 + 4 * (k % 2) as u32;
            k += 1;
        }
        t[d] = index(words);
        d += 1;
    }
    t
};

/// A 64-byte value (in memory order) in halves.
const fn in_halves(v: &Block) -> Block {
    let mut t = [0u8; 64];
    let mut b = 0;
    while b < 64 {
        let (r, k, i) = (b / 32, b % 32 / 4, b % 4);
        t[b] = v[32 * r + 4 * TO_HALVES[k] as usize + i];
        b += 1;
    }
    t
}

/// A 64-byte constant in the core's domain and in halves, plus k0 in
/// every word where `plus_k0` (what an LPS leaves in a value).
const fn domain_halves(v: &Block, offset: u8, domain: u64, plus_k0: bool) -> Block {
    let k0 = k0_words(offset, domain);
    let mut t = [0u8; 64];
    let mut b = 0;
    while b < 64 {
        t[b] = gf256::affine_byte(domain, v[b]) ^ if plus_k0 { k0[b] } else { 0 };
        b += 1;
    }
    in_halves(&t)
}

/// C_1..C_12 in the core's domain and in halves, each plus k0 in every
/// word: the key chain's LPS leaves K_(i+1) ⊕ k0, and its next input is
/// K_(i+1) ⊕ C_(i+1).
const fn constants(offset: u8, domain: u64) -> [Block; 12] {
    let mut t = [[0u8; 64]; 12];
    let mut i = 0;
    while i < 12 {
        t[i] = domain_halves(&C[i], offset, domain, true);
        i += 1;
    }
    t
}

/// The keys of g_0(IV, ·) ([`first_keys`]) as the state's chain adds
/// them: K_1 in the core's domain and in halves, K_2..K_13 each plus k0
/// (which the LPS before it leaves in every word).
const fn iv_keys(offset: u8, domain: u64, digest_bytes: usize) -> [Block; 13] {
    let keys = first_keys(digest_bytes);
    let mut t = [[0u8; 64]; 13];
    let mut i = 0;
    while i < 13 {
        t[i] = domain_halves(&keys[i], offset, domain, i > 0);
        i += 1;
    }
    t
}

/// Where [`to_halves`] takes each byte of its output from: byte b of the
/// result (32·register + byte) is byte `HALVES_SOURCE[b]` of its input.
const HALVES_SOURCE: [usize; 64] = {
    let mut t = [0usize; 64];
    let mut b = 0;
    while b < 64 {
        // unpack_lo (register 0) or unpack_hi (register 1) of 16-bit
        // elements: even elements from the first shuffled register, odd
        // from the second; then the `pshufb` by INTERLEAVE inside the lane.
        let (half, lane, off) = (8 * (b / 32), b % 32 / 16 * 16, b % 16);
        let (elem, byte) = (off / 2, off % 2);
        let at = half + elem / 2 * 2 + byte;
        t[b] = 32 * (elem % 2) + lane + INTERLEAVE[at] as usize;
        b += 1;
    }
    t
};

/// The value whose [`to_halves`] is `v`: a constant added before the way
/// back to halves rather than after it, inside L's sums.
const fn before_halves(v: &Block) -> Block {
    let mut t = [0u8; 64];
    let mut b = 0;
    while b < 64 {
        t[HALVES_SOURCE[b]] = v[b];
        b += 1;
    }
    t
}

/// Each of `values` [`before_halves`].
const fn all_before_halves<const N: usize>(values: &[Block; N]) -> [Block; N] {
    let mut t = [[0u8; 64]; N];
    let mut i = 0;
    while i < N {
        t[i] = before_halves(&values[i]);
        i += 1;
    }
    t
}

/// [`iv_keys`] of the core `S` for a `digest_bytes` digest, K_2..K_13
/// [`before_halves`] (K_1 as it is).
#[inline(always)]
fn iv_keys_of<M: Machine32, S: Core<M>>(digest_bytes: usize) -> &'static [Block; 13] {
    by_digest(digest_bytes, const { &iv_keys_before_halves(S::OFFSET, S::DOMAIN, 32) }, const { &iv_keys_before_halves(S::OFFSET, S::DOMAIN, 64) })
}

/// [`iv_keys`], K_2..K_13 [`before_halves`].
const fn iv_keys_before_halves(offset: u8, domain: u64, digest_bytes: usize) -> [Block; 13] {
    let mut t = iv_keys(offset, domain, digest_bytes);
    let mut i = 1;
    while i < 13 {
        t[i] = before_halves(&t[i]);
        i += 1;
    }
    t
}

/// `pshufb` index of [`to_halves`]: in each 128-bit lane, byte 2p + e ←
/// byte p of the lane's word e.
const INTERLEAVE: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut b = 0;
    while b < 32 {
        let l = b % 16;
        t[b] = (8 * (l % 2) + l / 2) as u8;
        b += 1;
    }
    t
};

#[inline(always)]
fn load<M: Machine32, S: Core<M>>(m: M, v: &Block) -> Value<M> {
    [S::enter(m, m.load(&v[..32])), S::enter(m, m.load(&v[32..]))]
}

#[inline(always)]
fn store<M: Machine32, S: Core<M>>(m: M, y: Value<M>, out: &mut Block) {
    m.store(S::leave(m, y[0]), &mut out[..32]);
    m.store(S::leave(m, y[1]), &mut out[32..]);
}

#[inline(always)]
fn xor2<M: Simd>(m: M, a: Value<M>, b: Value<M>) -> Value<M> {
    [m.xor(a[0], b[0]), m.xor(a[1], b[1])]
}

#[inline(always)]
fn xor_block<M: Simd>(m: M, a: Value<M>, b: &Block) -> Value<M> {
    [m.xor(a[0], m.load(&b[..32])), m.xor(a[1], m.load(&b[32..]))]
}

/// Both registers through one `vpermd` index.
#[inline(always)]
fn permute<M: Machine32>(m: M, v: Value<M>, words: &[u8; 32]) -> Value<M> {
    let idx = m.load(words);
    [m.permute32(v[0], idx), m.permute32(v[1], idx)]
}

/// π's core of every byte.
#[inline(always)]
fn s<M: Machine32, S: Core<M>>(m: M, x: Value<M>) -> Value<M> {
    [S::core(m, x[0]), S::core(m, x[1])]
}

/// L's inputs from a value in words: each register and its words
/// permuted by q ↦ q ⊕ d.
#[inline(always)]
fn inputs_from_words<M: Machine32>(m: M, x: Value<M>) -> [[M::V; 4]; 2] {
    let mut inputs = [[x[0]; 4]; 2];
    for r in 0..2 {
        inputs[r] = [x[r], m.shuffle32::<0x4e>(x[r]), m.permute64::<0x4e>(x[r]), m.permute64::<0x1b>(x[r])];
    }
    inputs
}

/// L's inputs from a value in halves, each one `vpermd`: S runs on the
/// halves (it is bytewise), so the move across lanes that ends the
/// transposition comes after it, together with L's word permutations.
#[inline(always)]
fn inputs_from_halves<M: Machine32>(m: M, x: Value<M>) -> [[M::V; 4]; 2] {
    let mut inputs = [[x[0]; 4]; 2];
    for r in 0..2 {
        for d in 0..4 {
            inputs[r][d] = m.permute32(x[r], m.load(&INPUTS_FROM_HALVES[d]));
        }
    }
    inputs
}

/// L·P from its inputs, slots in [`ORDER`] (see the module documentation).
#[inline(always)]
fn l<M: Machine32 + Gfni, S: Core<M>>(m: M, inputs: [[M::V; 4]; 2]) -> Value<M> {
    // The XOR with zero folds away.
    l_plus::<M, S>(m, inputs, [m.zero(); 2])
}

/// L·P from its inputs plus `addend` (in L's output layout), the addend
/// taken into the first sum rather than after the last one, so that it
/// adds no step to the chain.
#[inline(always)]
fn l_plus<M: Machine32 + Gfni, S: Core<M>>(m: M, inputs: [[M::V; 4]; 2], addend: Value<M>) -> Value<M> {
    let matrices: &[[[[u8; 32]; 4]; 2]; 2] = const { &matrices(S::DOMAIN) };
    let mut out = [inputs[0][0]; 2];
    for p in 0..2 {
        let mut acc = [m.zero(); 4];
        for d in 0..4 {
            let first = m.affine_lanes(inputs[0][d], m.load(&matrices[p][0][d]));
            let first = if d == 0 { m.xor(addend[p], first) } else { first };
            acc[d] = m.xor(first, m.affine_lanes(inputs[1][d], m.load(&matrices[p][1][d])));
        }
        out[p] = m.xor(m.xor(acc[0], acc[1]), m.xor(acc[2], acc[3]));
    }
    out
}

/// A 64-byte constant as a value.
#[inline(always)]
fn value<M: Simd>(m: M, v: &Block) -> Value<M> {
    [m.load(&v[..32]), m.load(&v[32..])]
}

/// L's output (slot t: byte `ORDER[t]` of every word) to words in halves.
#[inline(always)]
fn to_halves<M: Machine32>(m: M, y: Value<M>) -> Value<M> {
    let idx = m.load(&INTERLEAVE);
    // Register r, lane h: 16-bit element p = byte p of slots 4r + 2h and
    // 4r + 2h + 1.
    let a = m.shuffle8_opaque(y[0], idx);
    let b = m.shuffle8_opaque(y[1], idx);
    // Lane h, 32-bit element p: byte p of slots 2h, 2h + 1, 2h + 4, 2h + 5,
    // bytes 4h..4h + 3 of word p (words 0..3 in the first register, 4..7
    // in the second).
    [m.unpack_lo::<2>(a, b), m.unpack_hi::<2>(a, b)]
}

/// g_N(h, m) in the core's domain (h, N and m in words).
#[inline(always)]
fn g<M: Machine32 + Gfni, S: Core<M>>(m: M, h: Value<M>, n: Value<M>, msg: Value<M>) -> Value<M> {
    let k0: &Block = const { &in_halves(&k0_words(S::OFFSET, S::DOMAIN)) };
    let constants_before: &[Block; 12] = const { &all_before_halves(&constants(S::OFFSET, S::DOMAIN)) };
    let constants: &[Block; 12] = const { &constants(S::OFFSET, S::DOMAIN) };
    let to: &[u8; 32] = const { &index(TO_HALVES) };
    // K_1 ⊕ k0 (h ⊕ N in words); X_1 = m ⊕ K_1; the key's next input
    // K_1 ⊕ C_1.
    let k1 = to_halves(m, l::<M, S>(m, inputs_from_words(m, s::<M, S>(m, xor2(m, h, n)))));
    let mut x = xor_block(m, xor2(m, permute(m, msg, to), k1), k0);
    // The key chain half an LPS ahead: its products beside X's lookups,
    // its lookups beside X's products.
    // The chains add the key and the constants inside L's sums, before
    // the way back to halves (which is linear), so that no sum follows it.
    let mut sk = s::<M, S>(m, xor_block(m, k1, &constants[0]));
    for c in &constants_before[1..] {
        let c = value(m, c);
        // K_(i+1) ⊕ C_(i+1) (plus k0), before halves.
        let kc = l_plus::<M, S>(m, inputs_from_halves(m, sk), c);
        let sx = s::<M, S>(m, x);
        sk = s::<M, S>(m, to_halves(m, kc));
        x = to_halves(m, l_plus::<M, S>(m, inputs_from_halves(m, sx), xor2(m, kc, c)));
    }
    // X_13 = LPS(X_12) ⊕ LPS(K_12 ⊕ C_12) = L·P(S(X_12) ⊕ S(K_12 ⊕ C_12)):
    // one L for both (the cores' offsets cancel).
    let x = permute(m, to_halves(m, l::<M, S>(m, inputs_from_halves(m, xor2(m, s::<M, S>(m, x), sk)))), &INPUTS_FROM_HALVES[0]);
    [m.xor3(x[0], h[0], msg[0]), m.xor3(x[1], h[1], msg[1])]
}

/// g_0(IV, m) from the IV's keys (`keys`: [`iv_keys`]; h the IV and m in
/// words, in the core's domain): the state's chain alone, 12 LPS, with
/// nothing to wait for but itself.
#[inline(always)]
fn g_from_iv<M: Machine32 + Gfni, S: Core<M>>(m: M, keys: &[Block; 13], h: Value<M>, msg: Value<M>) -> Value<M> {
    let to: &[u8; 32] = const { &index(TO_HALVES) };
    // X_1 = m ⊕ K_1; X_(i+1) = LPS(X_i) ⊕ K_(i+1), the last one X_13.
    let mut x = xor_block(m, permute(m, msg, to), &keys[0]);
    for k in &keys[1..] {
        x = to_halves(m, l_plus::<M, S>(m, inputs_from_halves(m, s::<M, S>(m, x)), value(m, k)));
    }
    let x = permute(m, x, &INPUTS_FROM_HALVES[0]);
    [m.xor3(x[0], h[0], msg[0]), m.xor3(x[1], h[1], msg[1])]
}

/// `avx2-gfni`'s kernel: one message by the two chains here, many by
/// `K` (`paired.rs`: there two messages' pairs side by side fill the
/// pipes) in groups of its lanes, and a message left over by the chains.
pub(crate) struct SplitKernel<M, S, K> {
    m: M,
    many: K,
    _s: PhantomData<fn() -> S>,
}

impl<M, S, K> SplitKernel<M, S, K> {
    pub(crate) fn new(m: M, many: K) -> Self {
        SplitKernel { m, many, _s: PhantomData }
    }
}

impl<M: Machine32 + Gfni, S: Core<M>, K> OneMessage for SplitKernel<M, S, K> {
    type M = M;
    type Regs = Value<M>;
    #[inline(always)]
    fn load(m: M, v: &Block) -> Value<M> {
        load::<M, S>(m, v)
    }
    #[inline(always)]
    fn store(m: M, h: Value<M>, out: &mut Block) {
        store::<M, S>(m, h, out)
    }
    #[inline(always)]
    fn g(m: M, h: Value<M>, n: Value<M>, msg: Value<M>) -> Value<M> {
        g::<M, S>(m, h, n, msg)
    }
    #[inline(always)]
    fn g_from_iv(m: M, digest_bytes: usize, h: Value<M>, msg: Value<M>) -> Value<M> {
        g_from_iv::<M, S>(m, iv_keys_of::<M, S>(digest_bytes), h, msg)
    }
}

impl<M: Machine32 + Gfni, S: Core<M>, K: Compress> Compress for SplitKernel<M, S, K> {
    one_message_methods!(m);
    fn lanes(&self) -> usize {
        self.many.lanes()
    }
    // The groups that fill `many`'s lanes go to it; the messages left over
    // (one message alone too) run as two chains here, as one message does.
    fn g_many(&self, h: &mut [Block], n: &[Block], msg: &[Block]) {
        let whole = h.len() - h.len() % self.many.lanes().max(1);
        let (grouped, rest) = h.split_at_mut(whole);
        self.many.g_many(grouped, &n[..whole], &msg[..whole]);
        for ((h, n), msg) in rest.iter_mut().zip(&n[whole..]).zip(&msg[whole..]) {
            self.g(h, n, msg);
        }
    }
    fn g_many_from_iv(&self, digest_bytes: usize, h: &mut [Block], msg: &[Block]) {
        let whole = h.len() - h.len() % self.many.lanes().max(1);
        let (grouped, rest) = h.split_at_mut(whole);
        self.many.g_many_from_iv(digest_bytes, grouped, &msg[..whole]);
        for (h, msg) in rest.iter_mut().zip(&msg[whole..]) {
            self.chain_from_iv(digest_bytes, h, &[[0; 64]], core::slice::from_ref(msg));
        }
    }
    fn blocks_many(&self, states: &mut [&mut State], data: &[&[u8]]) {
        let whole = states.len() - states.len() % self.many.lanes().max(1);
        let (grouped, rest) = states.split_at_mut(whole);
        self.many.blocks_many(grouped, &data[..whole]);
        for (st, data) in rest.iter_mut().zip(&data[whole..]) {
            self.blocks(st, data);
        }
    }
}
