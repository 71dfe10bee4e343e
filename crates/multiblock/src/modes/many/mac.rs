//! CBC-MACs of many messages at once: GOST R 34.13-2015 §4.6 MAC, RFC 8645
//! OMAC-ACPKM (Kuznyechik, Magma) and the DSTU 7624:2014 §9 MAC (Kalyna).
//!
//! All three chain B ← E_K(B ⊕ X_i) over every block but the last, then
//! tag = MSB(E_K(B ⊕ X* ⊕ M)) where X* is the last block, padded with
//! 0x80 0… if partial, and M its mask: GOST K1 (whole) / K2 (partial);
//! OMAC-ACPKM the K1 / K1·x of the last block's section; DSTU E_K(0) /
//! E_K(01 0…). Each stream holds back its last (possibly whole) block
//! until more data or the end shows it is the last.

use super::lanes::{xor_block, Lanes};
use crate::error::{Error, Result};
use crate::modes::dstu::KalynaCmac;
use crate::modes::gost::acpkm::{self, OmacAcpkm};
use crate::modes::gost::cmac::{mul_x, Cmac};
use crate::modes::gost::gost3413::CtrGen;
use crate::modes::gost::rekey::Rekey;
use crate::modes::gost::stream::{xor_in, XorStream};
use crate::modes::{Mode, Request};
use crate::{Cipher, Family};
use zeroize::Zeroizing;

/// The key bytes of Kuznyechik and Magma (the first part of an ACPKM-Master section).
const GOST_KEY_BYTES: usize = 32;

/// A cipher and the masks of a last block that is whole or partial.
struct Slot {
    cipher: Cipher,
    whole: Zeroizing<Vec<u8>>,
    partial: Zeroizing<Vec<u8>>,
}

/// Where the streams' keys come from.
enum Keys {
    One(Slot),
    /// OMAC-ACPKM: slot j is section j (K^j; K1^j and K1^j·x), made in
    /// order from the ACPKM-Master keystream as the streams reach it. Every
    /// stream under the same key meets the same sections.
    Sections { slots: Vec<Slot>, master: XorStream<CtrGen>, rekey: Rekey, per: usize },
}

impl Keys {
    /// The slot of block `i` (0-based) of a message.
    fn slot_of(&self, i: usize) -> usize {
        match self {
            Keys::One(_) => 0,
            Keys::Sections { per, .. } => i / per,
        }
    }

    fn slot(&mut self, j: usize) -> Result<&Slot> {
        match self {
            Keys::One(s) => Ok(s),
            Keys::Sections { slots, master, rekey, .. } => {
                while slots.len() <= j {
                    let n = slots[0].whole.len();
                    let m = acpkm::material(master, n)?;
                    let k1 = Zeroizing::new(m[GOST_KEY_BYTES..].to_vec());
                    let slot = Slot { cipher: rekey.key(&m[..GOST_KEY_BYTES])?, partial: Zeroizing::new(mul_x(&k1)), whole: k1 };
                    slots.push(slot);
                }
                Ok(&slots[j])
            }
        }
    }
}

/// The MACs of `count` messages, taken in pieces, one wide call per step.
pub(crate) struct WideMac {
    n: usize,
    keys: Keys,
    lanes: Lanes,
    /// Each stream's bytes not absorbed yet: at most one block, carried
    /// from earlier pieces (the last block waits until more data or the
    /// end shows it is the last).
    carry: Vec<Zeroizing<Vec<u8>>>,
    /// Blocks absorbed per stream.
    blocks: Vec<usize>,
    tag_bytes: usize,
    /// The error of an empty message where the mode defines no MAC of one (DSTU).
    empty: Option<Error>,
    live: Vec<usize>,
}

impl WideMac {
    /// `None` where the mode has no wide form here (GOST 28147-89's
    /// 16-round imitovstavka, GMAC): the caller runs one stream at a time.
    /// The parameters are checked by the one-stream constructors.
    pub(crate) fn new(req: &Request<'_>, count: usize) -> Result<Option<WideMac>> {
        let (keys, tag_bytes, empty) = match (req.mode, req.cipher.family()) {
            (Mode::Mac, Family::Kuznyechik | Family::Magma) => {
                let (cipher, whole, partial, tag) = Cmac::new(req)?.into_parts();
                (Keys::One(Slot { cipher, whole, partial }), tag, None)
            }
            (Mode::OmacAcpkm, _) => {
                let (master, rekey, cipher, k1, per, tag) = OmacAcpkm::new(req)?.into_parts();
                let first = Slot { cipher, partial: Zeroizing::new(mul_x(&k1)), whole: k1 };
                (Keys::Sections { slots: vec![first], master, rekey, per }, tag, None)
            }
            (Mode::Cmac, Family::Kalyna) => {
                let (cipher, tag, empty) = KalynaCmac::new(req)?.into_parts();
                let empty = Some(empty);
                let n = cipher.block_bytes();
                let mut whole = Zeroizing::new(vec![0u8; n]);
                let mut partial = Zeroizing::new(vec![0u8; n]);
                partial[0] = 0x01;
                cipher.encrypt_blocks(&mut whole)?;
                cipher.encrypt_blocks(&mut partial)?;
                (Keys::One(Slot { cipher, whole, partial }), tag, empty)
            }
            _ => return Ok(None),
        };
        let n = req.cipher.block_bytes();
        Ok(Some(WideMac {
            n,
            keys,
            lanes: Lanes::new(n, count, &vec![0u8; n]),
            carry: (0..count).map(|_| Zeroizing::new(Vec::with_capacity(n))).collect(),
            blocks: vec![0; count],
            tag_bytes,
            empty,
            live: Vec::with_capacity(count),
        }))
    }

