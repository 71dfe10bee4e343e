//! The row-sliced Kalyna rounds shared by the `avx512-gfni` and `avx2-gfni`
//! backends, written once over every machine with GFNI; a [`Layer`]
//! (`layers.rs`) gives the S-boxes and the transposes in and out of rows.
//!
//! Layout. A batch is 8 registers; register i holds row i of the state of
//! every block in the batch, 8 bytes (one 64-bit lane) per 64-byte chunk, the
//! chunk's columns 0..7 in order. A chunk holds 4, 2 or 1 whole blocks, so
//! - SubBytes is one S-box per register (π_{i mod 4});
//! - ShiftRows rotates inside each 64-bit lane: one in-lane `vpshufb` for
//!   every row with δ_i ≠ 0 (rows 4..7, 2..7 or 1..7 for nb = 2, 4, 8);
//! - MixColumns needs no data movement at all: out_i = ⊕_j v_j·R_{i+j}, each
//!   product by a constant one `vgf2p8affineqb` (the map x ↦ c·x of
//!   GF(2^8)/0x11d as an 8×8 bit matrix), sums by 3-input XORs.
//!
//! MixColumns (`pair_sum.rs`), v = (01 01 05 01 08 06 07 04), per output
//! register (indices relative to i, mod 8): out = A ⊕ 2·B ⊕ 4·C ⊕ 8·R_4 ⊕ K
//! with the pair sums P_j = R_j ⊕ R_{j+1} (8 per batch, one per output),
//! A = P_0 ⊕ P_2 ⊕ R_6, B = P_5, C = P_5 ⊕ R_2 ⊕ R_7: 1 + 2 + 3
//! products + 2 = 8 operations.
//! InvMixColumns, v⁻¹ = (AD 95 76 A8 2F 49 D7 CA), has no unit or repeated
//! coefficient: 8 products and 4 three-input XORs (9 terms with the key).
//! Decryption adds the round key before InvMixColumns; since InvMixColumns
//! is linear it adds InvMixColumns(K_r) after it instead, inside the sum.
//!
//! The ⊞K_0 / ⊞K_t of the first and last rounds (mod 2^64 per column) are a
//! `vpaddq` in the natural layout, inside the machine's load and store.

use super::constants::MDS_INV;
use super::pair_sum::{mix, RowAddend};
use super::variant::{Keys, Variant};
use crate::gf256::{self, KALYNA};
use crate::kernel::BatchCipher;
use crate::simd::{Gfni, Simd};
use core::marker::PhantomData;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// A 64-byte constant (a zmm; a ymm machine uses its first 32 bytes).
pub(crate) type Pattern = [u8; 64];

/// How a machine does the parts of the rounds that depend on its width and
/// instruction set: the S-boxes and the transposes between blocks and rows.
pub(crate) trait Layer<M: Simd>: Send + Sync + 'static {
    /// Registers an S-box lookup needs (loaded once per batch).
    type Sboxes: Copy;
    /// π_0..π_3, or their inverses.
    fn sboxes(m: M, inverse: bool) -> Self::Sboxes;
    /// π_a (or π_a⁻¹, as `t` holds) on every byte.
    fn sub(m: M, t: &Self::Sboxes, x: M::V, a: usize) -> M::V;
    /// Loads a batch (8 registers), adds (`sub`: subtracts) `key` (64-bit
    /// columns mod 2^64; `key` is the round key repeated over 64 bytes) and
    /// transposes it to rows.
    fn load_rows(m: M, src: &[u8], key: &Pattern, sub: bool) -> [M::V; 8];
    /// The inverse of `load_rows`: rows back to blocks, then ± `key`, stored.
    fn store_rows(m: M, x: [M::V; 8], key: &Pattern, sub: bool, dst: &mut [u8]);
}

/// The 8×8 bit matrix of x ↦ c·x in GF(2^8)/0x11d for `vgf2p8affineqb`.
pub(super) const fn mul_matrix(c: u8) -> u64 {
    gf256::mul_matrix(c, KALYNA)
}

/// The matrices of v⁻¹'s coefficients.
const INV: [u64; 8] = {
    let mut m = [0u64; 8];
    let mut j = 0;
    while j < 8 {
        m[j] = mul_matrix(MDS_INV[j]);
        j += 1;
    }
    m
};

