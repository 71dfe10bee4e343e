//! CCM ("вироблення імітовставки і гамування", DSTU 7624:2014 §13): NOT
//! NIST CCM.
//!
//! n-byte block, IV = one block, N_B = `--nb` length-field bytes (4, 6 or 8;
//! default 4), q = tag bytes (8, 16, 32, 48 or 64, at most n; default n),
//! associated data A, plaintext P (at least one byte, §13.1):
//! - G1 = IV[0..n−N_B−1] ‖ |P| (N_B bytes, LE) ‖ flags, flags =
//!   (0x80 if A is not empty) | code(q) << 4 | (N_B − 1), code = 2..6 for
//!   q = 8, 16, 32, 48, 64 (table 13.2);
//! - if A is not empty: G2 = |A| (N_B bytes, LE) ‖ zeros, just enough for
//!   G1 ‖ G2 ‖ A to be whole blocks;
//! - B = CBC-MAC (zero start) over G1 [‖ G2 ‖ A] ‖ P completed with
//!   Annex Б.2 padding (0x80, zeros) if P ends in a partial block;
//! - C ‖ T = (P ‖ B[0..q]) ⊕ the CTR keystream of [`super::ctr`] (S = E_K(IV),
//!   E_K(S+1), …): the tag is masked by the keystream bytes right after P's.
//!
//! This follows the text as dstu-core reads it; for the Annex B examples
//! (non-empty, block-aligned A) it equals Bouncy Castle's KCCMBlockCipher
//! and UAPKI. Bouncy Castle refuses partial blocks, packs a short A into
//! the G2 block differently and steps only byte 0 of the counter; UAPKI
//! sets the flag's top bit for a non-empty P instead of A.
//!
//! One-shot: the tag covers the plaintext, so decryption must finish
//! before anything can be released. [`KalynaCcm::open`] decrypts into a
//! private buffer, checks the tag in constant time and wipes the buffer on
//! failure. The CBC-MAC is sequential; the keystream runs in chunks.
//! [`CcmStream`] streams it once |P| is known (it is in G1, the first block
//! the MAC takes), for [`crate::modes::aead_stream::AeadStream`].

use super::ctr::{Keystream, Step};
use super::util::{check_family, encrypt_one, iv_block, only, tag_bytes, who, xor_into};
use crate::error::{Bytes, Error, Result};
use crate::modes::Request;
use crate::Cipher;
use zeroize::Zeroize;

/// DSTU CCM (Kalyna), one-shot: `--iv` (one block), `--aad`, `--nb`,
/// `--tag-bits`.
pub struct KalynaCcm {
    cipher: Cipher,
    iv: Vec<u8>,
    aad: Vec<u8>,
    nb: usize,
    tag: usize,
    who: String,
}

/// code(q) of table 13.2, for q in bytes.
fn tag_code(q: usize) -> u8 {
    match q {
        8 => 2,
        16 => 3,
        32 => 4,
        48 => 5,
        64 => 6,
        _ => unreachable!("checked in KalynaCcm::new"),
    }
}

impl KalynaCcm {
    /// Keys CCM with `--iv` (the nonce), `--aad`, `--nb` and `--tag-bits`.
    pub fn new(req: &Request<'_>) -> Result<KalynaCcm> {
        check_family(req, false)?;
        only(req, &["iv", "aad", "nb", "tag-bits"])?;
        let cipher = req.keyed()?;
        let n = cipher.block_bytes();
        let iv = iv_block(req, n)?.to_vec();
        let nb = req.params.nb.unwrap_or(4);
        if !matches!(nb, 4 | 6 | 8) {
            return Err(Error::Param(format!("{} needs --nb of 4, 6 or 8 (bytes), got {nb}", who(req))));
        }
        let allowed: Vec<usize> = [64, 128, 256, 384, 512].into_iter().filter(|&b| b <= 8 * n).collect();
        let list = allowed.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
        let tag = tag_bytes(req, n, &allowed, &format!("of {list}"))?;
        let ccm = KalynaCcm { cipher, iv, aad: req.params.aad.clone(), nb, tag, who: who(req) };
        ccm.fits("--aad", ccm.aad.len())?;
        Ok(ccm)
    }

