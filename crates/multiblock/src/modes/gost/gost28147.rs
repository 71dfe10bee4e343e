//! GOST 28147-89 modes for `gost89` (RFC 5830, with the little-endian words
//! of gost-engine and the other libraries): CNT ("gamma", §6), CFB ("gamma with
//! feedback", §7, in [`Cfb`](super::Cfb)) and the MAC "imitovstavka" (§8),
//! with RFC 4357 §2.3.2 CryptoPro key meshing as an option.
//!
//! - CNT: S = E_K(IV) = (N3, N4); per block N3 += C2 = 0x01010101 mod 2^32,
//!   N4 += C1 = 0x01010104 mod 2^32 − 1 (as gost-engine and Bouncy Castle:
//!   add, and add 1 more on a carry out of 32 bits); γ = E_K(N3, N4). The
//!   counters are known in advance, so 8 KiB (`CHUNK_BYTES`) of them go to the
//!   cipher at once.
//! - Key meshing: after every 1024 bytes (128 blocks) K' = D_K(C) with the
//!   constant C of RFC 4357 §2.3.2, and the register (CNT: (N3, N4); CFB:
//!   the last ciphertext block) is encrypted under K' before it is used.
//! - MAC: zero-pad the message to whole blocks, S = 0, S = E16_K(S ⊕ M_i)
//!   with the 16 rounds K0..K7, K0..K7 and no final swap; a message of one
//!   block gets a zero block after it (the standard takes at least two; as
//!   gost-engine and libgcrypt); the MAC is the first `--mac-bits` bits of
//!   the bytes of S (default 32). With key meshing only the key changes
//!   every 128 blocks (as gost-engine: the MAC state is not an IV). An
//!   empty message is refused: the standard has no block to start from,
//!   and gost-engine's answer (S = 0, the same for every key) is forgeable.

use super::params::{self, P};
use super::rekey::Rekey;
use super::stream::{Keystream, XorStream};
use crate::modes::buffers::CHUNK as CHUNK_BYTES;
use crate::error::Result;
use crate::modes::{Mode, Request};
use crate::{Cipher, Family};
use zeroize::{Zeroize, Zeroizing};

/// Blocks between two key meshings (1024 bytes).
pub(crate) const MESH_BLOCKS: usize = 128;

/// RFC 4357 §2.3.2: the constant C that D_K turns into the next key.
const MESH_C: [u8; 32] = [
    0x69, 0x00, 0x72, 0x22, 0x64, 0xc9, 0x04, 0x23, 0x8d, 0x3a, 0xdb, 0x96, 0x46, 0xe9, 0x2a, 0xc4, //
    0x18, 0xfe, 0xac, 0x94, 0x00, 0xed, 0x07, 0x12, 0xc0, 0x86, 0xdc, 0xc2, 0xef, 0x4c, 0xa9, 0x2b,
];

/// The next CryptoPro key: D_K(C) (four blocks of ECB decryption).
pub(crate) fn mesh_key(cipher: &Cipher, rekey: &Rekey) -> Result<Cipher> {
    rekey.key(&meshed_key_bytes(cipher)?[..])
}

fn meshed_key_bytes(cipher: &Cipher) -> Result<Zeroizing<[u8; 32]>> {
    let mut k = Zeroizing::new(MESH_C);
    cipher.decrypt_blocks(&mut k[..])?;
    Ok(k)
}

// ---------------------------------------------------------------- CNT --

const C1: u32 = 0x0101_0104;
const C2: u32 = 0x0101_0101;

struct CntGen {
    cipher: Cipher,
    rekey: Rekey,
    /// (N3, N4); `None` until the IV has been encrypted.
    reg: Option<(u32, u32)>,
    iv: [u8; 8],
    meshing: bool,
    since: usize,
}

fn load(b: &[u8]) -> (u32, u32) {
    (u32::from_le_bytes([b[0], b[1], b[2], b[3]]), u32::from_le_bytes([b[4], b[5], b[6], b[7]]))
}

fn store(b: &mut [u8], (n3, n4): (u32, u32)) {
    b[..4].copy_from_slice(&n3.to_le_bytes());
    b[4..8].copy_from_slice(&n4.to_le_bytes());
}

impl CntGen {
    fn encrypt_reg(&self, reg: (u32, u32)) -> Result<(u32, u32)> {
        let mut b = Zeroizing::new([0u8; 8]);
        store(&mut b[..], reg);
        self.cipher.encrypt_blocks(&mut b[..])?;
        Ok(load(&b[..]))
    }
}

