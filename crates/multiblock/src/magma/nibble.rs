//! The S-box layer t (GOST R 34.12-2015 §5.2: eight 4-bit S-boxes, π0 on the
//! least significant nibble) arranged for byte-shuffle instructions.
//!
//! Byte b of a 32-bit word holds nibbles n(2b) (low) and n(2b+1) (high).
//!
//! **pshufb** (SSSE3, AVX2, AVX-512BW) looks up 16-entry tables, the same
//! table for every byte of a 128-bit lane. Two index words carry one nibble
//! per byte, moved down to bits 0..3:
//! - `I1`: bytes 0,1 the high nibbles (n1, n3), bytes 2,3 the low ones (n4, n6);
//! - `I2`: bytes 0,1 the low nibbles (n0, n2), bytes 2,3 the high ones (n5, n7).
//!
//! Each table byte packs two S-boxes, (high nibble | low nibble):
//! `P = π1|π4` serves bytes 0 and 2 of `I1`, `Q = π3|π6` bytes 1 and 3 of `I1`,
//! `R = π5|π0` bytes 0 and 2 of `I2`, `S = π7|π2` bytes 1 and 3 of `I2`.
//! Every lookup result is already in its nibble's place; [`KEEP_I1`] keeps
//! the wanted nibbles of the `I1` lookups and its complement those of `I2`.
//! (The pairing is the one of the study "Magma and Kuznyechik with
//! SSE2/AVX/AVX2 and LUTs", §4, rearranged so that one
//! byte-blend per index word replaces two of the masks.)
//!
//! **vpermb** (AVX-512 VBMI) looks up 64-entry tables: the index byte is
//! `nibble | (byte position in the word) << 4`, so one 64-byte table holds the
//! four low-nibble S-boxes π0, π2, π4, π6 and another the four high-nibble
//! ones, pre-shifted into the high nibble.

use super::Sbox;
use crate::simd::Simd;

/// Nibble mask of the word: which output nibbles come from the `I1` lookups.
pub(super) const KEEP_I1: u32 = 0x0F0F_F0F0;
/// The words of `I1` taken from the shifted word `x >> 4` (bytes 0 and 1).
pub(super) const I1_FROM_SHIFTED: u32 = 0x0000_0F0F;
/// The words of `I2` taken from `x >> 4` (bytes 2 and 3).
pub(super) const I2_FROM_SHIFTED: u32 = 0x0F0F_0000;
/// Per-table masks for targets without a byte blend (SSSE3).
pub(super) const KEEP_P: u32 = KEEP_I1 & 0x00FF_00FF;
pub(super) const KEEP_Q: u32 = KEEP_I1 & 0xFF00_FF00;
pub(super) const KEEP_R: u32 = !KEEP_I1 & 0x00FF_00FF;
pub(super) const KEEP_S: u32 = !KEEP_I1 & 0xFF00_FF00;
/// vpermb index tags: byte position b in bits 4..5 of every byte.
pub(super) const POSITION_TAGS: u32 = 0x3020_1000;

/// The four pshufb tables.
pub(super) struct ShufTables {
    pub(super) p: [u8; 16],
    pub(super) q: [u8; 16],
    pub(super) r: [u8; 16],
    pub(super) s: [u8; 16],
}

impl ShufTables {
    pub(super) fn new(sbox: &Sbox) -> ShufTables {
        // An indexed loop over fixed-size rows vectorizes (`from_fn` was four
        // out-of-line byte loops per key).
        let pack = |hi: usize, lo: usize| -> [u8; 16] {
            let (h, l) = (&sbox[hi], &sbox[lo]);
            let mut t = [0u8; 16];
            for v in 0..16 {
                t[v] = (h[v] << 4) | l[v];
            }
            t
        };
        ShufTables { p: pack(1, 4), q: pack(3, 6), r: pack(5, 0), s: pack(7, 2) }
    }

    /// P, Q, R, S in every 128-bit lane.
    #[inline(always)]
    pub(super) fn splat<M: Simd>(&self, m: M) -> [M::V; 4] {
        [m.splat128(&self.p), m.splat128(&self.q), m.splat128(&self.r), m.splat128(&self.s)]
    }
}

