//! XTS as IEEE Std 1619-2007 defines it (§5.1–§5.4), on Kuznyechik's
//! 128-bit block (GOST R 34.12-2015), with the data-unit layout disk
//! encryption uses (VeraCrypt: 512-byte units numbered from 0).
//!
//! The key is K1 ‖ K2, two Kuznyechik keys (64 bytes). Data unit i has the
//! tweak T = E_K2(i as a 16-byte little-endian integer); its block j
//! (from 0) is C_j = E_K1(P_j ⊕ T·α^j) ⊕ T·α^j, where multiplying by α is
//! a doubling in GF(2^128) modulo x^128 + x^7 + x^2 + x + 1 with the
//! standard's little-endian byte order (§5.2: shift the 128-bit
//! little-endian value left by one, XOR 0x87 into byte 0 on a carry). A
//! unit that ends in a partial block of r bytes steals ciphertext (§5.3.2):
//! CC = E(P_{m−1}) with T·α^{m−1}, the last block's output is CC[..r], and
//! block m−1 becomes E(P_m ‖ CC[r..]) with T·α^m.
//!
//! Two layouts:
//! - `data_unit` bytes (a multiple of 16) per unit, the first numbered
//!   `unit` (default 0): a region that starts mid-volume decrypts on its
//!   own. Only the last unit may be shorter (at least one block).
//! - No `data_unit`: the whole message is one unit and `iv` is the 16-byte
//!   value that K2 encrypts into T (the IV of OpenSSL's `aes-xts`).
//!
//! Speed: one E_K2 call makes the tweaks of up to [`UNITS_AHEAD`] data
//! units; then, a [`CHUNK`] at a time, the tweaks of the blocks are made
//! eight at a time in vector registers and XORed into the data as they
//! are made, K1 runs over the chunk in one `encrypt_blocks` /
//! `decrypt_blocks` call, and a vector XOR applies them again. With
//! threads, each makes the tweaks of its own piece from its place in the
//! chains.

use super::params::{only, P};
use super::xts_tweaks::{fill, Chains};
use crate::error::{Bytes, Error, Result};
use crate::modes::buffers::{xor_in, CHUNK};
use crate::modes::request::two_keys_length;
use crate::modes::threads::Pool;
use crate::modes::Request;
use crate::{Cipher, Family};
use std::sync::Mutex;
use zeroize::{Zeroize, Zeroizing};

/// The block size IEEE 1619 defines XTS for.
const BLOCK: usize = 16;

/// Data units whose tweaks (E_K2 of their numbers) one cipher call makes
/// ahead of their data: a kernel call has a fixed cost (on avx512-gfni
/// about that of 16 blocks), which a call per [`CHUNK`] of 512-byte units
/// would pay for every 16 units.
const UNITS_AHEAD: usize = 256;


/// Streaming IEEE 1619 XTS over Kuznyechik. [`KuznyechikXts::update`]
/// takes whole blocks; [`KuznyechikXts::finish`] takes the end of the
/// message, which must contain the last whole block when the message ends
/// in a partial one.
pub struct KuznyechikXts {
    /// K1: the blocks.
    data: Cipher,
    /// K2: the tweak of each data unit.
    tweak_key: Cipher,
    encrypt: bool,
    /// Blocks per data unit; `None`: the whole message is one unit.
    unit_blocks: Option<usize>,
    /// The number the next data unit to begin takes (`None` past 2^128 − 1).
    next_unit: Option<u128>,
    /// Index j of the next block in its unit.
    block: usize,
    /// T·α^j for the next block (when `block` > 0, or in the one-unit layout).
    next: u128,
    /// Bytes processed so far.
    done: u64,
    /// Scratch: the unit numbers of a chunk, then their tweaks.
    starts: Vec<u8>,
    /// Scratch: the tweaks of a chunk.
    tweaks: Vec<u8>,
    who: String,
}

impl KuznyechikXts {
    /// IEEE 1619 XTS encryption with `key` = K1 ‖ K2 and `data_unit` / `unit` (or `iv`).
    pub fn encryptor(req: &Request<'_>) -> Result<KuznyechikXts> {
        KuznyechikXts::new(req, true)
    }

