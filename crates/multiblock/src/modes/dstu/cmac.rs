//! The DSTU 7624:2014 MAC (§9, "CMAC" on the command line; Bouncy Castle's
//! DSTU7624Mac): NOT NIST CMAC (no doubled subkeys).
//!
//! For a message of k ≥ 1 whole n-byte blocks X_1..X_k: B = 0,
//! B ← E_K(B ⊕ X_i) for i < k, tag = the leading `tag_bits` of
//! E_K(B ⊕ X_k ⊕ E_K(0^n)).
//!
//! The standard defines it for whole blocks only (Bouncy Castle refuses a
//! partial block); `--padding` (gost2 = Annex Б.2, pkcs7, …) pads the message
//! first when given. An empty message is refused (§9.1 needs a block).
//! CBC-MAC is sequential by construction: one block per `encrypt_blocks`.
//!
//! Note (a property of the standard, not of this code): since the last mask
//! is E_K(0), MAC(0^n ‖ Y) = E_K(Y) truncated, so the MAC key should not
//! be used for anything else.

use super::util::{bits_range, check_family, encrypt_one, only, tag_bytes, who, xor_into};
use crate::error::{Error, Result};
use crate::modes::{Padding, Request};
use crate::registry::Cipher;
use zeroize::Zeroize;

/// Streaming DSTU MAC (Kalyna): `--tag-bits` (8 to the block size in steps
/// of 8, default the block size), `--padding`.
pub struct KalynaCmac {
    cipher: Cipher,
    /// The chaining value B.
    state: Vec<u8>,
    /// The last block (or less), kept until more data shows it is not last.
    buf: Vec<u8>,
    padding: Padding,
    tag: usize,
    who: String,
}

impl KalynaCmac {
    pub fn new(req: &Request<'_>) -> Result<KalynaCmac> {
        check_family(req, false)?;
        only(req, &["tag-bits", "padding"])?;
        let cipher = req.keyed()?;
        let n = cipher.block_bytes();
        let tag = tag_bytes(req, n, &bits_range(8, 8 * n), &format!("of 8 to {} in steps of 8", 8 * n))?;
        Ok(KalynaCmac {
            state: vec![0; n],
            buf: Vec::with_capacity(n),
            cipher,
            padding: req.params.padding,
            tag,
            who: who(req),
        })
    }

    fn chain(&mut self, block: &[u8]) {
        xor_into(&mut self.state, block);
        encrypt_one(&self.cipher, &mut self.state);
    }

    /// MACs more of the message.
    pub fn update(&mut self, mut data: &[u8]) {
        let n = self.state.len();
        // A full buffered block is chained only once more data arrives.
        if self.buf.len() < n {
            let take = (n - self.buf.len()).min(data.len());
            self.buf.extend_from_slice(&data[..take]);
            data = &data[take..];
        }
        if data.is_empty() {
            return;
        }
        let block = std::mem::take(&mut self.buf);
        self.chain(&block);
        // Chain every whole block but the last one of `data`.
        let keep = match data.len() % n {
            0 => n,
            r => r,
        };
        let (body, last) = data.split_at(data.len() - keep);
        for b in body.chunks_exact(n) {
            self.chain(b);
        }
        self.buf = block;
        self.buf.clear();
        self.buf.extend_from_slice(last);
    }

    /// The tag.
    pub fn finalize(mut self) -> Result<Vec<u8>> {
        let n = self.state.len();
        let mut last = self.padding.pad(&self.buf, n);
        if last.len() > n {
            // Padding that adds a whole block: chain the full one first.
            let first: Vec<u8> = last.drain(..n).collect();
            self.chain(&first);
        }
        if last.is_empty() {
            return Err(Error::Param(format!("{} needs a message of at least one block (DSTU 7624 §9.1)", self.who)));
        }
        if last.len() != n {
            return Err(Error::Param(format!(
                "{} works on whole {n}-byte blocks: the message ends {} bytes into a block (use --padding gost2 for the DSTU Б.2 padding)",
                self.who,
                last.len() % n
            )));
        }
        let mut k_delta = vec![0u8; n];
        encrypt_one(&self.cipher, &mut k_delta);
        xor_into(&mut last, &k_delta);
        let mut state = std::mem::take(&mut self.state);
        xor_into(&mut state, &last);
        encrypt_one(&self.cipher, &mut state);
        k_delta.zeroize();
        last.zeroize();
        state.truncate(self.tag);
        Ok(state)
    }
}

impl Drop for KalynaCmac {
    fn drop(&mut self) {
        self.state.zeroize();
        self.buf.zeroize();
    }
}

pub(crate) fn mac(req: &Request<'_>, data: &[u8]) -> Result<Vec<u8>> {
    let mut m = KalynaCmac::new(req)?;
    m.update(data);
    m.finalize()
}
