//! `avx512-vbmi`: constant-time Magma / GOST 28147-89 with AVX-512 VBMI
//! `vpermb`: one 64-byte table lookup substitutes a nibble of every byte of
//! 16 words at once, each byte with the S-box of its own position
//! (`subs::Permb`, on the dword lanes of `lanes`).
//!
//! Up to 4 groups of 16 blocks (64) are interleaved to hide the ~8 cycle
//! latency of a round; a short tail runs only the groups it needs.
//! Round per 16 blocks, 9 instructions: vpaddd (key) · 2 vpternlogd +
//! vpsrld (indexes) · 2 vpermb · vpord · vprold 11 · vpxord. Ports (Ice
//! Lake and later): p5 2 (vpermb), p0 2 (vpsrld, vprold), p05 5 → 4.5
//! cycles per round per 16 blocks, about 1.13 cycles/byte if ports 0 and 5
//! stay busy.

use super::feistel::groups;
use super::lanes::Lanes;
use super::schedule::RoundKeys;
use super::subs::Permb;
use super::Keys;
use crate::cpu::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::{Avx512Vbmi, Zmm};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Zmm<Avx512Vbmi>, Vbmi>("avx512-vbmi", true, 64);

pub(crate) struct Vbmi {
    rk: RoundKeys,
    lanes: Lanes<Permb>,
}

/// 1 to 4 groups of 16 blocks.
impl BatchCipher<Zmm<Avx512Vbmi>> for Vbmi {
    type Keys = Keys;
    const BATCH_BYTES: usize = 512;
    const GRANULE_BYTES: usize = 128;

    fn new(_: Zmm<Avx512Vbmi>, keys: &Keys) -> Self {
        Vbmi { rk: RoundKeys::new(keys), lanes: Lanes::new(keys, Permb::new(keys.sbox)) }
    }
    #[inline(always)]
    fn encrypt(&self, m: Zmm<Avx512Vbmi>, batch: &mut [u8]) {
        groups(m, &self.lanes, &self.rk.enc, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: Zmm<Avx512Vbmi>, batch: &mut [u8]) {
        groups(m, &self.lanes, &self.rk.dec, batch)
    }
}
