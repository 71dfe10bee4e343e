//! The reference backend: DSTU 7624:2014 §5 as written, one block at a time,
//! byte by byte. Not constant-time: the S-boxes are table lookups indexed by
//! secret bytes.

mod round;

use round::{add_key, inv_psi, psi, sub_key, xor_key};
use super::super::variant::Keys;
use crate::backend::{always, Backend, BackendInfo, BlockKernel};

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "reference", constant_time: false, ways: 1, needs: "nothing" },
    available: always,
    new: |keys| Box::new(Reference(keys.clone())),
};

struct Reference(Keys);

/// ψ on one block, byte by byte: NOT constant-time (table S-boxes). Only
/// the tests use it (the oracle of the other backends' rounds).
#[cfg(test)]
pub(crate) fn psi_block(s: &mut [u8]) {
    psi(s);
}

/// Encryption (§5.1): ⊞K0; rounds 1..t−1: ψ, ⊕K_r; round t: ψ, ⊞K_t.
fn encrypt_block(keys: &Keys, s: &mut [u8]) {
    let t = keys.variant.rounds();
    add_key(s, keys.round_key(0));
    for r in 1..t {
        psi(s);
        xor_key(s, keys.round_key(r));
    }
    psi(s);
    add_key(s, keys.round_key(t));
}

/// Decryption (§5.4): ⊟K_t, ψ⁻¹; rounds t−1..1: ⊕K_r, ψ⁻¹; ⊟K0,
/// where ψ⁻¹ = InvSubBytes∘InvShiftRows∘InvMixColumns.
fn decrypt_block(keys: &Keys, s: &mut [u8]) {
    let t = keys.variant.rounds();
    sub_key(s, keys.round_key(t));
    inv_psi(s);
    for r in (1..t).rev() {
        xor_key(s, keys.round_key(r));
        inv_psi(s);
    }
    sub_key(s, keys.round_key(0));
}

impl BlockKernel for Reference {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        for block in data.chunks_exact_mut(self.0.variant.block_bytes()) {
            encrypt_block(&self.0, block);
        }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        for block in data.chunks_exact_mut(self.0.variant.block_bytes()) {
            decrypt_block(&self.0, block);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::variant::Variant;
    use super::*;
    use crate::test_util::hex;

    /// DSTU 7624:2014 Annex B, the first example of each parameter set
    /// (key = 00 01 02 .., plaintext = the bytes that follow the key).
    #[test]
    fn annex_b_ecb() {
        let cases = [
            (Variant::K128_128, "81bf1c7d779bac20e1c9ea39b4d2ad06"),
            (Variant::K128_256, "58ec3e091000158a1148f7166f334f14"),
            (Variant::K256_256, "f66e3d570ec92135aedae323dcbd2a8ca03963ec206a0d5a88385c24617fd92c"),
            (Variant::K256_512, "606990e9e6b7b67a4bd6d893d72268b78e02c83c3cd7e102fd2e74a8fdfe5dd9"),
            (
                Variant::K512_512,
                "4a26e31b811c356aa61dd6ca0596231a67ba8354aa47f3a13e1deec320eb56b8\
                 95d0f417175bab662fd6f134bb15c86ccb906a26856efeb7c5bc6472940dd9d9",
            ),
        ];
        for (v, ct) in cases {
            let kb = v.key_bytes() as u8;
            let key: Vec<u8> = (0..kb).collect();
            let pt: Vec<u8> = (kb..kb + v.block_bytes() as u8).collect();
            let keys = Keys::new(v, &key);
            let mut s = pt.clone();
            encrypt_block(&keys, &mut s);
            assert_eq!(s, hex(ct), "{v:?} encrypt");
            decrypt_block(&keys, &mut s);
            assert_eq!(s, pt, "{v:?} decrypt");
        }
    }

    /// The reference implementation's decryption example for Kalyna-128/128
    /// (main.c; words little-endian): key 0f0e..00, ciphertext 1f1e..10.
    #[test]
    fn reference_decrypt_128_128() {
        let key: Vec<u8> = (0..16u8).rev().collect();
        let mut s: Vec<u8> = (16..32u8).rev().collect();
        let keys = Keys::new(Variant::K128_128, &key);
        decrypt_block(&keys, &mut s);
        let mut want = 0x84c70c472bef9172u64.to_le_bytes().to_vec();
        want.extend_from_slice(&0xd7da733930c2096fu64.to_le_bytes());
        assert_eq!(s, want);
    }
}
