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
//! Speed: the tweaks of up to [`CHUNK`] bytes are made first (one E_K2
//! call for every unit that starts in the chunk, then a shift and a masked
//! XOR per block), and K1 runs over the whole chunk in one
//! `encrypt_blocks` / `decrypt_blocks` call.

use super::params::{only, P};
use crate::error::{Error, Result};
use crate::modes::buffers::{xor_in, CHUNK};
use crate::modes::request::two_keys_length;
use crate::modes::Request;
use crate::{Cipher, Family};
use zeroize::{Zeroize, Zeroizing};

/// The block size IEEE 1619 defines XTS for.
const BLOCK: usize = 16;

/// The most data (and as many bytes of tweaks) one pass of `update` holds:
/// within L2.
const MAX_CHUNK: usize = 256 << 10;

/// x·t in GF(2^128) with IEEE 1619's byte order: `t` is the block read as a
/// little-endian integer. Constant time (the reduction is a mask).
#[inline(always)]
fn double(t: u128) -> u128 {
    (t << 1) ^ (0u128.wrapping_sub(t >> 127) & 0x87)
}

/// Tweaks kept in flight: block j + LANES's tweak comes from block j's by
/// [`times_x4`], so the lanes' shift chains overlap instead of waiting on
/// each other (a doubling per block would be one long dependency chain).
/// Four lanes fit the general registers with the rest of the loop.
const LANES: usize = 4;

/// t·x^4 in the same field: the shift's top four bits a fold back as
/// a·(x^7 + x^2 + x + 1), which has degree at most 10 (no second reduction).
#[inline(always)]
fn times_x4(t: u128) -> u128 {
    let a = (t >> 124) as u64;
    (t << 4) ^ u128::from(a ^ (a << 1) ^ (a << 2) ^ (a << 7))
}

