//! GOST R 34.13-2015 §4.2–4.5: CTR, OFB, CBC and CFB, for Kuznyechik
//! (n = 128) and Magma (n = 64), bytes as printed in the standard
//! (a block's first byte is its most significant).
//!
//! Notation of the standard: n = block bits, s = segment bits (CTR, OFB,
//! CFB: 8 ≤ s ≤ n here, whole bytes), m = register bits given by the IV
//! (OFB, CBC: m = z·n; CFB: m ≥ n). The register R_1 = IV; OFB and CBC
//! shift it left by n bits per block, CFB by s bits, so OFB/CBC with z > 1
//! run z interleaved chains: z blocks go to the cipher in one call. CTR,
//! CBC decryption and CFB decryption have no chain at all and go through
//! the cipher 8 KiB (`CHUNK_BYTES`) at a time.
//!
//! Why not RustCrypto's `ctr`/`cbc`/`cfb-mode`/`ofb`: they fix m = n and
//! s = n in the type, hand the cipher at most `ParBlocksSize` blocks at a
//! time, and need a cipher type chosen at compile time, while requests
//! choose the cipher and backend at run time. The `ctr` crate is used in
//! the tests as a cross-check where the construction is the same.

use super::rekey::{default_section, next_key};
use super::gost28147;
use super::params::{self, P};
use super::rekey::Rekey;
use super::stream::{copy_concat, put_counters, shift_in, xor_in, Keystream, XorStream};
use crate::modes::buffers::CHUNK as CHUNK_BYTES;
use crate::Direction;
use crate::error::{Bytes, Error, Result};
use crate::modes::{Mode, Padding, Request};
use crate::{Cipher, Family};
use zeroize::Zeroizing;

const GOST_R: &[Family] = &[Family::Kuznyechik, Family::Magma];

// ---------------------------------------------------------------- CTR --

/// The CTR keystream (§4.2): γ_i = MSB_s(E(CTR_i)), CTR_1 = IV || 0^{n/2},
/// CTR_{i+1} = CTR_i + 1 mod 2^n. With `section` (RFC 8645 CTR-ACPKM) the
/// key becomes ACPKM(K) after every `section` bytes of counter blocks while
/// the counter runs on.
pub(crate) struct CtrGen {
    cipher: Cipher,
    rekey: Rekey,
    n: usize,
    s: usize,
    ctr: u128,
    /// Counter blocks per ACPKM section (0: plain CTR).
    section_blocks: usize,
    used: usize,
}

impl CtrGen {
    /// `iv` is n/2 bytes; `s` in bytes; `section` in bytes (a multiple of n).
    pub(crate) fn new(cipher: Cipher, rekey: Rekey, iv: &[u8], s: usize, section: Option<usize>) -> CtrGen {
        let n = cipher.block_bytes();
        assert_eq!(iv.len(), n / 2);
        let mut full = [0u8; 16];
        full[16 - n..16 - n / 2].copy_from_slice(iv);
        let section_blocks = section.map_or(0, |b| b / n);
        CtrGen { cipher, rekey, n, s, ctr: u128::from_be_bytes(full), section_blocks, used: 0 }
    }
}

impl Keystream for CtrGen {
    fn generate(&mut self, want: usize, out: &mut Vec<u8>) -> Result<()> {
        let n = self.n;
        let mut blocks = want.div_ceil(self.s).clamp(1, CHUNK_BYTES / n);
        if self.section_blocks > 0 {
            if self.used == self.section_blocks {
                self.cipher = next_key(&self.cipher, &self.rekey)?;
                self.used = 0;
            }
            blocks = blocks.min(self.section_blocks - self.used);
            self.used += blocks;
        }
        let start = out.len();
        out.resize(start + blocks * n, 0);
        self.ctr = put_counters(&mut out[start..], n, self.ctr);
        self.cipher.encrypt_blocks(&mut out[start..])?;
        keep_msb(out, start, n, self.s);
        Ok(())
    }
}

