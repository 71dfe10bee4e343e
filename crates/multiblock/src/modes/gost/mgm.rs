//! RFC 9058 (R 1323565.1.026-2019) Multilinear Galois Mode for Kuznyechik
//! (n = 128) and Magma (n = 64).
//!
//! Y_1 = E_K(0 || ICN), Z_1 = E_K(1 || ICN); Y_{i+1} = incr_r(Y_i) (right
//! half + 1 mod 2^{n/2}), Z_{i+1} = incr_l(Z_i) (left half + 1);
//! C_i = P_i ⊕ E_K(Y_i) (MSB for a short last block); H_i = E_K(Z_i);
//! T = MSB_S(E_K(Σ H_i ⊗ A_i ⊕ Σ H_{h+j} ⊗ C_j ⊕ H_{h+q+1} ⊗ (len(A) || len(C))))
//! with A and C zero-padded to whole blocks and lengths in bits as n/2-bit
//! big-endian numbers. Nothing chains: Y and Z counter blocks go to the
//! cipher 8 KiB (`CHUNK_BYTES`) at a time and the products are summed unreduced
//! (`modes/gf`, PCLMULQDQ when present).
//!
//! One-shot: [`seal`] returns C || T; [`open`] takes C || T, checks the
//! tag in constant time first and only then decrypts, so no plaintext is
//! made for a forged message. Streaming: through
//! [`AeadStream`](crate::modes::aead_stream::AeadStream), whose decryption releases
//! plaintext before the tag is known: its callers hold it back.
//!
//! RustCrypto's `mgm` crate computes the same (the tests check it) but is
//! written for cipher 0.3 and only offers tags of n bits.

use crate::modes::gf::mgm::{self as gf, Acc};
use super::params::{self, P};
use super::stream::xor_in;
use crate::modes::buffers::CHUNK as CHUNK_BYTES;
use crate::error::{Bytes, Error, Result};
use crate::modes::{Mode, Request};
use crate::{Cipher, Family};
use crate::modes::threads::Pool;
use std::sync::Mutex;
use zeroize::{Zeroize, Zeroizing};

/// A keyed MGM instance for one nonce and one AAD.
struct Mgm {
    cipher: Cipher,
    n: usize,
    tag_bytes: usize,
    aad_len: usize,
    /// Y_1 and Z_1 as numbers.
    y1: u128,
    z1: u128,
    half_mask: u128,
    half_bits: u32,
    /// H blocks used so far.
    zi: u128,
    /// H_{h+q+1}, if made with the last text or AAD chunk.
    h_last: Option<Zeroizing<Vec<u8>>>,
}

impl Drop for Mgm {
    fn drop(&mut self) {
        // E(0‖nonce) and E(1‖nonce): the starting blocks of the keystream and of H.
        self.y1.zeroize();
        self.z1.zeroize();
    }
}

impl Mgm {
    fn new(req: &Request<'_>) -> Result<Mgm> {
        params::expect(req, "mgm", &[Mode::Mgm], &[Family::Kuznyechik, Family::Magma])?;
        params::only(req, &[P::Iv, P::Aad, P::TagBits])?;
        let n = req.cipher.block_bytes();
        let nonce = params::iv_exact(req, n, "the nonce 0 || ICN: its first bit must be 0")?;
        if nonce[0] & 0x80 != 0 {
            return Err(Error::Param(format!(
                "{} mgm: the nonce's most significant bit must be 0 (the --iv is 0 || ICN, n-1 bits of ICN)",
                req.cipher
            )));
        }
        let tag_bytes = params::bits(req, "--tag-bits", req.params.tag_bits, 8 * n, 32, 8 * n)?;
        let cipher = req.keyed()?;
        let mut yz = Zeroizing::new(vec![0u8; 2 * n]);
        yz[..n].copy_from_slice(nonce);
        yz[n..].copy_from_slice(nonce);
        yz[n] |= 0x80;
        cipher.encrypt_blocks(&mut yz)?;
        let num = |b: &[u8]| {
            let mut full = [0u8; 16];
            full[16 - n..].copy_from_slice(b);
            u128::from_be_bytes(full)
        };
        let half_bits = 4 * n as u32;
        Ok(Mgm {
            y1: num(&yz[..n]),
            z1: num(&yz[n..]),
            cipher,
            n,
            tag_bytes,
            aad_len: req.params.aad.len(),
            half_mask: (1u128 << half_bits) - 1,
            half_bits,
            zi: 0,
            h_last: None,
        })
    }

