//! OFB ("гамування зі зворотним зв'язком за шифрогамою", DSTU 7624:2014):
//! γ_0 = IV, γ_i = E_K(γ_{i−1}), C_i = P_i ⊕ γ_i; a partial last block uses
//! the leading bytes of its γ. Encryption and decryption are the same.
//!
//! Each γ needs the one before it, so OFB is sequential by construction:
//! one block per `encrypt_blocks` call.

use super::util::{encrypt_one, keyed_with_iv, xor_into};
use crate::error::Result;
use crate::modes::Request;
use crate::Cipher;
use zeroize::Zeroize;

/// Streaming OFB (Kalyna): any split of the data gives the one-shot result.
pub struct KalynaOfb {
    cipher: Cipher,
    gamma: Vec<u8>,
    /// Bytes of `gamma` already used (n = all: make the next one).
    used: usize,
}

impl KalynaOfb {
    /// Takes `--iv` (one block).
    pub fn new(req: &Request<'_>) -> Result<KalynaOfb> {
        let (cipher, iv) = keyed_with_iv(req, false, &["iv"])?;
        Ok(KalynaOfb { cipher, gamma: iv.to_vec(), used: iv.len() })
    }

    /// Encrypts or decrypts `data` in place.
    pub fn update(&mut self, data: &mut [u8]) {
        let n = self.gamma.len();
        let mut off = 0;
        while off < data.len() {
            if self.used == n {
                encrypt_one(&self.cipher, &mut self.gamma);
                self.used = 0;
            }
            let take = (n - self.used).min(data.len() - off);
            xor_into(&mut data[off..off + take], &self.gamma[self.used..self.used + take]);
            self.used += take;
            off += take;
        }
    }
}

impl Drop for KalynaOfb {
    fn drop(&mut self) {
        self.gamma.zeroize();
    }
}

pub(crate) fn apply(req: &Request<'_>, data: &[u8]) -> Result<Vec<u8>> {
    let mut out = data.to_vec();
    KalynaOfb::new(req)?.update(&mut out);
    Ok(out)
}
