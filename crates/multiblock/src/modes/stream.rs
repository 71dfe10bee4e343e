//! One streaming API over every mode that can stream: [`CipherStream`]
//! (encrypt / decrypt) and [`MacStream`], built from a [`Request`] like the
//! one-shot [`encrypt`](super::encrypt), [`decrypt`](super::decrypt) and
//! [`mac`](super::mac), and giving the same bytes for any split of the input.
//!
//! ```
//! use multiblock::modes::{stream::CipherStream, Mode, Params, Request};
//! use multiblock::{BackendChoice, CipherId};
//! let key = [7u8; 32];
//! let req = Request {
//!     cipher: CipherId::Kuznyechik, mode: Mode::Ctr, key: &key, sbox: None,
//!     backend: BackendChoice::Auto,
//!     params: Params { iv: Some(vec![1; 8]), ..Params::default() },
//! };
//! let mut enc = CipherStream::encryptor(&req)?.threads(2)?;
//! let mut out = Vec::new();
//! enc.update(b"hello, ", &mut out)?;
//! enc.update(b"world", &mut out)?;
//! enc.finalize(&mut out)?;
//! assert_eq!(out, multiblock::modes::encrypt(&req, b"hello, world")?);
//! # Ok::<(), multiblock::Error>(())
//! ```
//!
//! Threads: [`CipherStream::threads`] splits each update of the modes whose
//! blocks do not chain (ECB, CTR for both families, CTR-ACPKM, CBC decryption, CFB
//! decryption with s = m = n, XTS) across that many
//! threads; the output does not depend on the count.
//!
//! The AEAD modes MGM, GCM and CCM stream through
//! [`super::aead_stream::AeadStream`] instead (its decryption outputs
//! plaintext before the tag is checked, so it has its own type and rules);
//! key wrap KW is one-shot only.

use super::dstu::{KalynaCfb, KalynaCmac, KalynaGmac, KalynaOfb};
use super::gost::{Cfb, Cmac, Cnt, Imit, Ofb, OmacAcpkm};
use crate::Direction;
use super::parallel;
use super::stream_core::{any_split, Sequential, StreamCore};
use super::threads::Pool;
use super::{Kind, Mode, Request};
use crate::error::{Error, Result};
use crate::Family;
use zeroize::Zeroizing;

/// Whether `mode` streams (else only the one-shot calls take it).
pub fn streams(mode: Mode) -> bool {
    matches!(mode.kind(), Kind::Cipher | Kind::Mac)
}

fn engine(req: &Request<'_>, encrypt: bool, bytewise: bool) -> Result<Box<dyn StreamCore>> {
    let verb = if encrypt { "encrypt" } else { "decrypt" };
    Mode::parse(req.cipher, req.mode.name())?;
    match req.mode.kind() {
        Kind::Cipher => {}
        Kind::Mac => return Err(Error::Param(format!("{} is not a mode to {verb} with (use `mac`)", req.mode))),
        Kind::Aead => {
            return Err(Error::Param(format!(
                "{} {} does not stream as a plain cipher (its tag covers the whole message): use the AEAD stream, which releases the plaintext only once the tag checks, or the one-shot {verb}",
                req.cipher, req.mode
            )))
        }
        Kind::KeyWrap => {
            return Err(Error::Param(format!(
                "{} {} does not stream (the tag covers the whole message): use the one-shot {verb}",
                req.cipher, req.mode
            )))
        }
    }
    let dir = if encrypt { Direction::Encrypt } else { Direction::Decrypt };
    let family = req.cipher.family();
    Ok(match (req.mode, family) {
        (Mode::Ecb, _) => Box::new(parallel::Ecb::new(req, encrypt)?),
        (Mode::Cbc, _) => Box::new(parallel::Cbc::new(req, encrypt)?),
        (Mode::Ctr, Family::Kalyna) => Box::new(parallel::Ctr::dstu(req)?),
        // One thread, byte by byte (the C API): the sequential CTR, which
        // is also what the one-shot call runs.
        (Mode::Ctr, _) => parallel::gost_ctr(req, !bytewise)?,
        (Mode::CtrAcpkm, _) => parallel::gost_ctr(req, true)?,
        (Mode::Xts, _) => Box::new(parallel::Xts::new(req, encrypt)?),
        (Mode::Ofb, Family::Kalyna) => any_split(KalynaOfb::new(req)?, |m, d| {
            m.update(d);
            Ok(())
        }),
        (Mode::Ofb, _) => any_split(Ofb::new(req)?, Ofb::update),
        (Mode::Cnt, _) => any_split(Cnt::new(req)?, Cnt::update),
        // Bytewise GOST CFB decrypts sequentially.
        (Mode::Cfb, _) if !encrypt => parallel::CfbDecrypt::new(req, !bytewise || family == Family::Kalyna)?,
        (Mode::Cfb, Family::Kalyna) => {
            let mode = KalynaCfb::encryptor(req)?;
            let unit = req.params.s.unwrap_or(8 * req.cipher.block_bytes()) / 8;
            Box::new(Sequential { mode, unit, update: KalynaCfb::update, finish: KalynaCfb::finish })
        }
        (Mode::Cfb, _) => any_split(Cfb::new(req, dir)?, Cfb::update),
        _ => return Err(Error::Param(format!("{} {} has no streaming form", req.cipher, req.mode))),
    })
}

