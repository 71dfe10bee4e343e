//! The `avx2` backend: the packed kernel (packed.rs) on ymm groups, xmm for
//! the last one or two blocks. Key setup: the register key schedule
//! (key_schedule_simd.rs) in plain form on xmm, both directions in one pass, packed into
//! one 16-byte lane per register (the rounds broadcast it as they load).

use super::super::packed::{Packed, STEP_BYTES};
use super::super::variant::Keys;
use crate::backend::Backend;
use super::super::rounds::{Crypt, Ecb};
use crate::kernel;
use crate::simd::{self, HasAvx2, Narrow, Ymm};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Ymm<simd::Avx2>, Ecb<Packed>>("avx2", true, 16);

/// Three main-loop steps of n = 128, two of n = 256.
impl<L: HasAvx2> Crypt<Ymm<L>> for Packed {
    const BATCH_BYTES: usize = 3 * STEP_BYTES[0];

    fn new(m: Ymm<L>, keys: &Keys) -> Self {
        Packed::new(m.half(), keys)
    }
    #[inline(always)]
    fn crypt<const ENC: bool>(&self, m: Ymm<L>, batch: &mut [u8]) {
        self.ecb::<L, ENC>(m, batch)
    }
}

const _: () = assert!(3 * STEP_BYTES[0] == 2 * STEP_BYTES[1]);
