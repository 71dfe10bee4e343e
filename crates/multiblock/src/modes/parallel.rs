//! The stream engines whose blocks do not chain, so one buffer can be split
//! across threads ([`Pool`]): ECB, GOST R 34.13 CTR and RFC 8645 CTR-ACPKM
//! (s = n; pieces of whole ACPKM sections), DSTU CTR, CBC
//! decryption (both families, any m = z·n), CFB decryption with s = m = n,
//! and XTS (DSTU's and IEEE 1619's). Each piece of a split computes its counter, register or tweaks
//! from its offset alone, so every thread count gives the same bytes.
//!
//! The constructors first build the mode's own type (GOST or DSTU) to
//! check the parameters with the same messages as the one-shot calls; the
//! equality with those one-shot calls is what the tests check.

use super::buffers::{xor_in as xor, xor_to as xor_into, CHUNK};
use super::dstu::{cfb as dstu_cfb, util as dstu_util, KalynaCfb, KalynaCtr as DstuCtr, KalynaXts};
use super::gost::rekey::Rekey;
use super::gost::stream::put_counters;
use super::gost::{rekey, Cbc as GostCbc, Cfb as GostCfb, Ctr as GostCtrType, KuznyechikXts};
use super::stream_core::{any_split, Sequential, StreamCore};
use crate::Direction;
use super::threads::Pool;
use super::{Mode, Padding, Request};
use crate::error::{Error, Result};
use crate::{Cipher, Family};
use zeroize::{Zeroize, Zeroizing};


/// The input of a keystream XOR: `dst` itself, or a separate `src` of the
/// same length (so a mapped input file is read once, not copied first).
#[derive(Clone, Copy)]
enum Source<'a> {
    InPlace,
    From(&'a [u8]),
}

impl<'a> Source<'a> {
    /// The part of the input that lines up with `dst[at..at + len]`.
    fn part(self, at: usize, len: usize) -> Source<'a> {
        match self {
            Source::InPlace => Source::InPlace,
            Source::From(src) => Source::From(&src[at..at + len]),
        }
    }

    /// `dst ^= ks` or `dst = src ^ ks` (`ks` may be longer than `dst`).
    fn xor(self, dst: &mut [u8], ks: &[u8]) {
        match self {
            Source::InPlace => xor(dst, ks),
            Source::From(src) => xor_into(dst, src, ks),
        }
    }
}

fn length_error(c: &Cipher, total: u64) -> Error {
    Error::DataLength { cipher: c.id().name(), block_bytes: c.block_bytes(), got: total as usize }
}

// -------------------------------------------------------- ECB and CBC --

/// What ECB or CBC does to whole blocks; [`Padded`] adds the padding.
pub(crate) trait Blocks: Send {
    /// Encrypts or decrypts whole blocks of `data` in place.
    fn apply(&mut self, cipher: &Cipher, encrypt: bool, data: &mut [u8], pool: &Pool) -> Result<()>;
}

/// A block mode with the request's padding: added to the end before
/// encryption; decryption holds the last block back and checks it.
pub(crate) struct Padded<B> {
    cipher: Cipher,
    encrypt: bool,
    padding: Padding,
    blocks: B,
}

impl<B: Blocks> StreamCore for Padded<B> {
    fn unit(&self) -> usize {
        self.cipher.block_bytes()
    }

    fn hold(&self) -> usize {
        if !self.encrypt && self.padding != Padding::None {
            self.unit()
        } else {
            0
        }
    }

    fn update(&mut self, data: &mut [u8], pool: &Pool) -> Result<()> {
        self.blocks.apply(&self.cipher, self.encrypt, data, pool)
    }

    fn finish(mut self: Box<Self>, tail: Vec<u8>, total: u64, pool: &Pool) -> Result<Vec<u8>> {
        let n = self.unit();
        let mut buf = if self.encrypt { self.padding.pad(&tail, n) } else { tail };
        if buf.len() % n != 0 {
            return Err(length_error(&self.cipher, total));
        }
        self.update(&mut buf, pool)?;
        if self.encrypt {
            Ok(buf)
        } else {
            self.padding.unpad(buf, n)
        }
    }
}

/// ECB: every block on its own, so any split.
pub(crate) struct EcbBlocks;

/// ECB with the request's padding.
pub(crate) type Ecb = Padded<EcbBlocks>;

