//! `portable`: uBlock (all three variants) bitsliced on `u64` in plain
//! Rust, 64 blocks a batch: the constant-time default wherever no SIMD
//! backend runs.
//!
//! A half-block X0 or X1 of H bytes is 8H words (`B`), word 8i + q holding
//! bit q of byte i of that half in all 64 blocks (`kernel::bitslice`). In
//! this form the round's byte permutations PL/PR and the rotations of the
//! big-endian 32-bit words (<<<4, 8, 8, 20) are word renamings, so a round
//! (Algorithm 1 of the design document, 2H bytes a block) costs, per block
//! bit (2B words):
//! - round key XOR: 1 op (the key bits are spread to all-ones/zero words);
//! - S on each nibble: uBlock's S-box from its ANF (`bitslice::sub4`):
//!   11 ANDs + 25 XORs/NOTs per nibble, 9 ops a bit;
//! - the linear layer: 6 half-block XORs, 3 ops a bit;
//! - PL, PR: a copy, 1 op a bit (a move; no ALU work).
//!
//! About 14 ops per block bit per round: for uBlock-128/128, 16 rounds ×
//! 128 bits × 14 = 28.7k ops per 64 blocks of 16 bytes, 28 ops/byte, 42
//! for the 24-round variants, plus the transposes (2 × 1152 ops per 512
//! bytes, 4.5 ops/byte).
//!
//! Constant-time: no table, branch or address depends on the key or the
//! data. The key schedule is the reference one (key_schedule.rs) with S
//! and T read by a full scan selected by masks ([`ct_lookup`]); a short
//! batch is zero-filled in the kernel's own state (its length is public).

use super::super::key_schedule::expand_with;
use super::super::constants::{PL_128, PL_128_INV, PL_256, PL_256_INV, PR_128, PR_128_INV, PR_256, PR_256_INV, S, S_INV};
use super::super::variant::{Keys, Variant};
use crate::backend::{Backend, BlockKernel};
use crate::kernel::bitslice::{anf, portable_backend, spread, sub4, transpose64, WAYS};
use crate::kernel::{self, BatchCipher};
use crate::simd::Portable;
use subtle::{ConditionallySelectable, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop};

pub(crate) const BACKEND: Backend<Keys> = portable_backend(keyed);

/// The kernel of the key's block size (`B` = bits per half-block).
fn keyed(keys: &Keys) -> Box<dyn BlockKernel> {
    match keys.variant.block_bytes() {
        16 => (kernel::backend::<Portable, Bitsliced<64>>("portable", true, WAYS).new)(keys),
        _ => (kernel::backend::<Portable, Bitsliced<128>>("portable", true, WAYS).new)(keys),
    }
}

/// `table[x]` without indexing by `x`: every entry is read and the one
/// whose position equals `x` kept, selected by masks (`subtle`).
fn ct_lookup(table: &[u8; 16], x: u8) -> u8 {
    let mut out = 0u8;
    for (i, t) in (0u8..).zip(table) {
        out.conditional_assign(t, x.ct_eq(&i));
    }
    out
}

const S_ANF: u64 = anf(&S);
const S_INV_ANF: u64 = anf(&S_INV);

/// Word maps of a half of `B` bits, each `out[i] = in[map[i]]`.
struct Maps<const B: usize>;

impl<const B: usize> Maps<B> {
    const ROT4: [u8; B] = rotation::<B>(4);
    const ROT8: [u8; B] = rotation::<B>(8);
    const ROT20: [u8; B] = rotation::<B>(20);
    const PL: [u8; B] = bytes::<B>(if B == 64 { &PL_128 } else { &PL_256 });
    const PR: [u8; B] = bytes::<B>(if B == 64 { &PR_128 } else { &PR_256 });
    const PL_INV: [u8; B] = bytes::<B>(if B == 64 { &PL_128_INV } else { &PL_256_INV });
    const PR_INV: [u8; B] = bytes::<B>(if B == 64 { &PR_128_INV } else { &PR_256_INV });
}

/// `x <<<₃₂ r` on every big-endian 32-bit word (byte 4w is the word's
/// most significant): output bit p of a word is input bit p − r.
const fn rotation<const B: usize>(r: usize) -> [u8; B] {
    let mut map = [0u8; B];
    let mut o = 0;
    while o < B {
        let (byte, q) = (o / 8, o % 8);
        let first = byte - byte % 4;
        let p = 8 * (3 - byte % 4) + q;
        let src = (p + 32 - r) % 32;
        map[o] = (8 * (first + 3 - src / 8) + src % 8) as u8;
        o += 1;
    }
    map
}

