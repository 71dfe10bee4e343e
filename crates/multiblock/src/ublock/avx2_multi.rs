//! The `avx2` backend's multi-key path (seed §2.0, §2.6): several
//! independent (key, message) streams in one call, each stream in its own
//! slot of the groups of avx2.rs, so that short messages fill the SIMD lanes
//! and key setup is shared too.
//!
//! - Key schedule in SIMD, 2·LANES keys at once (seed §2.6.1, "parallel key
//!   expansion"): the k-bit register is nibble-spread like a block, one key
//!   per slot (low/high nibble × lane), so RK^t comes out already in group
//!   form. PK is one `vpshufb`; S and T (×2 in GF(2⁴)) are two `vpshufb`
//!   each on the split nibbles; RC_i is pre-spread ×0x11.
//! - Streams are sorted by length and taken four at a time (ymm, 2 lanes ×
//!   2 nibbles; the last one or two streams: xmm). The blocks all streams of
//!   a set have (the shortest length) run in lockstep, block j of every
//!   stream in one group; what a stream has beyond that runs alone on the
//!   single-key path with its keys taken out of the set's slot.
//!
//! Constant time like avx2.rs: stream lengths (public) decide the work,
//! keys and data only flow through registers.

use super::avx2::{
    crypt, group_key_order, groups, load_group, GroupKeys, Vector, GROUPS_128, GROUPS_256, K32,
};
use super::key_schedule::MAX_ROUND_KEYS;
use super::tables::{PK1, PK2, PK3, RC, S, T};
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
    // Longest first, so that a set's streams have similar lengths.
    let mut order: Vec<usize> = (0..streams.len()).collect();
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

/// Up to 2·LANES streams with one key schedule.
#[inline(always)]
unsafe fn one_set<V: Vector, const ENC: bool, const H: usize>(
    v: Variant,
    streams: &mut [(&[u8], &mut [u8])],
    set: &[usize],
) {
    let bb = 16 * H;
    let (kb, r) = (v.key_bytes(), v.rounds());
    let slots = 2 * V::LANES;

    // Keys of the set, one per slot (unused slots: zero).
    let mut key_buf = [0u8; 4 * 32];
    for (s, &i) in set.iter().enumerate() {
        key_buf[s * kb..(s + 1) * kb].copy_from_slice(streams[i].0);
    }
    let mut plain = Box::new([[K32::default(); 4]; MAX_ROUND_KEYS]);
    expand::<V>(v, key_buf.as_ptr(), &mut plain);
    key_buf.zeroize();
    let mut all_keys = Box::new([[K32::default(); 4]; MAX_ROUND_KEYS]);
    group_key_order::<V, ENC, H>(&plain, r, &mut all_keys);
    plain.zeroize();
    let keys = &all_keys[..=r];

    // Lockstep over the blocks every stream has (none for a lone stream:
    // the single-key path runs it at full width).
    let common = if set.len() > 1 { set.iter().map(|&i| streams[i].1.len() / bb).min().unwrap_or(0) } else { 0 };
    let g_max = if H == 1 { GROUPS_128 } else { GROUPS_256 };
    let mut buf = [0u8; 4 * 4 * 32];
    let mut j = 0;
    while j < common {
        let g = g_max.min(common - j);
        for gi in 0..g {
            for (s, &i) in set.iter().enumerate() {
                let at = (gi * slots + s) * bb;
                buf[at..at + bb].copy_from_slice(&streams[i].1[(j + gi) * bb..(j + gi + 1) * bb]);
            }
        }
        let p = buf.as_mut_ptr();
        match g {
            1 => groups::<V, ENC, H, 1>(keys, p),
            2 => groups::<V, ENC, H, 2>(keys, p),
            3 => groups::<V, ENC, H, 3>(keys, p),
            _ => groups::<V, ENC, H, 4>(keys, p),
        }
        for gi in 0..g {
            for (s, &i) in set.iter().enumerate() {
                let at = (gi * slots + s) * bb;
                streams[i].1[(j + gi) * bb..(j + gi + 1) * bb].copy_from_slice(&buf[at..at + bb]);
            }
        }
        j += g;
    }
    buf.zeroize();

    // The rest of each stream alone, with its slot's keys in every slot.
    let mut single = Box::new([[K32::default(); 4]; MAX_ROUND_KEYS]);
    for (s, &i) in set.iter().enumerate() {
        let rest = &mut streams[i].1[common * bb..];
        if rest.is_empty() {
            continue;
        }
        for (out, k) in single.iter_mut().zip(keys.iter()) {
            for (o, x) in out.iter_mut().zip(k) {
                *o = slot_key(x, V::LANES, s);
            }
        }
        if H == 1 {
            crypt::<ENC, H, GROUPS_128>(&single[..=r], rest);
        } else {
            crypt::<ENC, H, GROUPS_256>(&single[..=r], rest);
        }
    }
    single.zeroize();
    all_keys.zeroize();
}

/// The round-key register of one slot (lane `slot % lanes`, low nibbles
/// for the first `lanes` slots, high for the others) in single-key form:
/// ×0x11, both lanes. Fixed positions only, no secret index.
fn slot_key(k: &K32, lanes: usize, slot: usize) -> K32 {
    let (lane, shift) = (slot % lanes, 4 * (slot / lanes));
    let mut out = K32::default();
    for j in 0..16 {
        let n = (k.0[16 * lane + j] >> shift) & 0xf;
        out.0[j] = n * 0x11;
        out.0[j + 16] = n * 0x11;
    }
    out
}

