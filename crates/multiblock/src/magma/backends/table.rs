//! `table` and `table12`: the papers' table-based GOST 28147-89 (Sovyn et
//! al. 2019, Kalyna and GOST 28147-89 with SSE, AVX and AVX-512, Zakhyst
//! Informatsii 21(4), §8.1, Fig. 3): 4-bit
//! S-boxes merged into larger tables whose entries are already placed at
//! their nibbles and rotated left by 11, so g is a few loads and XORs:
//! - `table`: pairs of S-boxes, four 8-bit tables of 256 words; a round is
//!   `n2 ^= T0[x0] ^ T1[x1] ^ T2[x2] ^ T3[x3]` with `x = n1 + k`;
//! - `table12`: three S-boxes per 4096-entry table for nibbles 0..2 and
//!   3..5, and an 8-bit table for nibbles 6..7 (4096 + 4096 + 256 words =
//!   33 KiB, mostly in L1D): three loads and two XORs.
//!
//! One kernel over the two g's: several blocks are interleaved on
//! general-purpose registers to hide the load latency (Sovyn et al. 2019,
//! Table 4: 5 blocks, 10.9-12.2 cycles/byte; 6 measured best here, 4 to 8 within
//! noise); a tail runs block by block.
//!
//! NOT constant-time: the table addresses depend on the key and the data.
//! Chosen only by name.

use super::super::key_schedule::RoundKeys;
use super::super::keys::{ByteOrder, Keys};
use super::super::{Sbox, SboxSet};
use crate::backend::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::Scalar;
use std::sync::OnceLock;

/// Blocks processed together.
const WAYS: usize = 6;

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Scalar, Table<Merged8>>("table", false, WAYS);
pub(crate) const BACKEND_12: Backend<Keys> = kernel::backend::<Scalar, Table<Merged12>>("table12", false, WAYS);

/// A g of merged tables, built once per S-box set.
pub(crate) trait Merged: Send + Sync + Sized + 'static {
    fn get(sbox: &'static Sbox) -> &'static Self;
    /// `rotl11(S(x))`.
    fn g(&self, x: u32) -> u32;
}

/// Pairs of S-boxes: four tables of 256 words.
pub(crate) struct Merged8([[u32; 256]; 4]);