/// Streaming encryption or decryption: [`update`](CipherStream::update)
/// as often as needed, then [`finalize`](CipherStream::finalize).
pub struct CipherStream {
    engine: Box<dyn StreamCore>,
    pool: Pool,
    /// Input not yet processed: less than a unit, plus what `hold` keeps.
    pending: Zeroizing<Vec<u8>>,
    total: u64,
    /// Keystream modes (CTR, CTR-ACPKM, OFB, CNT) output every byte at once:
    /// for a partial unit the engine encrypts a unit of zeros, which is the
    /// next unit's keystream, and the unused rest waits here. `pending` then
    /// stays empty.
    keystream_mode: bool,
    keystream: Zeroizing<Vec<u8>>,
}

impl CipherStream {
    /// Encrypts with `req` (modes where [`streams`] is true).
    pub fn encryptor(req: &Request<'_>) -> Result<CipherStream> {
        CipherStream::new(engine(req, true, false)?, req.mode)
    }

    /// Decrypts with `req` (modes where [`streams`] is true).
    pub fn decryptor(req: &Request<'_>) -> Result<CipherStream> {
        CipherStream::new(engine(req, false, false)?, req.mode)
    }

    /// As [`decryptor`](CipherStream::decryptor), but GOST CFB (Kuznyechik,
    /// Magma, GOST 28147-89) decrypts every byte at each update, on one
    /// thread, instead of whole blocks split across threads: for callers
    /// such as OpenSSL's EVP that want a CFB update's whole output at once.
    /// (DSTU CFB cannot: its last partial block takes the end of the
    /// keystream block, so it waits for finalize whatever the split.)
    pub fn decryptor_bytewise(req: &Request<'_>) -> Result<CipherStream> {
        CipherStream::new(engine(req, false, true)?, req.mode)
    }

    /// The encrypting side of [`decryptor_bytewise`](CipherStream::decryptor_bytewise)
    /// (GOST CTR runs its sequential form, as the one-shot call).
    pub fn encryptor_bytewise(req: &Request<'_>) -> Result<CipherStream> {
        CipherStream::new(engine(req, true, true)?, req.mode)
    }

    fn new(engine: Box<dyn StreamCore>, mode: Mode) -> Result<CipherStream> {
        Ok(CipherStream {
            engine,
            pool: Pool::new(1)?,
            pending: Zeroizing::default(),
            total: 0,
            keystream_mode: matches!(mode, Mode::Ctr | Mode::CtrAcpkm | Mode::Ofb | Mode::Cnt),
            keystream: Zeroizing::default(),
        })
    }

    /// Uses up to `threads` threads (0: every core) for the modes that
    /// split; the output is the same for every count.
    pub fn threads(mut self, threads: usize) -> Result<CipherStream> {
        self.pool = Pool::new(threads)?;
        Ok(self)
    }