impl Keystream for CntGen {
    fn generate(&mut self, want: usize, out: &mut Vec<u8>) -> Result<()> {
        let mut reg = match self.reg {
            Some(r) => r,
            None => self.encrypt_reg(load(&self.iv))?,
        };
        let mut blocks = want.div_ceil(8).clamp(1, CHUNK_BYTES / 8);
        if self.meshing {
            if self.since == MESH_BLOCKS {
                self.cipher = mesh_key(&self.cipher, &self.rekey)?;
                reg = self.encrypt_reg(reg)?;
                self.since = 0;
            }
            blocks = blocks.min(MESH_BLOCKS - self.since);
            self.since += blocks;
        }
        let start = out.len();
        out.resize(start + 8 * blocks, 0);
        for b in out[start..].chunks_exact_mut(8) {
            let (n3, n4) = reg;
            let (sum, carry) = n4.overflowing_add(C1);
            reg = (n3.wrapping_add(C2), sum.wrapping_add(carry as u32));
            store(b, reg);
        }
        self.reg = Some(reg);
        self.cipher.encrypt_blocks(&mut out[start..])
    }
}

impl Drop for CntGen {
    fn drop(&mut self) {
        self.iv.zeroize();
        if let Some((a, b)) = self.reg.as_mut() {
            a.zeroize();
            b.zeroize();
        }
    }
}

/// GOST 28147-89 CNT (encryption = decryption), in place on any split.
pub struct Cnt {
    x: XorStream<CntGen>,
}

impl Cnt {
    /// iv = 8 bytes; `--key-meshing` (RFC 4357 §2.3.2).
    pub fn new(req: &Request<'_>) -> Result<Cnt> {
        params::expect(req, "Cnt", &[Mode::Cnt], &[Family::Gost89])?;
        params::only(req, &[P::Iv, P::KeyMeshing])?;
        let mut iv = [0u8; 8];
        iv.copy_from_slice(params::iv_exact(req, 8, "the 64-bit synchro-message S")?);
        let (rekey, cipher) = Rekey::new(req)?;
        let gen = CntGen { cipher, rekey, reg: None, iv, meshing: req.params.key_meshing, since: 0 };
        Ok(Cnt { x: XorStream::new(gen) })
    }

    super::stream::keystream_methods!();
}

// ---------------------------------------------------------------- MAC --

/// GOST 28147-89 MAC (imitovstavka): `update` in pieces, `finalize`.
///
/// The step E16 runs on the keyed cipher's backend
/// (`Cipher::imit_steps`): the one `--backend` (or `MULTIBLOCK_BACKEND`)
/// chose, or by default the constant-time tier of one-block calls, with
/// the whole blocks of each `update` in one kernel call.
pub struct Imit {
    cipher: Cipher,
    rekey: Rekey,
    meshing: bool,
    state: [u8; 8],
    /// The last block seen (held back: it may need padding).
    last: [u8; 8],
    last_len: usize,
    blocks: usize,
    mac_bytes: usize,
}

impl Imit {
    /// `--mac-bits` (8..=64, default 32), `--key-meshing`; no IV.
    pub fn new(req: &Request<'_>) -> Result<Imit> {
        params::expect(req, "Imit", &[Mode::Mac], &[Family::Gost89])?;
        params::only(req, &[P::MacBits, P::KeyMeshing])?;
        let mac_bytes = params::bits(req, "--mac-bits", req.params.mac_bits, 32, 8, 64)?;
        let (rekey, cipher) = Rekey::new(req)?;
        Ok(Imit {
            cipher,
            rekey,
            meshing: req.params.key_meshing,
            state: [0; 8],
            last: [0; 8],
            last_len: 0,
            blocks: 0,
            mac_bytes,
        })
    }

    /// The steps for whole blocks `data`, the key meshed every
    /// [`MESH_BLOCKS`] blocks when asked (before block 128, 256, ...).
    fn absorb(&mut self, mut data: &[u8]) -> Result<()> {
        while !data.is_empty() {
            let mut n = data.len() / 8;
            if self.meshing {
                if self.blocks > 0 && self.blocks.is_multiple_of(MESH_BLOCKS) {
                    self.cipher = mesh_key(&self.cipher, &self.rekey)?;
                }
                n = n.min(MESH_BLOCKS - self.blocks % MESH_BLOCKS);
            }
            let (now, rest) = data.split_at(8 * n);
            self.cipher.imit_steps(&mut self.state, now)?;
            self.blocks += n;
            data = rest;
        }
        Ok(())
    }

    /// Absorbs the held-back block: more data follows it.
    fn absorb_last(&mut self) -> Result<()> {
        let block = self.last;
        self.last_len = 0;
        self.absorb(&block)
    }

    /// Absorbs the next piece of the message (any length).
    pub fn update(&mut self, mut data: &[u8]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        if self.last_len == 8 {
            self.absorb_last()?;
        }
        let take = (8 - self.last_len).min(data.len());
        self.last[self.last_len..self.last_len + take].copy_from_slice(&data[..take]);
        self.last_len += take;
        data = &data[take..];
        if data.is_empty() {
            return Ok(());
        }
        self.absorb_last()?;
        // Every whole block but the last byte's (it may be the message's end).
        let keep = (data.len() - 1) % 8 + 1;
        let (whole, tail) = data.split_at(data.len() - keep);
        self.absorb(whole)?;
        self.last[..keep].copy_from_slice(tail);
        self.last_len = keep;
        Ok(())
    }