impl Merged for Merged8 {
    fn get(sbox: &'static Sbox) -> &'static Merged8 {
        static CACHE: [OnceLock<Box<Merged8>>; SboxSet::ALL.len()] = [const { OnceLock::new() }; SboxSet::ALL.len()];
        let build = || {
            let mut t = Box::new(Merged8([[0u32; 256]; 4]));
            for (j, tj) in t.0.iter_mut().enumerate() {
                for (b, e) in tj.iter_mut().enumerate() {
                    let s = (u32::from(sbox[2 * j + 1][b >> 4]) << 4) | u32::from(sbox[2 * j][b & 15]);
                    *e = (s << (8 * j)).rotate_left(11);
                }
            }
            t
        };
        super::super::sbox::per_set(&CACHE, sbox, build)
    }
    #[inline(always)]
    fn g(&self, x: u32) -> u32 {
        let [b0, b1, b2, b3] = x.to_le_bytes();
        let t = &self.0;
        t[0][usize::from(b0)] ^ t[1][usize::from(b1)] ^ t[2][usize::from(b2)] ^ t[3][usize::from(b3)]
    }
}

/// Triples of S-boxes: nibbles 0..2 and 3..5 in 4096 words each, 6..7 in 256.
pub(crate) struct Merged12 {
    wide: [[u32; 4096]; 2],
    top: [u32; 256],
}

impl Merged for Merged12 {
    fn get(sbox: &'static Sbox) -> &'static Merged12 {
        static CACHE: [OnceLock<Box<Merged12>>; SboxSet::ALL.len()] = [const { OnceLock::new() }; SboxSet::ALL.len()];
        // S applied to the nibbles first..first+count of `v << 4*first`, placed and rotated.
        let entry = |v: usize, first: usize, count: usize| -> u32 {
            let s: u32 =
                (0..count).map(|i| u32::from(sbox[first + i][(v >> (4 * i)) & 15]) << (4 * (first + i))).sum();
            s.rotate_left(11)
        };
        let build = || {
            let mut t = Box::new(Merged12 { wide: [[0; 4096]; 2], top: [0; 256] });
            for v in 0..4096 {
                t.wide[0][v] = entry(v, 0, 3);
                t.wide[1][v] = entry(v, 3, 3);
            }
            for v in 0..256 {
                t.top[v] = entry(v, 6, 2);
            }
            t
        };
        super::super::sbox::per_set(&CACHE, sbox, build)
    }
    #[inline(always)]
    fn g(&self, x: u32) -> u32 {
        self.wide[0][(x & 0xfff) as usize] ^ self.wide[1][((x >> 12) & 0xfff) as usize] ^ self.top[(x >> 24) as usize]
    }
}

pub(crate) struct Table<T: 'static> {
    rk: RoundKeys,
    t: &'static T,
    order: ByteOrder,
}

impl<T: Merged> Table<T> {
    /// `W` blocks at once; `data.len() == 8 * W`.
    #[inline(always)]
    fn crypt<const W: usize>(&self, data: &mut [u8], rk: &[u32; 32]) {
        let mut a = [0u32; W];
        let mut b = [0u32; W];
        for (i, block) in data.chunks_exact(8).enumerate() {
            (a[i], b[i]) = self.order.load(block);
        }
        for r in (0..32).step_by(2) {
            for i in 0..W {
                b[i] ^= self.t.g(a[i].wrapping_add(rk[r]));
            }
            for i in 0..W {
                a[i] ^= self.t.g(b[i].wrapping_add(rk[r + 1]));
            }
        }
        // After an even number of rounds the halves end up swapped (the
        // last round does not swap, RFC 5830 §6.1).
        for (i, block) in data.chunks_exact_mut(8).enumerate() {
            self.order.store(b[i], a[i], block);
        }
    }

    #[inline(always)]
    fn run(&self, batch: &mut [u8], rk: &[u32; 32]) {
        if batch.len() == 8 * WAYS {
            self.crypt::<WAYS>(batch, rk);
        } else {
            for block in batch.chunks_exact_mut(8) {
                self.crypt::<1>(block, rk);
            }
        }
    }
}

/// `WAYS` blocks interleaved; a tail block by block.
impl<T: Merged> BatchCipher<Scalar> for Table<T> {
    type Keys = Keys;
    const BATCH_BYTES: usize = 8 * WAYS;
    const GRANULE_BYTES: usize = 8;

    fn new(_: Scalar, keys: &Keys) -> Self {
        Table { rk: RoundKeys::new(keys), t: T::get(keys.sbox), order: keys.order }
    }
    #[inline(always)]
    fn encrypt(&self, _: Scalar, batch: &mut [u8]) {
        self.run(batch, &self.rk.enc)
    }
    #[inline(always)]
    fn decrypt(&self, _: Scalar, batch: &mut [u8]) {
        self.run(batch, &self.rk.dec)
    }
    #[inline(always)]
    fn imit_steps(&self, _: Scalar, state: &mut [u8; 8], data: &[u8]) -> bool {
        super::super::imit::steps(self.order, self.rk.imit(), |x| self.t.g(x), state, data);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magma::SboxSet;

    fn built_once<T: Merged>() {
        for set in SboxSet::ALL {
            // A copy at another address, as a `const` S-box may be.
            let copy: &'static Sbox = Box::leak(Box::new(*set.table()));
            assert!(core::ptr::eq(T::get(copy), T::get(set.table())), "{}", set.name());
        }
    }

    #[test]
    fn tables_are_built_once_per_sbox_set_wherever_the_sbox_lives() {
        built_once::<Merged8>();
        built_once::<Merged12>();
    }
}
