//! The registers of many independent streams and the one wide cipher call
//! per step that serves them all.

use crate::error::Result;
use crate::Cipher;
use zeroize::Zeroizing;

/// One n-byte register per stream, in one flat buffer, and the scratch
/// the live registers are gathered into.
pub(crate) struct Lanes {
    n: usize,
    regs: Zeroizing<Vec<u8>>,
    wide: Zeroizing<Vec<u8>>,
}

impl Lanes {
    /// `count` registers of `n` bytes, each set to `init` (n bytes).
    pub(crate) fn new(n: usize, count: usize, init: &[u8]) -> Lanes {
        let mut regs = Zeroizing::new(Vec::with_capacity(n * count));
        for _ in 0..count {
            regs.extend_from_slice(init);
        }
        Lanes { n, regs, wide: Zeroizing::new(Vec::with_capacity(n * count)) }
    }

    pub(crate) fn reg(&self, lane: usize) -> &[u8] {
        &self.regs[lane * self.n..(lane + 1) * self.n]
    }

    pub(crate) fn reg_mut(&mut self, lane: usize) -> &mut [u8] {
        &mut self.regs[lane * self.n..(lane + 1) * self.n]
    }

    /// Replaces the register of each lane in `live` (ascending, no repeats)
    /// by its encryption, in ONE `encrypt_blocks` call so the wide kernels
    /// fill their lanes. With every lane live the registers are encrypted
    /// where they are; otherwise they are gathered and scattered back.
    pub(crate) fn encrypt(&mut self, cipher: &Cipher, live: &[usize]) -> Result<()> {
        let n = self.n;
        if live.len() * n == self.regs.len() {
            return cipher.encrypt_blocks(&mut self.regs);
        }
        self.wide.clear();
        for &l in live {
            self.wide.extend_from_slice(&self.regs[l * n..(l + 1) * n]);
        }
        cipher.encrypt_blocks(&mut self.wide)?;
        for (&l, block) in live.iter().zip(self.wide.chunks_exact(n)) {
            self.regs[l * n..(l + 1) * n].copy_from_slice(block);
        }
        Ok(())
    }
}
