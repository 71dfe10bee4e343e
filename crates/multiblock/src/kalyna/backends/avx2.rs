//! The `avx2` backend: constant-time Kalyna on AVX2 (no secret-indexed
//! memory, no secret branches), all five variants, both directions.
//!
//! Layout ("half-row"; the kernel is `half_row.rs`, for xmm and ymm). The
//! message is cut into 64-byte chunks (4, 2 or 1 blocks). A chunk's state
//! is 8 rows × 8 columns (the columns of all its blocks side by side); it
//! lives in four 16-byte lanes, lane a holding row a (8 bytes, columns
//! 0..7) then row a+4. Rows a and a+4 use the same S-box
//! π_a, so every lane needs ONE S-box. An xmm register holds one chunk's lane,
//! a ymm register the same lane of two chunks; a group is 4 registers.
//! - ShiftRows is one in-lane `vpshufb` per register (row a and row a+4
//!   rotate inside each block's columns).
//! - MixColumns needs, for output lane a, the rows a+j and a+4+j: that is lane
//!   (a+j) mod 4, with its two halves swapped when a+j wraps past row 3
//!   (`vpshufd 0x4e`). With the 8 views W_r (W_{r+4} = swap W_r) the output
//!   is out_a = ⊕_j v_j·W_{a+j}: a circulant product done by doubling in
//!   GF(2^8)/0x11d (×2 = `vpaddb` + `vpblendvb`(0, 0x1d, x) + `vpxor`) and XORs.
//! - ⊞K_0 / ⊞K_t (mod 2^64 per column) are one `vpaddq` per register in the
//!   natural layout, before the transpose in and after the transpose out.
//!
//! S-box: the nibble S-box of `nibble.rs` (16 `vpshufb` over the table's
//! rows, a `vpblendvb` tree on bits 4..6): 35 ops per register.
//!
//! Counts per round and 32 bytes (one ymm); Kalyna-128/128 has 10 rounds.
//! - Encryption: SubBytes 35, ShiftRows 1, MixColumns 19 (per group of 4
//!   registers: 4 swaps, 8 pair sums, and per output 4 XORs, 3 doublings of
//!   3 ops, 3 XORs), key XOR 1: 56 vector ALU ops = 1.75 per byte and round,
//!   plus 16 table loads (a vpshufb table cannot be a memory operand); so
//!   17.5 ALU ops and 5 loads per byte for 128/128, ≈ 0.2 more for the
//!   transposes. Measured (perf, Zen 3): 26.8 instructions/B at IPC ≈ 4.7.
//! - Bound: the S-box needs 35 ALU ops on 4 pipes and 19 loads on the 2
//!   vector load pipes (≈ 9.5 cycles per register each), MixColumns ≈ 19
//!   cycles per group: ≈ 59 cycles per 128 bytes and round, 4.6 cycles/B.
//! - Decryption: InvMixColumns = M⁻²·M (see `half_row::inv_mix`):
//!   MixColumns 19, then M⁻²'s 16 nibble-table products (32 vpshufb, 12 ops to split nibbles,
//!   16 XORs, 8 sums, 4 swaps, 4 XORs) ≈ 19 more: ≈ 76 ALU ops per 32 bytes
//!   and round, 26 of them on the 2 shuffle pipes; measured 36.5 instr/B.
//!   InvMixColumns straight from v⁻¹ by Horner over the coefficient bits was
//!   47 ops; by 32 nibble-table products 36 ops but 18 of them shuffles.
//!
//! Batches: 256 bytes (two ymm groups, 16 Kalyna-128 blocks); a shorter
//! rest runs as one ymm group (128 bytes) and one xmm group (64 bytes) as
//! needed, the last chunk zero-padded.

use super::super::half_row::{self, HalfRow, NibbleRows};
use super::super::variant::{Keys, Variant};
use crate::backend::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::{self, Machine, Narrow, Xmm, Ymm};

type M = Ymm<simd::Avx2>;

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<M, Box<HalfRow>>("avx2", true, 16);

/// On the heap: the kernel is ~3 KiB and is built there in place.
impl BatchCipher<M> for Box<HalfRow> {
    type Keys = Keys;
    const BATCH_BYTES: usize = 256;
    const GRANULE_BYTES: usize = 64;

    fn new(_: M, keys: &Keys) -> Self {
        HalfRow::new(keys)
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        run::<false>(self, m, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        run::<true>(self, m, batch)
    }
}

/// One batch of 64..=256 bytes: two ymm groups, or one ymm group and/or
/// one xmm group.
#[inline(always)]
fn run<const DEC: bool>(k: &HalfRow, m: M, batch: &mut [u8]) {
    match batch.len() {
        256 => k.groups::<_, NibbleRows, 2, DEC>(m, batch),
        192 => {
            let (wide, narrow) = batch.split_at_mut(128);
            k.groups::<_, NibbleRows, 1, DEC>(m, wide);
            k.groups::<_, NibbleRows, 1, DEC>(m.half(), narrow);
        }
        128 => k.groups::<_, NibbleRows, 1, DEC>(m, batch),
        _ => k.groups::<_, NibbleRows, 1, DEC>(m.half(), batch),
    }
}

/// ψ = MixColumns∘ShiftRows∘SubBytes on whole blocks (at most 64 bytes) in
/// place, without secret-indexed memory: the key schedule's round. Returns
/// false (and does nothing) when this CPU has no AVX2.
pub(in crate::kalyna) fn psi(v: Variant, s: &mut [u8]) -> bool {
    let Some(m) = Xmm::<simd::Avx2>::detect() else {
        return false;
    };
    half_row::psi::<_, NibbleRows>(m, v, s);
    true
}
