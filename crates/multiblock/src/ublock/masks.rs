//! Byte-shuffle masks for the SIMD backends, computed at compile time from
//! the spec tables (constants.rs). No unsafe here.
//!
//! The SIMD backends hold a half-block "nibble-spread": byte j of a 16-byte
//! lane holds nibble j (big-endian nibble order, Gao et al.
//! 2024, §1.8), so every nibble permutation of the cipher is one `pshufb` whose
//! mask says, for each output byte, which input byte it takes (out[j] =
//! in[m[j]], 0x80 = zero). A 64-bit half (n = 128) is 16 nibbles: one lane.
//! A 128-bit half (n = 256) is 32 nibbles: two lanes, "a" = nibbles 0..15 and
//! "b" = nibbles 16..31.

use super::constants::{
    PK1, PK2, PK3, PL_128, PL_128_INV, PL_256, PL_256_INV, PR_128, PR_128_INV, PR_256, PR_256_INV,
    RC,
};
use super::variant::Variant;
use crate::permutation::inverse;

/// `<<<₃₂ bits` (bits = 4, 8, 20) on 16 nibbles = two 32-bit words:
/// out[j] = in[8·⌊j/8⌋ + (j mod 8 + bits/4) mod 8] (Gao et al. 2024, §2.5.2, mask A1).
pub(crate) const fn rot32(bits: usize) -> [u8; 16] {
    let s = bits / 4;
    let mut m = [0u8; 16];
    let mut j = 0;
    while j < 16 {
        m[j] = (8 * (j / 8) + (j % 8 + s) % 8) as u8;
        j += 1;
    }
    m
}

/// A byte permutation of 8 bytes (z_i = y_{P[i]}, paper eq. 2) on their 16
/// nibbles: nibble 2i+t takes nibble 2·P[i]+t.
pub(crate) const fn perm8(p: &[u8; 8]) -> [u8; 16] {
    let mut m = [0u8; 16];
    let mut i = 0;
    while i < 8 {
        m[2 * i] = 2 * p[i];
        m[2 * i + 1] = 2 * p[i] + 1;
        i += 1;
    }
    m
}

/// A byte permutation of 16 bytes on 32 nibbles held in two lanes a, b:
/// `m[o][s]` is the mask that moves the nibbles of source lane `s` to their
/// place in output lane `o` (0x80 where the nibble comes from the other
/// lane), so out_o = pshufb(a, m[o][0]) | pshufb(b, m[o][1]).
pub(crate) const fn perm16(p: &[u8; 16]) -> [[[u8; 16]; 2]; 2] {
    let mut m = [[[0x80u8; 16]; 2]; 2];
    let mut i = 0;
    while i < 16 {
        let mut t = 0;
        while t < 2 {
            let dst = 2 * i + t; // output nibble 0..32
            let src = 2 * p[i] as usize + t; // input nibble 0..32
            m[dst / 16][src / 16][dst % 16] = (src % 16) as u8;
            t += 1;
        }
        i += 1;
    }
    m
}

pub(crate) const ROT4: [u8; 16] = rot32(4);
pub(crate) const ROT8: [u8; 16] = rot32(8);
pub(crate) const ROT20: [u8; 16] = rot32(20);

pub(crate) const PL128: [u8; 16] = perm8(&PL_128);
pub(crate) const PR128: [u8; 16] = perm8(&PR_128);
pub(crate) const PL128_INV: [u8; 16] = perm8(&PL_128_INV);
pub(crate) const PR128_INV: [u8; 16] = perm8(&PR_128_INV);

pub(crate) const PL256: [[[u8; 16]; 2]; 2] = perm16(&PL_256);
pub(crate) const PR256: [[[u8; 16]; 2]; 2] = perm16(&PR_256);
pub(crate) const PL256_INV: [[[u8; 16]; 2]; 2] = perm16(&PL_256_INV);
pub(crate) const PR256_INV: [[[u8; 16]; 2]; 2] = perm16(&PR_256_INV);