    /// Fails if |A| or |C| reaches 2^{n/2} bits (RFC 9058 §4).
    fn check_lengths(&self, text: usize) -> Result<()> {
        let limit = 1u128 << self.half_bits;
        for (what, len) in [("associated data", self.aad_len), ("text", text)] {
            if 8 * len as u128 >= limit {
                return Err(Error::Param(format!(
                    "mgm {what} must be shorter than 2^{} bits, got {}",
                    self.half_bits,
                    Bytes(len as u64)
                )));
            }
        }
        Ok(())
    }

    fn put(&self, v: u128, out: &mut [u8]) {
        out.copy_from_slice(&v.to_be_bytes()[16 - self.n..]);
    }

    /// Y_{1+i} for i = `from`.. into the blocks of `out`: the right half counts.
    fn fill_y(&self, from: u128, out: &mut [u8]) {
        let (left, right) = self.halves(self.y1);
        put_halves(out, self.n, left, right.wrapping_add(from as u64), false);
    }

    /// The next Z blocks into `out`: the left half counts.
    fn fill_z(&mut self, out: &mut [u8]) {
        self.fill_z_at(self.zi, out);
        self.zi += (out.len() / self.n) as u128;
    }

    /// Z_{1+i} for i = `from`.. into the blocks of `out`.
    fn fill_z_at(&self, from: u128, out: &mut [u8]) {
        let (left, right) = self.halves(self.z1);
        put_halves(out, self.n, right, left.wrapping_add(from as u64), true);
    }

    /// The (left, right) halves of an n-byte block value.
    fn halves(&self, v: u128) -> (u64, u64) {
        ((v >> self.half_bits) as u64, (v & self.half_mask) as u64)
    }

    /// acc ^= Σ H ⊗ X over `data` zero-padded to whole blocks, the H's
    /// continuing the Z counter.
    /// With `last`, the final chunk also makes H_{h+q+1} for the tag
    /// (one cipher call less for short messages).
    fn hash(&mut self, acc: &mut Acc, data: &[u8], last: bool) -> Result<()> {
        let n = self.n;
        let mut h = Zeroizing::new(Vec::new());
        let chunks = data.len().div_ceil(CHUNK_BYTES);
        for (k, chunk) in data.chunks(CHUNK_BYTES).enumerate() {
            let blocks = chunk.len().div_ceil(n);
            let extra = usize::from(last && k + 1 == chunks);
            h.resize((blocks + extra) * n, 0);
            self.fill_z(&mut h);
            self.cipher.encrypt_blocks(&mut h)?;
            self.mul_padded(acc, &h[..blocks * n], chunk);
            self.keep_last_h(&h[blocks * n..]);
        }
        Ok(())
    }

    fn keep_last_h(&mut self, h: &[u8]) {
        if !h.is_empty() {
            self.h_last = Some(Zeroizing::new(h.to_vec()));
        }
    }

    /// acc ^= Σ H ⊗ X with `x` zero-padded to `h.len()`.
    fn mul_padded(&self, acc: &mut Acc, h: &[u8], x: &[u8]) {
        let n = self.n;
        let whole = x.len() / n * n;
        gf::mul_acc(n, acc, &h[..whole], &x[..whole]);
        if whole < x.len() {
            let mut last = [0u8; 16];
            last[..x.len() - whole].copy_from_slice(&x[whole..]);
            gf::mul_acc(n, acc, &h[whole..whole + n], &last[..n]);
        }
    }

