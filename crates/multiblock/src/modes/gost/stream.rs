//! XOR with a keystream that a generator makes chunk by chunk (CTR,
//! CTR-ACPKM, OFB, CNT): any split of the data gives the same result.

use crate::modes::buffers::CHUNK as CHUNK_BYTES;
use crate::error::Result;
use zeroize::{Zeroize, Zeroizing};

/// A source of keystream bytes.
pub(crate) trait Keystream {
    /// Appends the next keystream bytes to `out`: at least one byte, about
    /// `want` bytes if that is more, and at most about `CHUNK_BYTES`.
    fn generate(&mut self, want: usize, out: &mut Vec<u8>) -> Result<()>;
}

/// `data ^= keystream`, keeping unused keystream for the next call.
pub(crate) struct XorStream<G> {
    pub(crate) gen: G,
    buf: Zeroizing<Vec<u8>>,
    pos: usize,
}

impl<G: Keystream> XorStream<G> {
    pub(crate) fn new(gen: G) -> Self {
        XorStream { gen, buf: Zeroizing::new(Vec::new()), pos: 0 }
    }

    pub(crate) fn apply(&mut self, mut data: &mut [u8]) -> Result<()> {
        while !data.is_empty() {
            if self.pos == self.buf.len() {
                self.buf.clear();
                self.pos = 0;
                self.gen.generate(data.len(), &mut self.buf)?;
            }
            let k = data.len().min(self.buf.len() - self.pos);
            let (now, rest) = data.split_at_mut(k);
            xor_in(now, &self.buf[self.pos..self.pos + k]);
            self.pos += k;
            data = rest;
        }
        Ok(())
    }
}

impl<G: Keystream> XorStream<G> {
    /// `input ^ keystream` into a new vector, for a fresh stream: the
    /// keystream is made straight into the output (one pass less than
    /// copying, then [`XorStream::apply`]).
    pub(crate) fn xor_copy(mut self, input: &[u8]) -> Result<Vec<u8>> {
        debug_assert_eq!(self.pos, self.buf.len());
        let mut out = Vec::with_capacity(input.len() + CHUNK_BYTES);
        while out.len() < input.len() {
            let start = out.len();
            self.gen.generate(input.len() - start, &mut out)?;
            let end = out.len().min(input.len());
            xor_in(&mut out[start..end], &input[start..end]);
        }
        // Keystream past the end is not output.
        out[input.len()..].zeroize();
        out.truncate(input.len());
        Ok(out)
    }
}

pub(crate) use crate::modes::buffers::xor_in;

/// The register after shifting `fed` in from the right: the last
/// `reg.len()` bytes of `reg || fed` (GOST R 34.13's R_{i+1} = LSB(R_i) || C_i).
pub(crate) fn shift_in(reg: &mut [u8], fed: &[u8]) {
    let m = reg.len();
    if fed.len() >= m {
        reg.copy_from_slice(&fed[fed.len() - m..]);
    } else {
        reg.copy_within(fed.len().., 0);
        reg[m - fed.len()..].copy_from_slice(fed);
    }
}

/// Copies `out.len()` bytes of `a || b` starting at `start`.
pub(crate) fn copy_concat(a: &[u8], b: &[u8], start: usize, out: &mut [u8]) {
    let len = out.len();
    if start >= a.len() {
        out.copy_from_slice(&b[start - a.len()..start - a.len() + len]);
    } else if start + len <= a.len() {
        out.copy_from_slice(&a[start..start + len]);
    } else {
        let k = a.len() - start;
        out[..k].copy_from_slice(&a[start..]);
        out[k..].copy_from_slice(&b[..len - k]);
    }
}

/// Writes the big-endian n-byte counters `base`, `base + 1`, … (mod 2^{8n},
/// n = 8 or 16) into the blocks of `out`; returns the next counter.
pub(crate) fn put_counters(out: &mut [u8], n: usize, base: u128) -> u128 {
    if n == 8 {
        let c = base as u64;
        let blocks = (out.len() / 8) as u64;
        let (hi, lo) = ((c >> 32) as u32, c as u32);
        if u64::from(lo) + blocks <= 1 << 32 {
            // The common case: the high half stays put within this call, so
            // only a 32-bit counter moves (a loop the compiler vectorizes;
            // Magma CTR spent ~0.1 cycle/byte more on 64-bit byte swaps).
            let hi = hi.to_be_bytes();
            for (i, b) in out.chunks_exact_mut(8).enumerate() {
                b[..4].copy_from_slice(&hi);
                b[4..].copy_from_slice(&lo.wrapping_add(i as u32).to_be_bytes());
            }
            return u128::from(c.wrapping_add(blocks));
        }
        let mut c = c;
        for b in out.chunks_exact_mut(8) {
            b.copy_from_slice(&c.to_be_bytes());
            c = c.wrapping_add(1);
        }
        u128::from(c)
    } else {
        let mut c = base;
        for b in out.chunks_exact_mut(16) {
            b.copy_from_slice(&c.to_be_bytes());
            c = c.wrapping_add(1);
        }
        c
    }
}

/// The methods of a mode that XORs a keystream (its field `x` is an
/// [`XorStream`]): `update` in place, `finalize` (the keystream left over is
/// wiped on drop), and the crate's one-shot `oneshot`.
macro_rules! keystream_methods {
    () => {
        /// Encrypts or decrypts the next `data.len()` bytes in place.
        pub fn update(&mut self, data: &mut [u8]) -> Result<()> {
            self.x.apply(data)
        }

        /// Ends the stream (the keystream left over is wiped).
        pub fn finalize(self) {}

        /// One shot: a fresh stream over a copy of `data`.
        pub(crate) fn oneshot(self, data: &[u8]) -> Result<Vec<u8>> {
            self.x.xor_copy(data)
        }
    };
}
pub(crate) use keystream_methods;