/// Index maps: (a∘b)[i] = a[b[i]]; gathering x by a∘b is gathering
/// (x gathered by a) by b.
const fn compose(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    let mut m = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        m[i] = a[b[i] as usize];
        i += 1;
    }
    m
}

/// r in the coordinates q: gather by q∘r∘q⁻¹.
const fn conjugate(q: &[u8; 16], r: &[u8; 16]) -> [u8; 16] {
    compose(q, &compose(r, &inverse(q)))
}

const IDENTITY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The most rounds of a 128-bit-block variant.
pub(crate) const MAX_ROUNDS_128: usize = 24;

/// Per-round masks for n = 128 with "tracked" coordinates, which saves the
/// PL shuffle: the registers hold (u, v) with X0 = P_t(u), X1 = P_t(v)
/// (gather by P_t) for one nibble permutation P_t per round t, P_0 = id.
/// PL is then free (it only changes P), PR becomes one shuffle that brings
/// X1 into the new coordinates, and each `<<<₃₂` is conjugated by P_t —
/// still one `pshufb` each. Per round t: `[rot4, rot8, rot20, realign, pinv]`
/// where `pinv` = P_t⁻¹ is what the round key must be gathered by.
///
/// Encryption (Alg. 1): key, S, linear layer under P_t, then
/// P_{t+1} = P_t∘PL and v ← realign(v). Decryption (Alg. 2): key under P_t,
/// P_{t+1} = P_t∘PL⁻¹ and v ← realign(v), then the linear layer under P_{t+1}.
/// PL₁₂₈ is one 8-cycle on bytes, so P_16 = P_24 = id (checked below).
pub(crate) const fn tracked_masks(enc: bool) -> [[[u8; 16]; 5]; MAX_ROUNDS_128 + 1] {
    let (pl, pr) = if enc { (PL128, PR128) } else { (PL128_INV, PR128_INV) };
    let mut out = [[[0u8; 16]; 5]; MAX_ROUNDS_128 + 1];
    let mut p = IDENTITY;
    let mut t = 0;
    while t <= MAX_ROUNDS_128 {
        let pinv = inverse(&p);
        let next = compose(&p, &pl);
        // Rotations act in the coordinates of the linear layer: P_t when
        // encrypting, P_{t+1} when decrypting.
        let q = if enc { p } else { next };
        out[t] = [
            conjugate(&q, &ROT4),
            conjugate(&q, &ROT8),
            conjugate(&q, &ROT20),
            compose(&p, &compose(&pr, &inverse(&next))),
            pinv,
        ];
        p = next;
        t += 1;
    }
    out
}

pub(crate) const TRACKED_ENC: [[[u8; 16]; 5]; MAX_ROUNDS_128 + 1] = tracked_masks(true);
pub(crate) const TRACKED_DEC: [[[u8; 16]; 5]; MAX_ROUNDS_128 + 1] = tracked_masks(false);

/// P_t per round (the inverse of the `pinv` above), encryption then
/// decryption: a round key gathered by P_t⁻¹ for the tracked rounds comes
/// back to plain coordinates gathered by P_t.
pub(crate) static TRACKED_BACK: [[[u8; 16]; MAX_ROUNDS_128 + 1]; 2] = [untracked(&TRACKED_ENC), untracked(&TRACKED_DEC)];

const fn untracked(masks: &[[[u8; 16]; 5]; MAX_ROUNDS_128 + 1]) -> [[u8; 16]; MAX_ROUNDS_128 + 1] {
    let mut out = [[0u8; 16]; MAX_ROUNDS_128 + 1];
    let mut t = 0;
    while t <= MAX_ROUNDS_128 {
        out[t] = inverse(&masks[t][4]);
        t += 1;
    }
    out
}

/// P_16 = P_24 = id in both directions: after the last round the registers
/// are in plain coordinates again (the output whitening key needs no
/// gather and the state no final shuffle).
const _: () = {
    let mut i = 0;
    while i < 16 {
        assert!(TRACKED_ENC[16][4][i] == i as u8 && TRACKED_ENC[24][4][i] == i as u8);
        assert!(TRACKED_DEC[16][4][i] == i as u8 && TRACKED_DEC[24][4][i] == i as u8);
        i += 1;
    }
};