    /// Checks the lengths (|C| = `text` bytes) and returns the sum over
    /// the associated data `aad`; `aad_is_last` when no text follows
    /// (RFC 9058 §4: A is then padded as the last block of A ‖ C).
    fn start(&mut self, aad: &[u8], text: usize, aad_is_last: bool) -> Result<Acc> {
        self.check_lengths(text)?;
        let mut acc = Acc::default();
        self.hash(&mut acc, aad, aad_is_last)?;
        Ok(acc)
    }

    /// [`Mgm::ctr_from`] with the blocks split across `pool`.
    fn ctr_par(&self, first: u128, data: &mut [u8], pool: &Pool) -> Result<()> {
        let n = self.n;
        pool.run(data, n, |off, piece| self.ctr_from(first + (off / n) as u128, piece))
    }

    /// C = P ⊕ E(Y_1..) in place.
    fn ctr(&self, data: &mut [u8]) -> Result<()> {
        self.ctr_from(0, data)
    }

    /// C = P ⊕ E(Y_{1+first}..) in place.
    fn ctr_from(&self, first: u128, data: &mut [u8]) -> Result<()> {
        let n = self.n;
        let mut y = Zeroizing::new(Vec::new());
        for (k, chunk) in data.chunks_mut(CHUNK_BYTES).enumerate() {
            y.resize(chunk.len().div_ceil(n) * n, 0);
            self.fill_y(first + (k * CHUNK_BYTES / n) as u128, &mut y);
            self.cipher.encrypt_blocks(&mut y)?;
            xor_in(chunk, &y);
        }
        Ok(())
    }

    /// Encrypts in place and hashes the ciphertext, one cipher call per
    /// chunk for both Y and Z blocks.
    fn ctr_and_hash(&mut self, acc: &mut Acc, data: &mut [u8]) -> Result<()> {
        let n = self.n;
        let mut yz = Zeroizing::new(Vec::new());
        let chunks = data.len().div_ceil(CHUNK_BYTES / 2);
        for (k, chunk) in data.chunks_mut(CHUNK_BYTES / 2).enumerate() {
            let len = chunk.len().div_ceil(n) * n;
            let extra = if k + 1 == chunks { n } else { 0 };
            yz.resize(2 * len + extra, 0);
            let (y, z) = yz.split_at_mut(len);
            self.fill_y((k * CHUNK_BYTES / 2 / n) as u128, y);
            self.fill_z(z);
            self.cipher.encrypt_blocks(&mut yz)?;
            xor_in(chunk, &yz[..len]);
            self.mul_padded(acc, &yz[len..2 * len], chunk);
            self.keep_last_h(&yz[2 * len..]);
        }
        Ok(())
    }

    /// Σ H_{1+first+i} ⊗ X_i over `data` zero-padded to whole blocks.
    fn hash_from(&self, first: u128, data: &[u8]) -> Result<Acc> {
        let n = self.n;
        let mut acc = Acc::default();
        let mut h = Zeroizing::new(Vec::new());
        for (k, chunk) in data.chunks(CHUNK_BYTES).enumerate() {
            h.resize(chunk.len().div_ceil(n) * n, 0);
            self.fill_z_at(first + (k * CHUNK_BYTES / n) as u128, &mut h);
            self.cipher.encrypt_blocks(&mut h)?;
            self.mul_padded(&mut acc, &h, chunk);
        }
        Ok(acc)
    }

    /// The text's part of the sum, split across `pool`: each piece of whole
    /// blocks adds its own partial sum (the sum is a XOR of products, so the
    /// order does not matter); the Z counter then moves past the text.
    fn hash_text_par(&mut self, acc: &mut Acc, text: &mut [u8], pool: &Pool) -> Result<()> {
        let (n, z0) = (self.n, self.zi);
        let total = Mutex::new(Acc::default());
        pool.run(text, n, |off, piece| {
            let part = self.hash_from(z0 + (off / n) as u128, piece)?;
            let mut t = total.lock().expect("no panics while held");
            t.hi ^= part.hi;
            t.lo ^= part.lo;
            Ok(())
        })?;
        let t = total.into_inner().expect("no panics while held");
        acc.hi ^= t.hi;
        acc.lo ^= t.lo;
        self.zi += text.len().div_ceil(n) as u128;
        Ok(())
    }

