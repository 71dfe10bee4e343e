//! The plain-form batch cipher of the 16-byte machines (`ssse3`, `neon`):
//! one block per register set, four blocks interleaved, a shorter rest as
//! one interleaved call of its blocks (see `ssse3.rs` for the layout).

use super::groups::Batch;
use super::key_schedule_simd::{self, DirKeys};
use super::layouts::Plain;
use super::rounds::{run, Crypt, KeyRegs};
use super::variant::Keys;
use crate::simd::Simd;

/// Blocks interleaved in the main loop.
pub(crate) const WAYS: usize = 4;

/// Round keys in plain form.
pub(crate) struct Spread {
    pub(super) rk: DirKeys<16>,
    pub(super) wide: bool,
}

/// WAYS blocks of n = 256 (two steps of n = 128), on a 16-byte machine.
impl<M: Simd> Crypt<M> for Spread {
    const BATCH_BYTES: usize = 32 * WAYS;

    fn new(m: M, keys: &Keys) -> Self {
        debug_assert_eq!(M::BYTES, 16);
        Spread { rk: key_schedule_simd::schedule::<M, false, 16>(m, keys), wide: keys.variant.block_bytes() == 32 }
    }
    #[inline(always)]
    fn crypt<const ENC: bool>(&self, m: M, data: &mut [u8]) {
        let rk = &self.rk.get(ENC);
        if self.wide {
            crypt::<M, ENC, 2>(m, rk, data)
        } else {
            crypt::<M, ENC, 1>(m, rk, data)
        }
    }
}

/// Blocks of 16·H bytes, WAYS at a time.
#[inline(always)]
fn crypt<M: Simd, const ENC: bool, const H: usize>(m: M, rk: &KeyRegs<16>, data: &mut [u8]) {
    let plain = Plain::<M, H>::new(m, ENC);
    for step in data.chunks_mut(16 * H * WAYS) {
        let n = step.len() / (16 * H);
        let blocks = &mut Batch::<H, false> { data: step };
        match n {
            1 => run::<M, _, _, ENC, 1, 16>(m, &plain, blocks, rk),
            2 => run::<M, _, _, ENC, 2, 16>(m, &plain, blocks, rk),
            3 => run::<M, _, _, ENC, 3, 16>(m, &plain, blocks, rk),
            _ => run::<M, _, _, ENC, WAYS, 16>(m, &plain, blocks, rk),
        }
    }
}
