//! Keying the same cipher again under a derived key (ACPKM sections,
//! ACPKM-Master, CryptoPro key meshing), on the backend the first key got:
//! a request that named a backend names it again; one that left the choice
//! to the library leaves it again, so the new key keeps the size-aware
//! dispatch (a short ACPKM section or a one-block MAC step goes to the
//! narrow tier, as under the first key) and resolves to the same backends.

use crate::backend::BackendChoice;
use crate::error::Result;
use crate::magma::SboxSet;
use crate::modes::Request;
use crate::{Cipher, CipherId};
use zeroize::Zeroizing;

/// The key bytes of Kuznyechik and Magma (k = 256).
pub(crate) const KEY_BYTES: usize = 32;

/// Default CTR-ACPKM section N (and ACPKM-Master T*) for block size `n`.
pub(crate) fn default_section(n: usize) -> usize {
    if n == 16 {
        4096
    } else {
        1024
    }
}

/// The ACPKM transform: the cipher under ACPKM(K).
pub(crate) fn next_key(cipher: &Cipher, rekey: &Rekey) -> Result<Cipher> {
    let mut d = Zeroizing::new([0u8; KEY_BYTES]);
    for (i, b) in d.iter_mut().enumerate() {
        *b = 0x80 + i as u8;
    }
    cipher.encrypt_blocks(&mut d[..])?;
    rekey.key(&d[..])
}

/// Cipher, S-box and backend of a request, without the request's lifetime.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rekey {
    id: CipherId,
    sbox: Option<&'static str>,
    backend: &'static str,
    /// The request left the choice to the library (`BackendChoice::Auto`).
    auto: bool,
}

impl Rekey {
    /// Keys the request's cipher and remembers how to key it again.
    pub(crate) fn new(req: &Request<'_>) -> Result<(Rekey, Cipher)> {
        let cipher = req.keyed()?;
        let sbox = match req.sbox {
            Some(name) => Some(SboxSet::from_name(name)?.name()),
            None => None,
        };
        let auto = req.backend == BackendChoice::Auto;
        Ok((Rekey { id: req.cipher, sbox, backend: cipher.backend().name, auto }, cipher))
    }

    /// The same cipher under `key` (as many bytes as the cipher's key).
    pub(crate) fn key(&self, key: &[u8]) -> Result<Cipher> {
        let choice = if self.auto { BackendChoice::Auto } else { BackendChoice::Named(self.backend) };
        Cipher::with_id(self.id, key, self.sbox, choice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modes::{Mode, Params};

    fn request(backend: BackendChoice<'_>) -> Request<'_> {
        Request { cipher: CipherId::Magma, mode: Mode::Ctr, key: &[7; 32], sbox: None, backend, params: Params::default() }
    }

    /// A new section key runs on the backend the first key had.
    #[test]
    fn rekeying_keeps_the_backend() {
        let names = |c: &Cipher| c.backend().name;
        for choice in [BackendChoice::Auto, BackendChoice::Named("reference")] {
            let req = request(choice);
            let (rekey, first) = Rekey::new(&req).unwrap();
            let again = rekey.key(&[9; 32]).unwrap();
            assert_eq!(names(&again), names(&first), "{choice:?}");
        }
    }
}
