//! RFC 8645 (R 1323565.1.017-2018) internal re-keying for Kuznyechik and
//! Magma: the ACPKM key transform, ACPKM-Master and OMAC-ACPKM.
//! (CTR-ACPKM is [`Ctr`](super::Ctr) with a section size.)
//!
//! - ACPKM(K) = MSB_k(E_K(D_1) || … || E_K(D_J)), D = 80 81 … 9f (§6.1);
//! - ACPKM-Master(T*, N, K, l) = CTR-ACPKM keystream over zeros with key K,
//!   section size T* and IV = 1^{n/2}, cut into key material K^i || K1^i of
//!   k + n bits (§6.2.3);
//! - OMAC-ACPKM (§6.2.3): CMAC whose i-th N-byte section of the message is
//!   processed under K^i; the last block uses the K1 of its section (and
//!   K2 = K1·x), not E(0). The CBC chain runs on across sections.
//!
//! Defaults (the RFC sets none): N = T* = 4096 bytes for Kuznyechik and
//! 1024 for Magma in CTR-ACPKM and as T*; N = 4096 for OMAC-ACPKM, as
//! gost-engine does.

use super::cmac::{mul_x, State};
use super::gost3413::CtrGen;
use super::params::{self, P};
use super::rekey::{default_section, Rekey, KEY_BYTES};
use super::stream::XorStream;
use crate::error::Result;
use crate::modes::{Mode, Request};
use crate::{Cipher, Family};
use zeroize::Zeroizing;

/// Default OMAC-ACPKM section N.
const OMAC_DEFAULT_SECTION: usize = 4096;

/// K^i || K1^i: the next k + n bytes of ACPKM-Master.
pub(crate) fn material(master: &mut XorStream<CtrGen>, n: usize) -> Result<Zeroizing<Vec<u8>>> {
    let mut m = Zeroizing::new(vec![0u8; KEY_BYTES + n]);
    master.apply(&mut m)?;
    Ok(m)
}

/// RFC 8645 OMAC-ACPKM: `update` with the message in pieces, `finalize`
/// for the MAC.
pub struct OmacAcpkm {
    master: XorStream<CtrGen>,
    rekey: Rekey,
    state: State,
    /// K1 of the current section.
    k1: Zeroizing<Vec<u8>>,
    section_blocks: usize,
    mac_bytes: usize,
}

impl OmacAcpkm {
    /// `--section-bytes` N, `--key-section-bytes` T* (both multiples of n),
    /// `--mac-bits` (default n).
    pub fn new(req: &Request<'_>) -> Result<OmacAcpkm> {
        params::expect(req, "OmacAcpkm", &[Mode::OmacAcpkm], &[Family::Kuznyechik, Family::Magma])?;
        params::only(req, &[P::MacBits, P::Section, P::KeySection])?;
        let n = req.cipher.block_bytes();
        let p = &req.params;
        let section = params::section(req, "--section-bytes", p.section_bytes, OMAC_DEFAULT_SECTION, n)?;
        let key_section = params::section(req, "--key-section-bytes", p.key_section_bytes, default_section(n), n)?;
        let mac_bytes = params::bits(req, "--mac-bits", p.mac_bits, 8 * n, 8, 8 * n)?;
        let (rekey, cipher) = Rekey::new(req)?;
        let iv = vec![0xff; n / 2];
        let mut master = XorStream::new(CtrGen::new(cipher, rekey, &iv, n, Some(key_section)));
        let first = material(&mut master, n)?;
        let state = State::new(rekey.key(&first[..KEY_BYTES])?);
        let k1 = Zeroizing::new(first[KEY_BYTES..].to_vec());
        Ok(OmacAcpkm { master, rekey, state, k1, section_blocks: section / n, mac_bytes })
    }

    /// The parts the many-streams MAC runs on: the ACPKM-Master stream and
    /// how to key a section, section 0's cipher and K1, blocks per section
    /// and the MAC length.
    pub(crate) fn into_parts(self) -> (XorStream<CtrGen>, Rekey, Cipher, Zeroizing<Vec<u8>>, usize, usize) {
        (self.master, self.rekey, self.state.into_cipher(), self.k1, self.section_blocks, self.mac_bytes)
    }

    /// Absorbs the next piece of the message (any length).
    pub fn update(&mut self, data: &[u8]) -> Result<()> {
        let (master, rekey, k1, per) = (&mut self.master, &self.rekey, &mut self.k1, self.section_blocks);
        self.state.update(data, &mut |i| next_section(master, rekey, k1, per, i))
    }

    /// The MAC, `--mac-bits` long.
    pub fn finalize(mut self) -> Result<Vec<u8>> {
        let i = self.state.blocks();
        if let Some(c) = next_section(&mut self.master, &self.rekey, &mut self.k1, self.section_blocks, i)? {
            self.state.set_cipher(c);
        }
        let k2 = Zeroizing::new(mul_x(&self.k1));
        let mut mac = self.state.finish(&self.k1, &k2)?;
        mac.truncate(self.mac_bytes);
        Ok(mac)
    }
}

/// Before block `i`: if it starts a new section, the cipher under the next
/// K^i (and `k1` = K1^i).
fn next_section(
    master: &mut XorStream<CtrGen>,
    rekey: &Rekey,
    k1: &mut Zeroizing<Vec<u8>>,
    per_section: usize,
    i: usize,
) -> Result<Option<Cipher>> {
    if i == 0 || !i.is_multiple_of(per_section) {
        return Ok(None);
    }
    let n = k1.len();
    let m = material(master, n)?;
    k1.copy_from_slice(&m[KEY_BYTES..]);
    Ok(Some(rekey.key(&m[..KEY_BYTES])?))
}
