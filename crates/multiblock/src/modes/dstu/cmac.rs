//! The DSTU 7624:2014 MAC (§9, "CMAC" on the command line; UAPKI's
//! `dstu7624_init_cmac`, dstu-core's `kalyna_cmac`, Bouncy Castle's
//! DSTU7624Mac): NOT NIST CMAC (no doubled subkeys).
//!
//! For a message split into blocks X_1..X_k of n bytes, the last one
//! possibly partial: B = 0, B ← E_K(B ⊕ X_i) for i < k, then
//! tag = the leading `tag_bits` of E_K(B ⊕ X_k* ⊕ K*), where
//! - X_k whole: X_k* = X_k and K* = E_K(0^n);
//! - X_k partial: X_k* = X_k ‖ 0x80 ‖ 0… (a one bit, then zeros up to the
//!   block) and K* = E_K(1 ‖ 0…), the block whose first byte is 0x01.
//!
//! Every message length ≥ 1 byte is taken; these are the tags UAPKI and
//! dstu-core give (Bouncy Castle refuses a partial block). An empty message
//! is refused: §9 defines the MAC for a message of at least one bit, and the
//! padding above is not defined for zero bits (UAPKI's code would give
//! MAC(empty) = MAC(0^n), a collision; dstu-core refuses it too).
//! `--padding` is refused: the mode pads by itself.
//! CBC-MAC is sequential by construction: one block per `encrypt_blocks`.
//! The branches depend only on the message length, which is public.
//!
//! Note (a property of the standard, not of this code): since the last mask
//! for a whole block is E_K(0), MAC(0^n ‖ Y) = E_K(Y) truncated, so the MAC
//! key should not be used for anything else.

use super::util::{bits_range, check_family, encrypt_one, only, tag_bytes, who, xor_into};
use crate::error::{Error, Result};
use crate::modes::{Padding, Request};
use crate::Cipher;
use zeroize::{Zeroize, Zeroizing};

/// Streaming DSTU MAC (Kalyna): `--tag-bits` (8 to the block size in steps
/// of 8, default the block size).
pub struct KalynaCmac {
    cipher: Cipher,
    /// The chaining value B.
    state: Zeroizing<Vec<u8>>,
    /// The last block (or less), kept until more data shows it is not last.
    buf: Zeroizing<Vec<u8>>,
    tag: usize,
    who: String,
}

impl KalynaCmac {
    /// Keys CMAC with `--tag-bits` (default the block).
    pub fn new(req: &Request<'_>) -> Result<KalynaCmac> {
        check_family(req, false)?;
        if req.params.padding != Padding::None {
            return Err(Error::Param(format!(
                "{} takes no --padding: DSTU 7624 §9 pads a partial last block itself (a one bit, then zeros)",
                who(req)
            )));
        }
        only(req, &["tag-bits"])?;
        let cipher = req.keyed()?;
        let n = cipher.block_bytes();
        let tag = tag_bytes(req, n, &bits_range(8, 8 * n), &format!("of 8 to {} in steps of 8", 8 * n))?;
        let (state, buf) = (Zeroizing::new(vec![0; n]), Zeroizing::new(Vec::with_capacity(n)));
        Ok(KalynaCmac { state, buf, cipher, tag, who: who(req) })
    }

    /// The keyed cipher, the tag length in bytes and the error of an empty
    /// message (for the many-streams MAC).
    pub(crate) fn into_parts(self) -> (Cipher, usize, Error) {
        let empty = self.empty_message();
        (self.cipher, self.tag, empty)
    }

    fn empty_message(&self) -> Error {
        Error::Param(format!(
            "{} needs a message of at least 1 byte (DSTU 7624 §9 defines no MAC of an empty message)",
            self.who
        ))
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
        let r = self.buf.len();
        if r == 0 {
            return Err(self.empty_message());
        }
        // The last block, padded if partial, and the key K* that masks it.
        let mut last = std::mem::take(&mut self.buf);
        let mut k_star = vec![0u8; n];
        if r < n {
            last.push(0x80);
            last.resize(n, 0);
            k_star[0] = 0x01;
        }
        encrypt_one(&self.cipher, &mut k_star);
        xor_into(&mut last, &k_star);
        let mut state = std::mem::take(&mut self.state);
        xor_into(&mut state, &last);
        encrypt_one(&self.cipher, &mut state);
        k_star.zeroize();
        last.zeroize();
        state[self.tag..].zeroize();
        state.truncate(self.tag);
        Ok(state.to_vec())
    }
}

pub(crate) fn mac(req: &Request<'_>, data: &[u8]) -> Result<Vec<u8>> {
    let mut m = KalynaCmac::new(req)?;
    m.update(data);
    m.finalize()
}
