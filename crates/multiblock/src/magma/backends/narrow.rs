//! `avx512-vbmi-narrow`: the `avx512-vbmi` round (`subs::Permb`) on 256-bit
//! registers, for short calls and serial modes (CBC and CFB encryption,
//! OFB, MACs), where one block's latency is the cost. On AMD `avx512-vbmi`
//! runs its calls of up to 256 bytes here and longer ones with the same
//! cipher on zmm (`avx512_vbmi.rs`); on Intel all of them on zmm.
//!
//! A group is 8 blocks in the dword lanes of two ymm registers. On ymm the
//! 64-entry lookups are `vpermi2b` over two 32-byte halves, with the
//! latency of a 256-bit shuffle instead of a 512-bit one. One round's
//! dependency chain: vpaddd (key) → vpsrld → vpternlogd (index) → vpermi2b
//! → vprold → vpternlogd (y ^ (a | b)), six steps (`Permb::xor_sub_rot`
//! below 512 bits). A batch that ends in a partial group is loaded and
//! stored with byte-masked moves (the length is public) and runs all its
//! groups interleaved: no padded copy, which cost a 1-block call about 20
//! of its ~275 cycles on AMD Zen 4, and 9 blocks cost one pass, not two.

use super::super::feistel::{groups, rounds, Layout};
use super::super::lanes::{LaneCipher, Lanes};
use super::super::subs::Permb;
use super::super::keys::Keys;
use crate::backend::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::{Avx512, Avx512Vbmi, Vbmi, Ymm};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Ymm<Avx512Vbmi>, Narrow>("avx512-vbmi-narrow", true, 32);

/// Dword lanes with `Permb`; a partial group with masked loads and stores.
pub(crate) struct Narrow(LaneCipher<Permb>);

impl Narrow {
    /// One batch: whole groups as `avx512-vbmi` runs them; a batch that
    /// ends in a partial group runs all its groups interleaved, the last
    /// one loaded and stored with byte masks.
    #[inline(always)]
    fn run<M: Vbmi + Avx512>(&self, m: M, batch: &mut [u8], rk: &[u32; 32]) {
        let group = <Lanes<Permb> as Layout<M>>::GROUP_BYTES;
        match (batch.len() % group, batch.len().div_ceil(group)) {
            (0, _) => groups(m, &self.0.lanes, rk, batch),
            (_, 1) => self.masked::<M, 1>(m, batch, rk),
            (_, 2) => self.masked::<M, 2>(m, batch, rk),
            (_, 3) => self.masked::<M, 3>(m, batch, rk),
            _ => self.masked::<M, 4>(m, batch, rk),
        }
    }

    /// `N` groups, the last partial: every register is loaded and stored
    /// with a byte mask of its length (at most `BYTES`; zero past the end).
    #[inline(always)]
    fn masked<M: Vbmi + Avx512, const N: usize>(&self, m: M, batch: &mut [u8], rk: &[u32; 32]) {
        let c = self.0.lanes.consts(m);
        let len = batch.len();
        let piece = |i: usize| (i * M::BYTES).min(len)..((i + 1) * M::BYTES).min(len);
        let (mut a, mut b) = ([m.zero(); N], [m.zero(); N]);
        for g in 0..N {
            let (x, y) = (m.load_prefix(&batch[piece(2 * g)]), m.load_prefix(&batch[piece(2 * g + 1)]));
            (a[g], b[g]) = Lanes::<Permb>::halves(m, &c, x, y);
        }
        rounds::<M, Lanes<Permb>, N>(m, &c, rk, &mut a, &mut b);
        for g in 0..N {
            let (x, y) = Lanes::<Permb>::blocks(m, &c, a[g], b[g]);
            m.store_prefix(x, &mut batch[piece(2 * g)]);
            m.store_prefix(y, &mut batch[piece(2 * g + 1)]);
        }
    }
}

/// Up to 4 groups of 8 blocks per batch; any whole number of blocks.
impl<M: Vbmi + Avx512> BatchCipher<M> for Narrow {
    type Keys = Keys;
    const BATCH_BYTES: usize = <LaneCipher<Permb> as BatchCipher<M>>::BATCH_BYTES;
    const GRANULE_BYTES: usize = 8;

    fn new(m: M, keys: &Keys) -> Self {
        Narrow(LaneCipher::new(m, keys))
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        self.run(m, batch, &self.0.rk.enc)
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        self.run(m, batch, &self.0.rk.dec)
    }
    #[inline(always)]
    fn imit_steps(&self, m: M, state: &mut [u8; 8], data: &[u8]) -> bool {
        self.0.imit_steps(m, state, data)
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference;
use super::super::super::keys::ByteOrder;
use super::super::super::SboxSet;
    use super::*;
    use crate::simd::emu::Emu;
    use crate::test_rng::Rng;

    /// The kernel on the emulated 256-bit machine through the batch driver
    /// against the reference: both byte orders, every S-box set, every
    /// whole number of blocks up to two batches and one block.
    #[test]
    fn every_length_matches_the_reference() {
        let backend = kernel::backend::<Emu<32>, Narrow>("emulated", true, 32);
        let mut rng = Rng(0x3412_2015);
        for order in [ByteOrder::Magma, ByteOrder::Gost89] {
            for set in SboxSet::ALL {
                let keys = Keys::new(&rng.bytes(32), set, order);
                let (kernel, oracle) = ((backend.new)(&keys), (reference::BACKEND.new)(&keys));
                for blocks in 0..=65 {
                    let data = rng.bytes(8 * blocks);
                    let (mut got, mut want) = (data.clone(), data.clone());
                    kernel.encrypt_blocks(&mut got);
                    oracle.encrypt_blocks(&mut want);
                    assert_eq!(got, want, "{} {order:?} encrypt {blocks} blocks", set.name());
                    kernel.decrypt_blocks(&mut got);
                    assert_eq!(got, data, "{} {order:?} decrypt {blocks} blocks", set.name());
                    // The MAC steps over the same blocks.
                    let (mut got, mut want) = ([7u8; 8], [7u8; 8]);
                    assert!(kernel.imit_steps(&mut got, &data) && oracle.imit_steps(&mut want, &data));
                    assert_eq!(got, want, "{} {order:?} imit {blocks} blocks", set.name());
                }
            }
        }
    }
}
