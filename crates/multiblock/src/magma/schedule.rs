//! The 32 round keys in the order a kernel uses them, for both directions.
//!
//! GOST R 34.12-2015 §5.3 / RFC 5830 §6.1: encryption uses K0..K7 three times,
//! then K7..K0; decryption is the same Feistel round with the order reversed,
//! so every SIMD kernel runs one round loop over one of these two arrays.

use super::Keys;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Round keys for encryption and decryption; wiped on drop.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(super) struct RoundKeys {
    pub(super) enc: [u32; 32],
    pub(super) dec: [u32; 32],
}

impl RoundKeys {
    pub(super) fn new(keys: &Keys) -> RoundKeys {
        let mut enc = [0u32; 32];
        let mut dec = [0u32; 32];
        for i in 0..32 {
            enc[i] = keys.enc_round_key(i);
            dec[i] = keys.enc_round_key(31 - i);
        }
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
        let rk = RoundKeys::new(&Keys::new(&key, SboxSet::Tc26Z, ByteOrder::Gost89));
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