    /// Fails unless `len` fits the N_B-byte length field.
    fn fits(&self, what: &str, len: usize) -> Result<()> {
        if self.nb < 8 && (len as u64) >> (8 * self.nb) != 0 {
            return Err(Error::Param(format!(
                "{}: {what} of {len} bytes does not fit --nb {} (at most {} bytes)",
                self.who,
                self.nb,
                (1u64 << (8 * self.nb)) - 1
            )));
        }
        Ok(())
    }

    /// The text's length in ciphertext‖tag of `sealed` bytes, which must
    /// hold at least one byte of text and the tag.
    fn text_len(&self, sealed: u64) -> Result<usize> {
        match sealed.checked_sub(self.tag as u64) {
            Some(len) if len > 0 => self.in_memory(len),
            _ => Err(Error::Param(format!(
                "{} decryption needs ciphertext‖tag: a non-empty ciphertext and the {}-byte tag, got {}",
                self.who,
                self.tag,
                Bytes(sealed)
            ))),
        }
    }

    /// A declared length as `usize`, or an error where it cannot be one.
    fn in_memory(&self, len: u64) -> Result<usize> {
        usize::try_from(len).map_err(|_| Error::Param(format!("{}: {len} bytes is too long", self.who)))
    }

    fn check_len(&self, len: usize) -> Result<()> {
        if len == 0 {
            return Err(Error::Param(format!("{} needs a message of at least one byte (DSTU 7624 §13.1)", self.who)));
        }
        self.fits("the message", len)
    }

    /// The CBC-MAC after G1 [‖ G2 ‖ A], for a plaintext of `p_len` bytes.
    fn mac_start(&self, p_len: usize) -> CbcMac {
        let n = self.cipher.block_bytes();
        let nb = self.nb;
        let mut mac = CbcMac { b: vec![0u8; n], part: Vec::with_capacity(n) };
        let mut g1 = vec![0u8; n];
        g1[..n - nb - 1].copy_from_slice(&self.iv[..n - nb - 1]);
        g1[n - nb - 1..n - 1].copy_from_slice(&(p_len as u64).to_le_bytes()[..nb]);
        g1[n - 1] = if self.aad.is_empty() { 0 } else { 0x80 } | tag_code(self.tag) << 4 | (nb as u8 - 1);
        mac.update(&self.cipher, &g1);
        if !self.aad.is_empty() {
            let zeros = (2 * n - self.aad.len() % n - nb) % n;
            let mut g2 = (self.aad.len() as u64).to_le_bytes()[..nb].to_vec();
            g2.resize(nb + zeros, 0);
            mac.update(&self.cipher, &g2);
            mac.update(&self.cipher, &self.aad);
            debug_assert!(mac.part.is_empty());
        }
        mac
    }

    /// The CBC-MAC B over G1 [‖ G2 ‖ A] ‖ padded P (a whole block).
    fn cbc_mac(&self, p: &[u8]) -> Vec<u8> {
        let mut mac = self.mac_start(p.len());
        mac.update(&self.cipher, p);
        mac.finish(&self.cipher)
    }

    /// Encrypts `plaintext`; returns ciphertext ‖ tag.
    pub fn seal(&self, plaintext: &[u8]) -> Result<Vec<u8>> {
        self.check_len(plaintext.len())?;
        let mut mac = self.cbc_mac(plaintext);
        let mut out = crate::modes::alloc::copy_with_room(plaintext, self.tag)?;
        out.extend_from_slice(&mac[..self.tag]);
        mac.zeroize();
        Keystream::new(&self.cipher, &self.iv, Step::Whole).apply(&self.cipher, &mut out);
        Ok(out)
    }

    /// Decrypts ciphertext ‖ tag and checks the tag in constant time; on a
    /// wrong tag nothing is released ([`Error::Authentication`]).
    pub fn open(&self, sealed: &[u8]) -> Result<Vec<u8>> {
        let len = self.text_len(sealed.len() as u64)?;
        self.check_len(len)?;
        let mut buf = crate::modes::alloc::copy_with_room(sealed, 0)?;
        Keystream::new(&self.cipher, &self.iv, Step::Whole).apply(&self.cipher, &mut buf);
        let mut mac = self.cbc_mac(&buf[..len]);
        let verdict = crate::modes::tag::verify(&mac[..self.tag], &buf[len..]);
        mac.zeroize();
        if let Err(e) = verdict {
            buf.zeroize();
            return Err(e);
        }
        buf.truncate(len);
        Ok(buf)
    }
}