/// Writes `next`, next·α, next·α², … into the blocks of `tweaks` (and XORs
/// each into the matching block of `data`), leaving `next` at the tweak
/// after the last. The main loop takes [`LANES`] blocks per step with the
/// lanes at fixed places, so they stay in registers.
#[inline]
fn run(next: &mut u128, tweaks: &mut [u8], data: Option<&mut [u8]>) {
    let blocks = tweaks.len() / BLOCK;
    let mut lanes = [0u128; LANES];
    let mut t = *next;
    for lane in lanes.iter_mut() {
        *lane = t;
        t = double(t);
    }
    let whole = blocks / LANES * LANES * BLOCK;
    let (tw_main, tw_rest) = tweaks.split_at_mut(whole);
    let (d_main, d_rest) = match data {
        Some(d) => {
            let (a, b) = d.split_at_mut(whole);
            (Some(a), Some(b))
        }
        None => (None, None),
    };
    match d_main {
        Some(d) => {
            for (tw, d) in tw_main.chunks_exact_mut(LANES * BLOCK).zip(d.chunks_exact_mut(LANES * BLOCK)) {
                for (k, lane) in lanes.iter_mut().enumerate() {
                    let at = k * BLOCK..(k + 1) * BLOCK;
                    tw[at.clone()].copy_from_slice(&lane.to_le_bytes());
                    let x = u128::from_le_bytes(d[at.clone()].try_into().expect("one block")) ^ *lane;
                    d[at].copy_from_slice(&x.to_le_bytes());
                    *lane = times_x4(*lane);
                }
            }
        }
        None => {
            for tw in tw_main.chunks_exact_mut(LANES * BLOCK) {
                for (k, lane) in lanes.iter_mut().enumerate() {
                    tw[k * BLOCK..(k + 1) * BLOCK].copy_from_slice(&lane.to_le_bytes());
                    *lane = times_x4(*lane);
                }
            }
        }
    }
    // Fewer than LANES blocks left: lane k serves block k of the rest.
    let mut d_rest = d_rest;
    for (k, tw) in tw_rest.chunks_exact_mut(BLOCK).enumerate() {
        let lane = &mut lanes[k];
        tw.copy_from_slice(&lane.to_le_bytes());
        if let Some(d) = d_rest.as_deref_mut() {
            let d = &mut d[k * BLOCK..(k + 1) * BLOCK];
            let x = u128::from_le_bytes((&*d).try_into().expect("one block")) ^ *lane;
            d.copy_from_slice(&x.to_le_bytes());
        }
        *lane = times_x4(*lane);
    }
    // Lane `blocks % LANES` was advanced past every block: it holds T·α^blocks.
    *next = lanes[blocks % LANES];
    lanes.zeroize();
}

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
                    "{who} needs an --iv of {BLOCK} bytes ({} hex digits, the tweak), got {} bytes",
                    2 * BLOCK,
                    iv.len()
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

    /// The tweaks T·α^j of the next `out.len() / 16` blocks, which then
    /// count as processed: first E_K2 of the numbers of the units that
    /// begin among them, in one call, then a doubling per block. With
    /// `data` (as long as `out`), each tweak is also XORed into its block
    /// in the same pass.
    fn fill_tweaks(&mut self, out: &mut [u8], mut data: Option<&mut [u8]>) -> Result<()> {
        let blocks = out.len() / BLOCK;
        let Some(per_unit) = self.unit_blocks else {
            run(&mut self.next, out, data);
            return Ok(());
        };
        // Blocks until the first unit that begins here, then one every `per_unit`.
        let first = (per_unit - self.block) % per_unit;
        let begins = if first < blocks { (blocks - first - 1) / per_unit + 1 } else { 0 };
        self.starts.resize(begins * BLOCK, 0);
        for s in self.starts.chunks_exact_mut(BLOCK) {
            let number = self.next_unit.ok_or_else(|| {
                Error::Param(format!("{}: data-unit numbers end at 2^128 - 1", self.who))
            })?;
            s.copy_from_slice(&number.to_le_bytes());
            self.next_unit = number.checked_add(1);
        }
        self.tweak_key.encrypt_blocks(&mut self.starts)?;
        let mut begun = self.starts.chunks_exact(BLOCK);
        let mut at = 0;
        while at < blocks {
            if self.block == 0 {
                let t = begun.next().expect("one tweak per unit that begins");
                self.next = u128::from_le_bytes(t.try_into().expect("one block"));
            }
            let len = (per_unit - self.block).min(blocks - at);
            let span = at * BLOCK..(at + len) * BLOCK;
            run(&mut self.next, &mut out[span.clone()], data.as_deref_mut().map(|d| &mut d[span]));
            at += len;
            self.block = (self.block + len) % per_unit;
        }
        Ok(())
    }

    /// Bytes per pass of [`update`](Self::update): at least [`CHUNK`], and
    /// enough data units that their E_K2 calls fill the backend's widest
    /// batch (a bitsliced kernel runs 64 blocks as cheaply as 16).
    fn chunk_bytes(&self) -> usize {
        match self.unit_blocks {
            // Saturating: a data unit may be as large as the caller likes.
            Some(per_unit) => {
                self.tweak_key.backend().ways.saturating_mul(per_unit).saturating_mul(BLOCK).clamp(CHUNK, MAX_CHUNK)
            }
            None => CHUNK,
        }
    }

    /// For the parallel stream (`modes::parallel`): the tweaks of the next
    /// `out.len() / 16` blocks, which then count as processed.
    pub(crate) fn take_tweaks(&mut self, out: &mut [u8]) -> Result<()> {
        self.fill_tweaks(out, None)?;
        self.done += out.len() as u64;
        Ok(())
    }

    /// The keyed K1 cipher and whether this instance encrypts.
    pub(crate) fn cipher(&self) -> (&Cipher, bool) {
        (&self.data, self.encrypt)
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
        if data.len() % BLOCK != 0 {
            return Err(Error::Param(format!(
                "{} update takes whole {BLOCK}-byte blocks, got {} bytes; give the end of the message to finish",
                self.who,
                data.len()
            )));
        }
        let mut tweaks = std::mem::take(&mut self.tweaks);
        for chunk in data.chunks_mut(self.chunk_bytes()) {
            tweaks.resize(chunk.len(), 0);
            self.fill_tweaks(&mut tweaks, Some(chunk))?;
            self.crypt(chunk)?;
            xor_in(chunk, &tweaks);
        }
        self.tweaks = tweaks;
        self.done += data.len() as u64;
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
                "{} needs at least one whole {BLOCK}-byte block, got {} bytes",
                self.who,
                self.done + data.len() as u64
            )));
        }
        if r == 0 {
            return self.update(data);
        }
        if data.len() < BLOCK {
            return Err(Error::Param(format!(
                "{} needs the last whole block with the partial one in the last call, got {} bytes",
                self.who,
                data.len()
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
