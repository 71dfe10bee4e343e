//! One key material on two machines. Where a family's narrow kernel (one
//! block's latency: short calls, chained modes) and its wide kernel
//! (throughput) are one batch cipher with the same keys on registers of two
//! widths, a paired backend keys that cipher once and sends calls within
//! the bounds of this CPU's class (`bounds.rs`) to the narrow machine,
//! longer ones to the wide one. The module documentation of `kernel`
//! describes the size-aware dispatch as a whole.

use super::{both, imit, run, BatchCipher, Kernel, NarrowBounds};
use crate::backend::{Backend, BackendInfo, BlockKernel};
use crate::simd::Machine;

/// A keyed cipher on a narrow machine `N` and a wide machine `W`.
struct Paired<N, W, C> {
    narrow: N,
    wide: Kernel<W, C>,
    /// The longest encryption and decryption the narrow machine runs, on
    /// this CPU.
    max_enc: usize,
    max_dec: usize,
}

impl<N: Machine, W: Machine, C: BatchCipher<N> + BatchCipher<W>> BlockKernel for Paired<N, W, C> {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        match data.len() <= self.max_enc {
            true => run::<N, C, false>(self.narrow, &self.wide.cipher, data),
            false => run::<W, C, false>(self.wide.machine, &self.wide.cipher, data),
        }
    }
    fn decrypt_blocks(&self, data: &mut [u8]) {
        match data.len() <= self.max_dec {
            true => run::<N, C, true>(self.narrow, &self.wide.cipher, data),
            false => run::<W, C, true>(self.wide.machine, &self.wide.cipher, data),
        }
    }
    /// A MAC step is a one-block chain: on the machine that runs one block.
    fn imit_steps(&self, state: &mut [u8; 8], data: &[u8]) -> bool {
        match self.max_enc > 0 {
            true => imit::<N, C>(self.narrow, &self.wide.cipher, state, data),
            false => imit::<W, C>(self.wide.machine, &self.wide.cipher, state, data),
        }
    }
}

fn keyed<N, W, C, B: NarrowBounds>(keys: &<C as BatchCipher<W>>::Keys) -> Box<dyn BlockKernel>
where
    N: Machine,
    W: Machine,
    C: BatchCipher<N> + BatchCipher<W>,
{
    let (narrow, wide) = (N::detect(), W::detect());
    let (narrow, wide) = narrow.zip(wide).expect("a backend is keyed only after `available` said yes");
    // Written in place, as `super::keyed` does.
    let slot = Box::<Paired<N, W, C>>::new_uninit();
    let cipher = <C as BatchCipher<W>>::new(wide, keys);
    let (max_enc, max_dec) = B::here();
    let kernel: Box<Paired<N, W, C>> =
        Box::write(slot, Paired { narrow, wide: Kernel { machine: wide, cipher }, max_enc, max_dec });
    kernel
}

/// The registry entry of batch cipher `C` on narrow machine `N` (calls
/// within the bounds `B` of this CPU's class; an encryption bound of 0:
/// none, the MAC steps too on `W`) and wide machine `W` (the rest): `ways` blocks per
/// wide batch. `C`'s keys must not depend on the machine it is keyed
/// on (it is keyed once, on `W`, and runs on both).
pub(crate) const fn paired_backend<N, W, C, B: NarrowBounds>(
    name: &'static str,
    constant_time: bool,
    ways: usize,
) -> Backend<<C as BatchCipher<W>>::Keys>
where
    N: Machine,
    W: Machine,
    C: BatchCipher<N, Keys = <C as BatchCipher<W>>::Keys> + BatchCipher<W>,
{
    Backend {
        info: BackendInfo { name, constant_time, ways, needs: W::NEEDS },
        available: both::<N, W>,
        new: keyed::<N, W, C, B>,
    }
}
