//! One message of a 512-bit Kupyna state on ymm registers with T⊕ and T+
//! in registers of their own, so that the two permutations' rounds overlap:
//! the compressions of `avx2` and `avx2-gfni` for Kupyna-8 … Kupyna-256.
//!
//! Why. In [`super::ymm_rows`]'s compression T⊕ and T+ of a block share
//! four registers (one per lane), and a round is three phases that wait
//! for each other: T+'s carry chain, the S-boxes, MixColumns. The S-boxes
//! keep the two shuffle pipes busy, the other two phases mostly wait on
//! their own latency, and nothing else is in flight to fill them.
//!
//! Layout. The chaining value and T⊕ are packed in 2 registers, no lane
//! idle, as in the output transformation
//! ([`super::ymm_rows::t_xor_packed_512_round`]: register q holds rows
//! 2q | 2q + 4 in lane 0 and 2q + 1 | 2q + 5 in lane 1). T+ runs on two
//! blocks at once in 4 row registers (register a: rows a | a + 4), block
//! 2p in lane 0 and 2p + 1 in lane 1, so that its carry chain stays inside
//! the lanes. T+ does not depend on the chaining value, so it runs ahead:
//! the pair of blocks 2p, 2p + 1 takes its first five rounds beside T⊕ of
//! block 2p − 1 and its last five beside T⊕ of block 2p (half a round of
//! the pair beside each round of T⊕), and the first pair runs whole beside
//! T⊕ of block 0. The µops are those of the shared layout (a T⊕ round in 2
//! registers and half a round of T+ in 4 against a round of both in 4), but
//! each T⊕ round now has independent work beside it.
//!
//! On AMD Zen 4 (`avx2-gfni`, the core at 1.42× the TSC) one message takes
//! about 83 core cycles a round; with T+ left out (a wrong digest, for
//! timing only) about 52, T⊕'s chain alone, against about 71 in which the
//! round's 224 µops issue with their dependencies taken out (`cargo run
//! --release -p multiblock-bench --example op_costs`; 56 at four a cycle,
//! 54 for the 108 that share the two pipes of `vpshufb` and `vpblendvb`,
//! but Zen 4 issues simple µops to those pipes too): the two permutations
//! overlap less than the pipes allow. T+'s own chain is not what holds them
//! apart: with two pairs of T+ in flight, each a quarter of its rounds
//! beside a block's T⊕, it measured the same. Measured and not kept there
//! either: T+'s half round cut in quarters, each before one of T⊕'s three
//! steps in program order, 4% slower (the same on `avx2`).
//!
//! Everything is constant-time: the tables are indexed by constants, the
//! loops count public blocks and rounds.

use core::marker::PhantomData;

use super::constants::{rounds, COLS_512};
use super::job_on::JobOn;
use super::ymm_rows::{add_plus, into_rows, shift_mix, store_rows, t_xor_packed_512, t_xor_packed_512_round, RowMix, PLUS_512_BOTH_LANES};
use super::kernel::State;
use crate::kalyna::nibble::{sbox, to_rows, ENC_ROWS};
use crate::simd::{CrossLanes, Simd};

/// Bytes of a 512-bit block.
const BLOCK: usize = 64;

/// A 512-bit state in the packed layout.
type Packed<M> = [<M as Simd>::V; 2];

/// The packed forms of the two blocks held in 4 row registers (block 2p
/// in lane 0, 2p + 1 in lane 1): `[lane]`.
#[inline(always)]
fn packed_of_pair<M: Simd + CrossLanes>(m: M, rows: &[M::V; 4]) -> [Packed<M>; 2] {
    let swapped = [m.lanes_between(rows[1], rows[1]), m.lanes_between(rows[3], rows[3])];
    let turned = [m.lanes_between(rows[0], rows[0]), m.lanes_between(rows[2], rows[2])];
    // lanes_between(a, b) is a's lane 1 then b's lane 0.
    [
        [m.lanes_between(turned[0], rows[1]), m.lanes_between(turned[1], rows[3])],
        [m.lanes_between(rows[0], swapped[0]), m.lanes_between(rows[2], swapped[1])],
    ]
}