impl Ecb {
    pub(crate) fn new(req: &Request<'_>, encrypt: bool) -> Result<Ecb> {
        super::oneshot::ecb_params(req)?;
        Ok(Padded { cipher: req.keyed()?, encrypt, padding: req.params.padding, blocks: EcbBlocks })
    }
}

impl Blocks for EcbBlocks {
    fn apply(&mut self, cipher: &Cipher, encrypt: bool, data: &mut [u8], pool: &Pool) -> Result<()> {
        pool.run(data, cipher.block_bytes(), |_, piece| {
            if encrypt {
                cipher.encrypt_blocks(piece)
            } else {
                cipher.decrypt_blocks(piece)
            }
        })
    }
}

// ---------------------------------------------------------------- CTR --

/// How a counter block is laid out and advanced.
#[derive(Clone, Copy)]
enum Counter {
    /// GOST R 34.13: big-endian, + 1 mod 2^n (n = 8 or 16 bytes).
    GostBe { base: u128 },
    /// DSTU 7624: S = E_K(IV) as little-endian limbs, block j uses S + j + 1.
    DstuLe { s: [u64; 8], limbs: usize },
}

/// CTR keystream from a counter that depends only on the block index, so
/// each piece of a split starts at its own index.
pub(crate) struct Ctr {
    cipher: Cipher,
    counter: Counter,
    /// Blocks already used.
    done: u128,
}

/// GOST R 34.13 CTR or CTR-ACPKM, checked and keyed once by the GOST type:
/// split across threads when s = n (and `parallel`), else that type itself
/// (the segments of s < n bits; one thread byte by byte).
pub(crate) fn gost_ctr(req: &Request<'_>, parallel: bool) -> Result<Box<dyn StreamCore>> {
    let ctr = GostCtrType::new(req)?;
    if !parallel || req.params.s.is_some_and(|s| s != 8 * req.cipher.block_bytes()) {
        return Ok(any_split(ctr, GostCtrType::update));
    }
    let n = req.cipher.block_bytes();
    let iv = req.params.iv.as_deref().unwrap_or_default();
    let mut full = [0u8; 16];
    full[16 - n..16 - n / 2].copy_from_slice(iv);
    let counter = Counter::GostBe { base: u128::from_be_bytes(full) };
    let (cipher, rekey) = ctr.into_keys();
    Ok(match req.mode {
        Mode::CtrAcpkm => {
            let section = req.params.section_bytes.unwrap_or_else(|| rekey::default_section(n));
            let key = Zeroizing::new(req.key.to_vec());
            Box::new(CtrAcpkm { key, cipher: Some(cipher), rekey, counter, n, section, done: 0 })
        }
        _ => Box::new(Ctr { cipher, counter, done: 0 }),
    })
}

impl Ctr {
    /// DSTU 7624 CTR for Kalyna.
    pub(crate) fn dstu(req: &Request<'_>) -> Result<Ctr> {
        let cipher = DstuCtr::new(req)?.into_cipher();
        let n = cipher.block_bytes();
        let mut block = Zeroizing::new(req.params.iv.clone().unwrap_or_default());
        cipher.encrypt_blocks(&mut block)?;
        let mut s = [0u64; 8];
        for (limb, b) in s.iter_mut().zip(block.chunks_exact(8)) {
            *limb = u64::from_le_bytes(b.try_into().expect("8 bytes"));
        }
        Ok(Ctr { cipher, counter: Counter::DstuLe { s, limbs: n / 8 }, done: 0 })
    }

}

impl Counter {
    /// Writes the n-byte counter blocks from block index `first` into `out`.
    fn fill(self, n: usize, first: u128, out: &mut [u8]) {
        match self {
            // One-shot CTR's counter writer: per block one inlined store
            // (a variable-length copy here would call memmove per block,
            // 30% of Kuznyechik CTR's time).
            Counter::GostBe { base } => {
                put_counters(out, n, base.wrapping_add(first));
            }
            Counter::DstuLe { s, limbs } => match limbs {
                2 => fill_le::<2, 16>(&s, first, out),
                4 => fill_le::<4, 32>(&s, first, out),
                _ => fill_le::<8, 64>(&s, first, out),
            },
        }
    }
}

impl Ctr {

    /// XORs the keystream from block index `first` into `data` (or `src`
    /// and the keystream into `data`).
    fn apply(&self, first: u128, src: Source<'_>, data: &mut [u8]) -> Result<()> {
        keystream_xor(&self.cipher, self.counter, first, src, data)
    }

}

