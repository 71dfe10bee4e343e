//! `table`: the papers' table-based GOST 28147-89 (seed 000 §8.1, Fig. 3):
//! pairs of 4-bit S-boxes merged into four 8-bit tables of 256 32-bit words,
//! each entry already placed at its byte and rotated left by 11, so a round is
//! `n2 ^= T0[x0] ^ T1[x1] ^ T2[x2] ^ T3[x3]` with `x = n1 + k`.
//! Several blocks are interleaved on general-purpose registers to hide the
//! load latency (seed 000 Table 4: 5 blocks, 10.9-12.2 cycles/byte; 6 measured
//! best here, 4 to 8 within noise).
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
    info: BackendInfo { name: "table", constant_time: false, ways: WAYS, needs: "nothing" },
    available: always,
    new: |keys| Box::new(Table { rk: RoundKeys::new(keys), t: tables(keys.sbox), order: keys.order }),
};

type Tables = [[u32; 256]; 4];

/// The merged tables of one S-box set, built once per process.
fn tables(sbox: &'static Sbox) -> &'static Tables {
    static CACHE: [OnceLock<Box<Tables>>; 6] = [const { OnceLock::new() }; 6];
    let build = || {
        let mut t = Box::new([[0u32; 256]; 4]);
        for (j, tj) in t.iter_mut().enumerate() {
            for (b, e) in tj.iter_mut().enumerate() {
                let s = (u32::from(sbox[2 * j + 1][b >> 4]) << 4) | u32::from(sbox[2 * j][b & 15]);
                *e = (s << (8 * j)).rotate_left(11);
            }
        }
        t
    };
    super::sbox::per_set(&CACHE, sbox, build)
}

struct Table {
    rk: RoundKeys,
    t: &'static Tables,
    order: ByteOrder,
}

impl Table {
    #[inline(always)]
    fn g(&self, x: u32) -> u32 {
        let [b0, b1, b2, b3] = x.to_le_bytes();
        self.t[0][usize::from(b0)]
            ^ self.t[1][usize::from(b1)]
            ^ self.t[2][usize::from(b2)]
            ^ self.t[3][usize::from(b3)]
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
        // After an even number of rounds the halves end up swapped (the
        // last round does not swap, RFC 5830 §6.1).
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

impl BlockKernel for Table {
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