    /// IEEE 1619 XTS decryption with `key` = K1 ‖ K2 and `data_unit` / `unit` (or `iv`).
    pub fn decryptor(req: &Request<'_>) -> Result<KuznyechikXts> {
        KuznyechikXts::new(req, false)
    }

    fn new(req: &Request<'_>, encrypt: bool) -> Result<KuznyechikXts> {
        let who = format!("{} {}", req.cipher, req.mode);
        if req.cipher.family() != Family::Kuznyechik {
            return Err(Error::Param(format!("{who}: IEEE 1619 XTS runs on Kuznyechik's 128-bit block")));
        }
        only(req, &[P::Iv, P::DataUnit, P::Unit])?;
        let p = &req.params;
        let unit_blocks = match p.data_unit {
            Some(bytes) if bytes < BLOCK || bytes % BLOCK != 0 => {
                return Err(Error::Param(format!(
                    "{who}: --data-unit must be a multiple of {BLOCK} bytes, at least {BLOCK}, got {bytes}"
                )))
            }
            Some(bytes) => Some(bytes / BLOCK),
            None => None,
        };
        match (unit_blocks, &p.iv, p.unit) {
            (Some(_), Some(_), _) => {
                return Err(Error::Param(format!(
                    "{who} takes --iv or --data-unit, not both (the unit numbers make the tweaks)"
                )))
            }
            (None, None, _) => {
                return Err(Error::Param(format!(
                    "{who} needs --data-unit BYTES (with --unit N, default 0) or --iv (the {BLOCK}-byte tweak of one unit)"
                )))
            }
            (None, Some(_), Some(_)) => {
                return Err(Error::Param(format!("{who}: --unit numbers data units: it needs --data-unit")))
            }
            _ => {}
        }
        let half = req.cipher.key_bytes();
        if req.key.len() != 2 * half {
            return Err(two_keys_length(req));
        }
        let data = req.rekeyed(&req.key[..half])?;
        let tweak_key = req.rekeyed(&req.key[half..])?;
        let next = match &p.iv {
            Some(iv) if iv.len() != BLOCK => {
                return Err(Error::Param(format!(
                    "{who} needs an --iv of {BLOCK} bytes ({} hex digits, the tweak), got {}",
                    2 * BLOCK,
                    Bytes(iv.len() as u64)
                )))
            }
            Some(iv) => {
                let mut t = [0u8; BLOCK];
                t.copy_from_slice(iv);
                tweak_key.encrypt_blocks(&mut t)?;
                let v = u128::from_le_bytes(t);
                t.zeroize();
                v
            }
            None => 0,
        };
        Ok(KuznyechikXts {
            data,
            tweak_key,
            encrypt,
            unit_blocks,
            next_unit: Some(p.unit.unwrap_or(0)),
            block: 0,
            next,
            done: 0,
            starts: Vec::new(),
            tweaks: Vec::new(),
            who,
        })
    }

    /// Where the tweaks of the next `blocks` blocks come from, which then
    /// count as begun: E_K2 of the numbers of the data units that begin
    /// among them (in one call, into `starts`), and the rest of the
    /// current unit's chain before them.
    /// Returns the head's length for [`chains`](Self::chains).
    fn begin(&mut self, blocks: usize) -> Result<usize> {
        let Some(per_unit) = self.unit_blocks else {
            return Ok(blocks);
        };
        // Blocks until the first unit that begins here, then one every `per_unit`.
        let head = (per_unit - self.block) % per_unit;
        let begins = if head < blocks { (blocks - head - 1) / per_unit + 1 } else { 0 };
        self.starts.resize(begins * BLOCK, 0);
        for s in self.starts.chunks_exact_mut(BLOCK) {
            let number = self.next_unit.ok_or_else(|| {
                Error::Param(format!("{}: data-unit numbers end at 2^128 - 1", self.who))
            })?;
            s.copy_from_slice(&number.to_le_bytes());
            self.next_unit = number.checked_add(1);
        }
        self.tweak_key.encrypt_blocks(&mut self.starts)?;
        self.block = (self.block + blocks) % per_unit;
        // The whole rest of the unit, even past these blocks: the chain goes on.
        Ok(head)
    }

