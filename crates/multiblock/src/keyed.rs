//! The keyed cipher layer's shared vocabulary.

/// Which way a cipher, a mode or a batch of streams runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Encryption (plaintext in).
    Encrypt,
    /// Decryption (ciphertext in).
    Decrypt,
}
