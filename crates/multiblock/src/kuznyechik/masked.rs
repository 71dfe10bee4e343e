//! `avx2-narrow`: one block at a time in a 16-byte register, for AVX2 CPUs
//! without AVX-512 and GFNI, where the byte-sliced `avx2` kernel pads every
//! call to a batch of 16 or 32 blocks (one block costs as much as 16).
//!
//! - X[K]: one XOR.
//! - S (S⁻¹): the `avx2` backend's lookup tree on the block register
//!   (16 `pshufb` over the table's rows, 15 `pblendvb`; 35 operations).
//! - L (L⁻¹): GF(2)-linear, so the XOR of the images of the block's set
//!   bits ([`Linear::apply_in`]): the block in both lanes of a ymm, per byte
//!   one `pshufb` spreading it and, per pair of bits, a selector AND, a
//!   compare, an AND with the two images and an XOR: 16 × 17 ≈ 270
//!   operations, no address or branch depending on the data.
//!
//! Count: ≈ 310 vector operations per round, 9 rounds ≈ 2 800 per block,
//! at about 3 per cycle ≈ 60 cycles/byte, against the 16-block xmm batch
//! that the byte-sliced kernel pads one block to. Measured on Sapphire
//! Rapids (TSC ticks/byte): 47.5 for 1 to 5 blocks, against 254 for one
//! padded block, 49 for five, and 15–16 for the non-constant-time `table`
//! (64 KiB of tables). `avx2` runs calls of up to 5 blocks on it, and
//! `avx2-gfni` (whose wide kernel is faster) up to 3 (`kernel::tiered`), so
//! CBC encryption, the MACs and short messages do not pay for 16 blocks.

use super::layers::{Lookup, Tree};
use super::linear::{l_inv_map, l_map, Linear};
use super::constants::{PI, PI_INV};
use super::transforms::Block;
use super::keys::Keys;
use crate::kernel::BatchCipher;
use crate::simd::{Narrow, Simd};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The round keys, and L and L⁻¹ as images of bits (public, per process).
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct MaskedL {
    rk: [Block; 10],
    #[zeroize(skip)]
    l: &'static Linear,
    #[zeroize(skip)]
    l_inv: &'static Linear,
}

impl<M: Narrow> BatchCipher<M> for MaskedL {
    type Keys = Keys;
    const BATCH_BYTES: usize = 16;
    const GRANULE_BYTES: usize = 16;

    fn new(_: M, keys: &Keys) -> Self {
        MaskedL { rk: keys.rk, l: l_map(), l_inv: l_inv_map() }
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        let b = m.half();
        let mut x = b.load(batch);
        let mut buf = [0u8; 64];
        for k in &self.rk[..9] {
            x = self.l.apply_in(m, b, Tree::lookup(b, b.xor(x, b.load(k)), &PI), &mut buf);
        }
        b.store(b.xor(x, b.load(&self.rk[9])), batch);
        buf.zeroize();
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        let b = m.half();
        let mut x = b.xor(b.load(batch), b.load(&self.rk[9]));
        let mut buf = [0u8; 64];
        for k in self.rk[..9].iter().rev() {
            let y = self.l_inv.apply_in(m, b, x, &mut buf);
            x = b.xor(Tree::lookup(b, y, &PI_INV), b.load(k));
        }
        b.store(x, batch);
        buf.zeroize();
    }
}

#[cfg(target_arch = "x86_64")]
impl crate::kernel::KeySchedule<Keys> for MaskedL {
    fn key_schedule(&self) -> Keys {
        Keys { rk: self.rk }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::backends::reference::{decrypt_block, encrypt_block};
    use crate::simd::emu::Emu;

    /// On the emulated ymm machine, block by block against `reference`
    /// (the backend itself is checked on this CPU by the backend tests).
    #[test]
    fn emulated_blocks_are_the_reference() {
        let mut rng = crate::test_rng::Rng(0x3a5c);
        for _ in 0..20 {
            let keys = Keys::new(&rng.bytes(32));
            let k = <MaskedL as BatchCipher<Emu<32>>>::new(Emu::<32>, &keys);
            let block: Block = rng.bytes(16).try_into().unwrap();
            let (mut c, mut want) = (block, block);
            k.encrypt(Emu::<32>, &mut c);
            encrypt_block(&keys.rk, &mut want);
            assert_eq!(c, want);
            k.decrypt(Emu::<32>, &mut c);
            decrypt_block(&keys.rk, &mut want);
            assert_eq!((c, want), (block, block));
            #[cfg(target_arch = "x86_64")]
            assert_eq!(crate::kernel::KeySchedule::key_schedule(&k).rk, keys.rk);
        }
    }
}