    /// `out` (the ciphertext) ‖ the tag over the sum `acc`.
    fn with_tag(&mut self, acc: Acc, mut out: Vec<u8>, text: usize) -> Result<Vec<u8>> {
        let tag = self.tag(acc, text)?;
        out.extend_from_slice(&tag);
        Ok(out)
    }

    /// The tag from the sum over A and C.
    fn tag(&mut self, mut acc: Acc, text: usize) -> Result<Vec<u8>> {
        let n = self.n;
        let last = match self.h_last.take() {
            Some(h) => h,
            None => {
                let mut h = Zeroizing::new(vec![0u8; n]);
                self.fill_z(&mut h);
                self.cipher.encrypt_blocks(&mut h)?;
                h
            }
        };
        let lens = ((8 * self.aad_len as u128) << self.half_bits) | (8 * text as u128);
        let mut len_block = [0u8; 16];
        self.put(lens, &mut len_block[..n]);
        gf::mul_acc(n, &mut acc, &last, &len_block[..n]);
        let mut t = Zeroizing::new(gf::reduce(n, &acc));
        self.cipher.encrypt_blocks(&mut t)?;
        Ok(t[..self.tag_bytes].to_vec())
    }
}

/// Blocks with one half counting from `start` (mod 2^{n/2}; the left half
/// if `left_counts`) and the other half `fixed`.
fn put_halves(out: &mut [u8], n: usize, fixed: u64, start: u64, left_counts: bool) {
    if n == 16 {
        for (i, b) in out.chunks_exact_mut(16).enumerate() {
            let v = start.wrapping_add(i as u64);
            let (l, r) = if left_counts { (v, fixed) } else { (fixed, v) };
            b[..8].copy_from_slice(&l.to_be_bytes());
            b[8..].copy_from_slice(&r.to_be_bytes());
        }
    } else {
        for (i, b) in out.chunks_exact_mut(8).enumerate() {
            let v = (start as u32).wrapping_add(i as u32);
            let (l, r) = if left_counts { (v, fixed as u32) } else { (fixed as u32, v) };
            b[..4].copy_from_slice(&l.to_be_bytes());
            b[4..].copy_from_slice(&r.to_be_bytes());
        }
    }
}

/// MGM encryption: ciphertext || tag.
pub fn seal(req: &Request<'_>, plaintext: &[u8]) -> Result<Vec<u8>> {
    let mut m = Mgm::new(req)?;
    let mut acc = m.start(&req.params.aad, plaintext.len(), plaintext.is_empty())?;
    let mut out = crate::modes::alloc::copy_with_room(plaintext, m.tag_bytes)?;
    m.ctr_and_hash(&mut acc, &mut out)?;
    m.with_tag(acc, out, plaintext.len())
}

/// [`seal`] with the text split across `threads` threads (0: every core;
/// the AAD is hashed on the calling thread): the same bytes for any count.
pub fn seal_threads(req: &Request<'_>, plaintext: &[u8], threads: usize) -> Result<Vec<u8>> {
    seal_pool(req, plaintext, &Pool::new(threads)?)
}

pub(crate) fn seal_pool(req: &Request<'_>, plaintext: &[u8], pool: &Pool) -> Result<Vec<u8>> {
    let mut m = Mgm::new(req)?;
    let mut acc = m.start(&req.params.aad, plaintext.len(), false)?;
    let mut out = crate::modes::alloc::copy_with_room(plaintext, m.tag_bytes)?;
    m.ctr_par(0, &mut out, pool)?;
    m.hash_text_par(&mut acc, &mut out, pool)?;
    m.with_tag(acc, out, plaintext.len())
}

