//! HMAC (RFC 2104) over a hash chosen at run time, by the RustCrypto `hmac`
//! crate over this library's digest types.

use super::id::HashId;
use super::typed::{Kupyna256, Kupyna384, Kupyna512, Streebog256, Streebog512};
use crate::error::{Error, Result};
use digest::{KeyInit, Mac};
use hmac::SimpleHmac;

#[derive(Clone)]
enum Keyed {
    Streebog256(SimpleHmac<Streebog256>),
    Streebog512(SimpleHmac<Streebog512>),
    Kupyna256(SimpleHmac<Kupyna256>),
    Kupyna384(SimpleHmac<Kupyna384>),
    Kupyna512(SimpleHmac<Kupyna512>),
}

/// Runs `$body` with `$mac` bound to the keyed HMAC, whatever its hash.
macro_rules! each {
    ($keyed:expr, $mac:ident => $body:expr) => {
        match $keyed {
            Keyed::Streebog256($mac) => $body,
            Keyed::Streebog512($mac) => $body,
            Keyed::Kupyna256($mac) => $body,
            Keyed::Kupyna384($mac) => $body,
            Keyed::Kupyna512($mac) => $body,
        }
    };
}

/// HMAC (RFC 2104) over one of [`HashId::NAMED`]; over Streebog it is
/// HMAC_GOSTR3411_2012_256 / _512 of RFC 7836 §4.1. Keys of any length
/// (longer than a block are hashed first, as RFC 2104 says). The state is
/// wiped when dropped.
///
/// ```
/// use multiblock::hash::{HashId, Hmac};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// // RFC 7836 §A.1.1: HMAC_GOSTR3411_2012_256.
/// let key = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
/// let mut mac = Hmac::new(HashId::Streebog256, &key)?;
/// mac.update(&hex("0126bdb87800af214341456563780100"));
/// assert_eq!(mac.finalize(), hex("a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9"));
/// # Ok::<(), multiblock::Error>(())
/// ```
#[derive(Clone)]
pub struct Hmac {
    id: HashId,
    keyed: Keyed,
}

impl Hmac {
    /// HMAC over `id` under `key`; `id` must be one of [`HashId::NAMED`].
    pub fn new(id: HashId, key: &[u8]) -> Result<Hmac> {
        // The digest types key on their default backend, so the key length is the only failure.
        fn keyed<M: KeyInit>(key: &[u8]) -> M {
            M::new_from_slice(key).expect("HMAC takes keys of any length")
        }
        let keyed = match id {
            HashId::Streebog256 => Keyed::Streebog256(keyed(key)),
            HashId::Streebog512 => Keyed::Streebog512(keyed(key)),
            HashId::Kupyna { digest_bits: 256 } => Keyed::Kupyna256(keyed(key)),
            HashId::Kupyna { digest_bits: 384 } => Keyed::Kupyna384(keyed(key)),
            HashId::Kupyna { digest_bits: 512 } => Keyed::Kupyna512(keyed(key)),
            other => {
                return Err(Error::Param(format!(
                    "HMAC runs over {}, not {other}",
                    HashId::NAMES.join(", ")
                )))
            }
        };
        Ok(Hmac { id, keyed })
    }

    /// The hash it runs over.
    pub fn id(&self) -> HashId {
        self.id
    }

    /// The tag length in bytes (the hash's digest).
    pub fn tag_bytes(&self) -> usize {
        self.id.digest_bytes()
    }

    /// MACs the next piece of the message.
    pub fn update(&mut self, data: &[u8]) {
        each!(&mut self.keyed, mac => mac.update(data))
    }

    /// The tag.
    pub fn finalize(self) -> Vec<u8> {
        each!(self.keyed, mac => mac.finalize().into_bytes().to_vec())
    }

    /// Checks `tag` in constant time: `Err(Error::Authentication)` if it differs.
    pub fn verify(self, tag: &[u8]) -> Result<()> {
        each!(self.keyed, mac => mac.verify_slice(tag).map_err(|_| Error::Authentication))
    }
}

impl std::fmt::Debug for Hmac {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hmac").field("id", &self.id).finish_non_exhaustive()
    }
}