/// XORs E_K(counter blocks from index `first`) into `data` (`src` into `data`).
fn keystream_xor(cipher: &Cipher, counter: Counter, first: u128, src: Source<'_>, data: &mut [u8]) -> Result<()> {
    let n = cipher.block_bytes();
    let mut ks = Zeroizing::new(vec![0u8; CHUNK.min(data.len().div_ceil(n) * n)]);
    let step = ks.len();
    for (i, piece) in data.chunks_mut(step).enumerate() {
        let blocks = piece.len().div_ceil(n) * n;
        let ks = &mut ks[..blocks];
        counter.fill(cipher.block_bytes(), first + (i * CHUNK / n) as u128, ks);
        cipher.encrypt_blocks(ks)?;
        src.part(i * step, piece.len()).xor(piece, ks);
    }
    Ok(())
}

/// DSTU 7624 counter blocks S + first + 1, S + first + 2, … of `L`
/// little-endian 64-bit limbs (`N` = 8·`L` bytes) into `out`; `L` and `N`
/// constant (a variable-length copy is a memmove call), and the counter kept in
/// registers: stepped in memory (limb by limb, then read back whole for
/// the copy) it stalled store forwarding on every block, and the fill took
/// more time than Kalyna-128 itself. The blocks themselves are in the
/// caller's zeroized buffer until encrypted in place.
#[inline(always)]
fn fill_le<const L: usize, const N: usize>(s: &[u64; 8], first: u128, out: &mut [u8]) {
    let mut c = [0u64; L];
    c.copy_from_slice(&s[..L]);
    add_le(&mut c, first.wrapping_add(1));
    for b in out.chunks_exact_mut(N) {
        for (i, limb) in c.iter().enumerate() {
            b[8 * i..8 * i + 8].copy_from_slice(&limb.to_le_bytes());
        }
        let mut carry = true;
        for limb in c.iter_mut() {
            (*limb, carry) = limb.overflowing_add(u64::from(carry));
        }
    }
}

/// `limbs += k` (little-endian limbs, carry through, wrapping).
fn add_le(limbs: &mut [u64], k: u128) {
    let mut carry = k;
    for limb in limbs.iter_mut() {
        if carry == 0 {
            break;
        }
        let sum = u128::from(*limb) + (carry & u128::from(u64::MAX));
        *limb = sum as u64;
        carry = (carry >> 64) + (sum >> 64);
    }
}

/// A keystream mode split across the pool (CTR, CTR-ACPKM): one `run`
/// serves the in-place and the out-of-place update.
trait SplitKeystream: Send {
    fn unit(&self) -> usize;
    /// XORs the keystream into `data` (in place, or `src` into `data`).
    fn run(&mut self, src: Source<'_>, data: &mut [u8], pool: &Pool) -> Result<()>;
    /// XORs the keystream into the last partial unit.
    fn tail(&self, tail: &mut [u8]) -> Result<()>;
}

impl<T: SplitKeystream> StreamCore for T {
    fn unit(&self) -> usize {
        SplitKeystream::unit(self)
    }

    fn update(&mut self, data: &mut [u8], pool: &Pool) -> Result<()> {
        self.run(Source::InPlace, data, pool)
    }

    fn update_from(&mut self, src: &[u8], dst: &mut [u8], pool: &Pool) -> Result<()> {
        self.run(Source::From(src), dst, pool)
    }

    fn reads_in_pass(&self) -> bool {
        true
    }

    fn finish(self: Box<Self>, mut tail: Vec<u8>, _: u64, _: &Pool) -> Result<Vec<u8>> {
        self.tail(&mut tail)?;
        Ok(tail)
    }
}

impl SplitKeystream for Ctr {
    fn unit(&self) -> usize {
        self.cipher.block_bytes()
    }

    fn run(&mut self, src: Source<'_>, data: &mut [u8], pool: &Pool) -> Result<()> {
        let (n, done) = (self.cipher.block_bytes(), self.done);
        pool.run(data, n, |off, piece| self.apply(done + (off / n) as u128, src.part(off, piece.len()), piece))?;
        self.done += (data.len() / n) as u128;
        Ok(())
    }

