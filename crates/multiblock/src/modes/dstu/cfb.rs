//! CFB ("гамування зі зворотним зв'язком за шифротекстом", DSTU 7624:2014)
//! with s = 8q bits of feedback (`--s`, default the block size).
//!
//! With R_0 = IV and n-byte blocks, for every q-byte piece:
//! G = E_K(R), C = P ⊕ (the TRAILING q bytes of G), R = G[0..n−q] ‖ C.
//! A last piece of r < q bytes uses the trailing r bytes of E_K(R). For
//! s = n·8 and whole blocks this is NIST CFB; otherwise it is not (UAPKI's
//! `encrypt_cfb`, dstu-core; Bouncy Castle and Crypto++ implement NIST CFB).
//! s is one of 8, 64, 128, 256, 512 bits and at most the block (UAPKI's
//! `dstu7624_init_cfb` checks the same).
//!
//! Encryption is sequential. Decryption is parallel only for s = block size
//! (then R_i = C_i, so every G is E_K of known ciphertext and a whole chunk
//! goes through one `encrypt_blocks` call); for s < block, R also holds
//! G[0..n−q], so each G needs the previous one.

use super::util::{directions, encrypt_one, keyed_with_iv, who, CHUNK};
use crate::error::{Bytes, Error, Result};
use crate::modes::Request;
use crate::Cipher;
use zeroize::Zeroize;

const S_BITS: [usize; 5] = [8, 64, 128, 256, 512];

/// Streaming DSTU CFB. [`KalynaCfb::update`] takes whole q-byte pieces;
/// [`KalynaCfb::finish`] takes the rest (any length), because a short last
/// piece is treated differently from a whole one.
pub struct KalynaCfb {
    cipher: Cipher,
    /// The register R that the next piece encrypts.
    reg: Vec<u8>,
    q: usize,
    encrypt: bool,
    scratch: Vec<u8>,
}

/// The checks of DSTU CFB (`--iv`, `--s`) and its keyed cipher.
pub(crate) fn keyed<'r>(req: &'r Request<'_>) -> Result<(Cipher, &'r [u8])> {
    let n = req.cipher.block_bytes();
    let s = req.params.s.unwrap_or(8 * n);
    let (cipher, iv) = keyed_with_iv(req, false, &["iv", "s"])?;
    if !S_BITS.contains(&s) || s > 8 * n {
        let ok: Vec<String> = S_BITS.iter().filter(|&&b| b <= 8 * n).map(|b| b.to_string()).collect();
        return Err(Error::Param(format!("{} needs --s of {} (bits), got {s}", who(req), ok.join(", "))));
    }
    Ok((cipher, iv))
}

directions!(KalynaCfb, "CFB", "`--iv` (one block) and `--s`", finish);

impl KalynaCfb {
    fn new(req: &Request<'_>, encrypt: bool) -> Result<KalynaCfb> {
        let (cipher, iv) = keyed(req)?;
        let q = req.params.s.unwrap_or(8 * cipher.block_bytes()) / 8;
        Ok(KalynaCfb { cipher, reg: iv.to_vec(), q, encrypt, scratch: Vec::new() })
    }

    /// Encrypts or decrypts whole q-byte pieces in place.
    pub fn update(&mut self, data: &mut [u8]) -> Result<()> {
        if !data.len().is_multiple_of(self.q) {
            return Err(Error::Param(format!(
                "cfb update takes whole {}-byte pieces (s = {}), got {}; give the rest to finish",
                self.q,
                8 * self.q,
                Bytes(data.len() as u64)
            )));
        }
        let n = self.reg.len();
        if !self.encrypt && self.q == n {
            self.decrypt_full_feedback(data);
            return Ok(());
        }
        let (q, enc) = (self.q, self.encrypt);
        for piece in data.chunks_exact_mut(q) {
            encrypt_one(&self.cipher, &mut self.reg); // R becomes G = E_K(R)
            for (d, g) in piece.iter_mut().zip(&mut self.reg[n - q..]) {
                let c = if enc { *d ^ *g } else { *d };
                *d ^= *g;
                *g = c; // R = G[0..n−q] ‖ C
            }
        }
        Ok(())
    }

    /// s = block size, decryption: G_i = E_K(C_{i−1}) for a whole chunk at once.
    fn decrypt_full_feedback(&mut self, data: &mut [u8]) {
        let n = self.reg.len();
        for chunk in data.chunks_mut(CHUNK) {
            self.scratch.clear();
            self.scratch.extend_from_slice(&self.reg);
            self.scratch.extend_from_slice(&chunk[..chunk.len() - n]);
            self.reg.copy_from_slice(&chunk[chunk.len() - n..]);
            self.cipher.encrypt_blocks(&mut self.scratch).expect("whole blocks");
            for (d, g) in chunk.iter_mut().zip(&self.scratch) {
                *d ^= *g;
            }
        }
    }

    /// Processes the last bytes of the message (any length: whole pieces
    /// first, then a short piece with the trailing bytes of its G).
    pub fn finish(mut self, data: &mut [u8]) -> Result<()> {
        let whole = data.len() - data.len() % self.q;
        let (head, tail) = data.split_at_mut(whole);
        self.update(head)?;
        if !tail.is_empty() {
            let n = self.reg.len();
            encrypt_one(&self.cipher, &mut self.reg);
            let r = tail.len();
            for (d, g) in tail.iter_mut().zip(&self.reg[n - r..]) {
                *d ^= *g;
            }
        }
        Ok(())
    }
}

impl Drop for KalynaCfb {
    fn drop(&mut self) {
        self.reg.zeroize();
        self.scratch.zeroize();
    }
}