/// Keeps MSB_s of each n-byte block of `buf[start..]`, packed.
fn keep_msb(buf: &mut Vec<u8>, start: usize, n: usize, s: usize) {
    if s == n {
        return;
    }
    let blocks = (buf.len() - start) / n;
    for i in 0..blocks {
        buf.copy_within(start + i * n..start + i * n + s, start + i * s);
    }
    buf.truncate(start + blocks * s);
}

/// GOST R 34.13 CTR and RFC 8645 CTR-ACPKM (encryption = decryption), in
/// place on any split of the data.
///
/// Magma CTR, checked against GOST R 34.13-2015 A.2.2, in pieces of 3
/// bytes:
///
/// ```
/// use multiblock::hazmat::modes::GostCtr as Ctr;
/// use multiblock::modes::{Mode, Params, Request};
/// use multiblock::{BackendChoice, CipherId};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// let key = hex("ffeeddccbbaa99887766554433221100f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
/// let req = Request {
///     cipher: CipherId::Magma, mode: Mode::Ctr, key: &key, sbox: None,
///     backend: BackendChoice::Auto,
///     params: Params { iv: Some(hex("12345678")), ..Params::default() },
/// };
/// let mut data = hex("92def06b3c130a59db54c704f8189d204a98fb2e67a8024c8912409b17b57e41");
/// let mut ctr = Ctr::new(&req)?;
/// for piece in data.chunks_mut(3) {
///     ctr.update(piece)?;
/// }
/// ctr.finalize();
/// assert_eq!(data, hex("4e98110c97b7b93c3e250d93d6e85d69136d868807b2dbef568eb680ab52a12d"));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub struct Ctr {
    x: XorStream<CtrGen>,
}

impl Ctr {
    /// `req.mode` is `ctr` or `ctr-acpkm`; iv = n/2 bits; `--s` (default n);
    /// CTR-ACPKM: `--section-bytes` N (default: 4096 for Kuznyechik, 1024
    /// for Magma, as gost-engine).
    pub fn new(req: &Request<'_>) -> Result<Ctr> {
        params::expect(req, "Ctr", &[Mode::Ctr, Mode::CtrAcpkm], GOST_R)?;
        let acpkm = req.mode == Mode::CtrAcpkm;
        params::only(req, if acpkm { &[P::Iv, P::S, P::Section] } else { &[P::Iv, P::S] })?;
        let n = req.cipher.block_bytes();
        let iv = params::iv_exact(req, n / 2, "n/2 bits; the first counter is iv || 0")?;
        let s = params::bits(req, "--s", req.params.s, 8 * n, 8, 8 * n)?;
        let section = match acpkm {
            true => {
                Some(params::section(req, "--section-bytes", req.params.section_bytes, default_section(n), n)?)
            }
            false => None,
        };
        let (rekey, cipher) = Rekey::new(req)?;
        Ok(Ctr { x: XorStream::new(CtrGen::new(cipher, rekey, iv, s, section)) })
    }

    /// The keyed cipher and how to key it again (for the parallel CTR).
    pub(crate) fn into_keys(self) -> (Cipher, Rekey) {
        (self.x.gen.cipher, self.x.gen.rekey)
    }

    super::stream::keystream_methods!();
}

// ---------------------------------------------------------------- OFB --

/// The OFB keystream (§4.3): Y_i = E(MSB_n(R_i)), γ_i = MSB_s(Y_i),
/// R_{i+1} = LSB_{m-n}(R_i) || Y_i. The z blocks of the register are
/// independent, so one cipher call turns the whole register into the next
/// z outputs, which are also the next register.
struct OfbGen {
    cipher: Cipher,
    reg: Zeroizing<Vec<u8>>,
    n: usize,
    s: usize,
}

impl Keystream for OfbGen {
    fn generate(&mut self, want: usize, out: &mut Vec<u8>) -> Result<()> {
        let limit = want.clamp(1, CHUNK_BYTES);
        let start = out.len();
        while out.len() - start < limit {
            self.cipher.encrypt_blocks(&mut self.reg)?;
            if self.s == self.n {
                out.extend_from_slice(&self.reg);
            } else {
                for y in self.reg.chunks_exact(self.n) {
                    out.extend_from_slice(&y[..self.s]);
                }
            }
        }
        Ok(())
    }
}