/// The two vpermb tables: (low-nibble S-boxes, high-nibble S-boxes << 4).
/// Row by row with fixed-size copies and shifts, which compile to a few
/// vector moves (a byte-indexed form compiles to a scalar loop of 128
/// stores, about 5% of a 64-byte Magma message with key setup).
pub(super) fn permb_tables(sbox: &Sbox) -> ([u8; 64], [u8; 64]) {
    let (mut lo, mut hi) = ([0u8; 64], [0u8; 64]);
    for (j, (l, h)) in lo.chunks_exact_mut(16).zip(hi.chunks_exact_mut(16)).enumerate() {
        l.copy_from_slice(&sbox[2 * j]);
        for (h, &v) in h.iter_mut().zip(&sbox[2 * j + 1]) {
            *h = v << 4;
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    //! Scalar models of the two data flows, step for step as the kernels do them.
    use super::*;
    use crate::magma::SboxSet;

    fn t_reference(sbox: &Sbox, x: u32) -> u32 {
        (0..8).map(|i| u32::from(sbox[i][((x >> (4 * i)) & 0xf) as usize]) << (4 * i)).sum()
    }

    fn bytes(x: u32) -> [u8; 4] {
        x.to_le_bytes()
    }

    /// pshufb on one word: table[idx & 15], or 0 when bit 7 is set.
    fn pshufb(table: &[u8; 16], idx: u32) -> u32 {
        u32::from_le_bytes(bytes(idx).map(|i| if i & 0x80 != 0 { 0 } else { table[usize::from(i & 15)] }))
    }

    fn pshufb_model(t: &ShufTables, x: u32) -> u32 {
        let l = x & 0x0F0F_0F0F;
        let xs = x >> 4;
        // AVX-512BW form: one ternary mux each; AVX2 blends L and H words the same way.
        let i1 = (xs & I1_FROM_SHIFTED) | (l & !I1_FROM_SHIFTED);
        let i2 = (xs & I2_FROM_SHIFTED) | (l & !I2_FROM_SHIFTED);
        let odd = 0xFF00_FF00;
        let s1 = (pshufb(&t.p, i1) & !odd) | (pshufb(&t.q, i1) & odd);
        let s2 = (pshufb(&t.r, i2) & !odd) | (pshufb(&t.s, i2) & odd);
        let y = (s1 & KEEP_I1) | (s2 & !KEEP_I1);
        // SSSE3 form: four masks.
        let y4 = (pshufb(&t.p, i1) & KEEP_P)
            | (pshufb(&t.q, i1) & KEEP_Q)
            | (pshufb(&t.r, i2) & KEEP_R)
            | (pshufb(&t.s, i2) & KEEP_S);
        assert_eq!(y, y4);
        y
    }

    fn vpermb_model(lo: &[u8; 64], hi: &[u8; 64], x: u32) -> u32 {
        let il = (x & 0x0F0F_0F0F) | POSITION_TAGS;
        let ih = ((x >> 4) & 0x0F0F_0F0F) | POSITION_TAGS;
        let look = |t: &[u8; 64], i: u32| u32::from_le_bytes(bytes(i).map(|b| t[usize::from(b & 63)]));
        look(lo, il) | look(hi, ih)
    }

    #[test]
    fn models_compute_the_s_box_layer() {
        let mut x = 0x1234_5678u32;
        for set in SboxSet::ALL {
            let sbox = set.table();
            let shuf = ShufTables::new(sbox);
            let (lo, hi) = permb_tables(sbox);
            for _ in 0..5000 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let want = t_reference(sbox, x);
                assert_eq!(pshufb_model(&shuf, x), want, "{} pshufb {x:08x}", set.name());
                assert_eq!(vpermb_model(&lo, &hi, x), want, "{} vpermb {x:08x}", set.name());
            }
        }
    }

    #[test]
    fn masks_partition_the_word() {
        assert_eq!(KEEP_P | KEEP_Q | KEEP_R | KEEP_S, u32::MAX);
        assert_eq!(KEEP_P.count_ones() + KEEP_Q.count_ones() + KEEP_R.count_ones() + KEEP_S.count_ones(), 32);
    }
}
