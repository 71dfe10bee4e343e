//! The 32 round keys in the order a kernel uses them, for both directions.
//!
//! GOST R 34.12-2015 §5.3 / RFC 5830 §6.1: encryption uses K0..K7 three times,
//! then K7..K0; decryption is the same Feistel round with the order reversed,
//! so every SIMD kernel runs one round loop over one of these two arrays.

use super::keys::Keys;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Round keys for encryption and decryption; wiped on drop.
#[derive(Clone)]
pub(super) struct RoundKeys {
    pub(super) enc: [u32; 32],
    pub(super) dec: [u32; 32],
}

/// Wiped as slices (one fill and a barrier each, not a fence per word).
impl Zeroize for RoundKeys {
    fn zeroize(&mut self) {
        self.enc[..].zeroize();
        self.dec[..].zeroize();
    }
}

impl Drop for RoundKeys {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for RoundKeys {}

impl RoundKeys {
    pub(super) fn new(keys: &Keys) -> RoundKeys {
        // Whole 8-word runs: a loop of `enc_round_key(i)` compiled to 64
        // scalar stores whose copy into the kernel's box, 16 bytes at a
        // time, could not be store-forwarded (about a tenth of a 64-byte
        // message with key setup on `avx2`).
        let k = &keys.k;
        let mut rev = keys.k;
        rev.reverse();
        let (mut enc, mut dec) = ([0u32; 32], [0u32; 32]);
        for (run, (e, d)) in enc.chunks_exact_mut(8).zip(dec.chunks_exact_mut(8)).enumerate() {
            e.copy_from_slice(if run < 3 { k } else { &rev });
            d.copy_from_slice(if run == 0 { k } else { &rev });
        }
        rev.zeroize();
        RoundKeys { enc, dec }
    }

    /// The MAC step's 16 round keys (RFC 5830 §8): K0..K7 twice, the start
    /// of the encryption order.
    #[inline(always)]
    pub(super) fn imit(&self) -> &[u32; 16] {
        self.enc[..16].try_into().expect("32 round keys")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magma::{ByteOrder, SboxSet};

    #[test]
    fn decryption_order_reverses_encryption_order() {
        let key: Vec<u8> = (0u8..32).collect();
        let keys = Keys::new(&key, SboxSet::Tc26Z, ByteOrder::Gost89);
        let rk = RoundKeys::new(&keys);
        for i in 0..32 {
            assert_eq!(rk.enc[i], keys.enc_round_key(i), "the standard's order, key {i}");
        }
        // RFC 5830 §6.1: K0..K7, K0..K7, K0..K7, K7..K0.
        assert_eq!(rk.enc[0], 0x0302_0100);
        assert_eq!(rk.enc[23], rk.enc[7]);
        assert_eq!(rk.enc[24], rk.enc[7]);
        assert_eq!(rk.enc[31], rk.enc[0]);
        // Decryption: K0..K7, then K7..K0 three times.
        assert_eq!(rk.dec[..8], rk.enc[..8]);
        for i in 0..32 {
            assert_eq!(rk.dec[i], rk.enc[31 - i]);
        }
    }
}
