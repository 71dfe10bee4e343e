//! XTS (DSTU 7624:2014 §14; Bouncy Castle's KXTSBlockCipher): one key, IV =
//! the tweak block. T_0 = E_K(IV), T_i = T_{i−1}·x in the GF(2^8n) of
//! [`crate::modes::gf::dstu`] (the GCM polynomial of the block size), and block i
//! (from 1) is C_i = E_K(P_i ⊕ T_i) ⊕ T_i.
//!
//! A message that ends in a partial block of r bytes uses ciphertext
//! stealing: with the last whole block P_k and the tail P*,
//! CC = E_K(P_k ⊕ T_k) ⊕ T_k, then block k of the output is
//! E_K((P* ‖ CC[r..]) ⊕ T_{k+1}) ⊕ T_{k+1} and the tail is CC[0..r].
//! The message must hold at least one whole block.
//!
//! Every block is independent once its tweak is known, and the tweaks are a
//! cheap shift each, so XTS encrypts and decrypts up to [`CHUNK`] bytes per
//! `encrypt_blocks` / `decrypt_blocks` call.

use crate::modes::gf::dstu::{Elem, Field};
use super::util::{directions, encrypt_one, keyed_with_iv, who, xor_into, CHUNK};
use crate::error::{Bytes, Error, Result};
use crate::modes::Request;
use crate::Cipher;
use zeroize::{Zeroize, Zeroizing};

/// Streaming XTS (Kalyna). [`KalynaXts::update`] takes whole blocks;
/// [`KalynaXts::finish`] takes the end of the message, which must contain
/// the last whole block when the message ends in a partial one.
pub struct KalynaXts {
    cipher: Cipher,
    field: Field,
    /// T_i of the last block processed (T_0 at the start).
    tweak: Elem,
    encrypt: bool,
    tweaks: Vec<u8>,
    done: usize,
    who: String,
}

directions!(KalynaXts, "XTS", "`--iv` (the tweak, one block)", finish);

impl KalynaXts {
    fn new(req: &Request<'_>, encrypt: bool) -> Result<KalynaXts> {
        let (cipher, iv) = keyed_with_iv(req, false, &["iv"])?;
        let mut t0 = iv.to_vec();
        encrypt_one(&cipher, &mut t0);
        let field = Field::for_block(t0.len());
        let tweak = field.elem(&t0);
        t0.zeroize();
        Ok(KalynaXts { cipher, field, tweak, encrypt, tweaks: Vec::new(), done: 0, who: who(req) })
    }

    /// The next tweak T_{i+1}, as bytes.
    fn next_tweak(&mut self, out: &mut [u8]) {
        self.field.tweaks(&mut self.tweak, out);
    }

    fn crypt(&self, data: &mut [u8], encrypt: bool) {
        let r = if encrypt { self.cipher.encrypt_blocks(data) } else { self.cipher.decrypt_blocks(data) };
        r.expect("whole blocks");
    }

    /// Encrypts or decrypts whole blocks in place.
    pub fn update(&mut self, data: &mut [u8]) -> Result<()> {
        let n = self.field.block_bytes();
        if !data.len().is_multiple_of(n) {
            return Err(Error::Param(format!(
                "{} update takes whole {n}-byte blocks, got {}; give the end of the message to finish",
                self.who,
                Bytes(data.len() as u64)
            )));
        }
        for chunk in data.chunks_mut(CHUNK) {
            let mut tweaks = std::mem::take(&mut self.tweaks);
            tweaks.resize(chunk.len(), 0);
            self.field.tweaks(&mut self.tweak, &mut tweaks);
            xor_into(chunk, &tweaks);
            self.crypt(chunk, self.encrypt);
            xor_into(chunk, &tweaks);
            self.tweaks = tweaks;
        }
        self.done += data.len();
        Ok(())
    }

    /// The block size n in bytes.
    pub fn block_bytes(&self) -> usize {
        self.field.block_bytes()
    }

    /// For the parallel stream (`modes::parallel`): the tweaks of the next
    /// `out.len() / n` blocks, which then count as processed.
    pub(crate) fn take_tweaks(&mut self, out: &mut [u8]) {
        self.field.tweaks(&mut self.tweak, out);
        self.done += out.len();
    }

    /// The keyed cipher and whether this instance encrypts.
    pub(crate) fn cipher(&self) -> (&Cipher, bool) {
        (&self.cipher, self.encrypt)
    }

    /// Processes the end of the message: whole blocks, or whole blocks and a
    /// partial one (ciphertext stealing, which needs the last whole block
    /// here too).
    pub fn finish(mut self, data: &mut [u8]) -> Result<()> {
        self.finish_here(data)
    }

    fn finish_here(&mut self, data: &mut [u8]) -> Result<()> {
        let n = self.field.block_bytes();
        let r = data.len() % n;
        if self.done + data.len() < n || (r != 0 && data.len() < n) {
            return Err(Error::Param(format!(
                "{} needs at least one whole {n}-byte block{}, got {}",
                self.who,
                if self.done > 0 { " in the last call (with the partial block)" } else { "" },
                Bytes(data.len() as u64)
            )));
        }
        if r == 0 {
            return self.update(data);
        }
        let k = data.len() / n;
        let (head, last) = data.split_at_mut((k - 1) * n);
        self.update(head)?;
        let (full, tail) = last.split_at_mut(n);
        let mut tk = vec![0u8; n];
        let mut tk1 = vec![0u8; n];
        self.next_tweak(&mut tk);
        self.next_tweak(&mut tk1);
        // Encryption uses T_k first, decryption T_{k+1} first.
        let (first, second) = if self.encrypt { (&tk, &tk1) } else { (&tk1, &tk) };
        let mut cc = full.to_vec();
        xor_into(&mut cc, first);
        self.crypt(&mut cc, self.encrypt);
        xor_into(&mut cc, first);
        // (tail ‖ cc[r..]) goes to block k, cc[..r] to the tail.
        full[..r].copy_from_slice(tail);
        full[r..].copy_from_slice(&cc[r..]);
        tail.copy_from_slice(&cc[..r]);
        xor_into(full, second);
        self.crypt(full, self.encrypt);
        xor_into(full, second);
        cc.zeroize();
        tk.zeroize();
        tk1.zeroize();
        Ok(())
    }
}

/// XTS encryption of each message under the one key and tweak of `req`:
/// one key setup, each message from T_0 on.
pub(crate) fn encrypt_each(req: &Request<'_>, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    let mut xts = KalynaXts::new(req, true)?;
    let t0 = Zeroizing::new(xts.tweak);
    messages
        .iter()
        .map(|m| {
            (xts.tweak, xts.done) = (*t0, 0);
            let mut out = m.to_vec();
            xts.finish_here(&mut out)?;
            Ok(out)
        })
        .collect()
}

impl Drop for KalynaXts {
    fn drop(&mut self) {
        self.tweak.zeroize();
        self.tweaks.zeroize();
    }
}
