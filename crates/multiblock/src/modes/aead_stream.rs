//! Streaming AEAD: MGM (RFC 9058), DSTU GCM (§12) and DSTU CCM (§13) over a
//! text of any size in bounded memory, giving the bytes of the one-shot
//! [`encrypt`](super::encrypt) / [`decrypt`](super::decrypt) for any split.
//!
//! Encryption is one pass: [`AeadStream::update`] outputs ciphertext,
//! [`AeadStream::finalize`] the last of it and returns the tag (the
//! one-shot output is the ciphertext followed by the tag).
//!
//! Decryption cannot know the tag is right before the last byte, so
//! [`AeadStream::update`] outputs plaintext that is NOT yet authenticated:
//! the caller must hold it back (the CLI writes it to a private temporary
//! file and renames it to the output only after the tag checks; the C and
//! Python APIs say the same). [`AeadStream::finalize`] checks the tag in
//! constant time and fails with [`Error::Authentication`] if it is wrong,
//! without outputting the last bytes. The tag is either the input's last
//! tag bytes (ciphertext‖tag, as the one-shot call takes it) or given
//! apart with [`AeadStream::expect_tag`].
//!
//! CCM puts |P| in its first MAC block, so it needs the length first
//! ([`AeadStream::encryptor_sized`], [`AeadStream::decryptor_sized`]); a
//! different total is an error at the end. KW (§15) is not streamed: its
//! 6(2r+1) steps go round the whole message six times.
//!
//! ```
//! use multiblock::modes::{aead_stream::AeadStream, Mode, Params, Request};
//! use multiblock::{BackendChoice, CipherId};
//! let key = [7u8; 32];
//! let req = Request {
//!     cipher: CipherId::Kuznyechik, mode: Mode::Mgm, key: &key, sbox: None,
//!     backend: BackendChoice::Auto,
//!     params: Params { iv: Some(vec![1; 16]), aad: b"header".to_vec(), ..Params::default() },
//! };
//! let mut enc = AeadStream::encryptor(&req)?;
//! let mut sealed = Vec::new();
//! enc.update(b"hello, ", &mut sealed)?;
//! enc.update(b"world", &mut sealed)?;
//! let tag = enc.finalize(&mut sealed)?;
//! sealed.extend_from_slice(&tag);
//! assert_eq!(sealed, multiblock::modes::encrypt(&req, b"hello, world")?);
//! # Ok::<(), multiblock::Error>(())
//! ```

use super::dstu::{CcmLength, CcmStream, GcmStream};
use super::gost::mgm::MgmStream;
use super::threads::Pool;
use super::{Kind, Mode, Request};
use crate::error::{Bytes, Error, Result};
use crate::Family;
use zeroize::Zeroizing;

/// One AEAD mode's running state in one direction.
enum Core {
    Mgm(Box<MgmStream>),
    Gcm(Box<GcmStream>),
    Ccm(Box<CcmStream>),
}

impl Core {
    /// `update` takes multiples of this (MGM: whole blocks until the end).
    fn unit(&self) -> usize {
        match self {
            Core::Mgm(m) => m.block_bytes(),
            Core::Gcm(_) | Core::Ccm(_) => 1,
        }
    }

    fn tag_bytes(&self) -> usize {
        match self {
            Core::Mgm(m) => m.tag_bytes(),
            Core::Gcm(g) => g.tag_bytes(),
            Core::Ccm(c) => c.tag_bytes(),
        }
    }

    fn update(&mut self, data: &mut [u8]) -> Result<()> {
        match self {
            Core::Mgm(m) => m.update(data),
            Core::Gcm(g) => {
                g.update(data);
                Ok(())
            }
            Core::Ccm(c) => c.update(data),
        }
    }

    fn tag(self) -> Result<Vec<u8>> {
        match self {
            Core::Mgm(m) => m.tag(),
            Core::Gcm(g) => g.tag(),
            Core::Ccm(c) => c.tag(),
        }
    }
}

/// Streaming AEAD encryption or decryption (see the module text).
pub struct AeadStream {
    core: Core,
    encrypt: bool,
    /// Input not yet processed: a partial MGM block, and when decrypting
    /// ciphertext‖tag the last tag bytes seen so far.
    pending: Zeroizing<Vec<u8>>,
    /// The tag to check, when given apart from the ciphertext.
    expected: Option<Vec<u8>>,
}