    fn tail(&self, tail: &mut [u8]) -> Result<()> {
        if tail.is_empty() {
            return Ok(());
        }
        self.apply(self.done, Source::InPlace, tail)
    }
}

impl Drop for Ctr {
    fn drop(&mut self) {
        if let Counter::DstuLe { s, .. } = &mut self.counter {
            s.zeroize();
        }
    }
}

/// RFC 8645 CTR-ACPKM with s = n: the GOST counter runs on while the key
/// becomes ACPKM(K) every N bytes. Pieces of a split are whole sections;
/// the calling thread walks the key chain once (one ACPKM step per
/// section: a key schedule and 32 bytes of encryption) to find each
/// piece's first key, and each piece steps the chain through its sections.
pub(crate) struct CtrAcpkm {
    /// The key of the next section, as bytes.
    key: Zeroizing<Vec<u8>>,
    /// The cipher under `key` while it is the first key (later sections
    /// are keyed when they are used).
    cipher: Option<Cipher>,
    rekey: Rekey,
    counter: Counter,
    n: usize,
    section: usize,
    /// Blocks already used (whole sections between updates).
    done: u128,
}

/// ACPKM(K) = E_K(80 81 … 9f), the 32-byte next key (RFC 8645 §6.1).
fn acpkm_step(cipher: &Cipher) -> Result<Zeroizing<Vec<u8>>> {
    let mut d = Zeroizing::new((0x80..0xa0).collect::<Vec<u8>>());
    cipher.encrypt_blocks(&mut d)?;
    Ok(d)
}

impl CtrAcpkm {
    /// XORs sections (the last may be short) from block `first`, the first
    /// under `key` (keyed as `first_cipher` when given).
    fn sections(
        &self,
        first_cipher: Option<&Cipher>,
        key: &[u8],
        first: u128,
        src: Source<'_>,
        data: &mut [u8],
    ) -> Result<()> {
        let blocks = (self.section / self.n) as u128;
        let mut key = Zeroizing::new(key.to_vec());
        let count = data.len().div_ceil(self.section);
        for (i, sec) in data.chunks_mut(self.section).enumerate() {
            let keyed;
            let cipher = match (i, first_cipher) {
                (0, Some(c)) => c,
                _ => {
                    keyed = self.rekey.key(&key)?;
                    &keyed
                }
            };
            let part = src.part(i * self.section, sec.len());
            keystream_xor(cipher, self.counter, first + i as u128 * blocks, part, sec)?;
            if i + 1 < count {
                key = acpkm_step(cipher)?;
            }
        }
        Ok(())
    }
}

impl SplitKeystream for CtrAcpkm {
    fn unit(&self) -> usize {
        self.section
    }

    fn tail(&self, tail: &mut [u8]) -> Result<()> {
        self.sections(self.cipher.as_ref(), &self.key, self.done, Source::InPlace, tail)
    }

