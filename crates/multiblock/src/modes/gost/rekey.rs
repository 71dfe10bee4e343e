//! Keying the same cipher again under a derived key (ACPKM sections,
//! ACPKM-Master, CryptoPro key meshing), on the backend the first key got.

use crate::cpu::BackendChoice;
use crate::error::Result;
use crate::magma::SboxSet;
use crate::modes::Request;
use crate::{Cipher, CipherId};

/// Cipher, S-box and backend of a request, without the request's lifetime.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rekey {
    id: CipherId,
    sbox: Option<&'static str>,
    backend: &'static str,
}

impl Rekey {
    /// Keys the request's cipher and remembers how to key it again.
    pub(crate) fn new(req: &Request<'_>) -> Result<(Rekey, Cipher)> {
        let cipher = req.keyed()?;
        let sbox = match req.sbox {
            Some(name) => Some(SboxSet::from_name(name)?.name()),
            None => None,
        };
        Ok((Rekey { id: req.cipher, sbox, backend: cipher.backend().name }, cipher))
    }

    /// The same cipher under `key` (as many bytes as the cipher's key).
    pub(crate) fn key(&self, key: &[u8]) -> Result<Cipher> {
        Cipher::with_id(self.id, key, self.sbox, BackendChoice::Named(self.backend))
    }
}
