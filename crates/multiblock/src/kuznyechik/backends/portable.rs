//! `portable`: constant-time Kuznyechik in plain Rust, bitsliced over 128
//! blocks (64 for a batch of at most 64 blocks), the default wherever no
//! SIMD backend runs.
//!
//! The 16 block bytes are 128 bit planes ([`crate::bitslice`]); π and π⁻¹
//! are Boolean circuits built by `build.rs` from the structure Biryukov,
//! Perrin and Udovenko found in π (EUROCRYPT 2016: two GF(2)-linear maps
//! around 4-bit S-boxes and GF(2^4) products, see
//! `build/kuznyechik_sbox.rs`), checked there against `constants.rs`; L and
//! L⁻¹ are their 16 LFSR steps, each ℓ's 8×128 bit matrix through Paar's
//! greedy (2976 XORs; the greedy on L's whole 128×128 matrix takes 2852,
//! but its shared sums stay live across all 128 outputs and spill: with
//! the steps Kuznyechik runs 10% faster on Zen 5, and llvm-mca puts a
//! Cortex-A57 round at about 4890 cycles against 5760, 4360 with X[K]
//! applied inside S's pass below).
//!
//! Count before writing, per round on 64 blocks (1 KiB), in word operations:
//! - S: 16 × 233 (π⁻¹: 176) ≈ 3 700. The generic circuit of an 8-bit S-box
//!   (minterms of two nibbles, ~600 operations) made it 9 600;
//! - L: the matrix has ~8 200 ones; the greedy gives 2 909 XORs (L⁻¹ 2 922;
//!   the 16 LFSR steps used take 186 each, 2 976 in all, and spill far less);
//! - X[K]: 128 mask XORs (3 operations each, the mask made from the key bit).
//!
//! ≈ 7 000 per round ≈ 7 per byte, × 9 rounds ≈ 62 u64 operations per
//! byte, plus ≈ 9 for the transposes; on 128 blocks half as many 128-bit
//! operations. Measured on Sapphire Rapids (1 MiB ECB): 11.5 cycles/byte
//! (encryption) and 10.6 (decryption) with the structured circuits (17.5
//! and 17.2 with generic ones), against 4.9 and 6.1 for the table backend.
//! Byte-sliced alternatives without `pshufb` (SSE2 baseline) would scan π's
//! 256 entries with masks: ≈ 3 operations per entry per 16 bytes ≈ 48 per
//! byte per S, far more.

use super::super::keys::Keys;
use super::super::transforms::Block;
use crate::bitslice::{self, circuits, Word, W1, W2};
use crate::backend::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::Portable;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Blocks per batch.
const WAYS: usize = 128;

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Portable, Bitsliced>("portable", true, WAYS);

/// The round keys, kept as bytes: the planes' masks are made per use.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Bitsliced {
    rk: [Block; 10],
}

impl BatchCipher<Portable> for Bitsliced {
    type Keys = Keys;
    const BATCH_BYTES: usize = 16 * WAYS;
    const GRANULE_BYTES: usize = 16;

    fn new(_: Portable, keys: &Keys) -> Self {
        Bitsliced { rk: keys.rk }
    }
    #[inline(always)]
    fn encrypt(&self, _: Portable, batch: &mut [u8]) {
        crypt_batch::<false>(&self.rk, batch)
    }
    #[inline(always)]
    fn decrypt(&self, _: Portable, batch: &mut [u8]) {
        crypt_batch::<true>(&self.rk, batch)
    }
}

/// A batch on one u64 lane (up to 64 blocks) or two.
#[inline(always)]
fn crypt_batch<const DECRYPT: bool>(rk: &[Block; 10], batch: &mut [u8]) {
    if batch.len() <= 16 * 64 {
        crypt::<W1, DECRYPT>(rk, batch)
    } else {
        crypt::<W2, DECRYPT>(rk, batch)
    }
}

/// X[k] then S on each byte's 8 planes of `from`, into `to` (encryption),
/// or S⁻¹ then X[k] (decryption): the key's masks are applied while the
/// byte's planes are in registers for π, not in a pass of their own, and
/// from/to alternate with L's input and output, so no round copies a state.
#[inline(always)]
fn sub_keyed<W: Word, const INV: bool>(from: &[W; 128], to: &mut [W; 128], k: &Block) {
    for ((src, dst), &byte) in from.as_chunks::<8>().0.iter().zip(to.as_chunks_mut::<8>().0).zip(k) {
        *dst = if INV {
            bitslice::xor_byte(&circuits::kuznyechik_pi_inv(src), byte)
        } else {
            circuits::kuznyechik_pi(&bitslice::xor_byte(src, byte))
        };
    }
}

/// E = X[K10]·(L·S·X[K_i], i = 1..9) (§4.4.1), or D = X[K1]·(S⁻¹·L⁻¹·X[K_i],
/// i = 10..2) (§4.4.2), on up to 64·LANES blocks.
#[inline(always)]
fn crypt<W: Word, const DECRYPT: bool>(rk: &[Block; 10], batch: &mut [u8]) {
    let mut x = [W::ZERO; 128];
    let mut y = [W::ZERO; 128];
    if DECRYPT {
        bitslice::load_planes(batch, 16, &mut x);
        bitslice::xor_key(&mut x, &rk[9]);
        for k in rk[..9].iter().rev() {
            circuits::kuznyechik_l_inv(&x, &mut y);
            sub_keyed::<W, true>(&y, &mut x, k);
        }
        bitslice::store_planes(&x, 16, batch);
    } else {
        bitslice::load_planes(batch, 16, &mut y);
        for k in &rk[..9] {
            sub_keyed::<W, false>(&y, &mut x, k);
            circuits::kuznyechik_l(&x, &mut y);
        }
        bitslice::xor_key(&mut y, &rk[9]);
        bitslice::store_planes(&y, 16, batch);
    }
    x.zeroize();
    y.zeroize();
}

/// π on the 16 bytes of one block, in constant time (the key schedule's S
/// where no SIMD backend runs).
pub(crate) fn sub_block(a: &mut Block) {
    bitslice::sub_bytes(a, circuits::kuznyechik_pi::<u64>);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::constants::{PI, PI_INV};
    use crate::kuznyechik::transforms::s;

    /// The generated circuits against the standard's π and π⁻¹ on all 256
    /// inputs (64 bytes per call of `sub_bytes`).
    #[test]
    fn circuits_are_the_tables() {
        for (table, circuit) in [
            (&PI, circuits::kuznyechik_pi::<u64> as fn(&[u64; 8]) -> [u64; 8]),
            (&PI_INV, circuits::kuznyechik_pi_inv::<u64>),
        ] {
            for q in 0..4 {
                let mut b: Vec<u8> = (64 * q..64 * q + 64).map(|x| x as u8).collect();
                bitslice::sub_bytes(&mut b, circuit);
                assert!(b.iter().enumerate().all(|(i, &y)| y == table[64 * q + i]), "quarter {q}");
            }
        }
    }

    /// The key schedule's S without AVX2 is the table S.
    #[test]
    fn sub_block_is_s() {
        let mut rng = crate::test_rng::Rng(0x5b0c);
        for _ in 0..100 {
            let mut a: Block = rng.bytes(16).try_into().unwrap();
            let mut b = a;
            sub_block(&mut a);
            s(&mut b);
            assert_eq!(a, b);
        }
    }
}
