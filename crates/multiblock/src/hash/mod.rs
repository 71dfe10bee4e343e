//! The national hash functions: Streebog (GOST R 34.11-2012, RFC 6986) and
//! Kupyna (DSTU 7564:2014), constant-time on every backend, with Kupyna's
//! keyed MAC, and HMAC over each. The key derivations over Streebog are in
//! [`crate::kdf`].
//!
//! | task | use |
//! |---|---|
//! | a whole message, one call | [`digest()`] |
//! | a message in pieces, a hash chosen at run time | [`Hasher`] |
//! | the RustCrypto `Digest` traits (and HMAC, …) | [`Streebog256`], [`Streebog512`], [`Kupyna256`], [`Kupyna384`], [`Kupyna512`] |
//! | many independent messages at once (in the SIMD lanes) | [`digest_many`] |
//! | HMAC over any of them (RFC 2104; RFC 7836 §4.1 over Streebog) | [`Hmac`] |
//! | Kupyna's MAC | [`KupynaMac`] |
//! | which backends run here | [`backends`] |
//!
//! ```
//! use multiblock::hash::{self, HashId};
//! let one = hash::digest(HashId::Kupyna { digest_bits: 256 }, b"abc")?;
//! let many = hash::digest_many(HashId::Kupyna { digest_bits: 256 }, &[b"abc", b"", b"abcd"])?;
//! assert_eq!(many[0], one);
//! # Ok::<(), multiblock::Error>(())
//! ```

mod buffer;
mod hasher;
mod hmac;
mod id;
mod kupyna;
mod mac;
mod streebog;
mod typed;

pub use hasher::Hasher;
pub use hmac::Hmac;
pub use id::HashId;
pub use mac::KupynaMac;
pub use typed::{Kupyna256, Kupyna384, Kupyna512, Streebog256, Streebog512};

use crate::backend::{statuses, BackendChoice, BackendStatus};
use crate::error::Result;

/// The digest of one whole message, on the default backend.
pub fn digest(id: HashId, data: &[u8]) -> Result<Vec<u8>> {
    let mut hasher = Hasher::new(id)?;
    hasher.update(data);
    Ok(hasher.finalize())
}

/// The digests of independent messages of any lengths, in order. Backends
/// that can hash several messages in the lanes of one register do so; the
/// result is the same as one [`digest()`] per message.
pub fn digest_many(id: HashId, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    digest_many_with_backend(id, messages, BackendChoice::Auto)
}

/// [`digest_many`] on a chosen backend.
pub fn digest_many_with_backend(id: HashId, messages: &[&[u8]], choice: BackendChoice<'_>) -> Result<Vec<Vec<u8>>> {
    match id.check()? {
        HashId::Streebog256 | HashId::Streebog512 => streebog::digest_many(id.digest_bytes(), messages, choice),
        HashId::Kupyna { .. } => kupyna::digest_many(id.digest_bytes(), messages, choice),
    }
}

/// The backends of a hash, fastest first, with what this CPU runs and the
/// default.
pub fn backends(id: HashId) -> Vec<BackendStatus> {
    match id {
        HashId::Streebog256 | HashId::Streebog512 => statuses(streebog::BACKENDS),
        HashId::Kupyna { .. } => statuses(kupyna::BACKENDS),
    }
}