    /// The thread count in use.
    pub fn thread_count(&self) -> usize {
        self.pool.threads()
    }

    /// Processes `input`, appending the output that is ready to `out`
    /// (every byte at once in the keystream modes CTR, CTR-ACPKM, OFB, CNT).
    pub fn update(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
        let start = out.len();
        out.resize(start + self.output_len(input.len()).max(input.len()), 0);
        match self.update_into(input, &mut out[start..]) {
            Ok(n) => {
                out.truncate(start + n);
                Ok(())
            }
            Err(e) => {
                out.truncate(start);
                Err(e)
            }
        }
    }

    /// Whether [`update_into`](CipherStream::update_into) reads its input in
    /// the same pass as it writes its output (CTR and CTR-ACPKM), rather
    /// than copying it first: then an input mapped from a file is read
    /// once, and feeding the stream from a mapping saves a copy.
    pub fn zero_copy(&self) -> bool {
        self.keystream_mode && self.engine.reads_in_pass()
    }

    /// As [`update`](CipherStream::update), into the front of `out` (which
    /// must hold [`output_len`] bytes, and at least `input.len()`); returns
    /// the output length. The keystream modes read `input` in the same pass
    /// as they write `out` (no copy first), so an input mapped from a file
    /// is read once.
    ///
    /// [`output_len`]: CipherStream::output_len
    pub fn update_into(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize> {
        let len = input.len();
        let need = self.output_len(len).max(len);
        if out.len() < need {
            return Err(Error::Param(format!(
                "stream output buffer of {} bytes is too small for {len} input bytes ({need} needed)",
                out.len()
            )));
        }
        self.total += len as u64;
        if !self.keystream_mode {
            // Pending bytes, then the input, straight into place (no copy
            // of the input followed by a shift of it).
            let ready = self.output_len(len);
            let p = ready.min(self.pending.len());
            out[..p].copy_from_slice(&self.pending[..p]);
            out[p..ready].copy_from_slice(&input[..ready - p]);
            self.keep_pending(p, &input[ready - p..]);
            if ready > 0 {
                self.engine.update(&mut out[..ready], &self.pool)?;
            }
            return Ok(ready);
        }
        self.keystream_update(Some(input), &mut out[..len])?;
        Ok(len)
    }

    /// How many bytes [`update`](CipherStream::update) (or
    /// [`update_in_place`](CipherStream::update_in_place)) would output for
    /// `input_len` more bytes of input now.
    pub fn output_len(&self, input_len: usize) -> usize {
        if self.keystream_mode {
            return input_len;
        }
        let (unit, hold) = (self.engine.unit(), self.engine.hold());
        (self.pending.len() + input_len).saturating_sub(hold) / unit * unit
    }

    /// As [`update`](CipherStream::update), without a second buffer: the
    /// input is `buf[..input_len]`, the output ([`output_len`] bytes, which
    /// `buf` must hold) replaces it from `buf[0]`. Returns the output length.
    /// For callers such as C ABIs that encrypt in their caller's buffer.
    ///
    /// [`output_len`]: CipherStream::output_len
    pub fn update_in_place(&mut self, buf: &mut [u8], input_len: usize) -> Result<usize> {
        let (at, n) = self.update_in_place_after(buf, 0, input_len)?;
        debug_assert_eq!(at, 0);
        Ok(n)
    }

    /// As [`update_in_place`](CipherStream::update_in_place), with the
    /// input at `buf[front..front + input_len]`. Returns where the output
    /// begins and its length: bytes the stream kept back from the previous
    /// call go into the room in front when there is enough of it (so the
    /// input is not moved; a reader that leaves such room before each
    /// buffer saves a pass over the data), else the input moves up to
    /// make room.
    ///
    /// ```
    /// use multiblock::modes::{stream::CipherStream, Mode, Params, Request};
    /// use multiblock::{BackendChoice, CipherId};
    ///
    /// // Kuznyechik XTS keeps back the last block for ciphertext stealing.
    /// let key = [7u8; 64];
    /// let req = Request {
    ///     cipher: CipherId::Kuznyechik, mode: Mode::Xts, key: &key, sbox: None,
    ///     backend: BackendChoice::Auto,
    ///     params: Params { data_unit: Some(512), ..Params::default() },
    /// };
    /// let want = multiblock::modes::encrypt(&req, &[1u8; 2000])?;
    ///
    /// let mut s = CipherStream::encryptor(&req)?;
    /// let mut out = Vec::new();
    /// for piece in [&[1u8; 700][..], &[1u8; 1300][..]] {
    ///     let mut buf = vec![0u8; 64 + piece.len() + 64];
    ///     buf[64..64 + piece.len()].copy_from_slice(piece);
    ///     let (at, n) = s.update_in_place_after(&mut buf, 64, piece.len())?;
    ///     out.extend_from_slice(&buf[at..at + n]);
    /// }
    /// s.finalize(&mut out)?;
    /// assert_eq!(out, want);
    /// # Ok::<(), multiblock::Error>(())
    /// ```
    pub fn update_in_place_after(&mut self, buf: &mut [u8], front: usize, input_len: usize) -> Result<(usize, usize)> {
        let ready = self.output_len(input_len);
        let end = front.checked_add(input_len).filter(|&e| e <= buf.len());
        let p = ready.min(self.pending.len());
        // Where the output begins: p bytes before the input, or at 0.
        let at = front.saturating_sub(p);
        if end.is_none() || at + ready > buf.len() {
            return Err(Error::Param(format!(
                "stream output buffer of {} bytes is too small for {} input bytes from byte {front} ({} needed)",
                buf.len(),
                input_len,
                front + ready.max(input_len)
            )));
        }
        self.total += input_len as u64;
        if self.keystream_mode {
            self.keystream_update(None, &mut buf[front..front + input_len])?;
            return Ok((front, input_len));
        }
        if ready == 0 {
            self.pending.extend_from_slice(&buf[front..front + input_len]);
            return Ok((front, 0));
        }
        // Output = pending[..p] ++ input[..ready - p]; the input's rest
        // becomes the new pending. Save that rest before moving the input.
        let rest = Zeroizing::new(buf[front + ready - p..front + input_len].to_vec());
        if at + p > front {
            buf.copy_within(front..front + ready - p, at + p);
        }
        buf[at..at + p].copy_from_slice(&self.pending[..p]);
        self.keep_pending(p, &rest);
        self.engine.update(&mut buf[at..at + ready], &self.pool)?;
        Ok((at, ready))
    }

    /// After the first `p` pending bytes went out: the rest of them, then
    /// `rest` of the input, are pending.
    fn keep_pending(&mut self, p: usize, rest: &[u8]) {
        if p == 0 {
            self.pending.extend_from_slice(rest);
            return;
        }
        let mut next: Zeroizing<Vec<u8>> = Zeroizing::new(Vec::with_capacity(self.pending.len() - p + rest.len()));
        next.extend_from_slice(&self.pending[p..]);
        next.extend_from_slice(rest);
        self.pending = next;
    }

    /// A keystream mode's update: the saved keystream first, whole units
    /// through the engine, a partial unit from a fresh unit of keystream.
    /// `src` is the input when it is not `data` itself.
    fn keystream_update(&mut self, src: Option<&[u8]>, data: &mut [u8]) -> Result<()> {
        // The input byte that lines up with data[i].
        let input = |data: &[u8], i: usize| src.map_or(data[i], |s| s[i]);
        let saved = self.keystream.len().min(data.len());
        for i in 0..saved {
            data[i] = input(data, i) ^ self.keystream[i];
        }
        self.keystream.drain(..saved);
        let unit = self.engine.unit();
        let whole = (data.len() - saved) / unit * unit;
        if whole > 0 {
            let body = &mut data[saved..saved + whole];
            match src {
                Some(s) => self.engine.update_from(&s[saved..saved + whole], body, &self.pool)?,
                None => self.engine.update(body, &self.pool)?,
            }
        }
        let at = saved + whole;
        if at < data.len() {
            let mut ks = Zeroizing::new(vec![0u8; unit]);
            self.engine.update(&mut ks, &self.pool)?;
            for i in at..data.len() {
                data[i] = input(data, i) ^ ks[i - at];
            }
            self.keystream = Zeroizing::new(ks[data.len() - at..].to_vec());
        }
        Ok(())
    }

    /// Processes the end of the input (padding, a partial block, XTS's
    /// stolen block), appending the last output to `out`.
    pub fn finalize(mut self, out: &mut Vec<u8>) -> Result<()> {
        let tail = std::mem::take(&mut *self.pending);
        let last = self.engine.finish(tail, self.total, &self.pool)?;
        out.extend_from_slice(&last);
        Ok(())
    }
}

/// A MAC state of any family.
enum MacState {
    Cmac(Cmac),
    OmacAcpkm(OmacAcpkm),
    Imit(Imit),
    KalynaCmac(KalynaCmac),
    KalynaGmac(KalynaGmac),
}

/// Streaming MAC: [`update`](MacStream::update) with the message in
/// pieces, then [`finalize`](MacStream::finalize) for the tag.
///
/// The Kalyna-128/128 CMAC example of DSTU 7624:2014 Annex B, in pieces
/// of 7 bytes:
///
/// ```
/// use multiblock::modes::{stream::MacStream, Mode, Params, Request};
/// use multiblock::{BackendChoice, CipherId};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// let key = hex("000102030405060708090a0b0c0d0e0f");
/// let req = Request {
///     cipher: CipherId::Kalyna128_128, mode: Mode::Cmac, key: &key, sbox: None,
///     backend: BackendChoice::Auto,
///     params: Params { tag_bits: Some(128), ..Params::default() },
/// };
/// let message = hex("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\
///                    404142434445464748494a4b4c4d4e4f");
/// let mut mac = MacStream::new(&req)?;
/// for piece in message.chunks(7) {
///     mac.update(piece)?;
/// }
/// assert_eq!(mac.finalize()?, hex("123b4eab8e63ecf3e645a99c1115e241"));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub struct MacStream {
    state: MacState,
}