/// ShiftRows shift δ_i = ⌊i·nb/8⌋ of row i.
const fn shift_of(row: usize, nb: usize) -> usize {
    row * nb / 8
}

/// The round keys in row form, and the ShiftRows shuffles, for one variant.
pub(crate) struct RowKeys {
    variant: Variant,
    /// enc[r][i]: row i of K_r as a 64-bit lane, broadcast by the kernel
    /// (`vpbroadcastq` or an embedded broadcast: a load like any other).
    /// Lanes rather than whole registers: 2.4 KiB to build and wipe per key
    /// instead of 19.5 KiB, which cost the avx512-gfni backend 4x the key
    /// setup of avx2.
    enc: [[u64; 8]; 19],
    /// dec[r][i]: row i of InvMixColumns(K_r).
    dec: [[u64; 8]; 19],
    /// K_0 and K_t in the natural layout (the block repeated).
    first: Pattern,
    last: Pattern,
    /// ShiftRows / InvShiftRows `vpshufb` indices per row (public).
    sr: &'static [Pattern; 8],
    isr: &'static [Pattern; 8],
}

/// The round keys wiped as flat slices (one fill and a barrier each; the
/// derive would write one volatile word and a fence at a time).
impl Zeroize for RowKeys {
    fn zeroize(&mut self) {
        self.enc.as_flattened_mut().zeroize();
        self.dec.as_flattened_mut().zeroize();
        self.first[..].zeroize();
        self.last[..].zeroize();
    }
}

