//! `ssse3`: constant-time Magma / GOST 28147-89 with 128-bit `pshufb`
//! (`subs::Masks`, on the dword lanes of `lanes`).
//!
//! Up to 4 groups of 4 blocks (16) interleaved; a short tail runs only the
//! groups it needs. Round per 4 blocks, 23 instructions (paddd, the 21 of
//! `Masks`, pxor); SSSE3 has no blend, hence the masks (AVX2 saves 4 with
//! blends). Seed 000 (Sovyn et al., Zakhyst Informatsii 21(4), 2019),
//! Table 5: 7.66 cycles/byte for SSE at 8 blocks.

use super::feistel::groups;
use super::lanes::Lanes;
use super::schedule::RoundKeys;
use super::subs::Masks;
use super::Keys;
use crate::cpu::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::{Ssse3 as Level, Xmm};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Xmm<Level>, Ssse3>("ssse3", true, 16);

pub(crate) struct Ssse3 {
    rk: RoundKeys,
    lanes: Lanes<Masks>,
}

/// 1 to 4 groups of 4 blocks.
impl BatchCipher<Xmm<Level>> for Ssse3 {
    type Keys = Keys;
    const BATCH_BYTES: usize = 128;
    const GRANULE_BYTES: usize = 32;

    fn new(_: Xmm<Level>, keys: &Keys) -> Self {
        Ssse3 { rk: RoundKeys::new(keys), lanes: Lanes::new(keys, Masks::new(keys.sbox)) }
    }
    #[inline(always)]
    fn encrypt(&self, m: Xmm<Level>, batch: &mut [u8]) {
        groups(m, &self.lanes, &self.rk.enc, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: Xmm<Level>, batch: &mut [u8]) {
        groups(m, &self.lanes, &self.rk.dec, batch)
    }
}
