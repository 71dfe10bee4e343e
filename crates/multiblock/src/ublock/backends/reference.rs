//! The reference backend: the paper's Algorithms 1 and 2 (§1.3, §1.4) as
//! written, one block at a time, on byte arrays. Not constant-time: the S-box
//! is a table lookup indexed by secret nibbles.
//!
//! A block is X0‖X1, each half `H` = n/16 bytes (8 or 16); nibbles are read
//! big-endian (Gao et al. 2024, §1.8), so `<<<₃₂ b` is a left
//! rotation of each big-endian 32-bit word of a half.

use super::super::key_schedule::RoundKeys;
use super::super::constants::{
    PL_128, PL_128_INV, PL_256, PL_256_INV, PR_128, PR_128_INV, PR_256, PR_256_INV, S, S_INV,
};
use super::super::variant::{Keys, Variant};
use crate::backend::{always, Backend, BackendInfo, BlockKernel};
use zeroize::{Zeroize, ZeroizeOnDrop};

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "reference", constant_time: false, ways: 1, needs: "nothing" },
    available: always,
    new: |keys| Box::new(Reference::new(keys)),
};

/// Round keys RK⁰..RK^r, wiped on drop.
#[derive(Zeroize, ZeroizeOnDrop)]
struct Reference {
    rk: RoundKeys,
    #[zeroize(skip)]
    variant: Variant,
}

impl Reference {
    fn new(keys: &Keys) -> Reference {
        Reference { rk: keys.round_keys(), variant: keys.variant }
    }
}

impl BlockKernel for Reference {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        let (rk, r) = (&self.rk, self.variant.rounds());
        match self.variant.block_bytes() {
            16 => data.chunks_exact_mut(16).for_each(|b| encrypt_block::<8>(rk, r, &PERMS_128, b)),
            _ => data.chunks_exact_mut(32).for_each(|b| encrypt_block::<16>(rk, r, &PERMS_256, b)),
        }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        let (rk, r) = (&self.rk, self.variant.rounds());
        match self.variant.block_bytes() {
            16 => data.chunks_exact_mut(16).for_each(|b| decrypt_block::<8>(rk, r, &PERMS_128, b)),
            _ => data.chunks_exact_mut(32).for_each(|b| decrypt_block::<16>(rk, r, &PERMS_256, b)),
        }
    }
}

/// PL_n, PR_n and their inverses for one half-block size (paper Tables 3, 5).
struct Perms<const H: usize> {
    pl: [u8; H],
    pr: [u8; H],
    pl_inv: [u8; H],
    pr_inv: [u8; H],
}

const PERMS_128: Perms<8> = Perms { pl: PL_128, pr: PR_128, pl_inv: PL_128_INV, pr_inv: PR_128_INV };
const PERMS_256: Perms<16> = Perms { pl: PL_256, pr: PR_256, pl_inv: PL_256_INV, pr_inv: PR_256_INV };

/// S_n (paper eq. 1): the 4-bit S-box on every nibble.
#[inline]
fn sub<const H: usize>(x: &mut [u8; H], s: &[u8; 16]) {
    for b in x.iter_mut() {
        *b = (s[(*b >> 4) as usize] << 4) | s[(*b & 0xf) as usize];
    }
}

// The helpers below are indexed loops marked `#[inline]`: in a test build
// without LTO, iterator adapters left out of line made this oracle (and the
// tests that compare every backend with it) twice as slow.

/// x ^= y.
#[inline]
fn xor<const H: usize>(x: &mut [u8; H], y: &[u8; H]) {
    for i in 0..H {
        x[i] ^= y[i];
    }
}