impl AeadStream {
    /// Encrypts with `req` (MGM, GCM; CCM needs [`encryptor_sized`](AeadStream::encryptor_sized)).
    pub fn encryptor(req: &Request<'_>) -> Result<AeadStream> {
        AeadStream::new(req, true, CcmLength::Unknown)
    }

    /// Encrypts a plaintext of exactly `len` bytes (every AEAD mode).
    pub fn encryptor_sized(req: &Request<'_>, len: u64) -> Result<AeadStream> {
        AeadStream::new(req, true, CcmLength::Text(len))
    }

    /// Decrypts ciphertext‖tag (MGM, GCM; CCM needs [`decryptor_sized`](AeadStream::decryptor_sized)).
    ///
    /// The GCM example of DSTU 7624:2014 Annex B (Kalyna-128/128) fed in
    /// pieces of 5 bytes: the plaintext comes out as the pieces arrive, and
    /// is released to the reader only when [`finalize`](AeadStream::finalize)
    /// has checked the tag.
    ///
    /// ```
    /// use multiblock::modes::{aead_stream::AeadStream, Mode, Params, Request};
    /// use multiblock::{BackendChoice, CipherId, Error};
    /// # fn hex(s: &str) -> Vec<u8> {
    /// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    /// # }
    /// let key = hex("000102030405060708090a0b0c0d0e0f");
    /// let params = Params {
    ///     iv: Some(hex("101112131415161718191a1b1c1d1e1f")),
    ///     aad: hex("202122232425262728292a2b2c2d2e2f"),
    ///     tag_bits: Some(128),
    ///     ..Params::default()
    /// };
    /// let req = Request {
    ///     cipher: CipherId::Kalyna128_128, mode: Mode::Gcm, key: &key, sbox: None,
    ///     backend: BackendChoice::Auto, params,
    /// };
    /// let sealed = hex("b91a7b8790bbcfcfe65d04e5538e98e216ac209da33122fda596e8928070be51\
    ///                   c8310571cd60f9584b45c1b4ece179af");
    /// let open = |sealed: &[u8]| -> Result<Vec<u8>, Error> {
    ///     let mut dec = AeadStream::decryptor(&req)?;
    ///     let mut unverified = Vec::new();
    ///     for piece in sealed.chunks(5) {
    ///         dec.update(piece, &mut unverified)?;
    ///     }
    ///     dec.finalize(&mut unverified)?;
    ///     Ok(unverified) // authenticated from here on
    /// };
    /// assert_eq!(open(&sealed)?, hex("303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f"));
    /// let mut forged = sealed.clone();
    /// forged[40] ^= 0x80; // a tag bit
    /// assert_eq!(open(&forged), Err(Error::Authentication));
    /// # Ok::<(), multiblock::Error>(())
    /// ```
    pub fn decryptor(req: &Request<'_>) -> Result<AeadStream> {
        AeadStream::new(req, false, CcmLength::Unknown)
    }

    /// Decrypts a ciphertext of exactly `len` bytes, not counting the tag.
    pub fn decryptor_sized(req: &Request<'_>, len: u64) -> Result<AeadStream> {
        AeadStream::new(req, false, CcmLength::Text(len))
    }

    /// Decrypts ciphertext‖tag of `sealed_len` bytes in all (every AEAD
    /// mode): for a caller that knows the sealed input's size, such as a
    /// file's, rather than the text's. CCM takes the text's length from it
    /// and refuses, as the one-shot decryption does, an input without a byte
    /// of ciphertext before the tag.
    pub fn decryptor_sealed(req: &Request<'_>, sealed_len: u64) -> Result<AeadStream> {
        AeadStream::new(req, false, CcmLength::Sealed(sealed_len))
    }

    /// `len`: what the caller said of the length; only CCM needs it.
    fn new(req: &Request<'_>, encrypt: bool, len: CcmLength) -> Result<AeadStream> {
        Mode::parse(req.cipher, req.mode.name())?;
        let core = match (req.mode, req.cipher.family()) {
            (Mode::Mgm, _) => Core::Mgm(Box::new(MgmStream::new(req, encrypt)?)),
            (Mode::Gcm, Family::Kalyna) => Core::Gcm(Box::new(GcmStream::new(req, encrypt)?)),
            (Mode::Ccm, Family::Kalyna) => Core::Ccm(Box::new(CcmStream::new(req, encrypt, len)?)),
            (mode, _) => {
                let why = match mode.kind() {
                    Kind::KeyWrap => "key wrap goes round the whole message six times: use the one-shot call",
                    _ => "not an AEAD mode: use modes::stream",
                };
                return Err(Error::Param(format!("{} {mode} does not stream as AEAD ({why})", req.cipher)));
            }
        };
        Ok(AeadStream { core, encrypt, pending: Zeroizing::default(), expected: None })
    }