    /// The chains [`begin`](Self::begin) set up, with a head of `head` blocks.
    fn chains(&self, head: usize) -> Chains<'_> {
        match self.unit_blocks {
            Some(per_unit) => Chains { start: self.next, head, unit_tweaks: &self.starts, per_unit },
            None => Chains::one(self.next),
        }
    }

    /// The tweaks T·α^j of the next `out.len() / 16` blocks, which then
    /// count as processed ([`xts_tweaks`](super::xts_tweaks)). With `data`
    /// (as long as `out`), each tweak is also XORed into its block in the
    /// same pass.
    fn fill_tweaks(&mut self, out: &mut [u8], data: Option<&mut [u8]>) -> Result<()> {
        let head = self.begin(out.len() / BLOCK)?;
        self.next = fill(out, data, self.chains(head));
        Ok(())
    }

    /// Bytes per pass of [`update`](Self::update): the E_K2 calls of up to
    /// [`UNITS_AHEAD`] data units, then their data a [`CHUNK`] at a time.
    fn pass_bytes(&self) -> usize {
        match self.unit_blocks {
            // Saturating: a data unit may be as large as the caller likes.
            Some(per_unit) => UNITS_AHEAD.saturating_mul(per_unit).saturating_mul(BLOCK).max(CHUNK),
            None => usize::MAX,
        }
    }

    /// As [`update`](Self::update), over the threads of `pool`: the E_K2
    /// calls of the units here first, then each thread makes the tweaks of
    /// its own piece (from its place in the chains) as it goes.
    pub(crate) fn update_on(&mut self, data: &mut [u8], pool: &Pool) -> Result<()> {
        self.check_whole(data.len())?;
        let threads = pool.threads() > 1;
        let pass = if threads { usize::MAX } else { self.pass_bytes() };
        // One thread: the scratch of the tweaks is kept (wiping a fresh one per pass costs ~0.06 cycles/byte).
        let mut scratch = std::mem::take(&mut self.tweaks);
        if !threads {
            scratch.resize(CHUNK, 0);
        }
        for part in data.chunks_mut(pass) {
            let (len, blocks) = (part.len(), part.len() / BLOCK);
            let head = self.begin(blocks)?;
            let (chains, cipher, encrypt) = (self.chains(head), &self.data, self.encrypt);
            self.next = if threads {
                // The tweak after the last block, from the piece that ends the part.
                let last = Mutex::new(chains.start);
                pool.run(part, BLOCK, |off, piece| {
                    let mut tweaks = Zeroizing::new(vec![0u8; piece.len().min(CHUNK)]);
                    let mut next = crypt_piece(cipher, encrypt, piece, chains.at(off / BLOCK), &mut tweaks)?;
                    if off + piece.len() == len {
                        *last.lock().unwrap_or_else(|e| e.into_inner()) = next;
                    }
                    next.zeroize();
                    Ok(())
                })?;
                last.into_inner().unwrap_or_else(|e| e.into_inner())
            } else {
                crypt_piece(cipher, encrypt, part, chains, &mut scratch)?
            };
            self.done += len as u64;
        }
        self.tweaks = scratch;
        Ok(())
    }

    /// The block size, 16 bytes.
    pub fn block_bytes(&self) -> usize {
        BLOCK
    }

    fn crypt(&self, data: &mut [u8]) -> Result<()> {
        if self.encrypt {
            self.data.encrypt_blocks(data)
        } else {
            self.data.decrypt_blocks(data)
        }
    }

    /// Encrypts or decrypts whole blocks in place.
    pub fn update(&mut self, data: &mut [u8]) -> Result<()> {
        self.update_on(data, &Pool::one())
    }

    fn check_whole(&self, len: usize) -> Result<()> {
        if !len.is_multiple_of(BLOCK) {
            return Err(Error::Param(format!(
                "{} update takes whole {BLOCK}-byte blocks, got {}; give the end of the message to finish",
                self.who,
                Bytes(len as u64)
            )));
        }
        Ok(())
    }

    /// Processes the end of the message: whole blocks, or whole blocks and a
    /// partial one (ciphertext stealing, which needs the last whole block
    /// here too).
    pub fn finish(mut self, data: &mut [u8]) -> Result<()> {
        self.finish_here(data)
    }

    fn finish_here(&mut self, data: &mut [u8]) -> Result<()> {
        let r = data.len() % BLOCK;
        if self.done + (data.len() as u64) < BLOCK as u64 {
            return Err(Error::Param(format!(
                "{} needs at least one whole {BLOCK}-byte block, got {}",
                self.who,
                Bytes(self.done + data.len() as u64)
            )));
        }
        if r == 0 {
            return self.update(data);
        }
        if data.len() < BLOCK {
            return Err(Error::Param(format!(
                "{} needs the last whole block with the partial one in the last call, got {}",
                self.who,
                Bytes(data.len() as u64)
            )));
        }
        let (head, last) = data.split_at_mut(data.len() - BLOCK - r);
        self.update(head)?;
        // The last whole block and the partial one must be in one unit.
        if let Some(per_unit) = self.unit_blocks {
            if self.block + 1 == per_unit {
                return Err(Error::Param(format!(
                    "{}: the last data unit is {r} bytes, shorter than one {BLOCK}-byte block",
                    self.who
                )));
            }
        }
        let mut t = [0u8; 2 * BLOCK];
        self.fill_tweaks(&mut t, None)?;
        let (tm1, tm) = t.split_at(BLOCK);
        // Encryption uses T·α^{m−1} first, decryption T·α^m first (§5.3.2, §5.4.2).
        let (first, second) = if self.encrypt { (tm1, tm) } else { (tm, tm1) };
        let (full, tail) = last.split_at_mut(BLOCK);
        let mut cc = [0u8; BLOCK];
        cc.copy_from_slice(full);
        xor_in(&mut cc, first);
        self.crypt(&mut cc)?;
        xor_in(&mut cc, first);
        // (tail ‖ cc[r..]) goes to the whole block's place, cc[..r] to the tail.
        full[..r].copy_from_slice(tail);
        full[r..].copy_from_slice(&cc[r..]);
        tail.copy_from_slice(&cc[..r]);
        xor_in(full, second);
        self.crypt(full)?;
        xor_in(full, second);
        cc.zeroize();
        t.zeroize();
        self.done += last.len() as u64;
        Ok(())
    }
}

