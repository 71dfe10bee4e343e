//! `table12`: seed 000 §8.1's 12-bit merged S-boxes: three 4-bit S-boxes per
//! 4096-entry table for nibbles 0..2 and 3..5, and an 8-bit table for nibbles
//! 6..7 (4096 + 4096 + 256 words = 33 KiB, mostly in L1D). Entries are placed
//! and rotated left by 11, so a round is three loads and two XORs. Blocks are
//! interleaved as in `table` (seed 000 Table 4: 10.9 cycles/byte, 5 blocks; 6
//! measured best here).
//!
//! NOT constant-time: the table addresses depend on the key and the data.
//! Chosen only by name.

use super::schedule::RoundKeys;
use super::{ByteOrder, Keys, Sbox};
use crate::cpu::{always, Backend, BackendInfo, BlockKernel};
use std::sync::OnceLock;

/// Blocks processed together.
const WAYS: usize = 6;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "table12", constant_time: false, ways: WAYS, needs: "nothing" },
    available: always,
    new: |keys| Box::new(Table12 { rk: RoundKeys::new(keys), t: tables(keys.sbox), order: keys.order }),
};

struct Tables {
    /// Nibbles 0..2 and 3..5.
    wide: [[u32; 4096]; 2],
    /// Nibbles 6..7.
    top: [u32; 256],
}

/// The tables of one S-box set, built once per process.
fn tables(sbox: &'static Sbox) -> &'static Tables {
    static CACHE: [OnceLock<Box<Tables>>; 6] = [const { OnceLock::new() }; 6];
    // S applied to the nibbles first..first+count of `v << 4*first`, placed and rotated.
    let entry = |v: usize, first: usize, count: usize| -> u32 {
        let s: u32 = (0..count)
            .map(|i| u32::from(sbox[first + i][(v >> (4 * i)) & 15]) << (4 * (first + i)))
            .sum();
        s.rotate_left(11)
    };
    let build = || {
        let mut t = Box::new(Tables { wide: [[0; 4096]; 2], top: [0; 256] });
        for v in 0..4096 {
            t.wide[0][v] = entry(v, 0, 3);
            t.wide[1][v] = entry(v, 3, 3);
        }
        for v in 0..256 {
            t.top[v] = entry(v, 6, 2);
        }
        t
    };
    super::sbox::per_set(&CACHE, sbox, build)
}

struct Table12 {
    rk: RoundKeys,
    t: &'static Tables,
    order: ByteOrder,
}

impl Table12 {
    #[inline(always)]
    fn g(&self, x: u32) -> u32 {
        self.t.wide[0][(x & 0xfff) as usize]
            ^ self.t.wide[1][((x >> 12) & 0xfff) as usize]
            ^ self.t.top[(x >> 24) as usize]
    }

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
                b[i] ^= self.g(a[i].wrapping_add(rk[r]));
            }
            for i in 0..W {
                a[i] ^= self.g(b[i].wrapping_add(rk[r + 1]));
            }
        }
        for (i, block) in data.chunks_exact_mut(8).enumerate() {
            self.order.store(b[i], a[i], block);
        }
    }

    fn run(&self, data: &mut [u8], decrypt: bool) {
        let rk = self.rk.get(decrypt);
        let mut chunks = data.chunks_exact_mut(8 * WAYS);
        for chunk in &mut chunks {
            self.crypt::<WAYS>(chunk, rk);
        }
        for block in chunks.into_remainder().chunks_exact_mut(8) {
            self.crypt::<1>(block, rk);
        }
    }
}

impl BlockKernel for Table12 {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        self.run(data, false);
    }
    fn decrypt_blocks(&self, data: &mut [u8]) {
        self.run(data, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magma::SboxSet;

    #[test]
    fn tables_are_built_once_per_sbox_set_wherever_the_sbox_lives() {
        for set in SboxSet::ALL {
            // A copy at another address, as a `const` S-box may be.
            let copy: &'static Sbox = Box::leak(Box::new(*set.table()));
            assert!(core::ptr::eq(tables(copy), tables(set.table())), "{}", set.name());
        }
    }
}
