//! The library's one error type. Every message is a single line that names
//! the problem and what was expected, so the CLI can print it as it is: names
//! the caller gave are shown escaped (`escape_debug`), since they may hold
//! line breaks or control characters.

use std::fmt;

/// Everything that can go wrong, with what the caller gave and what was
/// expected. Field names say the same in every variant: `cipher` the cipher
/// name, `name`/`mode` the caller's string, `known` the accepted names.
///
/// ```
/// use multiblock::{Cipher, Error};
/// let err = Cipher::new("kuznyechik", &[0; 16], None, None).err().unwrap();
/// assert_eq!(err, Error::KeyLength { cipher: "kuznyechik", expected: 32, got: 16 });
/// assert_eq!(err.to_string(), "kuznyechik needs a key of 32 bytes (64 hex digits), got 16 bytes");
/// assert!(matches!(Cipher::new("aes", &[0; 16], None, None), Err(Error::UnknownCipher { .. })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The cipher name is not one of [`crate::CipherId::ALL`].
    UnknownCipher {
        /// The name given.
        name: String,
        /// The ciphers there are.
        known: Vec<&'static str>,
    },
    /// The key has the wrong number of bytes.
    KeyLength {
        /// The cipher.
        cipher: &'static str,
        /// Its key size in bytes.
        expected: usize,
        /// The bytes given.
        got: usize,
    },
    /// The hash name is not one of [`crate::hash::HashId`]'s.
    UnknownHash {
        /// The name given.
        name: String,
        /// The hashes there are.
        known: Vec<&'static str>,
    },
    /// The S-box set name is unknown.
    UnknownSbox {
        /// The name given.
        name: String,
        /// The sets there are.
        known: Vec<&'static str>,
    },
    /// An S-box set was given for a cipher that has a fixed one.
    SboxNotApplicable {
        /// The cipher.
        cipher: &'static str,
    },
    /// No backend of that name exists for this cipher.
    UnknownBackend {
        /// The cipher.
        cipher: &'static str,
        /// The name given.
        name: String,
        /// The cipher's backends.
        known: Vec<&'static str>,
    },
    /// The backend exists but this CPU lacks an instruction set it needs.
    BackendUnavailable {
        /// The cipher.
        cipher: &'static str,
        /// The backend.
        name: &'static str,
        /// The instruction sets it needs.
        needs: &'static str,
    },
    /// The data is not a whole number of blocks.
    DataLength {
        /// The cipher.
        cipher: &'static str,
        /// Its block size in bytes.
        block_bytes: usize,
        /// The bytes given.
        got: usize,
    },
    /// The mode name is unknown or the cipher does not define it.
    UnknownMode {
        /// The cipher.
        cipher: &'static str,
        /// The name given.
        mode: String,
        /// The cipher's modes.
        known: Vec<&'static str>,
    },
    /// A mode parameter (IV, nonce, s, m, tag length, ...) is wrong; the
    /// message names it and what was expected.
    Param(String),
    /// A tag or key-wrap integrity check failed; nothing was released.
    Authentication,
}

/// A count of bytes as a message says it: "1 byte", "16 bytes".
pub(crate) struct Bytes(pub(crate) u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => f.write_str("1 byte"),
            n => write!(f, "{n} bytes"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownCipher { name, known } => {
                write!(f, "unknown cipher '{}' (expected one of: {})", name.escape_debug(), known.join(", "))
            }
            Error::KeyLength { cipher, expected, got } => write!(
                f,
                "{cipher} needs a key of {expected} bytes ({} hex digits), got {}",
                expected * 2,
                Bytes(*got as u64)
            ),
            Error::UnknownHash { name, known } => write!(
                f,
                "unknown hash '{}' (expected one of: {}, or kupyna-N for N from 8 to 512 in steps of 8)",
                name.escape_debug(),
                known.join(", ")
            ),
            Error::UnknownSbox { name, known } => write!(
                f,
                "unknown S-box set '{}' (expected one of: {})",
                name.escape_debug(),
                known.join(", ")
            ),
            Error::SboxNotApplicable { cipher } => write!(
                f,
                "{cipher} has a fixed S-box; S-box sets apply to gost89 (and tc26-z to magma)"
            ),
            Error::UnknownBackend { cipher, name, known } => write!(
                f,
                "{cipher} has no backend '{}' (expected one of: {})",
                name.escape_debug(),
                known.join(", ")
            ),
            Error::BackendUnavailable { cipher, name, needs } => write!(
                f,
                "backend '{name}' of {cipher} needs {needs}, which this CPU does not have"
            ),
            Error::DataLength { cipher, block_bytes, got } => write!(
                f,
                "{cipher} works on whole {block_bytes}-byte blocks, got {} \
                 ({} past the last whole block)",
                Bytes(*got as u64),
                Bytes((got % block_bytes) as u64)
            ),
            Error::UnknownMode { cipher, mode, known } => write!(
                f,
                "unknown mode '{}' for {cipher} (expected one of: {})",
                mode.escape_debug(),
                known.join(", ")
            ),
            Error::Param(msg) => f.write_str(msg),
            Error::Authentication => f.write_str(
                "authentication failed: the tag does not match (nothing was output)",
            ),
        }
    }
}

impl std::error::Error for Error {}

/// The library's `Result`.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    // Found by fuzz/fuzz_targets/cli_args.rs: `--cipher $'\n\nx'` gave a
    // message of several lines.
    #[test]
    fn names_with_line_breaks_stay_on_one_line() {
        let odd = "a\nb\r\u{1b}[2J".to_string();
        let errors = [
            Error::UnknownCipher { name: odd.clone(), known: vec!["kuznyechik"] },
            Error::UnknownSbox { name: odd.clone(), known: vec!["tc26-z"] },
            Error::UnknownBackend { cipher: "magma", name: odd.clone(), known: vec!["reference"] },
            Error::UnknownMode { cipher: "magma", mode: odd.clone(), known: vec!["ecb"] },
        ];
        for e in errors {
            let msg = e.to_string();
            assert!(!msg.contains(['\n', '\r', '\u{1b}']), "{msg:?}");
            assert!(msg.contains("'a\\nb\\r\\u{1b}[2J'"), "{msg:?}");
        }
        assert!(Error::UnknownCipher { name: "kalyna".into(), known: vec!["kalyna-128-128"] }.to_string().starts_with("unknown cipher 'kalyna' ("));
    }

    #[test]
    fn one_byte_is_singular() {
        assert_eq!(Error::KeyLength { cipher: "magma", expected: 32, got: 1 }.to_string(), "magma needs a key of 32 bytes (64 hex digits), got 1 byte");
        assert_eq!(
            Error::DataLength { cipher: "magma", block_bytes: 8, got: 9 }.to_string(),
            "magma works on whole 8-byte blocks, got 9 bytes (1 byte past the last whole block)"
        );
        assert_eq!(Bytes(0).to_string(), "0 bytes");
        assert_eq!(Bytes(2).to_string(), "2 bytes");
    }
}
