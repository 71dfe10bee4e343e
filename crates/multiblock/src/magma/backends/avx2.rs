//! `avx2`: constant-time Magma / GOST 28147-89 with 256-bit `vpshufb`.
//!
//! A whole group of 32 blocks runs on the byte-sliced layout (`sliced`, 59
//! instructions per round per 32 blocks). The rest of a message (under 32
//! blocks) runs on dword lanes (`lanes` with `subs::Blend`, 19 per round
//! per 8 blocks) in as few groups of 8 blocks as it needs: its latency per
//! call is half the sliced kernel's, so a 64-byte message costs one 8-block
//! pass. The sliced layout's tables and 14 KiB of repeated key bytes are
//! built on the first call that has 32 blocks, so keying for a short message or a serial
//! mode costs only the round keys and a few 16-byte tables (measured: 64 B
//! including key setup ≈ 1.3k ticks, ≈ 23k if the sliced tables were built
//! with the key).
//! Sovyn et al. 2019 (Zakhyst Informatsii 21(4)), Table 5: 3.39
//! cycles/byte for AVX-256 at 32 blocks.

use super::super::feistel::crypt;
use super::super::lanes::LaneCipher;
use super::super::sliced::{KeyVecs, Sliced};
use super::super::subs::Blend;
use super::super::keys::{ByteOrder, Keys};
use super::super::Sbox;
use crate::backend::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::{Avx2 as Level, Ymm};
use std::sync::OnceLock;

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Ymm<Level>, Avx2>("avx2", true, 32);

pub(crate) struct Avx2 {
    lanes: LaneCipher<Blend>,
    sbox: &'static Sbox,
    order: ByteOrder,
    /// Built on the first call with 32 blocks (see the module comment).
    bulk: OnceLock<Bulk>,
}

/// The byte-sliced layout and its round keys.
struct Bulk {
    sliced: Sliced,
    keys: Box<KeyVecs>,
}

impl Avx2 {
    /// The sliced layout, built on first use.
    #[inline(always)]
    fn bulk(&self) -> &Bulk {
        kernel::once!(self.bulk, Bulk { sliced: Sliced::new(self.sbox, self.order), keys: KeyVecs::new(&self.lanes.rk) })
    }

    /// One batch: a whole sliced group, or dword lanes for a shorter tail.
    #[inline(always)]
    fn run(&self, m: Ymm<Level>, batch: &mut [u8], decrypt: bool) {
        match (batch.len() < <Self as BatchCipher<Ymm<Level>>>::BATCH_BYTES, decrypt) {
            (true, false) => self.lanes.encrypt(m, batch),
            (true, true) => self.lanes.decrypt(m, batch),
            (false, _) => {
                let bulk = self.bulk();
                let rk = if decrypt { &bulk.keys.dec } else { &bulk.keys.enc };
                crypt::<_, _, 1>(m, &bulk.sliced, rk, batch)
            }
        }
    }
}

/// One sliced group of 32 blocks, or 1 to 3 dword-lane groups of 8.
impl BatchCipher<Ymm<Level>> for Avx2 {
    type Keys = Keys;
    const BATCH_BYTES: usize = 256;
    const GRANULE_BYTES: usize = 64;

    fn new(m: Ymm<Level>, keys: &Keys) -> Self {
        Avx2 {
            lanes: LaneCipher::new(m, keys),
            sbox: keys.sbox,
            order: keys.order,
            bulk: OnceLock::new(),
        }
    }
    #[inline(always)]
    fn encrypt(&self, m: Ymm<Level>, batch: &mut [u8]) {
        self.run(m, batch, false)
    }
    #[inline(always)]
    fn decrypt(&self, m: Ymm<Level>, batch: &mut [u8]) {
        self.run(m, batch, true)
    }
    /// One block at a time: the dword lanes (the sliced layout is for 32).
    #[inline(always)]
    fn imit_steps(&self, m: Ymm<Level>, state: &mut [u8; 8], data: &[u8]) -> bool {
        self.lanes.imit_steps(m, state, data)
    }
}
