//! The reference backend: RFC 5830 §6.1 as written, one block at a time.
//! Not constant-time: the S-box is a table lookup indexed by secret nibbles.

use super::super::keys::Keys;
use crate::backend::{always, Backend, BackendInfo, BlockKernel};
use zeroize::Zeroize;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "reference", constant_time: false, ways: 1, needs: "nothing" },
    available: always,
    new: |keys| Box::new(Reference(keys.clone())),
};

struct Reference(Keys);

/// The round function g[k](a) = rotl11(S(a + k)) (GOST R 34.12-2015 §5.2).
fn g(keys: &Keys, a: u32, k: u32) -> u32 {
    let x = a.wrapping_add(k);
    let mut y = 0u32;
    for (i, row) in keys.sbox.iter().enumerate() {
        let nibble = (x >> (4 * i)) & 0xf;
        y |= u32::from(row[nibble as usize]) << (4 * i);
    }
    y.rotate_left(11)
}

/// 32 Feistel rounds with round key `round_key(i)`; the last round does not swap.
fn crypt(keys: &Keys, block: &mut [u8], round_key: impl Fn(usize) -> u32) {
    let (mut n1, mut n2) = keys.load(block);
    for i in 0..32 {
        let t = n2 ^ g(keys, n1, round_key(i));
        n2 = n1;
        n1 = t;
    }
    keys.store(n2, n1, block);
}

impl BlockKernel for Reference {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        for block in data.chunks_exact_mut(8) {
            crypt(&self.0, block, |i| self.0.enc_round_key(i));
        }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        for block in data.chunks_exact_mut(8) {
            crypt(&self.0, block, |i| self.0.enc_round_key(31 - i));
        }
    }

    fn imit_steps(&self, state: &mut [u8; 8], data: &[u8]) -> bool {
        let mut rk = [0u32; 16];
        for (i, k) in rk.iter_mut().enumerate() {
            *k = self.0.enc_round_key(i);
        }
        super::super::imit::steps(self.0.order, &rk, |x| g(&self.0, x, 0), state, data);
        rk.zeroize();
        true
    }
}