    /// Splits MGM's work across up to `threads` threads (0: every core);
    /// GCM and CCM run on one. The bytes do not depend on the count.
    pub fn threads(mut self, threads: usize) -> Result<AeadStream> {
        if let Core::Mgm(m) = &mut self.core {
            m.set_pool(Pool::new(threads)?);
        }
        Ok(self)
    }

    /// Decryption: checks `tag` at the end instead of taking the input's
    /// last bytes as the tag.
    pub fn expect_tag(mut self, tag: &[u8]) -> Result<AeadStream> {
        if self.encrypt || tag.len() != self.core.tag_bytes() {
            return Err(Error::Param(format!(
                "the tag to check must be {} bytes, got {} (and only a decryptor checks one)",
                self.core.tag_bytes(),
                tag.len()
            )));
        }
        self.expected = Some(tag.to_vec());
        Ok(self)
    }

    /// The tag's length in bytes.
    pub fn tag_bytes(&self) -> usize {
        self.core.tag_bytes()
    }

    /// Input bytes kept back for the end.
    fn hold(&self) -> usize {
        if self.encrypt || self.expected.is_some() {
            0
        } else {
            self.core.tag_bytes()
        }
    }

    /// How many bytes [`update`](AeadStream::update) would output for
    /// `input_len` more bytes now (at most `input_len` plus one block).
    pub fn output_len(&self, input_len: usize) -> usize {
        let unit = self.core.unit();
        (self.pending.len() + input_len).saturating_sub(self.hold()) / unit * unit
    }

    /// How many bytes [`finalize`](AeadStream::finalize) would output
    /// (less than a block, or the held tag's worth when it is short).
    pub fn final_len(&self) -> usize {
        self.pending.len().saturating_sub(self.hold())
    }

    /// Processes `input`, appending the output that is ready to `out`
    /// (when decrypting: plaintext not yet authenticated).
    pub fn update(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
        let ready = self.output_len(input.len());
        if ready == 0 {
            self.pending.extend_from_slice(input);
            return Ok(());
        }
        let start = out.len();
        out.try_reserve(ready).map_err(|_| Error::Param(format!("cannot allocate {ready} bytes of output")))?;
        let p = ready.min(self.pending.len());
        out.extend_from_slice(&self.pending[..p]);
        out.extend_from_slice(&input[..ready - p]);
        let mut rest = Zeroizing::new(self.pending[p..].to_vec());
        rest.extend_from_slice(&input[ready - p..]);
        self.pending = rest;
        if let Err(e) = self.core.update(&mut out[start..]) {
            out.truncate(start);
            return Err(e);
        }
        Ok(())
    }

    /// Processes the last bytes into `out`. Encryption: returns the tag.
    /// Decryption: checks the tag (else [`Error::Authentication`], and the
    /// last bytes are not output) and returns an empty vector.
    pub fn finalize(mut self, out: &mut Vec<u8>) -> Result<Vec<u8>> {
        let mut tail = std::mem::take(&mut self.pending);
        let received = match (&self.expected, self.hold()) {
            (Some(t), _) => t.clone(),
            (None, 0) => Vec::new(),
            (None, t) if tail.len() < t => {
                return Err(Error::Param(format!(
                    "AEAD decryption needs ciphertext‖tag: at least the {t}-byte tag, got {}",
                    Bytes(tail.len() as u64)
                )))
            }
            (None, t) => {
                let body = tail.len() - t;
                tail.split_off(body)
            }
        };
        self.core.update(&mut tail)?;
        let tag = self.core.tag()?;
        if !self.encrypt {
            super::tag::verify(&tag, &received)?;
            out.extend_from_slice(&tail);
            return Ok(Vec::new());
        }
        out.extend_from_slice(&tail);
        Ok(tag)
    }
}

#[cfg(test)]
#[path = "aead_stream_tests.rs"]
mod tests;
