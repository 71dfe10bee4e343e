//! Keyed constructions over Streebog (GOST R 34.11-2012, RFC 6986): HMAC
//! (RFC 7836 §4.1), the key derivation functions KDF_GOSTR3411_2012_256
//! (RFC 7836 §4.5) and KDF_TREE_GOSTR3411_2012_256 (RFC 7836 §4.4), and
//! TLSTREE, the per-record re-keying of the GOST TLS cipher suites
//! (RFC 9189 §8.1 for TLS 1.2, RFC 9367 §4.1.2 for TLS 1.3).
//!
//! HMAC is the RustCrypto [`hmac`](::hmac) crate's over Streebog; the KDFs
//! are HMAC-Streebog-256 over a short message; TLSTREE is three KDFs in a
//! chain. Derived keys are returned in [`Zeroizing`](zeroize::Zeroizing)
//! buffers (or borrowed from one), and tags are compared in constant time.
//!
//! ```
//! use multiblock::kdf::{self, Suite, TlsTree};
//! # fn hex(s: &str) -> Vec<u8> {
//! #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
//! # }
//! // RFC 7836 Appendix B, example 9.
//! let key = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
//! let k = kdf::kdf_gostr3411_2012_256(&key, &hex("26bdb878"), &hex("af21434145656378"));
//! assert_eq!(k[..], hex("a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9"));
//!
//! // RFC 9189 Appendix A.1.1.2: the record keys of a Kuznyechik CTR-OMAC connection.
//! let root: [u8; 32] = hex("00112233445566778899aabbcceeff0a112233445566778899aabbcceeff0a00")
//!     .try_into().unwrap();
//! let mut tree = TlsTree::new(&root, Suite::KuznyechikCtrOmac);
//! assert_eq!(tree.key(64)[..], hex("aebe1ef418713bf044b9fcd9e572d437fb38b5d829567a6f7918396d9f4e096b"));
//! ```

pub mod hmac;
mod derive;
pub mod tlstree;
#[cfg(test)]
mod tests;

pub use derive::{kdf_gostr3411_2012_256, kdf_tree_gostr3411_2012_256};
pub use hmac::{HmacStreebog256, HmacStreebog512};
pub use tlstree::{tlstree, Suite, TlsTree};

use crate::hash::{Streebog256, Streebog512};

#[cfg(test)]
thread_local! {
    static KDF_CALLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts one KDF_GOSTR3411_2012_256 evaluation (only the tests count).
#[inline(always)]
fn count_kdf_call() {
    #[cfg(test)]
    KDF_CALLS.with(|n| n.set(n.get() + 1));
}

/// How many KDF_GOSTR3411_2012_256 evaluations this thread has made: the
/// tests that check TLSTREE's cache count with it.
#[cfg(test)]
pub(crate) fn kdf_calls_on_this_thread() -> usize {
    KDF_CALLS.with(|n| n.get())
}
