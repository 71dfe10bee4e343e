//! HMAC_GOSTR3411_2012_256 and HMAC_GOSTR3411_2012_512 (RFC 7836 §4.1.1,
//! §4.1.2): HMAC of RFC 2104 over Streebog-256 and Streebog-512, with
//! B = 64 bytes (the compression function's block) and L = 32 or 64.
//!
//! The types are the RustCrypto [`hmac`] crate's, so they have the
//! [`digest::Mac`] interface (keys of any length; longer than 64 bytes are
//! hashed first, as RFC 2104 says). The functions are one-shot
//! conveniences over [`crate::hash::Hmac`], as are the KDFs; `verify_*`
//! compare in constant time. For many messages under one key, key a
//! [`crate::hash::Hmac`] once and clone it per message: it keeps the states
//! after K ⊕ ipad and K ⊕ opad, where the `hmac` crate's `SimpleHmac`
//! (which these types are, as the hashes have no block-level interface)
//! keeps the first and compresses K ⊕ opad again for each tag.
//!
//! ```
//! use multiblock::kdf::hmac::{self, HmacStreebog256};
//! use multiblock::kdf::hmac::digest::{KeyInit, Mac};
//! # fn hex(s: &str) -> Vec<u8> {
//! #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
//! # }
//! // RFC 7836 Appendix B, example 1.
//! let key = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
//! let text = hex("0126bdb87800af214341456563780100");
//! let tag = hex("a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9");
//! assert_eq!(hmac::hmac_streebog256(&key, &text)[..], tag);
//!
//! // The same in pieces, through the RustCrypto `Mac` trait.
//! let mut mac = <HmacStreebog256 as KeyInit>::new_from_slice(&key).unwrap();
//! mac.update(&text[..5]);
//! mac.update(&text[5..]);
//! assert!(mac.verify_slice(&tag).is_ok());
//!
//! assert!(hmac::verify_hmac_streebog256(&key, &text, &tag).is_ok());
//! assert!(hmac::verify_hmac_streebog256(&key, b"other text", &tag).is_err());
//! ```

use super::{Streebog256, Streebog512};
use crate::error::Result;
use crate::modes::tag::verify;
use crate::hash::{HashId, Hmac};

/// The RustCrypto `digest` crate, whose `Mac` and `KeyInit` traits the HMAC
/// types implement.
pub use digest;

/// HMAC_GOSTR3411_2012_256 (RFC 7836 §4.1.1): HMAC over Streebog-256, a
/// 32-byte tag.
pub type HmacStreebog256 = ::hmac::SimpleHmac<Streebog256>;

/// HMAC_GOSTR3411_2012_512 (RFC 7836 §4.1.2): HMAC over Streebog-512, a
/// 64-byte tag.
pub type HmacStreebog512 = ::hmac::SimpleHmac<Streebog512>;

/// HMAC_GOSTR3411_2012_256 of `message` under `key` (any length).
pub fn hmac_streebog256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut tag = [0; 32];
    mac_parts_into(HashId::Streebog256, key, &[message], &mut tag);
    tag
}

/// HMAC_GOSTR3411_2012_512 of `message` under `key` (any length).
///
/// ```
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// // RFC 7836 Appendix B, example 2.
/// let key = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
/// let tag = multiblock::kdf::hmac::hmac_streebog512(&key, &hex("0126bdb87800af214341456563780100"));
/// assert_eq!(tag[..], hex("a59bab22ecae19c65fbde6e5f4e9f5d8549d31f037f9df9b905500e171923a77\
///                          3d5f1530f2ed7e964cb2eedc29e9ad2f3afe93b2814f79f5000ffc0366c251e6"));
/// ```
pub fn hmac_streebog512(key: &[u8], message: &[u8]) -> [u8; 64] {
    let mut tag = [0; 64];
    mac_parts_into(HashId::Streebog512, key, &[message], &mut tag);
    tag
}

/// `Ok` if `tag` is the 32-byte HMAC_GOSTR3411_2012_256 of `message` under
/// `key`, else [`crate::Error::Authentication`]; the comparison takes the same time
/// wherever the tags differ.
pub fn verify_hmac_streebog256(key: &[u8], message: &[u8], tag: &[u8]) -> Result<()> {
    verify(&hmac_streebog256(key, message), tag)
}

/// `Ok` if `tag` is the 64-byte HMAC_GOSTR3411_2012_512 of `message` under
/// `key`, else [`crate::Error::Authentication`]; the comparison takes the same time
/// wherever the tags differ.
pub fn verify_hmac_streebog512(key: &[u8], message: &[u8], tag: &[u8]) -> Result<()> {
    verify(&hmac_streebog512(key, message), tag)
}

/// HMAC over `id` of the concatenation of `parts` under `key`, written to
/// `out` (exactly the tag's size), by [`Hmac`]: its two pad blocks run side
/// by side, and the inner digest, key material of the KDFs, is wiped.
pub(crate) fn mac_parts_into(id: HashId, key: &[u8], parts: &[&[u8]], out: &mut [u8]) {
    let mut mac = match Hmac::new(id, key) {
        Ok(mac) => mac,
        // HMAC runs over both Streebogs and takes keys of every length.
        Err(_) => unreachable!("HMAC runs over {id} under any key"),
    };
    for part in parts {
        mac.update(part);
    }
    mac.finalize_into(out);
}