/// GOST R 34.13 OFB (encryption = decryption), in place on any split.
pub struct Ofb {
    x: XorStream<OfbGen>,
}

impl Ofb {
    /// The keyed cipher (for the many-messages OFB).
    pub(crate) fn into_cipher(self) -> Cipher {
        self.x.gen.cipher
    }
}

impl Ofb {
    /// iv = the m-bit register, m = z·n; `--s` (default n).
    pub fn new(req: &Request<'_>) -> Result<Ofb> {
        params::expect(req, "Ofb", &[Mode::Ofb], GOST_R)?;
        params::only(req, &[P::Iv, P::S, P::M])?;
        let n = req.cipher.block_bytes();
        let reg = Zeroizing::new(params::register(req, n, true)?.to_vec());
        let s = params::bits(req, "--s", req.params.s, 8 * n, 8, 8 * n)?;
        let cipher = req.keyed()?;
        Ok(Ofb { x: XorStream::new(OfbGen { cipher, reg, n, s }) })
    }

    super::stream::keystream_methods!();
}

// ---------------------------------------------------------------- CBC --

/// GOST R 34.13 CBC (§4.4): C_i = E(P_i ⊕ MSB_n(R_i)), R_{i+1} =
/// LSB_{m-n}(R_i) || C_i, m = z·n. Whole blocks: a `--padding` (procedure
/// 1, 2 or 3, or PKCS#7) makes them. Streaming returns output as it goes
/// (decryption holds back the last block for the padding).
pub struct Cbc {
    cipher: Cipher,
    dir: Direction,
    padding: Padding,
    n: usize,
    reg: Zeroizing<Vec<u8>>,
    pending: Zeroizing<Vec<u8>>,
}

impl Cbc {
    /// iv = the m-bit register, m = z·n; `--padding` (default none: the data
    /// must be whole blocks).
    pub fn new(req: &Request<'_>, dir: Direction) -> Result<Cbc> {
        params::expect(req, "Cbc", &[Mode::Cbc], GOST_R)?;
        params::only(req, &[P::Iv, P::M, P::Padding])?;
        let n = req.cipher.block_bytes();
        let reg = Zeroizing::new(params::register(req, n, true)?.to_vec());
        let cipher = req.keyed()?;
        Ok(Cbc { cipher, dir, padding: req.params.padding, n, reg, pending: Zeroizing::new(Vec::new()) })
    }

    /// The keyed cipher (for the parallel CBC).
    pub(crate) fn into_cipher(self) -> Cipher {
        self.cipher
    }

    /// Takes the next input bytes; returns the output they complete.
    pub fn update(&mut self, input: &[u8]) -> Result<Vec<u8>> {
        let ready = |len: usize| match self.dir {
            Direction::Encrypt => len - len % self.n,
            // Keep at least one byte (the last block) for `finalize`.
            Direction::Decrypt => len.saturating_sub(1) / self.n * self.n,
        };
        let now = if self.pending.is_empty() {
            let k = ready(input.len());
            self.pending.extend_from_slice(&input[k..]);
            input[..k].to_vec()
        } else {
            self.pending.extend_from_slice(input);
            let k = ready(self.pending.len());
            self.pending.drain(..k).collect()
        };
        self.blocks(now)
    }

    /// Pads (encryption) or checks and removes the padding (decryption).
    pub fn finalize(mut self) -> Result<Vec<u8>> {
        let n = self.n;
        let tail = std::mem::take(&mut *self.pending);
        match self.dir {
            Direction::Encrypt => {
                let padded = self.padding.pad(&tail, n);
                if !padded.len().is_multiple_of(n) {
                    return Err(self.length_error(tail.len()));
                }
                self.blocks(padded)
            }
            Direction::Decrypt => {
                if !tail.len().is_multiple_of(n) {
                    return Err(self.length_error(tail.len()));
                }
                let last = self.blocks(tail)?;
                self.padding.unpad(last, n)
            }
        }
    }

