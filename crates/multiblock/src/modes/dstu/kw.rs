//! Key wrap (DSTU 7624:2014 §15; Bouncy Castle's DSTU7624WrapEngine).
//!
//! Wrap r ≥ 1 whole n-byte blocks, h = n/2: append one all-zero block
//! (the integrity check), split into 2(r+1) half blocks B ‖ b_1..b_{2r+1},
//! then for i = 1..v, v = 6(2r+1):
//!   X = E_K(B ‖ b_1); B = X[h..] ⊕ i (as 4 little-endian bytes at the
//!   start of the half); b_1..b_{2r+1} ← b_2..b_{2r+1} ‖ X[..h].
//! The output is B ‖ b_1..b_{2r+1}: one block longer than the input.
//! Unwrap runs the steps backwards with D_K and checks, in constant time,
//! that the last block came back all zero ([`Error::Authentication`]
//! otherwise, and nothing is released).
//!
//! The counter i is 4 little-endian bytes as in Bouncy Castle (checked
//! against Bouncy Castle 1.72 up to 40 blocks, v = 486); UAPKI XORs only
//! its low byte, so the two agree only while v ≤ 255, i.e. up to 20 blocks.
//! Data that is not whole blocks must be padded first (the standard's
//! §15.4 "M ‖ length ‖ Б.2" form is what the with-padding vectors hold).
//! Every step needs the previous one, so KW is sequential, and every output
//! byte depends on every input byte. The half-block queue turns once every
//! 2r+1 steps, so the v steps are six passes over b_1..b_{2r+1} in place
//! (backwards to unwrap): in memory ([`KalynaKw::wrap`]), or over a file in
//! bounded memory ([`KalynaKw::wrap_store`], the CLI's large inputs).

use super::util::{check_family, decrypt_one, encrypt_one, only, who};
use crate::error::{Bytes, Error, Result};
use crate::modes::Request;
use crate::Cipher;
use std::io::{Read, Seek, SeekFrom, Write};
use zeroize::Zeroize;

/// Bytes of the store [`KalynaKw::wrap_store`] holds in memory at a time.
pub(crate) const STORE_CHUNK: usize = 1 << 20;

/// An I/O error of the store, as a parameter error (the library has no
/// I/O variant; the message says what failed).
fn io(e: std::io::Error) -> Error {
    Error::Param(format!("key wrap: cannot read or write the data: {e}"))
}

/// DSTU key wrap (Kalyna), one-shot; takes no parameters.
///
/// Checked against Bouncy Castle's first DSTU 7624 key-wrap test
/// (Kalyna-128/128); a changed byte fails the integrity check:
///
/// ```
/// use multiblock::hazmat::modes::KalynaKw;
/// use multiblock::modes::{Mode, Params, Request};
/// use multiblock::{BackendChoice, CipherId, Error};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// let key = hex("000102030405060708090a0b0c0d0e0f");
/// let req = Request {
///     cipher: CipherId::Kalyna128_128, mode: Mode::Kw, key: &key, sbox: None,
///     backend: BackendChoice::Auto, params: Params::default(),
/// };
/// let kw = KalynaKw::new(&req)?;
/// let mut wrapped = kw.wrap(&hex("101112131415161718191a1b1c1d1e1f"))?;
/// assert_eq!(wrapped, hex("1dc91dc6e52575f6dbed25adda95a1b6ad3e15056e489738972c199fb9ee2913"));
/// assert_eq!(kw.unwrap(&wrapped)?, hex("101112131415161718191a1b1c1d1e1f"));
/// wrapped[3] ^= 1;
/// assert_eq!(kw.unwrap(&wrapped), Err(Error::Authentication));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub struct KalynaKw {
    cipher: Cipher,
    who: String,
}

impl KalynaKw {
    /// Keys the key wrap (no parameters).
    pub fn new(req: &Request<'_>) -> Result<KalynaKw> {
        check_family(req, false)?;
        only(req, &[])?;
        Ok(KalynaKw { cipher: req.keyed()?, who: who(req) })
    }