/// The byte permutation z_i = y_{P[i]} (paper eq. 2) on bit words.
const fn bytes<const B: usize>(p: &[u8]) -> [u8; B] {
    let mut map = [0u8; B];
    let mut o = 0;
    while o < B {
        map[o] = 8 * p[o / 8] + (o % 8) as u8;
        o += 1;
    }
    map
}

/// `dst[i] ^= src[map[i]]`.
#[inline(always)]
fn xor_from<const B: usize>(dst: &mut [u64; B], src: &[u64; B], map: &[u8; B]) {
    for (d, &m) in dst.iter_mut().zip(map) {
        *d ^= src[usize::from(m)];
    }
}

/// `x ^= y`.
#[inline(always)]
fn xor<const B: usize>(x: &mut [u64; B], y: &[u64; B]) {
    x.iter_mut().zip(y).for_each(|(a, b)| *a ^= b);
}

/// `x = x[map]`.
#[inline(always)]
fn permute<const B: usize>(x: &mut [u64; B], map: &[u8; B]) {
    let src = *x;
    for (d, &m) in x.iter_mut().zip(map) {
        *d = src[usize::from(m)];
    }
}

/// The S-box of ANF `anf` on every nibble (bits 4n..4n+4, low bit first).
#[inline(always)]
fn sub<const B: usize>(x: &mut [u64; B], anf: u64) {
    for n in x.chunks_exact_mut(4) {
        let y = sub4(anf, [n[0], n[1], n[2], n[3]]);
        n.copy_from_slice(&y);
    }
}

/// RK⁰..RK^r, each bit spread over a word: round key i is words
/// 2B·i..2B·(i+1), X0's bits first. Wiped on drop.
#[derive(Zeroize, ZeroizeOnDrop)]
struct Bitsliced<const B: usize> {
    rk: Vec<u64>,
    #[zeroize(skip)]
    rounds: usize,
}

impl<const B: usize> Bitsliced<B> {
    /// Bytes per block.
    const BLOCK: usize = B / 4;

    /// The two halves of round key `i`.
    #[inline(always)]
    fn key(&self, i: usize) -> (&[u64], &[u64]) {
        self.rk[2 * B * i..2 * B * (i + 1)].split_at(B)
    }

    #[inline(always)]
    fn add_key(&self, x0: &mut [u64; B], x1: &mut [u64; B], i: usize) {
        let (k0, k1) = self.key(i);
        x0.iter_mut().zip(k0).for_each(|(a, b)| *a ^= b);
        x1.iter_mut().zip(k1).for_each(|(a, b)| *a ^= b);
    }

    /// Algorithm 1, steps 3–13.
    #[inline(always)]
    fn round(&self, x0: &mut [u64; B], x1: &mut [u64; B], i: usize) {
        self.add_key(x0, x1, i);
        sub(x0, S_ANF);
        sub(x1, S_ANF);
        xor(x1, x0);
        xor_from(x0, x1, &Maps::<B>::ROT4);
        xor_from(x1, x0, &Maps::<B>::ROT8);
        xor_from(x0, x1, &Maps::<B>::ROT8);
        xor_from(x1, x0, &Maps::<B>::ROT20);
        xor(x0, x1);
        permute(x0, &Maps::<B>::PL);
        permute(x1, &Maps::<B>::PR);
    }

    /// Algorithm 2, steps 3–15 (the inverse of [`Self::round`]).
    #[inline(always)]
    fn inv_round(&self, y0: &mut [u64; B], y1: &mut [u64; B], i: usize) {
        self.add_key(y0, y1, i);
        permute(y0, &Maps::<B>::PL_INV);
        permute(y1, &Maps::<B>::PR_INV);
        xor(y0, y1);
        xor_from(y1, y0, &Maps::<B>::ROT20);
        xor_from(y0, y1, &Maps::<B>::ROT8);
        xor_from(y1, y0, &Maps::<B>::ROT8);
        xor_from(y0, y1, &Maps::<B>::ROT4);
        xor(y1, y0);
        sub(y0, S_INV_ANF);
        sub(y1, S_INV_ANF);
    }