/// [`open`] with the text split across `threads` threads: the tag is still
/// checked over the whole ciphertext before any plaintext is made.
pub fn open_threads(req: &Request<'_>, sealed: &[u8], threads: usize) -> Result<Vec<u8>> {
    open_pool(req, sealed, &Pool::new(threads)?)
}

pub(crate) fn open_pool(req: &Request<'_>, sealed: &[u8], pool: &Pool) -> Result<Vec<u8>> {
    let mut m = Mgm::new(req)?;
    let Some(ct_len) = sealed.len().checked_sub(m.tag_bytes) else {
        return open(req, sealed);
    };
    let (ct, tag) = sealed.split_at(ct_len);
    let mut acc = m.start(&req.params.aad, ct.len(), false)?;
    let mut out = crate::modes::alloc::copy_with_room(ct, 0)?;
    m.hash_text_par(&mut acc, &mut out, pool)?;
    let expected = m.tag(acc, ct.len())?;
    crate::modes::tag::verify(&expected, tag)?;
    m.ctr_par(0, &mut out, pool)?;
    Ok(out)
}

/// MGM decryption of ciphertext || tag: [`Error::Authentication`] (and no
/// plaintext) unless the tag matches.
pub fn open(req: &Request<'_>, sealed: &[u8]) -> Result<Vec<u8>> {
    let mut m = Mgm::new(req)?;
    let (ct, tag) = crate::modes::tag::split_sealed(sealed, m.tag_bytes, &format!("{} mgm", req.cipher))?;
    let mut acc = m.start(&req.params.aad, ct.len(), ct.is_empty())?;
    m.hash(&mut acc, ct, true)?;
    let expected = m.tag(acc, ct.len())?;
    crate::modes::tag::verify(&expected, tag)?;
    let mut out = crate::modes::alloc::copy_with_room(ct, 0)?;
    m.ctr(&mut out)?;
    Ok(out)
}

/// MGM over a text given in whole blocks (the last call may be partial):
/// the Y and Z counters and the sum carry over between calls, and each
/// call's blocks are split across the pool as in [`seal_threads`].
pub(crate) struct MgmStream {
    m: Mgm,
    acc: Acc,
    /// Text blocks done (the next Y index).
    blocks: u128,
    text: usize,
    encrypt: bool,
    pool: Pool,
}

impl MgmStream {
    pub(crate) fn new(req: &Request<'_>, encrypt: bool) -> Result<MgmStream> {
        let mut m = Mgm::new(req)?;
        let acc = m.start(&req.params.aad, 0, false)?;
        Ok(MgmStream { m, acc, blocks: 0, text: 0, encrypt, pool: Pool::new(1)? })
    }

    pub(crate) fn block_bytes(&self) -> usize {
        self.m.n
    }

    pub(crate) fn tag_bytes(&self) -> usize {
        self.m.tag_bytes
    }

    pub(crate) fn set_pool(&mut self, pool: Pool) {
        self.pool = pool;
    }

    /// Encrypts or decrypts `data` in place; only the last call may hold a
    /// partial block.
    pub(crate) fn update(&mut self, data: &mut [u8]) -> Result<()> {
        let text = self.text.checked_add(data.len()).ok_or_else(|| Error::Param("mgm text too long".into()))?;
        self.m.check_lengths(text)?;
        if self.encrypt {
            self.m.ctr_par(self.blocks, data, &self.pool)?;
        }
        self.m.hash_text_par(&mut self.acc, data, &self.pool)?;
        if !self.encrypt {
            self.m.ctr_par(self.blocks, data, &self.pool)?;
        }
        self.blocks += data.len().div_ceil(self.m.n) as u128;
        self.text = text;
        Ok(())
    }

    /// The full tag (`--tag-bits` long) over the whole text.
    pub(crate) fn tag(mut self) -> Result<Vec<u8>> {
        let acc = std::mem::take(&mut self.acc);
        self.m.tag(acc, self.text)
    }
}