/// Blocks 2p and 2p + 1 (the second may be absent: then the first in both
/// lanes) in T+'s 4 row registers.
#[inline(always)]
fn pair_rows<M: Simd>(m: M, blocks: &[u8], p: usize) -> [M::V; 4] {
    let first = &blocks[2 * BLOCK * p..];
    let pieces: [M::V; 4] = if first.len() >= 2 * BLOCK {
        core::array::from_fn(|i| m.load_lanes(&first[16 * i..], BLOCK))
    } else {
        core::array::from_fn(|i| m.splat128(first[16 * i..16 * i + 16].try_into().expect("16 bytes")))
    };
    to_rows(m, pieces)
}

/// The first (`part` 0: the constants and the S-boxes of rows 0..2 and
/// 4..6) or second half (`part` 1: the other S-boxes, ShiftBytes and
/// MixColumns) of T+'s round `round` on a pair.
#[inline(always)]
fn plus_half<M: Simd + CrossLanes, P: RowMix<M>>(m: M, x: &mut [M::V; 4], round: usize, part: usize) {
    if part == 0 {
        add_plus(m, x, &PLUS_512_BOTH_LANES, round);
        x[0] = sbox(m, x[0], &ENC_ROWS.0[0]);
        x[1] = sbox(m, x[1], &ENC_ROWS.0[1]);
    } else {
        x[2] = sbox(m, x[2], &ENC_ROWS.0[2]);
        x[3] = sbox(m, x[3], &ENC_ROWS.0[3]);
        shift_mix::<M, P, 4>(m, x);
    }
}

/// h ← T⊕(h ⊕ m) ⊕ T+(m) ⊕ h for every block m of `blocks`, h packed.
#[inline(always)]
fn compress_staggered<M: Simd + CrossLanes, P: RowMix<M>>(m: M, h: &mut Packed<M>, blocks: &[u8]) {
    let count = blocks.len() / BLOCK;
    let r = rounds(COLS_512);
    // T+ of the pair in flight, and the packed messages and T+ results of
    // the pair whose T⊕ runs now (`[block mod 2]`).
    let mut plus = [m.zero(); 4];
    let (mut msgs, mut next_msgs) = ([[m.zero(); 2]; 2], [[m.zero(); 2]; 2]);
    let mut done = [[m.zero(); 2]; 2];
    for b in 0..count {
        if b == 0 {
            plus = pair_rows(m, blocks, 0);
            msgs = packed_of_pair(m, &plus);
        } else if b % 2 == 0 {
            msgs = next_msgs;
        }
        let before = *h;
        let mut x = [[m.xor(h[0], msgs[b % 2][0]), m.xor(h[1], msgs[b % 2][1])]];
        // T+'s half round comes first in program order: on Zen 5 that
        // measured 3% faster than after T⊕'s round (on Zen 4 1% slower).
        if b == 0 {
            for round in 0..r {
                plus_half::<M, P>(m, &mut plus, round, 0);
                plus_half::<M, P>(m, &mut plus, round, 1);
                t_xor_packed_512_round::<M, P, 1>(m, &mut x, round);
            }
            done = packed_of_pair(m, &plus);
        } else if b % 2 == 1 && b + 1 < count {
            plus = pair_rows(m, blocks, (b + 1) / 2);
            next_msgs = packed_of_pair(m, &plus);
            for round in 0..r {
                plus_half::<M, P>(m, &mut plus, round / 2, round % 2);
                t_xor_packed_512_round::<M, P, 1>(m, &mut x, round);
            }
        } else if b % 2 == 0 {
            for round in 0..r {
                plus_half::<M, P>(m, &mut plus, r / 2 + round / 2, round % 2);
                t_xor_packed_512_round::<M, P, 1>(m, &mut x, round);
            }
            done = packed_of_pair(m, &plus);
        } else {
            for round in 0..r {
                t_xor_packed_512_round::<M, P, 1>(m, &mut x, round);
            }
        }
        let [x] = x;
        for q in 0..2 {
            h[q] = m.xor3(x[q], done[b % 2][q], before[q]);
        }
    }
}

/// A chaining value in the packed layout.
#[inline(always)]
fn load_packed<M: Simd + CrossLanes>(m: M, h: &State) -> Packed<M> {
    // into_rows gives both lanes alike: lanes_between(a, b) is then a's
    // rows in lane 0 and b's in lane 1.
    let rows: [M::V; 4] = into_rows(m, &h[..BLOCK]);
    [m.lanes_between(rows[0], rows[1]), m.lanes_between(rows[2], rows[3])]
}