impl Drop for RowKeys {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for RowKeys {}

/// The ShiftRows and InvShiftRows `vpshufb` indices per row for nb columns.
/// Byte p = 8q + c of a register is column c of chunk q; within its 16-byte
/// lane it is byte p % 16. Column c = block·nb + j.
const fn shuffles(nb: usize) -> ([Pattern; 8], [Pattern; 8]) {
    let (mut sr, mut isr) = ([[0u8; 64]; 8], [[0u8; 64]; 8]);
    let mut i = 0;
    while i < 8 {
        let d = shift_of(i, nb);
        let mut p = 0;
        while p < 64 {
            let (lane_q, c) = (p % 16 / 8 * 8, p % 8);
            let (blk, j) = (c / nb, c % nb);
            let dst = blk * nb + (j + d) % nb;
            // ShiftRows: out[dst] = in[c]; InvShiftRows: out[c] = in[dst].
            sr[i][p - c + dst] = (lane_q + c) as u8;
            isr[i][p] = (lane_q + dst) as u8;
            p += 1;
        }
        i += 1;
    }
    (sr, isr)
}

/// [`shuffles`] for nb = 2, 4, 8, computed at compile time.
static SHUFFLES: [([Pattern; 8], [Pattern; 8]); 3] = [shuffles(2), shuffles(4), shuffles(8)];

/// Row i of a round key as a register lane: 8 bytes, byte c = row i of
/// block column c mod nb (a 64-byte chunk holds 8/nb whole blocks).
/// `cols` are the key's columns as little-endian words (byte i = row i).
#[inline(always)]
fn row_lanes(cols: &[u64; 8], nb: usize) -> [u64; 8] {
    let mut rows = [0u64; 8];
    for (i, row) in rows.iter_mut().enumerate() {
        for c in 0..8 {
            *row |= ((cols[c & (nb - 1)] >> (8 * i)) & 0xff) << (8 * c);
        }
    }
    rows
}

impl RowKeys {
    pub(super) fn new(keys: &Keys) -> RowKeys {
        let v = keys.variant;
        let (nb, bb, t) = (v.nb(), v.block_bytes(), v.rounds());
        let (sr, isr) = &SHUFFLES[nb.trailing_zeros() as usize - 1];
        let mut k = RowKeys {
            variant: v,
            enc: [[0; 8]; 19],
            dec: [[0; 8]; 19],
            first: [0; 64],
            last: [0; 64],
            sr,
            isr,
        };
        // Round keys are secret: InvMixColumns(K_r) by the constant-time
        // column product of gf256 (the reference's InvMixColumns branches on
        // its operands); every index below depends on the variant only.
        let (mut cols, mut inv_cols) = ([0u64; 8], [0u64; 8]);
        for r in 0..=t {
            for (j, src) in keys.round_key(r).chunks_exact(8).enumerate() {
                cols[j] = u64::from_le_bytes(src.try_into().expect("8-byte column"));
                inv_cols[j] = gf256::circulant_column(cols[j], &MDS_INV, KALYNA);
            }
            k.enc[r] = row_lanes(&cols, nb);
            k.dec[r] = row_lanes(&inv_cols, nb);
        }
        cols.zeroize();
        inv_cols.zeroize();
        for (dst, src) in [(&mut k.first, keys.round_key(0)), (&mut k.last, keys.round_key(t))] {
            for chunk in dst.chunks_exact_mut(bb) {
                chunk.copy_from_slice(src);
            }
        }
        k
    }
}

// No closures in the generic code below: a closure does not inherit the
// caller's `#[target_feature]`s (see `simd`).

/// MixColumns' addend: rows of a round key (each a 64-bit lane, broadcast),
/// or none.
impl<M: Simd> RowAddend<M> for Option<&[u64; 8]> {
    #[inline(always)]
    fn sum(self, m: M, i: usize, s: M::V, d: M::V) -> M::V {
        match self {
            Some(k) => m.xor3(s, d, m.splat64(k[i])),
            None => m.xor(s, d),
        }
    }
}

/// InvMixColumns on the 8 rows, ⊕ `key` rows (already through
/// InvMixColumns) when given.
#[inline(always)]
fn inv_mix<M: Simd + Gfni>(m: M, r: &[M::V; 8], key: Option<&[u64; 8]>) -> [M::V; 8] {
    let mut out = *r;
    for i in 0..8 {
        let mut t = *r;
        for j in 0..8 {
            t[j] = m.affine(r[(i + j) % 8], INV[j]);
        }
        let x = m.xor3(t[0], t[1], t[2]);
        let x = m.xor3(x, t[3], t[4]);
        let x = m.xor3(x, t[5], t[6]);
        out[i] = match key {
            Some(k) => m.xor3(x, t[7], m.splat64(k[i])),
            None => m.xor(x, t[7]),
        };
    }
    out
}

/// SubBytes and ShiftRows on the 8 rows (NB columns per block).
#[inline(always)]
fn sub_shift<M: Simd, S: Layer<M>, const NB: usize>(m: M, k: &RowKeys, t: &S::Sboxes, s: &mut [M::V; 8]) {
    for (i, x) in s.iter_mut().enumerate() {
        *x = S::sub(m, t, *x, i % 4);
        if shift_of(i, NB) != 0 {
            *x = m.shuffle8(*x, m.load(&k.sr[i]));
        }
    }
}

/// InvShiftRows and InvSubBytes on the 8 rows.
#[inline(always)]
fn inv_shift_sub<M: Simd, S: Layer<M>, const NB: usize>(m: M, k: &RowKeys, t: &S::Sboxes, s: &mut [M::V; 8]) {
    for (i, x) in s.iter_mut().enumerate() {
        if shift_of(i, NB) != 0 {
            *x = m.shuffle8(*x, m.load(&k.isr[i]));
        }
        *x = S::sub(m, t, *x, i % 4);
    }
}

/// Encrypts one batch (8 registers) in place; NB = the variant's nb (a
/// constant, so that each round is straight-line code).
#[inline(always)]
fn encrypt_nb<M: Simd + Gfni, S: Layer<M>, const NB: usize>(m: M, k: &RowKeys, data: &mut [u8]) {
    let t = k.variant.rounds();
    let sb = S::sboxes(m, false);
    let mut s = S::load_rows(m, data, &k.first, false);
    for rk in &k.enc[1..t] {
        sub_shift::<M, S, NB>(m, k, &sb, &mut s);
        s = mix(m, &s, Some(rk));
    }
    sub_shift::<M, S, NB>(m, k, &sb, &mut s);
    s = mix(m, &s, None);
    S::store_rows(m, s, &k.last, false, data);
}

/// Decrypts one batch in place.
#[inline(always)]
fn decrypt_nb<M: Simd + Gfni, S: Layer<M>, const NB: usize>(m: M, k: &RowKeys, data: &mut [u8]) {
    let t = k.variant.rounds();
    let sb = S::sboxes(m, true);
    let mut s = S::load_rows(m, data, &k.last, true);
    s = inv_mix(m, &s, None);
    inv_shift_sub::<M, S, NB>(m, k, &sb, &mut s);
    // Round keys K_{t−1} .. K_1, each added before InvMixColumns.
    for rk in k.dec[1..t].iter().rev() {
        s = inv_mix(m, &s, Some(rk));
        inv_shift_sub::<M, S, NB>(m, k, &sb, &mut s);
    }
    S::store_rows(m, s, &k.first, true, data);
}

/// One batch in either direction, NB dispatched on the variant.
#[inline(always)]
fn crypt<M: Simd + Gfni, S: Layer<M>, const DEC: bool>(m: M, k: &RowKeys, batch: &mut [u8]) {
    match (k.variant.nb(), DEC) {
        (2, false) => encrypt_nb::<M, S, 2>(m, k, batch),
        (4, false) => encrypt_nb::<M, S, 4>(m, k, batch),
        (_, false) => encrypt_nb::<M, S, 8>(m, k, batch),
        (2, true) => decrypt_nb::<M, S, 2>(m, k, batch),
        (4, true) => decrypt_nb::<M, S, 4>(m, k, batch),
        (_, true) => decrypt_nb::<M, S, 8>(m, k, batch),
    }
}

/// The row-sliced kernel with layer `S`: one batch is 8 registers; a tail
/// is padded into one batch.
pub(crate) struct RowSliced<S> {
    keys: RowKeys,
    layer: PhantomData<S>,
}

impl<M: Simd + Gfni, S: Layer<M>> BatchCipher<M> for RowSliced<S> {
    type Keys = Keys;
    const BATCH_BYTES: usize = 8 * M::BYTES;
    const GRANULE_BYTES: usize = 8 * M::BYTES;

