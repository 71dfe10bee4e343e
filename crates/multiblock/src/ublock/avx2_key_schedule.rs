//! The uBlock key schedule (paper §1.5, Algorithm 3; key_schedule.rs is the
//! reference) in AVX2 registers, for 2·LANES keys at once — the seed's
//! "parallel key expansion" (notes/seed-001-ublock.md §2.6.1).
//!
//! The k-bit register is nibble-spread like a block (avx2.rs), one key per
//! slot (low/high nibble × lane), so RK^t comes out in group form: the
//! multi-key path (avx2_multi.rs) gets one key per slot, the single-key
//! kernel the same key in all four. PK is one `vpshufb`; S and T (×2 in
//! GF(2⁴)) two `vpshufb` each on the split nibbles; RC_i is pre-spread
//! ×0x11. Constant time: no table in memory is indexed by key bits.

use super::avx2::{consecutive, key_for_round, load_group, GroupKeys, Vector};
use super::masks::{pk16, rc_nibbles};
use super::tables::{S, T};
use super::Variant;
#[cfg(test)]
use core::arch::x86_64::*;

static RC_SPREAD: [[u8; 16]; 24] = rc_nibbles(0x11);

/// The key schedule (paper §1.5, Algorithm 3) of 2·LANES keys at `keys`
/// (one after another, slot order as in `load_group`) in group form:
/// `out(i, reg, x)` receives register `reg` of RK^i ([X0, X1] or
/// [X0a, X0b, X1a, X1b]), i = 0..=r.
#[inline(always)]
pub(crate) unsafe fn expand<V: Vector>(v: Variant, keys: *const u8, mut out: impl FnMut(usize, usize, V)) {
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
        let k = load_group::<V, 1>(&consecutive::<V, 1, 1>(keys.cast_mut())[0], low);
        let (mut a, mut b) = (k[0], k[1]);
        out(0, 0, a);
        out(0, 1, b);
        for i in 1..=v.rounds() {
            let a1 = a.shuffle(pk); // K0'‖K1' = PK1(K0‖K1)
            let t = a1.xor(rc(i)); // RC only on K0'
            // K2 ^= S(K0' ⊕ RC) (words 0, 1), K3 ^= T(K1') (words 2, 3).
            let u = lookup(t, s_lo, s_hi).blend_hi64(lookup(t, t_lo, t_hi));
            a = b.xor(u); // K2‖K3
            b = a1.swap64(); // K1'‖K0'
            out(i, 0, a);
            out(i, 1, b);
        }
    } else {
        // Registers K0..K3, 16 nibbles each.
        let mut k = load_group::<V, 2>(&consecutive::<V, 2, 1>(keys.cast_mut())[0], low);
        for (reg, &x) in k.iter().enumerate().take(n_regs) {
            out(0, reg, x);
        }
        for i in 1..=v.rounds() {
            let k0 = k[0].shuffle(pk); // PK on K0
            let k1 = k[1].swap64(); // PK on K1: swap its 8-nibble halves
            let k2 = k[2].xor(lookup(k0.xor(rc(i)), s_lo, s_hi));
            let k3 = k[3].xor(lookup(k1, t_lo, t_hi));
            k = [k2, k3, k1, k0];
            for (reg, &x) in k.iter().enumerate().take(n_regs) {
                out(i, reg, x);
            }
        }
    }
}

/// The round keys of the 2·LANES keys in `key_buf` (one after another, the
/// rest of the buffer unused) as `groups` takes them: group form, execution
/// order for the direction, tracked coordinates.
#[inline(always)]
pub(crate) unsafe fn schedule<V: Vector, const ENC: bool, const H: usize>(
    v: Variant,
    key_buf: &[u8; 128],
    out: &mut GroupKeys,
) {
    let r = v.rounds();
    expand::<V>(v, key_buf.as_ptr(), |i, reg, x| {
        let t = if ENC { i } else { r - i };
        key_for_round::<V, ENC, H>(x, t).store_key(&mut out[t][reg]);
    });
}

#[cfg(test)]
mod tests {
    use super::super::key_schedule;
    use super::super::avx2::K32;
    use super::super::key_schedule::MAX_ROUND_KEYS;
    use super::*;

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
        expand::<__m128i>(v, keys, |i, reg, x| x.store_key(&mut out[i][reg]))
    }

    #[target_feature(enable = "avx2")]
    unsafe fn expand_ymm(v: Variant, keys: *const u8, out: &mut GroupKeys) {
        expand::<__m256i>(v, keys, |i, reg, x| x.store_key(&mut out[i][reg]))
    }
}
