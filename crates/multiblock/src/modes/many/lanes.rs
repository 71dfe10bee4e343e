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

    /// `reg(lane) ^= block`, one n-byte block.
    pub(crate) fn xor(&mut self, lane: usize, block: &[u8]) {
        xor_block(self.reg_mut(lane), block);
    }

    /// Replaces the register of each lane in `live` (no repeats) by its
    /// encryption, in ONE `encrypt_blocks` call so the wide kernels
    /// fill their lanes. With every lane live the registers are encrypted
    /// where they are; otherwise they are gathered and scattered back.
    pub(crate) fn encrypt(&mut self, cipher: &Cipher, live: &[usize]) -> Result<()> {
        let n = self.n;
        if live.len() * n == self.regs.len() {
            return cipher.encrypt_blocks(&mut self.regs);
        }
        // The first lanes in order (many streams of which the shorter ended):
        // in place too.
        if live.iter().enumerate().all(|(i, &l)| i == l) {
            return cipher.encrypt_blocks(&mut self.regs[..live.len() * n]);
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

/// `dst ^= src` over `dst.len()` bytes, a multiple of 8 (every block size
/// here is): 64-bit words, where a byte loop would cost a cycle per byte on
/// these short blocks.
pub(crate) fn xor_block(dst: &mut [u8], src: &[u8]) {
    debug_assert!(dst.len().is_multiple_of(8) && src.len() >= dst.len());
    for (d, s) in dst.chunks_exact_mut(8).zip(src.chunks_exact(8)) {
        let x = u64::from_ne_bytes(d.try_into().expect("8 bytes")) ^ u64::from_ne_bytes(s.try_into().expect("8 bytes"));
        d.copy_from_slice(&x.to_ne_bytes());
    }
}
