//! KDF_GOSTR3411_2012_256 (RFC 7836 §4.5) and KDF_TREE_GOSTR3411_2012_256
//! (RFC 7836 §4.4): HMAC_GOSTR3411_2012_256 under the derivation key of
//! `[i]_b | label | 0x00 | seed | [L]_b`, NIST SP 800-108's counter mode.

use super::hmac::mac_parts_into;
use crate::hash::HashId;
use crate::error::{Bytes, Error, Result};
use zeroize::Zeroizing;

/// KDF_GOSTR3411_2012_256(K_in, label, seed) of RFC 7836 §4.5: the 32-byte
/// key HMAC_GOSTR3411_2012_256(K_in, 0x01 | label | 0x00 | seed | 0x01 |
/// 0x00), which is KDF_TREE_GOSTR3411_2012_256 with R = 1 and L = 256.
///
/// ```
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// // RFC 7836 Appendix B, example 9.
/// let key = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
/// let k = multiblock::kdf::kdf_gostr3411_2012_256(&key, &hex("26bdb878"), &hex("af21434145656378"));
/// assert_eq!(k[..], hex("a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9"));
/// ```
pub fn kdf_gostr3411_2012_256(key: &[u8], label: &[u8], seed: &[u8]) -> Zeroizing<[u8; 32]> {
    let mut out = Zeroizing::new([0; 32]);
    kdf_into(key, label, seed, &mut out);
    out
}

/// [`kdf_gostr3411_2012_256`] into a buffer the caller owns (TLSTREE's cache).
pub(crate) fn kdf_into(key: &[u8], label: &[u8], seed: &[u8], out: &mut [u8; 32]) {
    super::count_kdf_call();
    mac_parts_into(HashId::Streebog256, key, &[&[0x01], label, &[0x00], seed, &[0x01, 0x00]], out);
}

/// KDF_TREE_GOSTR3411_2012_256(K_in, label, seed, R) of RFC 7836 §4.4,
/// `out.len()` bytes of it (L = 8 · `out.len()` bits): K(1) | K(2) | … with
/// K(i) = HMAC_GOSTR3411_2012_256(K_in, `[i]_b` | label | 0x00 | seed | `[L]_b`),
/// where `[i]_b` is the counter in `r` big-endian bytes and `[L]_b` is L
/// big-endian without leading zero bytes; the last K(i) is cut to fit.
///
/// Errors ([`Error::Param`]) when `r` is not 1 to 4, when `out` is empty,
/// and when `out` needs more than 2^(8·`r`) − 1 blocks of 32 bytes (the
/// RFC's bound L ≤ 256 · (2^(8R) − 1)).
///
/// ```
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// // RFC 7836 Appendix B, example 10: R = 1, L = 512.
/// let key = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
/// let mut k = [0u8; 64];
/// multiblock::kdf::kdf_tree_gostr3411_2012_256(&key, &hex("26bdb878"), &hex("af21434145656378"), 1, &mut k)?;
/// assert_eq!(k[..32], hex("22b6837845c6bef65ea71672b265831086d3c76aebe6dae91cad51d83f79d16b"));
/// assert_eq!(k[32..], hex("074c9330599d7f8d712fca54392f4ddde93751206b3584c8f43f9e6dc51531f9"));
///
/// // R = 1 has a one-byte counter: at most 255 blocks.
/// assert!(multiblock::kdf::kdf_tree_gostr3411_2012_256(&key, b"", b"", 1, &mut [0; 255 * 32 + 1]).is_err());
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn kdf_tree_gostr3411_2012_256(key: &[u8], label: &[u8], seed: &[u8], r: usize, out: &mut [u8]) -> Result<()> {
    const WHO: &str = "KDF_TREE_GOSTR3411_2012_256";
    if !(1..=4).contains(&r) {
        return Err(Error::Param(format!("{WHO} needs a counter of R = 1 to 4 bytes, got R = {r}")));
    }
    if out.is_empty() {
        return Err(Error::Param(format!("{WHO} needs at least one byte of output, got 0")));
    }
    let blocks = out.len().div_ceil(32) as u64;
    let max_blocks = (1u64 << (8 * r)) - 1;
    if blocks > max_blocks {
        return Err(Error::Param(format!(
            "{WHO} with R = {r} derives at most {} bytes ({max_blocks} blocks of 32), got {}",
            max_blocks * 32,
            Bytes(out.len() as u64)
        )));
    }
    // L in bits, big-endian without leading zero bytes (L > 0, so at least one byte).
    let l_bits = (out.len() as u64 * 8).to_be_bytes();
    let l_b = &l_bits[l_bits.iter().position(|&b| b != 0).unwrap_or(7)..];
    let mut block = Zeroizing::new([0u8; 32]);
    for (i, chunk) in out.chunks_mut(32).enumerate() {
        let counter = (i as u64 + 1).to_be_bytes();
        let i_b = &counter[8 - r..];
        mac_parts_into(HashId::Streebog256, key, &[i_b, label, &[0x00], seed, l_b], &mut block[..]);
        chunk.copy_from_slice(&block[..chunk.len()]);
    }
    Ok(())
}