/// The first 16 entries of PK_t (paper Table 6): the permutation of the
/// first 16 nibbles of K0‖K1 — all of it for k = 128; K0 for k = 256, where
/// K1 only swaps its two 8-nibble halves (constants.rs checks that).
pub(crate) const fn pk16(v: Variant) -> [u8; 16] {
    let pk: &[u8] = match v {
        Variant::U128_128 => &PK1,
        Variant::U128_256 => &PK2,
        Variant::U256_256 => &PK3,
    };
    let mut out = [0u8; 16];
    let mut j = 0;
    while j < 16 {
        out[j] = pk[j];
        j += 1;
    }
    out
}

/// RC_1..RC_24 (paper Table 7) on the 8 nibbles of the left 32 bits of K0
/// (nibble-spread, bytes 8..15 zero), each nibble times `mul` (1, or 0x11
/// for both halves of a byte).
pub(crate) const fn rc_nibbles(mul: u8) -> [[u8; 16]; 24] {
    let mut out = [[0u8; 16]; 24];
    let mut i = 0;
    while i < 24 {
        let mut j = 0;
        while j < 8 {
            out[i][j] = ((RC[i] >> (28 - 4 * j)) & 0xf) as u8 * mul;
            j += 1;
        }
        i += 1;
    }
    out
}

/// Nibble-spread form of packed bytes: nibble j of `bytes` in byte j.
#[cfg(test)]
pub(crate) fn spread(bytes: &[u8], out: &mut [u8]) {
    for (i, &b) in bytes.iter().enumerate() {
        out[2 * i] = b >> 4;
        out[2 * i + 1] = b & 0xf;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pshufb(x: &[u8; 16], m: &[u8; 16]) -> [u8; 16] {
        core::array::from_fn(|j| if m[j] & 0x80 != 0 { 0 } else { x[(m[j] & 15) as usize] })
    }

    /// The masks of Gao et al. 2024 (§2.5.1, §2.5.2) for n = 128.
    #[test]
    fn masks_match_the_paper() {
        assert_eq!(ROT4, [1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8]);
        assert_eq!(ROT8, [2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9]);
        assert_eq!(ROT20, [5, 6, 7, 0, 1, 2, 3, 4, 13, 14, 15, 8, 9, 10, 11, 12]);
        assert_eq!(PL128, [2, 3, 6, 7, 8, 9, 12, 13, 0, 1, 4, 5, 14, 15, 10, 11]);
        assert_eq!(PR128, [4, 5, 14, 15, 10, 11, 0, 1, 2, 3, 12, 13, 8, 9, 6, 7]);
        assert_eq!(PL128_INV, [8, 9, 0, 1, 10, 11, 2, 3, 4, 5, 14, 15, 6, 7, 12, 13]);
        assert_eq!(PR128_INV, [6, 7, 8, 9, 0, 1, 14, 15, 12, 13, 4, 5, 10, 11, 2, 3]);
    }

    /// The two-lane masks move every nibble where the byte permutation says.
    #[test]
    fn perm16_is_the_byte_permutation() {
        for p in [PL_256, PR_256, PL_256_INV, PR_256_INV] {
            let m = perm16(&p);
            let y: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ 0xa5);
            let mut n = [0u8; 32];
            spread(&y, &mut n);
            let (a, b): ([u8; 16], [u8; 16]) =
                (n[..16].try_into().unwrap(), n[16..].try_into().unwrap());
            let mut out = [0u8; 32];
            for o in 0..2 {
                let x = pshufb(&a, &m[o][0]);
                let z = pshufb(&b, &m[o][1]);
                for j in 0..16 {
                    out[16 * o + j] = x[j] | z[j];
                }
            }
            let mut want = [0u8; 32];
            let z: [u8; 16] = core::array::from_fn(|i| y[p[i] as usize]);
            spread(&z, &mut want);
            assert_eq!(out, want);
        }
    }
}
