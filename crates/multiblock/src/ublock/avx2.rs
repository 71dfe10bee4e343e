//! The `avx2` backend: the packed kernel (packed.rs) on ymm groups, xmm for
//! the last one or two blocks. Key setup: the register key schedule
//! (keys.rs) on ymm with the key in all four slots, both directions in one
//! pass.

use super::packed::{Packed, STEP_BYTES};
use super::Keys;
use crate::cpu::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::{self, HasAvx2, Ymm};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Ymm<simd::Avx2>, Packed<32>>("avx2", true, 16);

/// Three main-loop steps of n = 128, two of n = 256; tails in whole blocks.
impl<L: HasAvx2> BatchCipher<Ymm<L>> for Packed<32> {
    type Keys = Keys;
    const BATCH_BYTES: usize = 3 * STEP_BYTES[0];
    const GRANULE_BYTES: usize = 16;

    fn new(m: Ymm<L>, keys: &Keys) -> Self {
        Packed::new(m, keys)
    }
    #[inline(always)]
    fn encrypt(&self, m: Ymm<L>, batch: &mut [u8]) {
        self.crypt::<L, true>(m, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: Ymm<L>, batch: &mut [u8]) {
        self.crypt::<L, false>(m, batch)
    }
}

const _: () = assert!(3 * STEP_BYTES[0] == 2 * STEP_BYTES[1]);
