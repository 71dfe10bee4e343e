//! CBC ("зчеплення шифроблоків", DSTU 7624:2014) for Kalyna, and plain CBC
//! for uBlock: C_i = E_K(P_i ⊕ C_{i−1}), C_0 = IV (one block).
//!
//! Encryption is sequential by construction. Decryption,
//! P_i = D_K(C_i) ⊕ C_{i−1}, decrypts up to [`CHUNK`] bytes per
//! `decrypt_blocks` call.
//!
//! Padding (one-shot API only): `none` needs whole blocks; `gost2` is the
//! DSTU 7624 Annex Б.2 padding (a 1 bit, i.e. 0x80, then zeros; the
//! B.6.3 example is padded this way); `pkcs7` too. `gost1`/`gost3` are
//! accepted as in ECB (not reversible: decryption keeps them).

use super::util::{directions, encrypt_one, keyed_with_iv, xor_into, CHUNK};
use crate::error::{Error, Result};
use crate::modes::Request;
use crate::Cipher;
use zeroize::Zeroize;

/// Streaming CBC over whole blocks, one direction.
pub struct Cbc {
    cipher: Cipher,
    /// C_{i−1}: the IV, then the last ciphertext block.
    prev: Vec<u8>,
    encrypt: bool,
    /// Ciphertext copy for the parallel decryption.
    scratch: Vec<u8>,
}

directions!(Cbc, "CBC", "`--iv` (one block)");

impl Cbc {
    fn new(req: &Request<'_>, encrypt: bool) -> Result<Cbc> {
        let (cipher, iv) = keyed_with_iv(req, true, &["iv", "padding"])?;
        Ok(Cbc { cipher, prev: iv.to_vec(), encrypt, scratch: Vec::new() })
    }

    /// Encrypts or decrypts whole blocks in place, continuing the chain.
    pub fn update(&mut self, data: &mut [u8]) -> Result<()> {
        let n = self.cipher.block_bytes();
        if !data.len().is_multiple_of(n) {
            return Err(Error::DataLength { cipher: self.cipher.id().name(), block_bytes: n, got: data.len() });
        }
        if self.encrypt {
            for block in data.chunks_exact_mut(n) {
                xor_into(block, &self.prev);
                encrypt_one(&self.cipher, block);
                self.prev.copy_from_slice(block);
            }
        } else {
            for chunk in data.chunks_mut(CHUNK) {
                self.scratch.clear();
                self.scratch.extend_from_slice(chunk);
                self.cipher.decrypt_blocks(chunk)?;
                xor_into(&mut chunk[..n], &self.prev);
                xor_into(&mut chunk[n..], &self.scratch[..self.scratch.len() - n]);
                self.prev.copy_from_slice(&self.scratch[self.scratch.len() - n..]);
            }
        }
        Ok(())
    }
}

impl Drop for Cbc {
    fn drop(&mut self) {
        self.scratch.zeroize();
    }
}

/// One shot: `--padding` added before encryption, checked and removed after
/// decryption.
pub(crate) fn crypt(req: &Request<'_>, data: &[u8], encrypt: bool) -> Result<Vec<u8>> {
    let mut c = Cbc::new(req, encrypt)?;
    let n = c.cipher.block_bytes();
    let mut buf = if encrypt { req.params.padding.pad(data, n) } else { data.to_vec() };
    c.update(&mut buf)?;
    if encrypt {
        Ok(buf)
    } else {
        req.params.padding.unpad(buf, n)
    }
}
