//! The hashes by name: which function, its digest and block sizes.

use crate::error::{Error, Result};
use std::fmt;

/// A national hash function and its digest length.
///
/// Kupyna (DSTU 7564:2014) defines any digest length from 8 to 512 bits in
/// steps of 8; 256, 384 and 512 are the ones protocols name. Lengths up to
/// 256 bits run on the 512-bit state, longer ones on the 1024-bit state.
///
/// ```
/// use multiblock::hash::HashId;
/// let id = HashId::from_name("kupyna-256")?;
/// assert_eq!((id.digest_bytes(), id.block_bytes()), (32, 64));
/// assert_eq!(HashId::from_name("streebog-512")?, HashId::Streebog512);
/// assert_eq!(HashId::from_name("kupyna-160")?.to_string(), "kupyna-160");
/// assert!(HashId::from_name("kupyna-12").is_err());
/// # Ok::<(), multiblock::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HashId {
    /// Streebog-256, GOST R 34.11-2012 (RFC 6986).
    Streebog256,
    /// Streebog-512, GOST R 34.11-2012 (RFC 6986).
    Streebog512,
    /// Kupyna, DSTU 7564:2014, with a digest of `digest_bits` bits (8..=512, a multiple of 8).
    Kupyna {
        /// The digest length in bits.
        digest_bits: u16,
    },
}

impl HashId {
    /// The hashes protocols name, in the order the front ends list them.
    pub const NAMED: [HashId; 5] = [
        HashId::Streebog256,
        HashId::Streebog512,
        HashId::Kupyna { digest_bits: 256 },
        HashId::Kupyna { digest_bits: 384 },
        HashId::Kupyna { digest_bits: 512 },
    ];

    /// The names [`HashId::from_name`] accepts besides `kupyna-N`.
    pub const NAMES: [&'static str; 5] = ["streebog-256", "streebog-512", "kupyna-256", "kupyna-384", "kupyna-512"];

    /// Parses `streebog-256`, `streebog-512` or `kupyna-N` (N from 8 to 512
    /// in steps of 8). Case and the dash are as written here; `streebog256`
    /// and `kupyna256` (the OpenSSL spellings) are accepted too.
    pub fn from_name(name: &str) -> Result<HashId> {
        let unknown = || Error::UnknownHash { name: name.to_string(), known: HashId::NAMES.to_vec() };
        let lower = name.to_ascii_lowercase();
        if let Some(bits) = lower.strip_prefix("streebog").map(|r| r.strip_prefix('-').unwrap_or(r)) {
            return match bits {
                "256" => Ok(HashId::Streebog256),
                "512" => Ok(HashId::Streebog512),
                _ => Err(unknown()),
            };
        }
        let bits = lower.strip_prefix("kupyna").map(|r| r.strip_prefix('-').unwrap_or(r)).ok_or_else(unknown)?;
        if bits.is_empty() || bits.len() > 3 || bits.starts_with('0') || !bits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(unknown());
        }
        match bits.parse::<u16>() {
            Ok(n) if (8..=512).contains(&n) && n % 8 == 0 => Ok(HashId::Kupyna { digest_bits: n }),
            _ => Err(unknown()),
        }
    }

    /// `Ok` for the hashes the standards define: a Kupyna digest of 8 to 512
    /// bits in whole bytes (the field of [`HashId::Kupyna`] is public, so
    /// every constructor of a hasher checks it here).
    pub fn check(self) -> Result<HashId> {
        match self {
            HashId::Kupyna { digest_bits } if !(8..=512).contains(&digest_bits) || digest_bits % 8 != 0 => Err(Error::Param(
                format!("Kupyna digests are 8 to 512 bits in steps of 8, not {digest_bits}"),
            )),
            _ => Ok(self),
        }
    }

    /// The digest length in bytes.
    pub fn digest_bytes(self) -> usize {
        match self {
            HashId::Streebog256 => 32,
            HashId::Streebog512 => 64,
            HashId::Kupyna { digest_bits } => usize::from(digest_bits) / 8,
        }
    }

    /// The bytes of one compression-function block (what HMAC pads its key to).
    pub fn block_bytes(self) -> usize {
        match self {
            HashId::Streebog256 | HashId::Streebog512 => 64,
            HashId::Kupyna { digest_bits } if digest_bits <= 256 => 64,
            HashId::Kupyna { .. } => 128,
        }
    }
}

impl fmt::Display for HashId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HashId::Streebog256 => f.write_str("streebog-256"),
            HashId::Streebog512 => f.write_str("streebog-512"),
            HashId::Kupyna { digest_bits } => write!(f, "kupyna-{digest_bits}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kupyna_length_parses_and_prints_back() {
        for bits in (8..=512).step_by(8) {
            let id = HashId::from_name(&format!("kupyna-{bits}")).unwrap();
            assert_eq!(id.digest_bytes() * 8, bits);
            assert_eq!(id.to_string(), format!("kupyna-{bits}"));
            assert_eq!(id.block_bytes(), if bits <= 256 { 64 } else { 128 });
        }
    }

    #[test]
    fn kupyna_lengths_the_standard_does_not_define_are_errors() {
        for bits in [0, 1, 7, 12, 260, 513, 520, u16::MAX] {
            let id = HashId::Kupyna { digest_bits: bits };
            fn message<T: fmt::Debug>(r: Result<T>) -> String {
                match r {
                    Err(Error::Param(m)) => m,
                    other => panic!("{other:?}"),
                }
            }
            assert!(message(id.check()).contains(&format!("not {bits}")), "{bits}");
            assert!(message(crate::hash::Hasher::new(id).map(|h| h.digest_bytes())).contains(&format!("not {bits}")));
            assert!(message(crate::hash::digest(id, b"abc")).contains(&format!("not {bits}")));
            assert!(message(crate::hash::digest_many(id, &[b"abc"])).contains(&format!("not {bits}")));
            message(crate::hash::Hmac::new(id, b"key").map(|_| ()));
        }
        for bits in (8..=512).step_by(8) {
            assert!(HashId::Kupyna { digest_bits: bits }.check().is_ok());
        }
    }

    #[test]
    fn bad_names_are_errors() {
        for bad in ["", "kupyna", "kupyna-0", "kupyna-7", "kupyna-520", "kupyna-+64", "kupyna-0256", "kupyna-064", "streebog-384", "sha256"] {
            assert!(matches!(HashId::from_name(bad), Err(Error::UnknownHash { .. })), "{bad}");
        }
        for name in HashId::NAMES {
            assert_eq!(HashId::from_name(name).unwrap().to_string(), name);
        }
    }
}
