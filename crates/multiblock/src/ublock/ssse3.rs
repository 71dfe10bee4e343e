//! The `ssse3` backend: the uBlock designers' SSE structure (their reference
//! code; seed paper §2) on the shared rounds (rounds.rs) in plain form.
//!
//! One block per register set, one nibble per byte (high nibble 0), so
//! - the S-box layer is one `pshufb` with the S-box as the table;
//! - `<<<₃₂ 4/8/20` and PL/PR are one `pshufb` each (masks.rs);
//! - a 64-bit half (n = 128) is one xmm, a 128-bit half (n = 256) two
//!   (nibbles 0..15 and 16..31), and PL₂₅₆/PR₂₅₆ gather from both with two
//!   `pshufb` and an `or` per output register ([`Plain`]).
//!
//! Conversion in and out as groups.rs (the seed's Table 8 improvement).
//! Four blocks run interleaved for instruction-level parallelism, a shorter
//! rest as one interleaved call of its blocks. Key setup: the register key
//! schedule (keys.rs) in plain form.
//!
//! Constant time: only `pshufb` on secret indices (a register, not memory),
//! no secret branch or address.

use super::groups::Batch;
use super::keys::{self, DirKeys};
use super::layouts::Plain;
use super::rounds::{run, Crypt, Ecb, KeyRegs};
use super::Keys;
use crate::cpu::Backend;
use crate::kernel;
use crate::simd::{Ssse3, Xmm};

/// Blocks interleaved in the main loop.
const WAYS: usize = 4;

type M = Xmm<Ssse3>;

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<M, Ecb<Spread>>("ssse3", true, WAYS);

/// Round keys in plain form.
pub(crate) struct Spread {
    rk: DirKeys<16>,
    wide: bool,
}

/// WAYS blocks of n = 256 (two steps of n = 128).
impl Crypt<M> for Spread {
    const BATCH_BYTES: usize = 32 * WAYS;

    fn new(m: M, keys: &Keys) -> Self {
        Spread { rk: keys::schedule::<M, false, 16>(m, keys), wide: keys.variant.block_bytes() == 32 }
    }
    #[inline(always)]
    fn crypt<const ENC: bool>(&self, m: M, data: &mut [u8]) {
        let rk = &self.rk.get(ENC);
        if self.wide {
            crypt::<ENC, 2>(m, rk, data)
        } else {
            crypt::<ENC, 1>(m, rk, data)
        }
    }
}

/// Blocks of 16·H bytes, WAYS at a time.
#[inline(always)]
fn crypt<const ENC: bool, const H: usize>(m: M, rk: &KeyRegs<16>, data: &mut [u8]) {
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