    fn length_error(&self, tail: usize) -> Error {
        let hint = match self.dir {
            Direction::Encrypt => "; add a --padding (gost1, gost2, gost3 or pkcs7)",
            Direction::Decrypt => "",
        };
        Error::Param(format!(
            "{} cbc needs whole {}-byte blocks, got {} past the last whole block{hint}",
            self.cipher.id(),
            self.n,
            Bytes(tail as u64)
        ))
    }

    /// Runs whole blocks through the chains.
    fn blocks(&mut self, mut data: Vec<u8>) -> Result<Vec<u8>> {
        let m = self.reg.len();
        match self.dir {
            Direction::Encrypt => {
                // z chains: the next z blocks depend only on the register.
                for group in data.chunks_mut(m) {
                    xor_in(group, &self.reg);
                    self.cipher.encrypt_blocks(group)?;
                    shift_in(&mut self.reg, group);
                }
            }
            Direction::Decrypt => {
                // P_i = D(C_i) ⊕ V_i with V = R_1 || C: no chain, so whole
                // chunks are decrypted at once; `ct` keeps the chunk's
                // ciphertext, `reg` the m bytes of V before it.
                let mut ct = Zeroizing::new(Vec::with_capacity(CHUNK_BYTES));
                for chunk in data.chunks_mut(CHUNK_BYTES) {
                    ct.clear();
                    ct.extend_from_slice(chunk);
                    self.cipher.decrypt_blocks(chunk)?;
                    // Byte j of the chunk takes V's byte j: the register for
                    // the first m bytes, then the chunk's own ciphertext m
                    // bytes back (two flat XORs, no per-block indexing).
                    let head = m.min(chunk.len());
                    let (first, rest) = chunk.split_at_mut(head);
                    xor_in(first, &self.reg[..head]);
                    xor_in(rest, &ct[..rest.len()]);
                    shift_in(&mut self.reg, &ct);
                }
            }
        }
        Ok(data)
    }
}

// ---------------------------------------------------------------- CFB --

/// GOST R 34.13 CFB (§4.5) and GOST 28147-89 CFB (RFC 5830 §7, "gamma with
/// feedback", optionally with RFC 4357 key meshing), in place on any split.
///
/// γ_i = MSB_s(E(MSB_n(R_i))), C_i = P_i ⊕ γ_i, R_{i+1} = LSB_{m-s}(R_i) || C_i:
/// the cipher input of step i is bytes i·s .. i·s+n of V = IV || C. When
/// encrypting, the next ⌊(m−n)/s⌋+1 inputs are already in the register and
/// go to the cipher together; when decrypting, all of V is known and the
/// inputs go 8 KiB (`CHUNK_BYTES`) at a time.
pub struct Cfb {
    cipher: Cipher,
    rekey: Rekey,
    dir: Direction,
    n: usize,
    s: usize,
    /// R: the last m bytes of V that are not in `fed`.
    reg: Zeroizing<Vec<u8>>,
    /// γ of the segments computed from `reg`, and how much of it is used.
    gamma: Zeroizing<Vec<u8>>,
    used: usize,
    /// Ciphertext of the used segments, not yet shifted into `reg`.
    fed: Vec<u8>,
    scratch: Zeroizing<Vec<u8>>,
    /// gost89 with key meshing: segments since the key last changed.
    meshing: Option<usize>,
}