impl MacStream {
    /// The MAC of `req` (GOST MAC, OMAC-ACPKM, DSTU CMAC or GMAC), keyed.
    pub fn new(req: &Request<'_>) -> Result<MacStream> {
        Mode::parse(req.cipher, req.mode.name())?;
        let state = match (req.mode, req.cipher.family()) {
            (Mode::Mac, Family::Gost89) => MacState::Imit(Imit::new(req)?),
            (Mode::Mac, _) => MacState::Cmac(Cmac::new(req)?),
            (Mode::OmacAcpkm, _) => MacState::OmacAcpkm(OmacAcpkm::new(req)?),
            (Mode::Cmac, _) => MacState::KalynaCmac(KalynaCmac::new(req)?),
            (Mode::Gmac, _) => MacState::KalynaGmac(KalynaGmac::new(req)?),
            _ => {
                return Err(Error::Param(format!(
                    "{} is not a mode to mac with (use `encrypt` or `decrypt`)",
                    req.mode
                )))
            }
        };
        Ok(MacStream { state })
    }

    /// Absorbs the next piece of the message (any length).
    pub fn update(&mut self, data: &[u8]) -> Result<()> {
        match &mut self.state {
            MacState::Cmac(m) => m.update(data),
            MacState::OmacAcpkm(m) => m.update(data),
            MacState::Imit(m) => m.update(data),
            MacState::KalynaCmac(m) => {
                m.update(data);
                Ok(())
            }
            MacState::KalynaGmac(m) => {
                m.update(data);
                Ok(())
            }
        }
    }

    /// The tag.
    pub fn finalize(self) -> Result<Vec<u8>> {
        match self.state {
            MacState::Cmac(m) => m.finalize(),
            MacState::OmacAcpkm(m) => m.finalize(),
            MacState::Imit(m) => m.finalize(),
            MacState::KalynaCmac(m) => m.finalize(),
            MacState::KalynaGmac(m) => m.finalize(),
        }
    }
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
