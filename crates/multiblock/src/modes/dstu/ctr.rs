//! DSTU 7624:2014 counter mode ("гамування"): NOT NIST CTR.
//!
//! S = E_K(IV); then for every block S = S + 1 (the whole block read as a
//! little-endian integer, byte 0 least significant) and the keystream block
//! is E_K(S). A partial last block uses the leading keystream bytes. This is
//! Bouncy Castle's KCTRBlockCipher and UAPKI's `encrypt_ctr`.
//!
//! [`Keystream`] is the engine, shared with GCM (whose counter steps only
//! the low 64-bit word, wrapping, as UAPKI and dstu-core do) and CCM: it
//! fills up to [`CHUNK`] bytes of counters and encrypts them with one
//! `encrypt_blocks` call, so CTR runs at the speed of ECB.

use super::util::{encrypt_one, keyed_with_iv, xor_into, CHUNK};
use crate::error::Result;
use crate::modes::Request;
use crate::Cipher;
use zeroize::Zeroize;

/// How the counter advances between keystream blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// +1 over the whole block, with carry (CTR, CCM).
    Whole,
    /// +1 on the first 8 bytes as a little-endian u64, wrapping (GCM).
    Low64,
}

/// A DSTU keystream: E_K(S+1), E_K(S+2), … with S = E_K(IV), consumed
/// byte by byte across calls.
pub(crate) struct Keystream {
    /// S as little-endian u64 limbs (the first n/8 are used).
    counter: [u64; 8],
    n: usize,
    step: Step,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
}

impl Keystream {
    /// `iv` is one block.
    pub(crate) fn new(c: &Cipher, iv: &[u8], step: Step) -> Keystream {
        let n = c.block_bytes();
        assert_eq!(iv.len(), n);
        let mut s = [0u8; 64];
        s[..n].copy_from_slice(iv);
        encrypt_one(c, &mut s[..n]);
        let mut counter = [0u64; 8];
        for (limb, bytes) in counter.iter_mut().zip(s[..n].chunks_exact(8)) {
            *limb = u64::from_le_bytes(bytes.try_into().unwrap());
        }
        s.zeroize();
        Keystream { counter, n, step, buf: Vec::new(), pos: 0, len: 0 }
    }

    /// Writes S+1, S+2, … into the blocks of `out` and leaves S at the last.
    fn counters(&mut self, out: &mut [u8]) {
        match (self.n / 8, self.step) {
            (2, Step::Whole) => counters::<2, true>(&mut self.counter, out),
            (4, Step::Whole) => counters::<4, true>(&mut self.counter, out),
            (8, Step::Whole) => counters::<8, true>(&mut self.counter, out),
            (2, Step::Low64) => counters::<2, false>(&mut self.counter, out),
            (4, Step::Low64) => counters::<4, false>(&mut self.counter, out),
            (_, Step::Low64) => counters::<8, false>(&mut self.counter, out),
            (_, Step::Whole) => unreachable!("Kalyna blocks are 16, 32 or 64 bytes"),
        }
    }

    /// Makes fresh keystream for at least `want` bytes (at most [`CHUNK`]).
    fn refill(&mut self, c: &Cipher, want: usize) {
        let n = self.n;
        let bytes = want.div_ceil(n).clamp(1, CHUNK / n) * n;
        if self.buf.len() < bytes {
            self.buf.resize(bytes, 0);
        }
        let mut buf = std::mem::take(&mut self.buf);
        self.counters(&mut buf[..bytes]);
        self.buf = buf;
        c.encrypt_blocks(&mut self.buf[..bytes]).expect("whole blocks");
        self.pos = 0;
        self.len = bytes;
    }

    /// XORs the next `data.len()` keystream bytes into `data`.
    pub(crate) fn apply(&mut self, c: &Cipher, data: &mut [u8]) {
        let mut off = 0;
        while off < data.len() {
            if self.pos == self.len {
                self.refill(c, data.len() - off);
            }
            let take = (self.len - self.pos).min(data.len() - off);
            xor_into(&mut data[off..off + take], &self.buf[self.pos..self.pos + take]);
            self.pos += take;
            off += take;
        }
    }
}

/// The counter blocks for one refill: W limbs, `WHOLE` = carry through the
/// block (else the low limb wraps alone). The carry has no branch.
#[inline(always)]
fn counters<const W: usize, const WHOLE: bool>(counter: &mut [u64; 8], out: &mut [u8]) {
    let mut c = [0u64; W];
    c.copy_from_slice(&counter[..W]);
    for block in out.chunks_exact_mut(8 * W) {
        if WHOLE {
            let mut carry = 1u64;
            for limb in c.iter_mut() {
                let (v, o) = limb.overflowing_add(carry);
                *limb = v;
                carry = o as u64;
            }
        } else {
            c[0] = c[0].wrapping_add(1);
        }
        for (bytes, limb) in block.chunks_exact_mut(8).zip(&c) {
            bytes.copy_from_slice(&limb.to_le_bytes());
        }
    }
    counter[..W].copy_from_slice(&c);
}

impl Drop for Keystream {
    fn drop(&mut self) {
        self.buf.zeroize();
        self.counter.zeroize();
    }
}

/// Streaming DSTU 7624 CTR (Kalyna): encryption and decryption are the same
/// [`KalynaCtr::update`], which continues the keystream wherever the last
/// call stopped, so any split of the data gives the one-shot result.
pub struct KalynaCtr {
    cipher: Cipher,
    ks: Keystream,
}

impl KalynaCtr {
    /// Takes `--iv` (one block) and nothing else.
    pub fn new(req: &Request<'_>) -> Result<KalynaCtr> {
        let (cipher, iv) = keyed_with_iv(req, false, &["iv"])?;
        let ks = Keystream::new(&cipher, iv, Step::Whole);
        Ok(KalynaCtr { cipher, ks })
    }

    /// Encrypts or decrypts `data` in place.
    pub fn update(&mut self, data: &mut [u8]) {
        self.ks.apply(&self.cipher, data);
    }
}

impl KalynaCtr {
    /// The keyed cipher (for the parallel CTR).
    pub(crate) fn into_cipher(self) -> Cipher {
        self.cipher
    }
}

/// One-shot CTR (its own inverse).
pub(crate) fn apply(req: &Request<'_>, data: &[u8]) -> Result<Vec<u8>> {
    let mut out = data.to_vec();
    KalynaCtr::new(req)?.update(&mut out);
    Ok(out)
}