/// RC_i (paper Table 7) on the 8 nibbles of the left 32 bits of K0, ×0x11.
const fn rc_spread() -> [[u8; 16]; 24] {
    let mut out = [[0u8; 16]; 24];
    let mut i = 0;
    while i < 24 {
        let mut j = 0;
        while j < 8 {
            out[i][j] = ((RC[i] >> (28 - 4 * j)) & 0xf) as u8 * 0x11;
            j += 1;
        }
        i += 1;
    }
    out
}

static RC_SPREAD: [[u8; 16]; 24] = rc_spread();

/// The first 16 entries of PK_t: the permutation of the first 16 nibbles of
/// K0‖K1 (all of it for k = 128; K0 for k = 256, where K1 just swaps its
/// two 8-nibble halves — tables.rs checks that).
fn pk16(v: Variant) -> [u8; 16] {
    let pk: &[u8] = match v {
        Variant::U128_128 => &PK1,
        Variant::U128_256 => &PK2,
        Variant::U256_256 => &PK3,
    };
    core::array::from_fn(|j| pk[j])
}

/// The key schedule (paper §1.5, Algorithm 3) of 2·LANES keys at `keys`
/// (one after another, slot order as in `load_group`) in group form and
/// plain order: out[t] = RK^t, [X0, X1] or [X0a, X0b, X1a, X1b].
#[inline(always)]
pub(crate) unsafe fn expand<V: Vector>(v: Variant, keys: *const u8, out: &mut GroupKeys) {
    let low = V::set1(0x0f);
    let (s_lo, s_hi) = (V::splat(&S), V::splat(&S.map(|x| x << 4)));
    let (t_lo, t_hi) = (V::splat(&T), V::splat(&T.map(|x| x << 4)));
    let pk = V::splat(&pk16(v));
    // Both tables on the split nibbles of x.
    let lookup = |x: V, lo_tab: V, hi_tab: V| lo_tab.shuffle(x.and(low)).xor(hi_tab.shuffle(x.shr4().and(low)));
    let rc = |i: usize| V::splat(&RC_SPREAD[i - 1]);
    let n_regs = v.block_bytes() / 8; // registers per round key: 2 or 4
    if v.key_bytes() == 16 {
        // Register (A, B) = (K0‖K1, K2‖K3), 8 nibbles each quarter.
        let k = load_group::<V, 1>(keys, low);
        let (mut a, mut b) = (k[0], k[1]);
        a.store_key(&mut out[0][0]);
        b.store_key(&mut out[0][1]);
        for i in 1..=v.rounds() {
            let a1 = a.shuffle(pk); // K0'‖K1' = PK1(K0‖K1)
            let t = a1.xor(rc(i)); // RC only on K0'
            // K2 ^= S(K0' ⊕ RC) (words 0, 1), K3 ^= T(K1') (words 2, 3).
            let u = lookup(t, s_lo, s_hi).blend_hi64(lookup(t, t_lo, t_hi));
            a = b.xor(u); // K2‖K3
            b = a1.swap64(); // K1'‖K0'
            a.store_key(&mut out[i][0]);
            b.store_key(&mut out[i][1]);
        }
    } else {
        // Registers K0..K3, 16 nibbles each.
        let mut k = load_group::<V, 2>(keys, low);
        for (o, x) in out[0].iter_mut().zip(&k).take(n_regs) {
            x.store_key(o);
        }
        for i in 1..=v.rounds() {
            let k0 = k[0].shuffle(pk); // PK on K0
            let k1 = k[1].swap64(); // PK on K1: swap its 8-nibble halves
            let k2 = k[2].xor(lookup(k0.xor(rc(i)), s_lo, s_hi));
            let k3 = k[3].xor(lookup(k1, t_lo, t_hi));
            k = [k2, k3, k1, k0];
            for (o, x) in out[i].iter_mut().zip(&k).take(n_regs) {
                x.store_key(o);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::key_schedule;
    use super::*;

    fn rng(seed: &mut u64) -> u8 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed >> 24) as u8
    }

    /// The SIMD key schedule equals the reference one in every slot.
    #[test]
    fn simd_key_schedule_equals_reference() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut seed = 0x1234_5678_9abc_def1u64;
        for v in [Variant::U128_128, Variant::U128_256, Variant::U256_256] {
            for lanes in [1usize, 2] {
                for _ in 0..20 {
                    let kb = v.key_bytes();
                    let keys: Vec<u8> = (0..4 * 32).map(|_| rng(&mut seed)).collect();
                    let mut out = [[K32::default(); 4]; MAX_ROUND_KEYS];
                    // SAFETY: AVX2 checked above.
                    unsafe {
                        if lanes == 1 {
                            expand_xmm(v, keys.as_ptr(), &mut out)
                        } else {
                            expand_ymm(v, keys.as_ptr(), &mut out)
                        }
                    }
                    for slot in 0..2 * lanes {
                        let want = key_schedule::expand(v, &keys[slot * kb..(slot + 1) * kb]);
                        for t in 0..=v.rounds() {
                            let mut n = [0u8; 64];
                            super::super::masks::spread(&want[t][..v.block_bytes()], &mut n);
                            for (reg, nib) in n[..2 * v.block_bytes()].chunks_exact(16).enumerate() {
                                let got = slot_key(&out[t][reg], lanes, slot);
                                let want: Vec<u8> = nib.iter().map(|x| x * 0x11).collect();
                                assert_eq!(got.0[..16], want[..], "{v:?} lanes {lanes} slot {slot} RK{t} reg {reg}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[target_feature(enable = "avx2")]
    unsafe fn expand_xmm(v: Variant, keys: *const u8, out: &mut GroupKeys) {
        expand::<__m128i>(v, keys, out)
    }

    #[target_feature(enable = "avx2")]
    unsafe fn expand_ymm(v: Variant, keys: *const u8, out: &mut GroupKeys) {
        expand::<__m256i>(v, keys, out)
    }
}