    /// `batch` (whole blocks, at most 64) into bitsliced halves: each
    /// 8-byte column of the blocks is one 64×64 transpose.
    #[inline(always)]
    fn load(batch: &[u8], x0: &mut [u64; B], x1: &mut [u64; B]) {
        let mut col = [0u64; 64];
        for c in 0..Self::BLOCK / 8 {
            for (w, block) in col.iter_mut().zip(batch.chunks_exact(Self::BLOCK)) {
                *w = u64::from_le_bytes(block[8 * c..8 * c + 8].try_into().expect("8 bytes"));
            }
            transpose64(&mut col);
            let half = if c < B / 64 { &mut *x0 } else { &mut *x1 };
            let at = 64 * (c % (B / 64));
            half[at..at + 64].copy_from_slice(&col);
        }
        col.zeroize();
    }

    /// The inverse of [`Self::load`].
    #[inline(always)]
    fn store(batch: &mut [u8], x0: &[u64; B], x1: &[u64; B]) {
        let mut col = [0u64; 64];
        for c in 0..Self::BLOCK / 8 {
            let half = if c < B / 64 { x0 } else { x1 };
            let at = 64 * (c % (B / 64));
            col.copy_from_slice(&half[at..at + 64]);
            transpose64(&mut col);
            for (w, block) in col.iter().zip(batch.chunks_exact_mut(Self::BLOCK)) {
                block[8 * c..8 * c + 8].copy_from_slice(&w.to_le_bytes());
            }
        }
        col.zeroize();
    }

    #[inline(always)]
    fn crypt(&self, batch: &mut [u8], decrypt: bool) {
        let (mut x0, mut x1) = ([0u64; B], [0u64; B]);
        Self::load(batch, &mut x0, &mut x1);
        let r = self.rounds;
        if decrypt {
            for i in (1..=r).rev() {
                self.inv_round(&mut x0, &mut x1, i);
            }
            self.add_key(&mut x0, &mut x1, 0);
        } else {
            for i in 0..r {
                self.round(&mut x0, &mut x1, i);
            }
            self.add_key(&mut x0, &mut x1, r);
        }
        Self::store(batch, &x0, &x1);
        x0.zeroize();
        x1.zeroize();
    }
}

impl<const B: usize> BatchCipher<Portable> for Bitsliced<B> {
    type Keys = Keys;
    const BATCH_BYTES: usize = WAYS * B / 4;
    const GRANULE_BYTES: usize = B / 4;

    fn new(_: Portable, keys: &Keys) -> Self {
        let v: Variant = keys.variant;
        let mut rks = expand_with(v, keys.key(), ct_lookup);
        let mut rk = Vec::with_capacity(2 * B * (v.rounds() + 1));
        for k in &rks[..=v.rounds()] {
            for &byte in &k[..Self::BLOCK] {
                rk.extend((0..8).map(|q| spread(u64::from(byte >> q))));
            }
        }
        rks.zeroize();
        Bitsliced { rk, rounds: v.rounds() }
    }
    #[inline(always)]
    fn encrypt(&self, _: Portable, batch: &mut [u8]) {
        self.crypt(batch, false)
    }
    #[inline(always)]
    fn decrypt(&self, _: Portable, batch: &mut [u8]) {
        self.crypt(batch, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ct_lookup_reads_the_table() {
        for x in 0..16u8 {
            assert_eq!(ct_lookup(&S, x), S[usize::from(x)]);
            assert_eq!(ct_lookup(&S_INV, x), S_INV[usize::from(x)]);
        }
    }

    /// The word maps against the byte-level definitions on one block.
    #[test]
    fn rotation_maps_match_the_word_rotation() {
        let x: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a);
        let bit = |b: &[u8], i: usize| (b[i / 8] >> (i % 8)) & 1;
        for r in [4, 8, 20] {
            let mut want = [0u8; 16];
            for (o, i) in want.chunks_exact_mut(4).zip(x.chunks_exact(4)) {
                o.copy_from_slice(&u32::from_be_bytes(i.try_into().unwrap()).rotate_left(r as u32).to_be_bytes());
            }
            let map = rotation::<128>(r);
            for o in 0..128 {
                assert_eq!(bit(&want, o), bit(&x, usize::from(map[o])), "<<<{r}, bit {o}");
            }
        }
    }
}