    /// v = 6(2r+1) steps for r data blocks, if the counter fits 32 bits.
    fn steps(&self, data_blocks: usize) -> Result<u32> {
        data_blocks
            .checked_mul(2)
            .and_then(|x| x.checked_add(1))
            .and_then(|x| x.checked_mul(6))
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| Error::Param(format!("{}: {data_blocks} blocks is too long to wrap", self.who)))
    }

    fn check_wrap(&self, len: u64) -> Result<u32> {
        let n = self.cipher.block_bytes() as u64;
        if len == 0 || !len.is_multiple_of(n) {
            return Err(Error::Param(format!(
                "{} wraps whole {n}-byte blocks, at least one (DSTU 7624 §15.1); got {} (§15.4's padded form is not implemented: pad the data first)",
                self.who,
                Bytes(len)
            )));
        }
        self.steps(usize::try_from(len / n).unwrap_or(usize::MAX))
    }

    fn check_unwrap(&self, len: u64) -> Result<u32> {
        let n = self.cipher.block_bytes() as u64;
        if len < 2 * n || !len.is_multiple_of(n) {
            return Err(Error::Param(format!(
                "{} unwraps whole {n}-byte blocks, at least two; got {}",
                self.who,
                Bytes(len)
            )));
        }
        self.steps(usize::try_from(len / n - 1).unwrap_or(usize::MAX))
    }

    /// Wrap steps i = `first`, `first`+1, … over the half blocks of `slots`
    /// in order: X = E_K(B ‖ b); B = X[h..] ⊕ i; b ← X[..h]. (Six passes
    /// over the whole ring are the v = 6(2r+1) steps: the queue of the
    /// standard turns once per pass and is back at its start after each.)
    fn wrap_slots(&self, big_b: &mut [u8], slots: &mut [u8], first: u32, x: &mut [u8]) {
        let h = big_b.len();
        for (k, slot) in slots.chunks_exact_mut(h).enumerate() {
            x[..h].copy_from_slice(big_b);
            x[h..].copy_from_slice(slot);
            encrypt_one(&self.cipher, x);
            big_b.copy_from_slice(&x[h..]);
            for (b, c) in big_b.iter_mut().zip((first + k as u32).to_le_bytes()) {
                *b ^= c;
            }
            slot.copy_from_slice(&x[..h]);
        }
    }

    /// Unwrap steps i = `last`, `last`−1, … over `slots` backwards.
    fn unwrap_slots(&self, big_b: &mut [u8], slots: &mut [u8], last: u32, x: &mut [u8]) {
        let h = big_b.len();
        for (k, slot) in slots.chunks_exact_mut(h).rev().enumerate() {
            x[..h].copy_from_slice(slot);
            x[h..].copy_from_slice(big_b);
            for (b, c) in x[h..].iter_mut().zip((last - k as u32).to_le_bytes()) {
                *b ^= c;
            }
            decrypt_one(&self.cipher, x);
            big_b.copy_from_slice(&x[..h]);
            slot.copy_from_slice(&x[h..]);
        }
    }

    /// Wraps whole blocks (at least one); the result is one block longer.
    pub fn wrap(&self, data: &[u8]) -> Result<Vec<u8>> {
        let v = self.check_wrap(data.len() as u64)?;
        let (n, h) = (self.cipher.block_bytes(), self.cipher.block_bytes() / 2);
        // B ‖ ring, in place: the data, then the all-zero check block.
        let mut out = crate::modes::alloc::copy_with_room(data, n)?;
        out.resize(data.len() + n, 0);
        let (big_b, ring) = out.split_at_mut(h);
        let slots = (ring.len() / h) as u32;
        let mut x = vec![0u8; n];
        for pass in 0..v / slots {
            self.wrap_slots(big_b, ring, pass * slots + 1, &mut x);
        }
        x.zeroize();
        Ok(out)
    }

    /// Unwraps; [`Error::Authentication`] if the check block is not zero.
    pub fn unwrap(&self, data: &[u8]) -> Result<Vec<u8>> {
        let v = self.check_unwrap(data.len() as u64)?;
        let (n, h) = (self.cipher.block_bytes(), self.cipher.block_bytes() / 2);
        let mut out = crate::modes::alloc::copy_with_room(data, 0)?;
        let (big_b, ring) = out.split_at_mut(h);
        let slots = (ring.len() / h) as u32;
        let mut x = vec![0u8; n];
        for pass in (0..v / slots).rev() {
            self.unwrap_slots(big_b, ring, (pass + 1) * slots, &mut x);
        }
        x.zeroize();
        let body = out.len() - n;
        if let Err(e) = crate::modes::tag::verify(&out[body..], &vec![0u8; n]) {
            out.zeroize();
            return Err(e);
        }
        out.truncate(body);
        Ok(out)
    }

    /// [`wrap`](KalynaKw::wrap) in bounded memory over a seekable `store`
    /// (a file) holding the `len`-byte data: afterwards it holds the
    /// `len + n`-byte wrapped key. The six passes read and write the store
    /// 1 MiB at a time.
    pub fn wrap_store<S: Read + Write + Seek>(&self, store: &mut S, len: u64) -> Result<u64> {
        let v = self.check_wrap(len)?;
        let n = self.cipher.block_bytes() as u64;
        store.seek(SeekFrom::Start(len)).and_then(|_| store.write_all(&vec![0u8; n as usize])).map_err(io)?;
        self.passes(store, len + n, v, true)?;
        Ok(len + n)
    }

    /// [`unwrap`](KalynaKw::unwrap) over a seekable `store` holding the
    /// `len`-byte wrapped key: on success it starts with the unwrapped
    /// data, whose length is returned (the caller truncates); on
    /// [`Error::Authentication`] it holds bytes to discard.
    pub fn unwrap_store<S: Read + Write + Seek>(&self, store: &mut S, len: u64) -> Result<u64> {
        let v = self.check_unwrap(len)?;
        let n = self.cipher.block_bytes();
        self.passes(store, len, v, false)?;
        let mut check = vec![0u8; n];
        store.seek(SeekFrom::Start(len - n as u64)).and_then(|_| store.read_exact(&mut check)).map_err(io)?;
        let verdict = crate::modes::tag::verify(&check, &vec![0u8; n]);
        check.zeroize();
        verdict.map(|()| len - n as u64)
    }

    /// The six passes over the store's ring of half blocks, chunk by chunk
    /// (forwards to wrap, backwards to unwrap), B kept in memory.
    fn passes<S: Read + Write + Seek>(&self, store: &mut S, total: u64, v: u32, wrap: bool) -> Result<()> {
        let h = self.cipher.block_bytes() / 2;
        let mut big_b = vec![0u8; h];
        store.seek(SeekFrom::Start(0)).and_then(|_| store.read_exact(&mut big_b)).map_err(io)?;
        let ring = total - h as u64;
        let slots = (ring / h as u64) as u32;
        let chunk = (STORE_CHUNK / h * h) as u64;
        let mut buf = vec![0u8; STORE_CHUNK.min(ring as usize)];
        let mut x = vec![0u8; 2 * h];
        let starts: Vec<u64> = (0..ring.div_ceil(chunk)).map(|c| c * chunk).collect();
        for pass in 0..v / slots {
            let pass = if wrap { pass } else { v / slots - 1 - pass };
            let order: Box<dyn Iterator<Item = &u64>> =
                if wrap { Box::new(starts.iter()) } else { Box::new(starts.iter().rev()) };
            for &at in order {
                let piece = &mut buf[..(ring - at).min(chunk) as usize];
                let pos = h as u64 + at;
                store.seek(SeekFrom::Start(pos)).and_then(|_| store.read_exact(piece)).map_err(io)?;
                let first = pass * slots + (at / h as u64) as u32 + 1;
                if wrap {
                    self.wrap_slots(&mut big_b, piece, first, &mut x);
                } else {
                    self.unwrap_slots(&mut big_b, piece, first + (piece.len() / h) as u32 - 1, &mut x);
                }
                store.seek(SeekFrom::Start(pos)).and_then(|_| store.write_all(piece)).map_err(io)?;
            }
        }
        store.seek(SeekFrom::Start(0)).and_then(|_| store.write_all(&big_b)).map_err(io)?;
        big_b.zeroize();
        buf.zeroize();
        x.zeroize();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::BackendChoice;
    use crate::modes::{Mode, Params};
    use crate::CipherId;
    use crate::test_rng::Rng;
    use std::io::Cursor;

    /// The store form equals the in-memory one (pinned by the vectors),
    /// across chunk boundaries, and refuses a flipped byte.
    #[test]
    fn store_passes_equal_the_in_memory_wrap() {
        let mut rng = Rng(0x6b77);
        for id in [CipherId::Kalyna128_128, CipherId::Kalyna256_512] {
            let key = rng.bytes(id.key_bytes());
            let req = Request {
                cipher: id,
                mode: Mode::Kw,
                key: &key,
                sbox: None,
                backend: BackendChoice::Auto,
                params: Params::default(),
            };
            let kw = KalynaKw::new(&req).unwrap();
            let n = id.block_bytes();
            for blocks in [1, 2, 7, STORE_CHUNK / n + 3] {
                let data = rng.bytes(blocks * n);
                let wrapped = kw.wrap(&data).unwrap();
                let mut store = Cursor::new(data.clone());
                assert_eq!(kw.wrap_store(&mut store, data.len() as u64).unwrap(), wrapped.len() as u64);
                assert!(store.get_ref() == &wrapped, "{id} {blocks}");
                let mut store = Cursor::new(wrapped.clone());
                assert_eq!(kw.unwrap_store(&mut store, wrapped.len() as u64).unwrap(), data.len() as u64);
                assert!(store.get_ref()[..data.len()] == data[..], "{id} {blocks}");
                let mut bad = wrapped.clone();
                let at = rng.below(bad.len());
                bad[at] ^= 1;
                let len = bad.len() as u64;
                assert_eq!(kw.unwrap_store(&mut Cursor::new(bad), len), Err(Error::Authentication));
            }
        }
    }
}