impl Cfb {
    /// Kuznyechik/Magma: iv = the m-bit register (m ≥ n), `--s` (default n).
    /// gost89: iv = 8 bytes, s = m = 64, `--key-meshing` (RFC 4357 §2.3).
    pub fn new(req: &Request<'_>, dir: Direction) -> Result<Cfb> {
        params::expect(req, "Cfb", &[Mode::Cfb], &[Family::Kuznyechik, Family::Magma, Family::Gost89])?;
        let n = req.cipher.block_bytes();
        let (reg, s, meshing) = if req.cipher.family() == Family::Gost89 {
            params::only(req, &[P::Iv, P::S, P::M, P::KeyMeshing])?;
            let iv = params::register(req, 8, true)?;
            params::iv_exact(req, 8, "the 64-bit register of GOST 28147-89 CFB")?;
            let s = params::bits(req, "--s", req.params.s, 64, 64, 64)?;
            (iv, s, req.params.key_meshing.then_some(0))
        } else {
            params::only(req, &[P::Iv, P::S, P::M])?;
            let iv = params::register(req, n, false)?;
            (iv, params::bits(req, "--s", req.params.s, 8 * n, 8, 8 * n)?, None)
        };
        let (rekey, cipher) = Rekey::new(req)?;
        Ok(Cfb {
            cipher,
            rekey,
            dir,
            n,
            s,
            reg: Zeroizing::new(reg.to_vec()),
            gamma: Zeroizing::new(Vec::new()),
            used: 0,
            fed: Vec::new(),
            scratch: Zeroizing::new(Vec::new()),
            meshing,
        })
    }

    /// The keyed cipher (for the parallel CFB decryption).
    pub(crate) fn into_cipher(self) -> Cipher {
        self.cipher
    }

    /// Encrypts or decrypts (as made) the next `data.len()` bytes in place.
    pub fn update(&mut self, data: &mut [u8]) -> Result<()> {
        let mut off = 0;
        while off < data.len() {
            if self.used == self.gamma.len() {
                self.refill(&data[off..])?;
            }
            let k = (data.len() - off).min(self.gamma.len() - self.used);
            let d = &mut data[off..off + k];
            let g = &self.gamma[self.used..self.used + k];
            match self.dir {
                Direction::Encrypt => {
                    xor_in(d, g);
                    self.fed.extend_from_slice(d);
                }
                Direction::Decrypt => {
                    self.fed.extend_from_slice(d);
                    xor_in(d, g);
                }
            }
            self.used += k;
            off += k;
        }
        Ok(())
    }

    /// Ends the stream (nothing is held back).
    pub fn finalize(self) {}

    /// Computes γ for the next segments; `rest` is the data still to come
    /// in this call (ciphertext when decrypting).
    fn refill(&mut self, rest: &[u8]) -> Result<()> {
        let (n, s, m) = (self.n, self.s, self.reg.len());
        shift_in(&mut self.reg, &self.fed);
        self.fed.clear();
        let wanted = rest.len().div_ceil(s).max(1);
        let mut k = match self.dir {
            Direction::Encrypt => ((m - n) / s + 1).min(wanted),
            // Input j needs V up to j·s + n − m ≤ j·s bytes of `rest`: known.
            Direction::Decrypt => wanted.min(CHUNK_BYTES / n).max(1),
        };
        if let Some(since) = self.meshing {
            let since = if since == gost28147::MESH_BLOCKS {
                // RFC 4357 §2.3.2: K' = D_K(C), then the register is
                // encrypted under K' before it gives the next γ.
                self.cipher = gost28147::mesh_key(&self.cipher, &self.rekey)?;
                self.cipher.encrypt_blocks(&mut self.reg)?;
                0
            } else {
                since
            };
            k = k.min(gost28147::MESH_BLOCKS - since);
            self.meshing = Some(since + k);
        }
        self.scratch.resize(k * n, 0);
        let src: &[u8] = match self.dir {
            Direction::Encrypt => &[],
            Direction::Decrypt => rest,
        };
        if s == n {
            // The inputs are V[0 .. k·n] in one piece, and γ = the outputs.
            copy_concat(&self.reg, src, 0, &mut self.scratch);
            self.cipher.encrypt_blocks(&mut self.scratch)?;
            std::mem::swap(&mut self.gamma, &mut self.scratch);
        } else {
            for (j, input) in self.scratch.chunks_exact_mut(n).enumerate() {
                copy_concat(&self.reg, src, j * s, input);
            }
            self.cipher.encrypt_blocks(&mut self.scratch)?;
            self.gamma.clear();
            for y in self.scratch.chunks_exact(n) {
                self.gamma.extend_from_slice(&y[..s]);
            }
        }
        self.used = 0;
        Ok(())
    }
}