/// A packed chaining value back to bytes.
#[inline(always)]
fn store_packed<M: Simd + CrossLanes>(m: M, y: &Packed<M>, h: &mut State) {
    let rows = [y[0], m.lanes_between(y[0], y[0]), y[1], m.lanes_between(y[1], y[1])];
    store_rows(m, &rows, &mut h[..BLOCK]);
}

/// The compression of a 512-bit state over whole blocks.
pub(crate) struct CompressStaggered<'a, P> {
    pub(crate) h: &'a mut State,
    pub(crate) blocks: &'a [u8],
    pub(crate) mix: PhantomData<P>,
}

impl<M: Simd + CrossLanes, P: RowMix<M>> JobOn<M> for CompressStaggered<'_, P> {
    #[inline(always)]
    fn run_on(self, m: M) {
        let mut h = load_packed(m, self.h);
        compress_staggered::<M, P>(m, &mut h, self.blocks);
        store_packed(m, &h, self.h);
    }
}

/// The compressions of whole blocks and then the output transformation
/// T⊕(h) ⊕ h of a 512-bit state, packed from the first block to the
/// digest.
pub(crate) struct FinishStaggered<'a, P> {
    pub(crate) h: &'a mut State,
    pub(crate) blocks: &'a [u8],
    pub(crate) mix: PhantomData<P>,
}

impl<M: Simd + CrossLanes, P: RowMix<M>> JobOn<M> for FinishStaggered<'_, P> {
    #[inline(always)]
    fn run_on(self, m: M) {
        let mut h = load_packed(m, self.h);
        compress_staggered::<M, P>(m, &mut h, self.blocks);
        let mut x = [h];
        t_xor_packed_512::<M, P, 1>(m, &mut x);
        let [x] = x;
        store_packed(m, &[m.xor(x[0], h[0]), m.xor(x[1], h[1])], self.h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::kupyna::job_on::On;
    use crate::hash::kupyna::reference;
    use crate::hash::kupyna::ymm_rows::tests::{Doublings, Products};
    use crate::simd::emu::Emu;
    use crate::simd::Job;
    use crate::test_rng::Rng;

    /// The staggered compression and the one that ends in the output
    /// transformation, 0 to 7 blocks (every place of a pair: the first,
    /// whole pairs, a last block alone), both MixColumns forms, on the
    /// emulated 32-byte machine against `reference`. Messages of all 0x0F,
    /// 0xFF and 0x00 make long and no carry chains in T+'s first round;
    /// the bytes past the 512-bit state stay as they were.
    #[test]
    fn staggered_on_the_emulated_ymm_machine() {
        let mut rng = Rng(0x5a66_e4ed);
        for blocks in 0..=7 {
            for fill in [None, Some(0x0f), Some(0xff), Some(0x00)] {
                let h: State = rng.bytes(128).try_into().expect("128 bytes");
                let msg = match fill {
                    None => rng.bytes(BLOCK * blocks),
                    Some(b) => vec![b; BLOCK * blocks],
                };
                let mut want = h;
                (reference::KERNEL.compress)(COLS_512, &mut want, &msg);
                let (mut a, mut b) = (h, h);
                On(Emu::<32>, CompressStaggered::<Doublings> { h: &mut a, blocks: &msg, mix: PhantomData }).run();
                On(Emu::<32>, CompressStaggered::<Products> { h: &mut b, blocks: &msg, mix: PhantomData }).run();
                assert_eq!(a, want, "doublings: {blocks} blocks, fill {fill:?}");
                assert_eq!(b, want, "products: {blocks} blocks, fill {fill:?}");
                (reference::KERNEL.output)(COLS_512, &mut want);
                let (mut a, mut b) = (h, h);
                On(Emu::<32>, FinishStaggered::<Doublings> { h: &mut a, blocks: &msg, mix: PhantomData }).run();
                On(Emu::<32>, FinishStaggered::<Products> { h: &mut b, blocks: &msg, mix: PhantomData }).run();
                assert_eq!(a, want, "finish, doublings: {blocks} blocks, fill {fill:?}");
                assert_eq!(b, want, "finish, products: {blocks} blocks, fill {fill:?}");
            }
        }
    }
}
