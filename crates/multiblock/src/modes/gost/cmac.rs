//! GOST R 34.13-2015 §4.6 MAC (= OMAC1 / CMAC) for Kuznyechik and Magma,
//! and the CBC-MAC chain that RFC 8645 OMAC-ACPKM shares with it.
//!
//! R = E_K(0^n); K1 = R·x, K2 = K1·x in GF(2^n) with B_128 = 0x87,
//! B_64 = 0x1b; the last block is P_q ⊕ K1 if whole, else
//! (P_q || 1 0…0) ⊕ K2 (padding procedure 3); MAC = MSB_s(E(C_{q−1} ⊕ …)).
//!
//! RustCrypto's `cmac` computes the same MAC (the tests check it), but it
//! needs a cipher type fixed at compile time, and OMAC-ACPKM needs the
//! chain with keys that change per section; one small chain serves both.
//! A CBC-MAC is serial, so blocks go to the cipher one at a time.

use super::params::{self, P};
use super::stream::xor_in;
use crate::error::Result;
use crate::modes::{Mode, Padding, Request};
use crate::{Cipher, Family};
use zeroize::{Zeroize, Zeroizing};

/// `b·x` in GF(2^n) for the n-byte big-endian `b` (n = 16: x^128 + x^7 +
/// x^2 + x + 1; n = 8: x^64 + x^4 + x^3 + x + 1), in constant time.
pub(crate) fn mul_x(b: &[u8]) -> Vec<u8> {
    let n = b.len();
    let poly: u8 = if n == 16 { 0x87 } else { 0x1b };
    let carry = b[0] >> 7;
    let mut out = vec![0u8; n];
    for i in 0..n {
        let next = if i + 1 < n { b[i + 1] >> 7 } else { 0 };
        out[i] = (b[i] << 1) | next;
    }
    out[n - 1] ^= poly & carry.wrapping_neg();
    out
}

/// A CBC-MAC chain that holds back the last (possibly whole) block.
pub(crate) struct State {
    cipher: Cipher,
    n: usize,
    chain: Zeroizing<Vec<u8>>,
    last: Zeroizing<[u8; 16]>,
    last_len: usize,
    blocks: usize,
}

/// Called before block `i` (0-based) enters the chain; may return the
/// cipher to use from there on.
pub(crate) type Hook<'a> = &'a mut dyn FnMut(usize) -> Result<Option<Cipher>>;

impl State {
    pub(crate) fn new(cipher: Cipher) -> State {
        let n = cipher.block_bytes();
        State { cipher, n, chain: Zeroizing::new(vec![0; n]), last: Zeroizing::new([0; 16]), last_len: 0, blocks: 0 }
    }

    /// Blocks absorbed so far (the held-back block not counted).
    pub(crate) fn blocks(&self) -> usize {
        self.blocks
    }

    /// The cipher the next block would go through (the many-streams MAC
    /// takes it over).
    pub(crate) fn into_cipher(self) -> Cipher {
        self.cipher
    }

    pub(crate) fn set_cipher(&mut self, cipher: Cipher) {
        self.cipher = cipher;
    }

    fn absorb(&mut self, block: &[u8], hook: Hook<'_>) -> Result<()> {
        if let Some(c) = hook(self.blocks)? {
            self.cipher = c;
        }
        xor_in(&mut self.chain, block);
        self.cipher.encrypt_blocks(&mut self.chain)?;
        self.blocks += 1;
        Ok(())
    }

    pub(crate) fn update(&mut self, mut data: &[u8], hook: Hook<'_>) -> Result<()> {
        let n = self.n;
        while !data.is_empty() {
            if self.last_len == n {
                // More data follows, so the held-back block is not the last.
                let block = *self.last;
                self.last_len = 0;
                self.absorb(&block[..n], hook)?;
            } else if self.last_len == 0 && data.len() > n {
                let whole = (data.len() - 1) / n * n;
                for block in data[..whole].chunks_exact(n) {
                    self.absorb(block, hook)?;
                }
                data = &data[whole..];
            } else {
                let k = (n - self.last_len).min(data.len());
                self.last[self.last_len..self.last_len + k].copy_from_slice(&data[..k]);
                self.last_len += k;
                data = &data[k..];
            }
        }
        Ok(())
    }

    /// The last step with subkeys K1 (whole last block) and K2 (padded).
    pub(crate) fn finish(&mut self, k1: &[u8], k2: &[u8]) -> Result<Vec<u8>> {
        let n = self.n;
        let mut x = Zeroizing::new(self.last[..n].to_vec());
        if self.last_len == n {
            xor_in(&mut x, k1);
        } else {
            x[self.last_len] = 0x80;
            x[self.last_len + 1..].fill(0);
            xor_in(&mut x, k2);
        }
        xor_in(&mut self.chain, &x);
        self.cipher.encrypt_blocks(&mut self.chain)?;
        self.last.zeroize();
        Ok(self.chain.to_vec())
    }
}

/// GOST R 34.13 MAC: `update` with the message in pieces, `finalize`.
pub struct Cmac {
    state: State,
    k1: Zeroizing<Vec<u8>>,
    k2: Zeroizing<Vec<u8>>,
    mac_bytes: usize,
}

impl Cmac {
    /// `--mac-bits` s (default n: the standard leaves s to the user, its
    /// examples use n/2); no IV; the MAC pads by itself (procedure 3).
    pub fn new(req: &Request<'_>) -> Result<Cmac> {
        params::expect(req, "Cmac", &[Mode::Mac], &[Family::Kuznyechik, Family::Magma])?;
        params::only(req, &[P::MacBits, P::Padding])?;
        if req.params.padding != Padding::Gost3 && req.params.padding != Padding::None {
            return Err(crate::Error::Param(format!(
                "{} mac pads with procedure 3 by itself: --padding must be none or gost3",
                req.cipher
            )));
        }
        let n = req.cipher.block_bytes();
        let mac_bytes = params::bits(req, "--mac-bits", req.params.mac_bits, 8 * n, 8, 8 * n)?;
        let cipher = req.keyed()?;
        let mut r = Zeroizing::new(vec![0u8; n]);
        cipher.encrypt_blocks(&mut r)?;
        let k1 = Zeroizing::new(mul_x(&r));
        let k2 = Zeroizing::new(mul_x(&k1));
        Ok(Cmac { state: State::new(cipher), k1, k2, mac_bytes })
    }

    /// The keyed cipher, K1, K2 and the MAC length (for the many-streams MAC).
    pub(crate) fn into_parts(self) -> (Cipher, Zeroizing<Vec<u8>>, Zeroizing<Vec<u8>>, usize) {
        (self.state.into_cipher(), self.k1, self.k2, self.mac_bytes)
    }

    /// Absorbs the next piece of the message (any length).
    pub fn update(&mut self, data: &[u8]) -> Result<()> {
        self.state.update(data, &mut |_| Ok(None))
    }

    /// The MAC, `--mac-bits` long.
    pub fn finalize(mut self) -> Result<Vec<u8>> {
        let mut mac = self.state.finish(&self.k1, &self.k2)?;
        mac.truncate(self.mac_bytes);
        Ok(mac)
    }
}