/// XTS over `piece`, whose tweaks `chains` gives, a [`CHUNK`] at a time:
/// the tweaks made and XORed in, the cipher, the tweaks XORed again.
/// `scratch` holds a chunk's tweaks. Returns the tweak after the last
/// block in its chain.
fn crypt_piece(cipher: &Cipher, encrypt: bool, piece: &mut [u8], chains: Chains<'_>, scratch: &mut [u8]) -> Result<u128> {
    let mut here = chains;
    let mut next = here.start;
    for chunk in piece.chunks_mut(CHUNK) {
        let tw = &mut scratch[..chunk.len()];
        next = fill(tw, Some(chunk), here);
        here = here.after(chunk.len() / BLOCK, next);
        if encrypt {
            cipher.encrypt_blocks(chunk)?;
        } else {
            cipher.decrypt_blocks(chunk)?;
        }
        xor_in(chunk, tw);
    }
    Ok(next)
}

/// One shot: the whole message through `finish`.
pub(crate) fn crypt(req: &Request<'_>, data: &[u8], encrypt: bool) -> Result<Vec<u8>> {
    let mut out = data.to_vec();
    KuznyechikXts::new(req, encrypt)?.finish(&mut out)?;
    Ok(out)
}

/// XTS encryption of each message under the one key and layout of `req`:
/// two key setups, each message from the first unit (or tweak) on.
pub(crate) fn encrypt_each(req: &Request<'_>, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    let mut xts = KuznyechikXts::new(req, true)?;
    let (next, next_unit) = (Zeroizing::new(xts.next), xts.next_unit);
    messages
        .iter()
        .map(|m| {
            (xts.next, xts.next_unit, xts.block, xts.done) = (*next, next_unit, 0, 0);
            let mut out = m.to_vec();
            xts.finish_here(&mut out)?;
            Ok(out)
        })
        .collect()
}

impl Drop for KuznyechikXts {
    fn drop(&mut self) {
        self.next.zeroize();
        self.starts.zeroize();
        self.tweaks.zeroize();
    }
}

#[cfg(test)]
#[path = "xts_tests.rs"]
mod tests;
