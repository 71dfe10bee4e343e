//! The packed kernel on xmm and ymm groups (the `avx2` backend, the short
//! tails of `avx512-vbmi`, and the multi-key path): the AVX2 layouts of
//! Gao et al. 2024 (§2.2, §2.6) with a twist for n = 256.
//!
//! "High-nibble parallelism" (§2.6): the low nibble of a byte belongs to
//! one block, the high nibble to another, so a ymm holds four blocks — a
//! group:
//!
//! ```text
//!              lane 0                   lane 1
//! lo nibbles   block 0                  block 1
//! hi nibbles   block 2                  block 3
//! ```
//!
//! - n = 128: a group is [X0, X1], "left-left + right-right" (§2.2), no lane
//!   crossing anywhere; tracked coordinates ([`Tracked`]) make PL free and
//!   PR one realigning shuffle.
//! - n = 256: a group is [X0a, X0b, X1a, X1b] (a = nibbles 0..15, b =
//!   16..31 of the half). Gao et al. keep a 32-nibble half in one ymm and
//!   crosses lanes with `vpermq` for PL₂₅₆/PR₂₅₆ (Alg. 5, 2 blocks per ymm
//!   pair); here the lanes carry different blocks, so PL₂₅₆/PR₂₅₆ are 2
//!   `vpshufb` + `vpor` per output register with no lane crossing
//!   ([`Shuffled`]), 4 blocks per group.
//!
//! Per round and group: 25 instructions for n = 128 (11 on the shuffle and
//! shift ports: 4 S-box `vpshufb`, 2 `vpsrlw`, 5 linear-layer `vpshufb`),
//! 60 for n = 256 (28 there). Shuffle masks are memory operands, so only the
//! S-box tables and 0x0f take registers. A batch runs in steps of 4 groups
//! (n = 128) or 3 (n = 256) against the ~15-cycle latency of a round; a
//! short step uses the fewest groups that hold it, 1–2 blocks an xmm group,
//! in place, so short messages never pay for a full step. Decryption is
//! the same instruction mix in reverse order.
//!
//! Constant time: `vpshufb` on secret indices in registers; no secret
//! branch or address.

use super::groups::Batch;
use super::key_schedule_simd::{self, DirKeys};
use super::layouts::{Shuffled, Tracked};
use super::rounds::{run, Groups, KeyRegs};
use super::variant::Keys;
use crate::simd::Narrow;
use crate::simd::{HasAvx2, Simd, Ymm};

/// Round keys in packed form (the same key in both nibbles), one 16-byte
/// lane per register: the rounds broadcast it to every lane as they load.
pub(crate) struct Packed {
    pub(crate) rk: DirKeys<16>,
    pub(crate) wide: bool,
}

impl Packed {
    /// Keys `keys` with the SIMD key schedule on `x`, the 16-byte machine
    /// of the kernel's level.
    pub(crate) fn new<X: Simd>(x: X, keys: &Keys) -> Self {
        Packed { rk: key_schedule_simd::schedule::<X, true, 16>(x, keys), wide: keys.variant.block_bytes() == 32 }
    }

    /// ECB on `data` (whole blocks) in place.
    #[inline(always)]
    pub(crate) fn ecb<L: HasAvx2, const ENC: bool>(&self, m: Ymm<L>, data: &mut [u8]) {
        let rk = &self.rk.get(ENC);
        if self.wide {
            crypt::<L, ENC, 2, 16>(m, rk, data)
        } else {
            crypt::<L, ENC, 1, 16>(m, rk, data)
        }
    }
}

/// Bytes per main-loop step: 4 groups of n = 128, 3 of n = 256. A batch of
/// the kernel is a whole number of both.
pub(crate) const STEP_BYTES: [usize; 2] = [4 * 64, 3 * 128];

/// ECB on blocks of 16·H bytes in steps of [`STEP_BYTES`]; a short step on
/// the fewest groups that hold it.
#[inline(always)]
pub(crate) fn crypt<L: HasAvx2, const ENC: bool, const H: usize, const S: usize>(m: Ymm<L>, rk: &KeyRegs<S>, data: &mut [u8]) {
    for step in data.chunks_mut(STEP_BYTES[H - 1]) {
        let x = m.half();
        match step.len() / (16 * H) {
            1 | 2 => groups::<_, _, ENC, H, S, 1>(x, rk, &mut Batch::<H, true> { data: step }),
            3 | 4 => groups::<_, _, ENC, H, S, 1>(m, rk, &mut Batch::<H, true> { data: step }),
            5..=8 => groups::<_, _, ENC, H, S, 2>(m, rk, &mut Batch::<H, true> { data: step }),
            9..=12 => groups::<_, _, ENC, H, S, 3>(m, rk, &mut Batch::<H, true> { data: step }),
            _ => groups::<_, _, ENC, H, S, 4>(m, rk, &mut Batch::<H, true> { data: step }),
        }
    }
}

/// G packed groups from `blocks` through all rounds, n = 128 (H = 1) or
/// n = 256 (H = 2).
#[inline(always)]
pub(crate) fn groups<M: Simd, B: Groups<M>, const ENC: bool, const H: usize, const S: usize, const G: usize>(
    m: M,
    rk: &KeyRegs<S>,
    blocks: &mut B,
) {
    if H == 1 {
        run::<M, _, B, ENC, G, S>(m, &Tracked::new(m, ENC), blocks, rk)
    } else {
        run::<M, _, B, ENC, G, S>(m, &Shuffled::new(m, ENC), blocks, rk)
    }
}