/// `x <<<₃₂ bits`: rotates each 32-bit block left.
#[inline]
fn rotl32<const H: usize>(x: &[u8; H], bits: u32) -> [u8; H] {
    let mut out = [0u8; H];
    for w in 0..H / 4 {
        let word = u32::from_be_bytes([x[4 * w], x[4 * w + 1], x[4 * w + 2], x[4 * w + 3]]).rotate_left(bits);
        out[4 * w..4 * w + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// Byte permutation z_i = y_{P[i]} (paper eq. 2).
#[inline]
fn permute<const H: usize>(y: &[u8; H], p: &[u8; H]) -> [u8; H] {
    let mut z = [0u8; H];
    for i in 0..H {
        z[i] = y[p[i] as usize];
    }
    z
}

/// The left and right halves of a round key (or block) of 2H bytes.
#[inline]
fn halves<const H: usize>(b: &[u8]) -> ([u8; H], [u8; H]) {
    let (l, r) = b[..2 * H].split_at(H);
    (l.try_into().expect("H bytes"), r.try_into().expect("H bytes"))
}

/// One encryption round, Algorithm 1 steps 3–13.
fn round<const H: usize>(x0: &mut [u8; H], x1: &mut [u8; H], rk: &[u8], p: &Perms<H>) {
    let (rk0, rk1) = halves::<H>(rk);
    xor(x0, &rk0);
    sub(x0, &S);
    xor(x1, &rk1);
    sub(x1, &S);
    let t = *x0;
    xor(x1, &t);
    xor(x0, &rotl32(x1, 4));
    xor(x1, &rotl32(x0, 8));
    xor(x0, &rotl32(x1, 8));
    xor(x1, &rotl32(x0, 20));
    let t = *x1;
    xor(x0, &t);
    *x0 = permute(x0, &p.pl);
    *x1 = permute(x1, &p.pr);
}

/// One decryption round, Algorithm 2 steps 3–15 (the inverse of [`round`]).
fn inv_round<const H: usize>(y0: &mut [u8; H], y1: &mut [u8; H], rk: &[u8], p: &Perms<H>) {
    let (rk0, rk1) = halves::<H>(rk);
    xor(y0, &rk0);
    xor(y1, &rk1);
    *y0 = permute(y0, &p.pl_inv);
    *y1 = permute(y1, &p.pr_inv);
    let t = *y1;
    xor(y0, &t);
    xor(y1, &rotl32(y0, 20));
    xor(y0, &rotl32(y1, 8));
    xor(y1, &rotl32(y0, 8));
    xor(y0, &rotl32(y1, 4));
    let t = *y0;
    xor(y1, &t);
    sub(y0, &S_INV);
    sub(y1, &S_INV);
}

/// Algorithm 1: r rounds with RK⁰..RK^{r−1}, then Y = RK^r ⊕ (X0‖X1).
fn encrypt_block<const H: usize>(rk: &RoundKeys, r: usize, p: &Perms<H>, block: &mut [u8]) {
    let (mut x0, mut x1) = halves::<H>(block);
    for k in &rk[..r] {
        round(&mut x0, &mut x1, k, p);
    }
    let (k0, k1) = halves::<H>(&rk[r]);
    xor(&mut x0, &k0);
    xor(&mut x1, &k1);
    block[..H].copy_from_slice(&x0);
    block[H..].copy_from_slice(&x1);
}

/// Algorithm 2: rounds i = r..1 with RK^i, then X = RK⁰ ⊕ (Y0‖Y1).
fn decrypt_block<const H: usize>(rk: &RoundKeys, r: usize, p: &Perms<H>, block: &mut [u8]) {
    let (mut y0, mut y1) = halves::<H>(block);
    for k in rk[1..=r].iter().rev() {
        inv_round(&mut y0, &mut y1, k, p);
    }
    let (k0, k1) = halves::<H>(&rk[0]);
    xor(&mut y0, &k0);
    xor(&mut y1, &k1);
    block[..H].copy_from_slice(&y0);
    block[H..].copy_from_slice(&y1);
}

#[cfg(test)]
mod tests {
    use super::super::super::variant::{Keys, Variant};
    use super::*;
    use crate::test_util::hex;

    /// Design document §8: uBlock-128/128 with P = K = 0123…3210, the state
    /// after round 1 is X[1] = 77…77 (X ⊕ RK⁰ = 0, s(0) = 7, and the linear
    /// layer maps an all-7 state to itself).
    #[test]
    fn state_after_round_1_is_all_sevens() {
        let kp = hex("0123456789abcdeffedcba9876543210");
        let keys = Keys::new(Variant::U128_128, &kp);
        let (mut x0, mut x1) = halves::<8>(&kp);
        round(&mut x0, &mut x1, &keys.round_keys()[0], &PERMS_128);
        assert_eq!([x0, x1], [[0x77; 8]; 2]);
    }

    /// The design document §8 examples, both directions.
    #[test]
    fn design_document_vectors() {
        let k = "0123456789abcdeffedcba9876543210";
        let k2 = "0123456789abcdeffedcba9876543210000102030405060708090a0b0c0d0e0f";
        for (v, key, pt, ct) in [
            (Variant::U128_128, k, k, "32122bedd023c429023470e1158c147d"),
            (Variant::U128_256, k2, k, "64accd6e34cac84d384cd4ba7aeadd19"),
            (
                Variant::U256_256,
                k2,
                k2,
                "d8e9351c5f4d27ea842135ca1640ad4b0ce119bc25c03e7c329ea8fe93e7bdfe",
            ),
        ] {
            let kernel = Reference::new(&Keys::new(v, &hex(key)));
            let mut b = hex(pt);
            kernel.encrypt_blocks(&mut b);
            assert_eq!(b, hex(ct), "{v:?} encrypt");
            kernel.decrypt_blocks(&mut b);
            assert_eq!(b, hex(pt), "{v:?} decrypt");
        }
    }

    /// inv_round(0) undoes round(rk) up to the round key: it returns X ⊕ RK.
    #[test]
    fn inv_round_inverts_round() {
        let rk: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(91) ^ 0x5a);
        let zero = [0u8; 32];
        for seed in 0..16u8 {
            let b: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37).wrapping_add(seed * 11)).collect();
            let want: Vec<u8> = b.iter().zip(&rk).map(|(x, k)| x ^ k).collect();
            let (mut x0, mut x1) = halves::<16>(&b);
            round(&mut x0, &mut x1, &rk, &PERMS_256);
            inv_round(&mut x0, &mut x1, &zero, &PERMS_256);
            assert_eq!([&x0[..], &x1[..]].concat(), want);
            let (mut x0, mut x1) = halves::<8>(&b);
            round(&mut x0, &mut x1, &rk, &PERMS_128);
            inv_round(&mut x0, &mut x1, &zero, &PERMS_128);
            assert_eq!([&x0[..], &x1[..]].concat(), want[..16]);
        }
    }

    #[test]
    fn empty_input_is_fine() {
        let kernel = Reference::new(&Keys::new(Variant::U256_256, &[0; 32]));
        kernel.encrypt_blocks(&mut []);
        kernel.decrypt_blocks(&mut []);
    }
}
