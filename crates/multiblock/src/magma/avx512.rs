//! `avx512`: constant-time Magma / GOST 28147-89 with AVX-512F+BW: 512-bit
//! `vpshufb` with merge-masking, `vpternlogd` and `vprold` (`subs::Masked`,
//! on the dword lanes of `lanes`).
//!
//! Up to 4 groups of 16 blocks (64) interleaved; a short tail runs only the
//! groups it needs. Round per 16 blocks, 12 instructions (vpaddd, the 10 of
//! `Masked`, vpxord): ports (Ice Lake and later) p5 4 (vpshufb), p0 2
//! (shift, rotate), p05 6 → 6 cycles per round per 16 blocks, 1.5
//! cycles/byte at best. Seed 000 (Sovyn et al., Zakhyst Informatsii 21(4),
//! 2019), Table 5: 1.88 cycles/byte for AVX-512 at 64 blocks (Skylake-SP).

use super::feistel::groups;
use super::lanes::Lanes;
use super::schedule::RoundKeys;
use super::subs::Masked;
use super::Keys;
use crate::cpu::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::{Avx512Bw, Zmm};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Zmm<Avx512Bw>, Avx512>("avx512", true, 64);

pub(crate) struct Avx512 {
    rk: RoundKeys,
    lanes: Lanes<Masked>,
}

/// 1 to 4 groups of 16 blocks.
impl BatchCipher<Zmm<Avx512Bw>> for Avx512 {
    type Keys = Keys;
    const BATCH_BYTES: usize = 512;
    const GRANULE_BYTES: usize = 128;

    fn new(_: Zmm<Avx512Bw>, keys: &Keys) -> Self {
        Avx512 { rk: RoundKeys::new(keys), lanes: Lanes::new(keys, Masked::new(keys.sbox)) }
    }
    #[inline(always)]
    fn encrypt(&self, m: Zmm<Avx512Bw>, batch: &mut [u8]) {
        groups(m, &self.lanes, &self.rk.enc, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: Zmm<Avx512Bw>, batch: &mut [u8]) {
        groups(m, &self.lanes, &self.rk.dec, batch)
    }
}
