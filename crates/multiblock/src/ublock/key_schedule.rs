//! The uBlock key schedule (paper §1.5, Algorithm 3 "key-register update").
//!
//! The k-bit key sits in a register of k/4 nibbles, read big-endian (nibble 0
//! = high nibble of key byte 0; Gao et al. 2024, §1.8). RK⁰ is the
//! register's left n bits; each of the r updates yields the next RK^i as the
//! new left n bits. One update, with K = K0‖K1‖K2‖K3 (k/4 bits each):
//!
//! ```text
//! K0‖K1 <- PK_t(K0‖K1)
//! K2    <- K2 ⊕ S_k(K0 ⊕ RC_i)     (RC_i on the left 32 bits of K0)
//! K3    <- K3 ⊕ T_k(K1)            (T = ×2 in GF(2⁴), x⁴+x+1)
//! K     <- K2‖K3‖K1‖K0
//! ```

use super::constants::{PK1, PK2, PK3, RC, S, T};
use super::variant::{Keys, Variant};
use zeroize::Zeroize;

/// Round keys of the longest variant: 24 rounds + 1.
pub(crate) const MAX_ROUND_KEYS: usize = 25;
/// Bytes of the widest round key (n = 256).
pub(crate) const MAX_BLOCK_BYTES: usize = 32;

/// Round keys RK⁰..RK^r; only the first `block_bytes` bytes of each are used.
pub(crate) type RoundKeys = [[u8; MAX_BLOCK_BYTES]; MAX_ROUND_KEYS];

/// The PK_t of a variant (paper Table 6).
fn pk(v: Variant) -> &'static [u8] {
    match v {
        Variant::U128_128 => &PK1,
        Variant::U128_256 => &PK2,
        Variant::U256_256 => &PK3,
    }
}

/// Packs big-endian nibbles into bytes.
fn pack(nibbles: &[u8], out: &mut [u8]) {
    for (byte, pair) in out.iter_mut().zip(nibbles.chunks_exact(2)) {
        *byte = (pair[0] << 4) | pair[1];
    }
}

/// Expands `key` (exactly `v.key_bytes()` bytes) into RK⁰..RK^r.
pub(crate) fn expand(v: Variant, key: &[u8]) -> RoundKeys {
    expand_with(v, key, |table, x| table[usize::from(x)])
}

/// [`expand`] with the nibble lookups S[x] and T[x] done by `lookup(table,
/// x)`: the `portable` backend passes a constant-time one. Everything else
/// here indexes by public positions only (PK, RC, the register layout).
/// Generic rather than a `fn` pointer: an indirect call per lookup made the
/// `reference` backend's key setup 11-16% slower.
pub(crate) fn expand_with<F: Fn(&[u8; 16], u8) -> u8>(v: Variant, key: &[u8], lookup: F) -> RoundKeys {
    assert_eq!(key.len(), v.key_bytes(), "uBlock key length");
    let n_bytes = v.block_bytes();
    let kn = 2 * key.len(); // nibbles in the register
    let q = kn / 4; // nibbles in each of K0..K3
    let pk = pk(v);

    let mut reg = [0u8; 2 * MAX_BLOCK_BYTES];
    for (i, &b) in key.iter().enumerate() {
        reg[2 * i] = b >> 4;
        reg[2 * i + 1] = b & 0xf;
    }

    let mut rk = [[0u8; MAX_BLOCK_BYTES]; MAX_ROUND_KEYS];
    pack(&reg[..2 * n_bytes], &mut rk[0][..n_bytes]);
    for i in 1..=v.rounds() {
        // K0'‖K1' = PK_t(K0‖K1), out[j] = in[PK[j]].
        let mut k01 = [0u8; MAX_BLOCK_BYTES];
        for (j, &p) in pk.iter().enumerate() {
            k01[j] = reg[p as usize];
        }
        let (k0, k1) = k01[..2 * q].split_at(q);

        let mut next = [0u8; 2 * MAX_BLOCK_BYTES];
        for j in 0..q {
            // RC_i covers nibbles 0..8 of K0 (its left 32 bits), big-endian.
            let rc = if j < 8 { ((RC[i - 1] >> (28 - 4 * j)) & 0xf) as u8 } else { 0 };
            next[j] = reg[2 * q + j] ^ lookup(&S, k0[j] ^ rc); // new K2 first
            next[q + j] = reg[3 * q + j] ^ lookup(&T, k1[j]); // then new K3
        }
        next[2 * q..3 * q].copy_from_slice(k1);
        next[3 * q..4 * q].copy_from_slice(k0);
        reg[..kn].copy_from_slice(&next[..kn]);
        next.zeroize();
        k01.zeroize();

        pack(&reg[..2 * n_bytes], &mut rk[i][..n_bytes]);
    }
    reg.zeroize();
    rk
}

impl Keys {
    /// RK⁰..RK^r by the reference key schedule (this file). The
    /// caller zeroizes the result.
    pub(crate) fn round_keys(&self) -> RoundKeys {
        expand(self.variant, self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::hex;

    /// uBlock design document §8 / Gao et al. 2024, §1.10: every
    /// round key of uBlock-128/128 for K = 0123456789abcdeffedcba9876543210.
    #[test]
    fn round_keys_128_128() {
        let expected = [
            "0123456789abcdeffedcba9876543210",
            "a1a88760f7e064ff49c2b37e608d1f5a",
            "a885d1785e4a1c57876a080f6af41f7e",
            "21b45088f5d76544de18a5857a5c8714",
            "aac1a883d0996f2c556b748482f5140d",
            "e61bb5f2f23e0669a06c91328adfac89",
            "c47f199cdedd59c5b201eb26fef66953",
            "bbed5adbd158f4e81e57dfcc9cd9459d",
            "0637352c3e067cc251fe8dbedbd4b8a5",
            "1fbafc2eb432761e3e7367cc203c6250",
            "d7372706f8d925a2f47b2ae121b6fec3",
            "e5c6d10462f0e0042823976a0df5727d",
            "df726151990e7efdd2ec06400e60541f",
            "264181becf8ea0326977e21f5d9efd10",
            "6867548560e60fe68fa4e1e3b2c06218",
            "e212c92512ccacb75006675e866f864e",
            "a5185fd1321d32ebc2a1c25b2e1c279c",
        ];
        let rk = expand(Variant::U128_128, &hex("0123456789abcdeffedcba9876543210"));
        for (i, e) in expected.iter().enumerate() {
            assert_eq!(rk[i][..16], hex(e)[..], "RK{i}");
        }
        // Unused slots stay zero.
        assert!(rk[17..].iter().all(|k| k.iter().all(|&b| b == 0)));
        assert!(rk[..17].iter().all(|k| k[16..].iter().all(|&b| b == 0)));
    }

    /// RK⁰ is the left n bits of the key for the two 256-bit-key variants.
    #[test]
    fn first_round_key_is_the_left_of_the_key() {
        let key: Vec<u8> = (0..32).collect();
        let rk = expand(Variant::U128_256, &key);
        assert_eq!(rk[0][..16], key[..16]);
        let rk = expand(Variant::U256_256, &key);
        assert_eq!(rk[0][..], key[..]);
    }
}