    /// Absorbs the next piece of every message (`pieces[i]` for stream i,
    /// empty where a stream has nothing new). The pieces are read where
    /// they are: only each stream's last block (at most n bytes) is copied,
    /// into its carry. (Copying whole pieces cost a 16 MiB MAC of 64
    /// streams as much again as the cipher on AMD Zen 5: the copies' fresh
    /// pages faulted in on every call.)
    pub(crate) fn update(&mut self, pieces: &[&[u8]]) -> Result<()> {
        let n = self.n;
        // Top each carry up to a block; `rest[l]` is what follows it.
        let mut rest: Vec<&[u8]> = Vec::with_capacity(pieces.len());
        for (carry, piece) in self.carry.iter_mut().zip(pieces) {
            let fill = (n - carry.len()).min(piece.len());
            carry.extend_from_slice(&piece[..fill]);
            rest.push(&piece[fill..]);
        }
        // A stream's carry (a whole block when anything follows it) is
        // absorbed first, then its rest's blocks from `off`; the block
        // holding its last byte becomes the new carry.
        let mut carried: Vec<bool> = rest.iter().map(|r| !r.is_empty()).collect();
        let mut off = vec![0usize; pieces.len()];
        loop {
            let ready = |l: usize| usize::from(carried[l]) + (rest[l].len() - off[l]).saturating_sub(1) / n;
            self.live.clear();
            self.live.extend((0..pieces.len()).filter(|&l| ready(l) > 0));
            // As many steps as every live stream can take without a new
            // scan, and (OMAC-ACPKM) without crossing into a new section.
            let Some(mut steps) = self.live.iter().map(|&l| ready(l)).min() else { break };
            if let Keys::Sections { per, .. } = &self.keys {
                steps = self.live.iter().map(|&l| per - self.blocks[l] % per).fold(steps, usize::min);
            }
            let live = std::mem::take(&mut self.live);
            let done = self.steps(&live, steps, &rest, &mut carried, &mut off);
            self.live = live;
            done?;
        }
        for (l, r) in rest.iter().enumerate() {
            if !r.is_empty() {
                self.carry[l].clear();
                self.carry[l].extend_from_slice(&r[off[l]..]);
            }
        }
        Ok(())
    }

    /// `steps` blocks of every stream in `live`, one wide call per step
    /// (per key slot): each stream's carry if `carried`, then its `rest`
    /// from `off`.
    fn steps(&mut self, live: &[usize], steps: usize, rest: &[&[u8]], carried: &mut [bool], off: &mut [usize]) -> Result<()> {
        let n = self.n;
        for _ in 0..steps {
            for &l in live {
                if carried[l] {
                    self.lanes.xor(l, &self.carry[l]);
                    carried[l] = false;
                } else {
                    self.lanes.xor(l, &rest[l][off[l]..off[l] + n]);
                    off[l] += n;
                }
            }
            self.encrypt_grouped(live)?;
            for &l in live {
                self.blocks[l] += 1;
            }
        }
        Ok(())
    }

    /// The tags in stream order (an empty message of the DSTU MAC: its error).
    pub(crate) fn finalize(mut self) -> Result<Vec<Result<Vec<u8>>>> {
        let n = self.n;
        let count = self.carry.len();
        let mut tags: Vec<Result<Vec<u8>>> = vec![Ok(Vec::new()); count];
        let mut live = Vec::with_capacity(count);
        for (l, tag) in tags.iter_mut().enumerate() {
            let last = &self.carry[l][..];
            let r = last.len();
            if let (0, Some(e)) = (r, &self.empty) {
                *tag = Err(e.clone());
                continue;
            }
            let slot = self.keys.slot_of(self.blocks[l]);
            let slot = self.keys.slot(slot)?;
            let mask = if r == n { &slot.whole } else { &slot.partial };
            let reg = self.lanes.reg_mut(l);
            xor_in(&mut reg[..r], last);
            if r < n {
                reg[r] ^= 0x80;
            }
            xor_block(reg, mask);
            live.push(l);
        }
        self.encrypt_grouped(&live)?;
        for &l in &live {
            tags[l] = Ok(self.lanes.reg(l)[..self.tag_bytes].to_vec());
        }
        Ok(tags)
    }

    /// Encrypts the registers of `live`: one call per key slot (one call
    /// in all but at an OMAC-ACPKM section boundary that streams cross at
    /// different times).
    fn encrypt_grouped(&mut self, live: &[usize]) -> Result<()> {
        if let Keys::One(slot) = &self.keys {
            return self.lanes.encrypt(&slot.cipher, live);
        }
        let j = live.first().map_or(0, |&l| self.keys.slot_of(self.blocks[l]));
        if live.iter().all(|&l| self.keys.slot_of(self.blocks[l]) == j) {
            return self.lanes.encrypt(&self.keys.slot(j)?.cipher, live);
        }
        let mut rest = live.to_vec();
        while let Some(&first) = rest.first() {
            let j = self.keys.slot_of(self.blocks[first]);
            let (group, other): (Vec<usize>, Vec<usize>) =
                rest.iter().partition(|&&l| self.keys.slot_of(self.blocks[l]) == j);
            self.lanes.encrypt(&self.keys.slot(j)?.cipher, &group)?;
            rest = other;
        }
        Ok(())
    }
}
