//! GCM and GMAC (DSTU 7624:2014 §12): NOT NIST GCM.
//!
//! GCM, for an n-byte block, IV = one block, associated data A, plaintext P:
//! - keystream as in CTR but with S = E_K(IV) stepped on its first 8 bytes
//!   only (a little-endian u64, wrapping: UAPKI's `gamma_old[0]++`, which
//!   dstu-core keeps); C = P ⊕ keystream;
//! - H = E_K(0^n); B = 0; B ← (B ⊕ X)·H in GF(2^8n) ([`crate::modes::gf::dstu`]) over the
//!   blocks of A, then of C, a partial last block of either completed with
//!   0x80 then zeros (Annex Б.2);
//! - tag = the leading `tag_bits` of E_K(B ⊕ (|A|·8 as u64 LE at byte 0,
//!   |C|·8 as u64 LE at byte n/2)).
//!
//! GMAC is GCM with the message as A and no plaintext; its IV does not enter
//! the tag (it only seeds the keystream, which GMAC does not use).
//!
//! At least one of A and P must be non-empty (§12.1: otherwise the tag is
//! E_K(0), the hash key). For block-aligned A and P this matches Bouncy
//! Castle's KGCMBlockCipher / KGMac and UAPKI (the Annex B examples); for a
//! partial block it follows the text and dstu-core (Б.2 padding, the true
//! lengths), where Bouncy Castle zero-pads and UAPKI hashes the padded
//! length. Bouncy Castle also carries the GCM counter through the whole
//! block, which differs only when the low 64 bits of E_K(IV) wrap.
//!
//! GCM one-shot ([`KalynaGcm::seal`], [`KalynaGcm::open`]): opening checks
//! the tag before it decrypts anything, so no unauthenticated plaintext is
//! ever released. [`GcmStream`] streams it (any split) for
//! [`crate::modes::aead_stream::AeadStream`], whose callers hold back the
//! plaintext until the tag checks. GMAC streams ([`KalynaGmac`]).

use super::ctr::{Keystream, Step};
use crate::modes::gf::{dstu::Field, ghash::Ghash};
use super::util::{bits_range, check_family, encrypt_one, iv_block, only, tag_bytes, who, xor_into};
use crate::error::{Error, Result};
use crate::modes::Request;
use crate::Cipher;
use zeroize::Zeroize;

fn gcm_tag_bytes(req: &Request<'_>, n: usize) -> Result<usize> {
    tag_bytes(req, n, &bits_range(64, 8 * n), &format!("of 64 to {} in steps of 8", 8 * n))
}

fn bit_len(req: &Request<'_>, bytes: usize) -> Result<u64> {
    (bytes as u64)
        .checked_mul(8)
        .ok_or_else(|| Error::Param(format!("{}: {bytes} bytes is too long for a 64-bit length", who(req))))
}

/// The GHASH key H = E_K(0).
fn hash_key(c: &Cipher) -> Vec<u8> {
    let mut h = vec![0u8; c.block_bytes()];
    encrypt_one(c, &mut h);
    h
}

/// E_K(B ⊕ lengths), the full block; the caller truncates.
fn finish_tag(c: &Cipher, ghash: &Ghash, a_bits: u64, c_bits: u64) -> Vec<u8> {
    let n = c.block_bytes();
    let mut t = vec![0u8; n];
    ghash.value(&mut t);
    xor_into(&mut t[..8], &a_bits.to_le_bytes());
    xor_into(&mut t[n / 2..n / 2 + 8], &c_bits.to_le_bytes());
    encrypt_one(c, &mut t);
    t
}

/// DSTU GCM (Kalyna), one-shot: `--iv` (one block), `--aad`, `--tag-bits`
/// (64 to the block size, default the block size).
pub struct KalynaGcm {
    cipher: Cipher,
    field: Field,
    h: Vec<u8>,
    iv: Vec<u8>,
    aad: Vec<u8>,
    tag: usize,
    who: String,
    a_bits: u64,
}

impl KalynaGcm {
    /// Keys GCM with `--iv`, `--aad` and `--tag-bits` (default the block).
    pub fn new(req: &Request<'_>) -> Result<KalynaGcm> {
        check_family(req, false)?;
        only(req, &["iv", "aad", "tag-bits"])?;
        let cipher = req.keyed()?;
        let n = cipher.block_bytes();
        let iv = iv_block(req, n)?.to_vec();
        let tag = gcm_tag_bytes(req, n)?;
        let a_bits = bit_len(req, req.params.aad.len())?;
        Ok(KalynaGcm {
            field: Field::for_block(n),
            h: hash_key(&cipher),
            cipher,
            iv,
            aad: req.params.aad.clone(),
            tag,
            who: who(req),
            a_bits,
        })
    }

    fn non_empty(&self, data_len: usize) -> Result<u64> {
        if self.aad.is_empty() && data_len == 0 {
            return Err(Error::Param(format!(
                "{} needs a non-empty --aad or message (DSTU 7624 §12.1: the tag of nothing is the hash key)",
                self.who
            )));
        }
        (data_len as u64)
            .checked_mul(8)
            .ok_or_else(|| Error::Param(format!("{}: the message is too long for a 64-bit length", self.who)))
    }

