//! The `avx2` backend's multi-key path (seed §2.0, §2.6): several
//! independent (key, message) streams in one call, each stream in its own
//! slot of the groups of avx2.rs, so that short messages fill the SIMD lanes
//! and key setup is shared too.
//!
//! - Key schedule in SIMD, one key per slot (avx2_key_schedule.rs).
//! - Streams are sorted by length and taken four at a time (ymm, 2 lanes ×
//!   2 nibbles; the last one or two streams: xmm). The blocks all streams of
//!   a set have (the shortest length) run in lockstep, block j of every
//!   stream in one group, read and written in place; what a stream has
//!   beyond that runs alone on the single-key path, keyed by the same SIMD
//!   schedule with its key in every slot.
//!
//! Constant time like avx2.rs: stream lengths (public) decide the work,
//! keys and data only flow through registers.

use super::avx2::{crypt, groups, Slots, Vector, GROUPS_128, GROUPS_256, K32};
use super::avx2_key_schedule::schedule;
use super::key_schedule::MAX_ROUND_KEYS;
use super::Variant;
use crate::cpu::CpuFeatures;
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// Runs the streams on the avx2 path if this CPU has AVX2 (the `avx2`
/// backend's `available` check); returns false, touching nothing, if not.
/// Keys and data lengths must be valid (checked by the caller).
pub(crate) fn run(cpu: &CpuFeatures, v: Variant, enc: bool, streams: &mut [(&[u8], &mut [u8])]) -> bool {
    if !(super::avx2::BACKEND.available)(cpu) {
        return false;
    }
    // SAFETY: AVX2 is present (checked just above).
    unsafe {
        match (enc, v.block_bytes()) {
            (true, 16) => all::<true, 1>(v, streams),
            (false, 16) => all::<false, 1>(v, streams),
            (true, _) => all::<true, 2>(v, streams),
            (false, _) => all::<false, 2>(v, streams),
        }
    }
    true
}

#[target_feature(enable = "avx2")]
unsafe fn all<const ENC: bool, const H: usize>(v: Variant, streams: &mut [(&[u8], &mut [u8])]) {
    // Longest first, so that a set's streams have similar lengths; empty
    // streams need nothing.
    let mut order: Vec<usize> = (0..streams.len()).filter(|&i| !streams[i].1.is_empty()).collect();
    order.sort_by_key(|&i| core::cmp::Reverse(streams[i].1.len()));
    let mut sets = order.chunks(4);
    for set in &mut sets {
        if set.len() > 2 {
            one_set::<__m256i, ENC, H>(v, streams, set);
        } else {
            one_set::<__m128i, ENC, H>(v, streams, set);
        }
    }
}

/// Blocks per stream that run in lockstep at most (the rest runs alone).
const LOCKSTEP_MAX_BLOCKS: usize = 64;

/// Up to 2·LANES streams with one key schedule.
#[inline(always)]
unsafe fn one_set<V: Vector, const ENC: bool, const H: usize>(
    v: Variant,
    streams: &mut [(&[u8], &mut [u8])],
    set: &[usize],
) {
    let bb = 16 * H;
    let r = v.rounds();
    let slots = 2 * V::LANES;
    let mut keys = [[K32::default(); 4]; MAX_ROUND_KEYS];

    // Lockstep over the blocks every stream has (none for a lone stream:
    // the single-key path runs it at full width). Group g of a step takes
    // block j + g of every stream; empty slots work on a scratch block.
    // Capped: gathering the lanes from four streams costs ~10% over one
    // stream's contiguous loads, which pays only while a lone stream would
    // leave the lanes empty.
    let common = if set.len() > 1 { set.iter().map(|&i| streams[i].1.len() / bb).min().unwrap_or(0) } else { 0 };
    let common = common.min(LOCKSTEP_MAX_BLOCKS);
    if common > 0 {
        let mut key_buf = [0u8; 4 * 32];
        let kb = v.key_bytes();
        for (s, &i) in set.iter().enumerate() {
            key_buf[s * kb..(s + 1) * kb].copy_from_slice(streams[i].0);
        }
        schedule::<V, ENC, H>(v, &key_buf, &mut keys);
        key_buf.zeroize();
        let g_max = if H == 1 { GROUPS_128 } else { GROUPS_256 };
        let mut scratch = K32::default();
        let mut base: Slots = [scratch.0.as_mut_ptr(); 4];
        for (b, &i) in base.iter_mut().zip(set) {
            *b = streams[i].1.as_mut_ptr();
        }
        let at = |j: usize| -> Slots {
            let mut s = base;
            for (x, _) in s.iter_mut().zip(set).take(slots) {
                *x = x.add(j * bb);
            }
            s
        };
        let rk = &keys[..=r];
        let mut j = 0;
        while j < common {
            let g = g_max.min(common - j);
            match g {
                1 => groups::<V, ENC, H, 1>(rk, &[at(j)]),
                2 => groups::<V, ENC, H, 2>(rk, &[at(j), at(j + 1)]),
                3 => groups::<V, ENC, H, 3>(rk, &[at(j), at(j + 1), at(j + 2)]),
                _ => groups::<V, ENC, H, 4>(rk, &[at(j), at(j + 1), at(j + 2), at(j + 3)]),
            }
            j += g;
        }
        scratch.zeroize();
    }

    // The rest of each stream alone: its key in all four slots of a ymm
    // schedule gives the single-key form directly.
    for &i in set {
        let (key, data) = (&streams[i].0, &mut streams[i].1);
        let rest = &mut data[common * bb..];
        if rest.is_empty() {
            continue;
        }
        let mut key_buf = [0u8; 4 * 32];
        for k in key_buf.chunks_exact_mut(key.len()).take(4) {
            k.copy_from_slice(key);
        }
        schedule::<__m256i, ENC, H>(v, &key_buf, &mut keys);
        key_buf.zeroize();
        if H == 1 {
            crypt::<ENC, H, GROUPS_128>(&keys[..=r], rest);
        } else {
            crypt::<ENC, H, GROUPS_256>(&keys[..=r], rest);
        }
    }
    for k in &mut keys[..=r] {
        k[..2 * H].iter_mut().for_each(Zeroize::zeroize);
    }
}
