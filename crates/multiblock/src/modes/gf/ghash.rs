//! The GHASH chain of DSTU 7624:2014 GCM/GMAC (§12) over the fields of
//! [`super::dstu`].

use super::dstu::{Elem, Field};

/// The DSTU GHASH: B ← (B ⊕ X)·H over blocks X, where a section (the
/// associated data, the ciphertext, the GMAC message) that ends in a
/// partial block is completed with Annex Б.2 padding: 0x80, then zeros.
pub(crate) struct Ghash {
    field: Field,
    h: Elem,
    acc: Elem,
    buf: [u8; 64],
    fill: usize,
}

impl Ghash {
    /// `h` is the hash key E_K(0), one block.
    pub(crate) fn new(field: Field, h: &[u8]) -> Ghash {
        Ghash { field, h: field.elem(h), acc: [0; 8], buf: [0; 64], fill: 0 }
    }

    fn absorb(&mut self, blocks: &[u8]) {
        self.field.ghash_blocks(&self.h, &mut self.acc, blocks);
    }

    /// Hashes more bytes of the current section.
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        let n = self.field.block_bytes();
        if self.fill > 0 {
            let take = (n - self.fill).min(data.len());
            self.buf[self.fill..self.fill + take].copy_from_slice(&data[..take]);
            self.fill += take;
            data = &data[take..];
            if self.fill < n {
                return;
            }
            let block = self.buf;
            self.absorb(&block[..n]);
            self.fill = 0;
        }
        let whole = data.len() - data.len() % n;
        self.absorb(&data[..whole]);
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.fill = rest.len();
    }

    /// Ends a section: a partial last block gets 0x80 then zeros.
    pub(crate) fn end_section(&mut self) {
        let n = self.field.block_bytes();
        if self.fill > 0 {
            self.buf[self.fill] = 0x80;
            self.buf[self.fill + 1..n].fill(0);
            let block = self.buf;
            self.absorb(&block[..n]);
            self.fill = 0;
        }
    }

    /// The accumulator B as bytes (after the last [`Ghash::end_section`]).
    pub(crate) fn value(&self, out: &mut [u8]) {
        self.field.write(&self.acc, out);
    }
}

impl Drop for Ghash {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.h.zeroize();
        self.acc.zeroize();
        self.buf.zeroize();
    }
}