    fn tag_of(&self, ct: &[u8], c_bits: u64) -> Vec<u8> {
        let mut g = Ghash::new(self.field, &self.h);
        g.update(&self.aad);
        g.end_section();
        g.update(ct);
        g.end_section();
        let mut t = finish_tag(&self.cipher, &g, self.a_bits, c_bits);
        t.truncate(self.tag);
        t
    }

    /// Encrypts `plaintext`; returns ciphertext ‖ tag.
    pub fn seal(&self, plaintext: &[u8]) -> Result<Vec<u8>> {
        let c_bits = self.non_empty(plaintext.len())?;
        let mut out = crate::modes::alloc::copy_with_room(plaintext, self.tag)?;
        Keystream::new(&self.cipher, &self.iv, Step::Low64).apply(&self.cipher, &mut out);
        let tag = self.tag_of(&out, c_bits);
        out.extend_from_slice(&tag);
        Ok(out)
    }

    /// Checks the tag of ciphertext ‖ tag in constant time, then decrypts.
    /// A wrong tag is [`Error::Authentication`] and nothing is decrypted.
    pub fn open(&self, sealed: &[u8]) -> Result<Vec<u8>> {
        let (ct, tag) = crate::modes::tag::split_sealed(sealed, self.tag, &self.who)?;
        let c_bits = self.non_empty(ct.len())?;
        crate::modes::tag::verify(&self.tag_of(ct, c_bits), tag)?;
        let mut out = crate::modes::alloc::copy_with_room(ct, 0)?;
        Keystream::new(&self.cipher, &self.iv, Step::Low64).apply(&self.cipher, &mut out);
        Ok(out)
    }
}

/// GCM over a text in pieces of any size: keystream and GHASH carry over.
pub(crate) struct GcmStream {
    gcm: KalynaGcm,
    keystream: Keystream,
    ghash: Ghash,
    text: usize,
    encrypt: bool,
}

impl GcmStream {
    pub(crate) fn new(req: &Request<'_>, encrypt: bool) -> Result<GcmStream> {
        let gcm = KalynaGcm::new(req)?;
        let keystream = Keystream::new(&gcm.cipher, &gcm.iv, Step::Low64);
        let mut ghash = Ghash::new(gcm.field, &gcm.h);
        ghash.update(&gcm.aad);
        ghash.end_section();
        Ok(GcmStream { gcm, keystream, ghash, text: 0, encrypt })
    }

    pub(crate) fn tag_bytes(&self) -> usize {
        self.gcm.tag
    }

    pub(crate) fn update(&mut self, data: &mut [u8]) {
        if self.encrypt {
            self.keystream.apply(&self.gcm.cipher, data);
        }
        self.ghash.update(data);
        if !self.encrypt {
            self.keystream.apply(&self.gcm.cipher, data);
        }
        self.text = self.text.saturating_add(data.len());
    }

    pub(crate) fn tag(mut self) -> Result<Vec<u8>> {
        let c_bits = self.gcm.non_empty(self.text)?;
        self.ghash.end_section();
        let mut t = finish_tag(&self.gcm.cipher, &self.ghash, self.gcm.a_bits, c_bits);
        t.truncate(self.gcm.tag);
        Ok(t)
    }
}

impl Drop for KalynaGcm {
    fn drop(&mut self) {
        self.h.zeroize();
    }
}

/// Streaming DSTU GMAC (Kalyna): `--tag-bits` (64 to the block size,
/// default the block size); `--iv`, if given, must be one block and does not
/// change the tag.
pub struct KalynaGmac {
    cipher: Cipher,
    ghash: Ghash,
    len: u64,
    tag: usize,
    who: String,
}

impl KalynaGmac {
    /// Keys GMAC with `--iv` and `--tag-bits` (default the block).
    pub fn new(req: &Request<'_>) -> Result<KalynaGmac> {
        check_family(req, false)?;
        only(req, &["iv", "tag-bits"])?;
        let cipher = req.keyed()?;
        let n = cipher.block_bytes();
        if req.params.iv.is_some() {
            iv_block(req, n)?;
        }
        let tag = gcm_tag_bytes(req, n)?;
        let mut h = hash_key(&cipher);
        let ghash = Ghash::new(Field::for_block(n), &h);
        h.zeroize();
        Ok(KalynaGmac { cipher, ghash, len: 0, tag, who: who(req) })
    }

    /// Hashes more of the message.
    pub fn update(&mut self, data: &[u8]) {
        self.ghash.update(data);
        self.len = self.len.saturating_add(data.len() as u64);
    }

    /// The tag. The message must not be empty (§12.1).
    pub fn finalize(mut self) -> Result<Vec<u8>> {
        if self.len == 0 {
            return Err(Error::Param(format!(
                "{} needs a non-empty message (DSTU 7624 §12.1: the tag of nothing is the hash key)",
                self.who
            )));
        }
        let bits = self
            .len
            .checked_mul(8)
            .ok_or_else(|| Error::Param(format!("{}: the message is too long for a 64-bit length", self.who)))?;
        self.ghash.end_section();
        let mut t = finish_tag(&self.cipher, &self.ghash, bits, 0);
        t.truncate(self.tag);
        Ok(t)
    }
}

pub(crate) fn gmac(req: &Request<'_>, data: &[u8]) -> Result<Vec<u8>> {
    let mut m = KalynaGmac::new(req)?;
    m.update(data);
    m.finalize()
}