    fn new(_: M, keys: &Keys) -> Self {
        RowSliced { keys: RowKeys::new(keys), layer: PhantomData }
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        crypt::<M, S, false>(m, &self.keys, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        crypt::<M, S, true>(m, &self.keys, batch)
    }
}

#[cfg(test)]
mod tests {
    use super::super::layers::{Nibble, Vbmi};
    use super::super::backends::reference;
    use super::*;
    use crate::kernel;
    use crate::simd::emu::{affine_byte, Emu};
    use crate::test_rng::Rng;
    use crate::test_util::check_against;

    #[test]
    fn matrices_multiply() {
        for c in [2u8, 4, 8, 0x1d, 0xad, 0xca] {
            for x in 0..=255u8 {
                assert_eq!(affine_byte(mul_matrix(c), x), gf256::mul(c, x, KALYNA), "{c:#x}·{x:#x}");
            }
        }
    }

    /// The kernel with layer S on machine M, through the batch driver,
    /// against the reference: every variant, lengths around the batch.
    fn check<M: Simd + Gfni, S: Layer<M>>(rng: &mut Rng) {
        let backend = kernel::backend::<M, RowSliced<S>>("emulated", true, 1);
        let batch = 8 * M::BYTES;
        for v in Variant::ALL {
            let keys = Keys::new(v, &rng.bytes(v.key_bytes()));
            let (kernel, oracle) = ((backend.new)(&keys), (reference::BACKEND.new)(&keys));
            let bb = v.block_bytes();
            for len in [0, bb, batch - bb, batch, batch + 3 * bb, 2 * batch + bb] {
                let what = format!("{v:?}, {len} bytes, {} bytes per register", M::BYTES);
                check_against(&*kernel, &*oracle, &rng.bytes(len), &what);
            }
        }
    }

    #[test]
    fn vbmi_layer_matches_the_reference() {
        check::<Emu<64>, Vbmi>(&mut Rng(0x7624_2014));
        check::<Emu<64>, Vbmi<true>>(&mut Rng(0x7624_2016));
    }

    #[test]
    fn nibble_layer_matches_the_reference() {
        check::<Emu<32>, Nibble>(&mut Rng(0x7624_2015));
    }
}