    /// Whole sections split across the pool.
    fn run(&mut self, src: Source<'_>, data: &mut [u8], pool: &Pool) -> Result<()> {
        let per = pool.piece(data.len(), self.section);
        let mut starts = Vec::new();
        let first = match self.cipher.take() {
            Some(cipher) => cipher,
            None => self.rekey.key(&self.key)?,
        };
        let mut key = self.key.clone();
        for at in (0..data.len()).step_by(self.section) {
            if at % per == 0 {
                starts.push(key.clone());
            }
            key = match at {
                0 => acpkm_step(&first)?,
                _ => acpkm_step(&self.rekey.key(&key)?)?,
            };
        }
        let (done, n) = (self.done, self.n);
        pool.run(data, self.section, |off, piece| {
            let cipher = (off == 0).then_some(&first);
            self.sections(cipher, &starts[off / per], done + (off / n) as u128, src.part(off, piece.len()), piece)
        })?;
        self.key = key;
        self.done += (data.len() / n) as u128;
        Ok(())
    }
}

// ------------------------------------------------- CBC and CFB decrypt --

/// CBC's register (GOST R 34.13 with m = z·n, DSTU 7624, uBlock).
/// Encryption chains and runs on one thread; decryption P_i = D(C_i) ⊕
/// C_{i−z} splits.
pub(crate) struct CbcBlocks {
    /// The m-byte register: the IV, then the last m bytes of ciphertext.
    reg: Zeroizing<Vec<u8>>,
    /// reg ‖ ciphertext of the current decryption update.
    scratch: Zeroizing<Vec<u8>>,
}

/// CBC with the request's padding.
pub(crate) type Cbc = Padded<CbcBlocks>;

impl Cbc {
    pub(crate) fn new(req: &Request<'_>, encrypt: bool) -> Result<Cbc> {
        let dir = if encrypt { Direction::Encrypt } else { Direction::Decrypt };
        let cipher = match req.cipher.family() {
            Family::Kuznyechik | Family::Magma => GostCbc::new(req, dir)?.into_cipher(),
            _ => dstu_util::keyed_with_iv(req, true, &["iv", "padding"])?.0,
        };
        let reg = Zeroizing::new(req.params.iv.clone().unwrap_or_default());
        let blocks = CbcBlocks { reg, scratch: Zeroizing::default() };
        Ok(Padded { cipher, encrypt, padding: req.params.padding, blocks })
    }
}

impl Cbc {
    /// The keyed cipher (for the many-messages CBC).
    pub(crate) fn into_cipher(self) -> Cipher {
        self.cipher
    }
}

impl Blocks for CbcBlocks {
    fn apply(&mut self, cipher: &Cipher, encrypt: bool, data: &mut [u8], pool: &Pool) -> Result<()> {
        let m = self.reg.len();
        if encrypt {
            // Block i of a group of z uses register block i; the register
            // then drops the blocks used and takes the new ciphertext.
            for group in data.chunks_mut(m) {
                xor(group, &self.reg);
                cipher.encrypt_blocks(group)?;
                let k = group.len();
                self.reg.copy_within(k.., 0);
                self.reg[m - k..].copy_from_slice(group);
            }
            return Ok(());
        }
        self.scratch.clear();
        self.scratch.extend_from_slice(&self.reg);
        self.scratch.extend_from_slice(data);
        let prev = &self.scratch;
        pool.run(data, cipher.block_bytes(), |off, piece| {
            cipher.decrypt_blocks(piece)?;
            xor(piece, &prev[off..off + piece.len()]);
            Ok(())
        })?;
        let end = self.scratch.len();
        self.reg.copy_from_slice(&self.scratch[end - m..]);
        Ok(())
    }
}

/// CFB decryption with s = m = n (GOST R 34.13, GOST 28147-89 without key
/// meshing, DSTU 7624): P_i = C_i ⊕ E_K(C_{i−1}) splits like CBC.
pub(crate) struct CfbDecrypt {
    cipher: Cipher,
    reg: Zeroizing<Vec<u8>>,
    scratch: Zeroizing<Vec<u8>>,
    /// A short last block takes the last bytes of its gamma (DSTU) rather
    /// than the first (GOST).
    tail_from_end: bool,
}

impl CfbDecrypt {
    /// `None` where the parameters make CFB chain (s < n, m > n, key meshing).
    /// CFB decryption, checked and keyed once: split across threads when
    /// s = m = n without key meshing (and `parallel`), else sequential.
    pub(crate) fn new(req: &Request<'_>, parallel: bool) -> Result<Box<dyn StreamCore>> {
        let dstu = req.cipher.family() == Family::Kalyna;
        let n = req.cipher.block_bytes();
        let iv = req.params.iv.as_deref().unwrap_or_default();
        let splits = parallel && req.params.s.is_none_or(|s| s == 8 * n) && iv.len() == n && !req.params.key_meshing;
        let cipher = match (dstu, splits) {
            (true, true) => dstu_cfb::keyed(req)?.0,
            (true, false) => {
                let mode = KalynaCfb::decryptor(req)?;
                let unit = req.params.s.unwrap_or(8 * n) / 8;
                return Ok(Box::new(Sequential { mode, unit, update: KalynaCfb::update, finish: KalynaCfb::finish }));
            }
            (false, _) => {
                let cfb = GostCfb::new(req, Direction::Decrypt)?;
                if !splits {
                    return Ok(any_split(cfb, GostCfb::update));
                }
                cfb.into_cipher()
            }
        };
        let reg = Zeroizing::new(iv.to_vec());
        Ok(Box::new(CfbDecrypt { cipher, reg, scratch: Zeroizing::default(), tail_from_end: dstu }))
    }
}

impl StreamCore for CfbDecrypt {
    fn unit(&self) -> usize {
        self.cipher.block_bytes()
    }