/// CBC-MAC with zero start, fed in pieces; a partial last block gets the
/// Annex Б.2 padding (0x80, zeros) at the end.
struct CbcMac {
    b: Vec<u8>,
    part: Vec<u8>,
}

impl CbcMac {
    fn update(&mut self, c: &Cipher, mut data: &[u8]) {
        let n = self.b.len();
        if !self.part.is_empty() {
            let take = (n - self.part.len()).min(data.len());
            self.part.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.part.len() < n {
                return;
            }
            xor_into(&mut self.b, &self.part);
            encrypt_one(c, &mut self.b);
            self.part.zeroize();
            self.part.clear();
        }
        let mut blocks = data.chunks_exact(n);
        for x in &mut blocks {
            xor_into(&mut self.b, x);
            encrypt_one(c, &mut self.b);
        }
        self.part.extend_from_slice(blocks.remainder());
    }

    fn finish(mut self, c: &Cipher) -> Vec<u8> {
        if !self.part.is_empty() {
            let k = self.part.len();
            self.part.resize(self.b.len(), 0);
            self.part[k] = 0x80;
            xor_into(&mut self.b, &self.part);
            encrypt_one(c, &mut self.b);
        }
        std::mem::take(&mut self.b)
    }
}

impl Drop for CbcMac {
    fn drop(&mut self) {
        self.b.zeroize();
        self.part.zeroize();
    }
}

/// What a CCM stream's caller says of the length before the first byte:
/// nothing, the text's (ciphertext or plaintext alone), or for decryption
/// that of ciphertext‖tag, which is what a caller knows who has the
/// sealed message's size.
#[derive(Clone, Copy)]
pub(crate) enum Length {
    Unknown,
    Text(u64),
    Sealed(u64),
}

/// CCM over a text of a length given first, in pieces of any size.
pub(crate) struct CcmStream {
    ccm: KalynaCcm,
    mac: Option<CbcMac>,
    keystream: Keystream,
    declared: usize,
    text: usize,
    encrypt: bool,
}

impl CcmStream {
    pub(crate) fn new(req: &Request<'_>, encrypt: bool, length: Length) -> Result<CcmStream> {
        let ccm = KalynaCcm::new(req)?;
        let declared = match length {
            Length::Unknown => {
                return Err(Error::Param(format!(
                    "{} needs the message length before the first byte (DSTU 7624 §13: |P| is in the first MAC block): give the length, or a file rather than a pipe",
                    ccm.who
                )))
            }
            Length::Text(len) => ccm.in_memory(len)?,
            Length::Sealed(len) => ccm.text_len(len)?,
        };
        ccm.check_len(declared)?;
        let mac = Some(ccm.mac_start(declared));
        let keystream = Keystream::new(&ccm.cipher, &ccm.iv, Step::Whole);
        Ok(CcmStream { ccm, mac, keystream, declared, text: 0, encrypt })
    }

    pub(crate) fn tag_bytes(&self) -> usize {
        self.ccm.tag
    }

    pub(crate) fn update(&mut self, data: &mut [u8]) -> Result<()> {
        self.text = self.text.saturating_add(data.len());
        if self.text > self.declared {
            return Err(self.length_error());
        }
        let mac = self.mac.as_mut().expect("until tag");
        if self.encrypt {
            mac.update(&self.ccm.cipher, data);
        }
        self.keystream.apply(&self.ccm.cipher, data);
        if !self.encrypt {
            mac.update(&self.ccm.cipher, data);
        }
        Ok(())
    }

    fn length_error(&self) -> Error {
        Error::Param(format!(
            "{}: the message was declared {} bytes long, got {}",
            self.ccm.who, self.declared, self.text
        ))
    }

    /// The tag as sent: B's first q bytes masked by the next keystream bytes.
    pub(crate) fn tag(mut self) -> Result<Vec<u8>> {
        if self.text != self.declared {
            return Err(self.length_error());
        }
        let mut t = self.mac.take().expect("until tag").finish(&self.ccm.cipher);
        t.truncate(self.ccm.tag);
        self.keystream.apply(&self.ccm.cipher, &mut t);
        Ok(t)
    }
}