    /// The MAC, `--mac-bits` long; an empty message is refused.
    pub fn finalize(mut self) -> Result<Vec<u8>> {
        if self.blocks == 0 && self.last_len == 0 {
            return Err(crate::Error::Param(
                "gost89 mac of an empty message is refused: GOST 28147-89 §5 (RFC 5830 §8) defines the MAC \
                 over one or more data blocks, and with none it would be the all-zero initial state for every \
                 key (gost-engine returns that), a tag anyone can forge"
                    .into(),
            ));
        }
        if self.last_len > 0 {
            self.last[self.last_len..].fill(0);
            self.last_len = 8;
            self.absorb_last()?;
            if self.blocks == 1 {
                self.absorb(&[0; 8])?;
            }
        }
        Ok(self.state[..self.mac_bytes].to_vec())
    }
}

impl Drop for Imit {
    fn drop(&mut self) {
        self.state.zeroize();
        self.last.zeroize();
    }
}

#[cfg(test)]
mod tests {
    //! The MAC through every backend (forced, and the default) against
    //! RFC 5830 §8 written out here with the S-box table (the oracle).
    use super::*;
    use crate::backend::BackendChoice;
    use crate::magma::SboxSet;
    use crate::modes::Params;
    use crate::test_rng::Rng;
    use crate::CipherId;

    /// RFC 5830 §8 as written: zero padding, a lone block followed by a
    /// zero block, E16 = 16 rounds K0..K7 twice, each swapping the halves.
    fn oracle(key: &[u8], set: SboxSet, meshing: bool, msg: &[u8], mac_bytes: usize) -> Vec<u8> {
        let s = set.table();
        let g = |x: u32| -> u32 {
            let y: u32 = (0..8).map(|i| u32::from(s[i][((x >> (4 * i)) & 15) as usize]) << (4 * i)).sum();
            y.rotate_left(11)
        };
        let mut padded = msg.to_vec();
        padded.resize(msg.len().div_ceil(8).max(2) * 8, 0);
        let mut key = key.to_vec();
        let (mut n1, mut n2) = (0u32, 0u32);
        for (i, block) in padded.chunks_exact(8).enumerate() {
            if meshing && i > 0 && i % MESH_BLOCKS == 0 {
                let c = Cipher::with_id(CipherId::Gost89, &key, Some(set.name()), BackendChoice::Named("reference"));
                key = meshed_key_bytes(&c.unwrap()).unwrap().to_vec();
            }
            let k: Vec<u32> = key.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
            let (m1, m2) = load(block);
            (n1, n2) = (n1 ^ m1, n2 ^ m2);
            for r in 0..16 {
                (n1, n2) = (n2 ^ g(n1.wrapping_add(k[r % 8])), n1);
            }
        }
        let mut out = [0u8; 8];
        store(&mut out, (n1, n2));
        out[..mac_bytes].to_vec()
    }

    /// Every backend this CPU runs, forced, and the default: 1..=300 bytes
    /// (and a few past a key meshing), with and without key meshing, every
    /// S-box set, in one piece and in two.
    #[test]
    fn every_backend_matches_rfc_5830() {
        let mut rng = Rng(0x5830);
        let mut names: Vec<&str> =
            crate::backends("gost89").unwrap().into_iter().filter(|b| b.available).map(|b| b.info.name).collect();
        names.push("auto");
        let lens: Vec<usize> = (1..=300).chain([1023, 1024, 1025, 2048, 2056, 3000]).collect();
        for name in names {
            let choice = if name == "auto" { BackendChoice::Auto } else { BackendChoice::Named(name) };
            for (i, set) in SboxSet::ALL.into_iter().enumerate() {
                for meshing in [false, true] {
                    let key = rng.bytes(32);
                    let mac_bits = [32, 64, 8][i % 3];
                    let req = Request {
                        cipher: CipherId::Gost89,
                        mode: Mode::Mac,
                        key: &key,
                        sbox: Some(set.name()),
                        backend: choice,
                        params: Params { key_meshing: meshing, mac_bits: Some(mac_bits), ..Params::default() },
                    };
                    for &len in &lens {
                        let msg = rng.bytes(len);
                        let want = oracle(&key, set, meshing, &msg, mac_bits / 8);
                        let what = format!("{name} {} meshing {meshing} len {len}", set.name());
                        assert_eq!(crate::modes::mac(&req, &msg).unwrap(), want, "{what}");
                        let cut = rng.next() as usize % (len + 1);
                        let mut m = Imit::new(&req).unwrap();
                        m.update(&msg[..cut]).unwrap();
                        m.update(&msg[cut..]).unwrap();
                        assert_eq!(m.finalize().unwrap(), want, "{what} cut {cut}");
                    }
                }
            }
        }
    }
}