    fn update(&mut self, data: &mut [u8], pool: &Pool) -> Result<()> {
        let n = self.unit();
        if data.is_empty() {
            return Ok(());
        }
        self.scratch.clear();
        self.scratch.extend_from_slice(&self.reg);
        self.scratch.extend_from_slice(&data[..data.len() - n]);
        self.reg.copy_from_slice(&data[data.len() - n..]);
        let prev = &self.scratch;
        pool.run(data, n, |off, piece| {
            let mut gamma = Zeroizing::new(Vec::with_capacity(CHUNK.min(piece.len())));
            for (i, part) in piece.chunks_mut(CHUNK).enumerate() {
                let at = off + i * CHUNK;
                gamma.clear();
                gamma.extend_from_slice(&prev[at..at + part.len()]);
                self.cipher.encrypt_blocks(&mut gamma)?;
                xor(part, &gamma);
            }
            Ok(())
        })
    }

    fn finish(mut self: Box<Self>, mut tail: Vec<u8>, _: u64, pool: &Pool) -> Result<Vec<u8>> {
        let n = self.unit();
        let whole = tail.len() / n * n;
        self.update(&mut tail[..whole], pool)?;
        let r = tail.len() - whole;
        if r > 0 {
            let mut gamma = self.reg.clone();
            self.cipher.encrypt_blocks(&mut gamma)?;
            let g = if self.tail_from_end { &gamma[n - r..] } else { &gamma[..r] };
            xor(&mut tail[whole..], g);
        }
        Ok(tail)
    }
}

// ---------------------------------------------------------------- XTS --

/// One piece of XTS: `piece ^= t`, the cipher, `piece ^= t` again.
fn apply(cipher: &Cipher, encrypt: bool, piece: &mut [u8], t: &[u8]) -> Result<()> {
    xor(piece, t);
    if encrypt {
        cipher.encrypt_blocks(piece)?;
    } else {
        cipher.decrypt_blocks(piece)?;
    }
    xor(piece, t);
    Ok(())
}

/// XTS, DSTU 7624 (Kalyna) or IEEE 1619 (Kuznyechik): the tweaks are made
/// in order (a shift each, and E_K2 per data unit), the blocks split.
pub(crate) struct Xts {
    xts: XtsKind,
    tweaks: Zeroizing<Vec<u8>>,
}

enum XtsKind {
    Dstu(KalynaXts),
    Ieee(KuznyechikXts),
}

impl Xts {
    pub(crate) fn new(req: &Request<'_>, encrypt: bool) -> Result<Xts> {
        let xts = match (req.cipher.family(), encrypt) {
            (Family::Kuznyechik, true) => XtsKind::Ieee(KuznyechikXts::encryptor(req)?),
            (Family::Kuznyechik, false) => XtsKind::Ieee(KuznyechikXts::decryptor(req)?),
            (_, true) => XtsKind::Dstu(KalynaXts::encryptor(req)?),
            (_, false) => XtsKind::Dstu(KalynaXts::decryptor(req)?),
        };
        Ok(Xts { xts, tweaks: Zeroizing::default() })
    }
}

impl StreamCore for Xts {
    fn unit(&self) -> usize {
        match &self.xts {
            XtsKind::Dstu(x) => x.block_bytes(),
            XtsKind::Ieee(x) => x.block_bytes(),
        }
    }

    /// Ciphertext stealing needs the last whole block with the partial one.
    fn hold(&self) -> usize {
        self.unit()
    }

    fn update(&mut self, data: &mut [u8], pool: &Pool) -> Result<()> {
        let n = self.unit();
        let x = match &mut self.xts {
            XtsKind::Ieee(x) => return x.update_on(data, pool),
            XtsKind::Dstu(x) => x,
        };
        self.tweaks.resize(data.len(), 0);
        x.take_tweaks(&mut self.tweaks);
        let (cipher, encrypt) = x.cipher();
        let tweaks = &self.tweaks;
        pool.run(data, n, |off, piece| apply(cipher, encrypt, piece, &tweaks[off..off + piece.len()]))
    }

    fn finish(self: Box<Self>, mut tail: Vec<u8>, _: u64, _: &Pool) -> Result<Vec<u8>> {
        let Xts { xts, .. } = *self;
        match xts {
            XtsKind::Dstu(x) => x.finish(&mut tail)?,
            XtsKind::Ieee(x) => x.finish(&mut tail)?,
        }
        Ok(tail)
    }
}
