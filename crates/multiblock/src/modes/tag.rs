//! Tag verification for every AEAD and key-wrap `open`/`unwrap`: the tags
//! are compared in constant time (`subtle`), then one branch on the verdict,
//! which is public (the caller learns it anyway).
//!
//! `verify` is never inlined and holds no other branch on secret data, so
//! the constant-time check (scripts/ci/ct-valgrind.supp) accepts exactly
//! this one declassification by its function name. The rejection is a
//! separate call so that the verdict leaves `verify` through the branch,
//! not as a secret-derived value the caller would branch on again.

use crate::error::{Bytes, Error, Result};
use subtle::ConstantTimeEq;

/// `Ok` if `expected == received` (equal lengths and bytes), else
/// [`Error::Authentication`]; the time does not depend on where they differ.
#[inline(never)]
pub(crate) fn verify(expected: &[u8], received: &[u8]) -> Result<()> {
    if bool::from(expected.ct_eq(received)) {
        Ok(())
    } else {
        rejected()
    }
}

/// Splits ciphertext‖tag at `tag_bytes` from the end; a shorter input is a
/// one-line parameter error that starts with `who` (`"kuznyechik mgm"`).
pub(crate) fn split_sealed<'a>(sealed: &'a [u8], tag_bytes: usize, who: &str) -> Result<(&'a [u8], &'a [u8])> {
    match sealed.len().checked_sub(tag_bytes) {
        Some(ct_len) => Ok(sealed.split_at(ct_len)),
        None => Err(Error::Param(format!(
            "{who} decryption needs ciphertext‖tag: at least the {tag_bytes}-byte tag, got {}",
            Bytes(sealed.len() as u64)
        ))),
    }
}

#[cold]
#[inline(never)]
fn rejected() -> Result<()> {
    Err(Error::Authentication)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_accepts_only_equal_tags() {
        assert_eq!(verify(b"abc", b"abc"), Ok(()));
        assert_eq!(verify(b"", b""), Ok(()));
        assert_eq!(verify(b"abc", b"abd"), Err(Error::Authentication));
        assert_eq!(verify(b"abc", b"bbc"), Err(Error::Authentication));
        assert_eq!(verify(b"abc", b"ab"), Err(Error::Authentication));
    }

    #[test]
    fn split_sealed_keeps_the_tag_or_says_what_is_short() {
        assert_eq!(split_sealed(b"abcde", 2, "x"), Ok((&b"abc"[..], &b"de"[..])));
        assert_eq!(split_sealed(b"ab", 2, "x"), Ok((&b""[..], &b"ab"[..])));
        let e = split_sealed(b"a", 2, "kuznyechik mgm").unwrap_err().to_string();
        assert!(e.contains("kuznyechik mgm decryption") && e.ends_with("at least the 2-byte tag, got 1 byte"), "{e}");
    }
}
