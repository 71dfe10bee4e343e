//! `neon`: constant-time Kalyna on aarch64 Advanced SIMD, all five variants:
//! the half-row kernel of `avx2` (`half_row.rs`) at 16 bytes per register,
//! with the S-boxes as whole tables in registers (`TBL` over the first 64
//! bytes, `TBX` over the other three quarters: 7 operations per register
//! against the nibble tree's 35). ShiftRows is a `TBL`, MixColumns doubles
//! by `ADD`, `CMLT`, `BSL` and `EOR`.
//!
//! Batches: 128 bytes (two groups of 4 registers, 8 Kalyna-128 blocks) for
//! instruction-level parallelism; a 64-byte rest runs as one group, the last
//! chunk zero-padded.

use super::super::half_row::{self, HalfRow, RegisterTable};
use super::super::variant::{Keys, Variant};
use crate::backend::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::{Machine, Neon};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Neon, Box<HalfRow>>("neon", true, 8);

impl BatchCipher<Neon> for Box<HalfRow> {
    type Keys = Keys;
    const BATCH_BYTES: usize = 128;
    const GRANULE_BYTES: usize = 64;

    fn new(_: Neon, keys: &Keys) -> Self {
        HalfRow::new(keys)
    }
    #[inline(always)]
    fn encrypt(&self, m: Neon, batch: &mut [u8]) {
        run::<false>(self, m, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: Neon, batch: &mut [u8]) {
        run::<true>(self, m, batch)
    }
}

/// One batch of 64 or 128 bytes: one or two groups.
#[inline(always)]
fn run<const DEC: bool>(k: &HalfRow, m: Neon, batch: &mut [u8]) {
    if batch.len() == 128 {
        k.groups::<_, RegisterTable, 2, DEC>(m, batch)
    } else {
        k.groups::<_, RegisterTable, 1, DEC>(m, batch)
    }
}

/// ψ on whole blocks (at most 64 bytes) in place, in constant time: the key
/// schedule's round. False (and nothing done) on a CPU without NEON.
pub(in crate::kalyna) fn psi(v: Variant, s: &mut [u8]) -> bool {
    let Some(m) = Neon::detect() else {
        return false;
    };
    half_row::psi::<_, RegisterTable>(m, v, s);
    true
}
