//! Kupyna's keyed MAC (DSTU 7564:2014) as a public type.

use super::kupyna;
use crate::backend::BackendChoice;
use crate::error::{Error, Result};

/// Kupyna's MAC (DSTU 7564:2014; Oliynykov et al., "A New Standard of
/// Ukraine: The Kupyna Hash Function", IACR ePrint 2015/885), with a tag of
/// 256, 384 or 512 bits and a key of the same length.
#[derive(Clone)]
pub struct KupynaMac {
    mac: kupyna::Mac,
    tag_bytes: usize,
}

impl KupynaMac {
    /// A MAC with `tag_bits` of 256, 384 or 512 under `key` (as long as the tag).
    pub fn new(tag_bits: usize, key: &[u8]) -> Result<KupynaMac> {
        KupynaMac::with_backend(tag_bits, key, BackendChoice::Auto)
    }

    /// [`KupynaMac::new`] on a chosen backend.
    pub fn with_backend(tag_bits: usize, key: &[u8], choice: BackendChoice<'_>) -> Result<KupynaMac> {
        if !matches!(tag_bits, 256 | 384 | 512) {
            return Err(Error::Param(format!("Kupyna's MAC has tags of 256, 384 or 512 bits, not {tag_bits}")));
        }
        Ok(KupynaMac { mac: kupyna::Mac::new(tag_bits / 8, key, choice)?, tag_bytes: tag_bits / 8 })
    }

    /// The tag length in bytes.
    pub fn tag_bytes(&self) -> usize {
        self.tag_bytes
    }

    /// MACs the next piece of the message.
    pub fn update(&mut self, data: &[u8]) {
        self.mac.update(data);
    }

    /// The tag; the MAC starts over with an empty message under the same key.
    pub fn finalize_reset(&mut self) -> Vec<u8> {
        let mut out = vec![0; self.tag_bytes];
        self.mac.finalize_into_reset(&mut out);
        out
    }

    /// Checks `tag` in constant time: `Err(Error::Authentication)` if it differs.
    pub fn verify_reset(&mut self, tag: &[u8]) -> Result<()> {
        let ours = self.finalize_reset();
        if tag.len() == ours.len() && bool::from(subtle::ConstantTimeEq::ct_eq(ours.as_slice(), tag)) {
            Ok(())
        } else {
            Err(Error::Authentication)
        }
    }
}

impl std::fmt::Debug for KupynaMac {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KupynaMac").field("tag_bytes", &self.tag_bytes).finish_non_exhaustive()
    }
}
