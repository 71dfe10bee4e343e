//! `neon`: constant-time Kuznyechik on aarch64 Advanced SIMD, in two
//! layouts chosen by the call's length (public):
//!
//! - up to 96 blocks, and the tail of a longer call: 16 blocks per batch in
//!   the byte-sliced layout of `sliced.rs` (16 registers = byte j of 16
//!   blocks; a shorter tail is zero-padded to 16 blocks):
//!   - π, π⁻¹: the 256-byte table in registers, `TBL` over its first 64
//!     bytes and `TBX` over the next three quarters (index − 64 each time),
//!     7 operations per register plus 4 four-register table loads (32
//!     vector registers: 16 hold the state, so the table is reloaded from
//!     L1);
//!   - c·x in GF(2^8)/0x1C3: two 16-entry `TBL` nibble tables (and, shift,
//!     and, 2 `TBL`, xor), as `avx2`.
//!
//!   Per round per 16 blocks: S 16 × 7 = 112, L 16 × (6 + 7 × 5 + 10) = 816
//!   vector operations.
//! - whole batches of 128 blocks: the bitsliced kernel of `portable.rs`,
//!   whose two-lane words are NEON registers here (`simd/baseline.rs`):
//!   per round per 128 blocks 16 × 233 (π) + 2 909 (L) XOR/AND gates, about
//!   55 vector operations per block against the byte-sliced ~58, with no
//!   table reloads. A tail of more than 96 blocks is one padded bitsliced
//!   batch: llvm-mca puts a bitsliced batch at about six byte-sliced ones
//!   (README, "NEON speed").

use super::super::layers::Registers;
use super::super::sliced::SlicedWhole;
use super::{portable};
use super::super::keys::Keys;
use crate::backend::{Backend, BackendInfo, BlockKernel};
use crate::kernel;
use crate::simd::{Machine, Neon};
use std::sync::OnceLock;

/// Blocks per bitsliced batch.
const BITSLICED_BLOCKS: usize = 128;
/// The longest call (or tail) the byte-sliced kernel takes: 96 blocks.
const BYTESLICED_MAX: usize = 96 * 16;

/// The byte-sliced kernel alone (the short calls' and tails' kernel).
const BYTESLICED: Backend<Keys> = kernel::backend::<Neon, SlicedWhole<Registers>>("neon", true, 16);

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "neon", constant_time: true, ways: BITSLICED_BLOCKS, needs: Neon::NEEDS },
    available: Neon::available,
    new: keyed,
};

/// Both kernels of one key; the bitsliced one is keyed on the first call
/// long enough for it, so short messages pay only the byte-sliced key
/// setup.
struct Split {
    bytesliced: Box<dyn BlockKernel>,
    /// The round keys the bitsliced kernel is keyed from (wiped on drop).
    keys: Keys,
    bitsliced: OnceLock<Box<dyn BlockKernel>>,
}

fn keyed(keys: &Keys) -> Box<dyn BlockKernel> {
    Box::new(Split { bytesliced: (BYTESLICED.new)(keys), keys: keys.clone(), bitsliced: OnceLock::new() })
}

/// How many leading bytes of a call of `len` bytes go to the bitsliced
/// kernel: its whole batches, and a tail of more than 96 blocks.
fn bitsliced_len(len: usize) -> usize {
    kernel::wide_len(len, 16 * BITSLICED_BLOCKS, BYTESLICED_MAX)
}

impl Split {
    fn crypt(&self, data: &mut [u8], decrypt: bool) {
        let (long, short) = data.split_at_mut(bitsliced_len(data.len()));
        let run = |k: &dyn BlockKernel, d: &mut [u8]| if decrypt { k.decrypt_blocks(d) } else { k.encrypt_blocks(d) };
        if !long.is_empty() {
            run(self.bitsliced.get_or_init(|| (portable::BACKEND.new)(&self.keys)).as_ref(), long);
        }
        if !short.is_empty() {
            run(self.bytesliced.as_ref(), short);
        }
    }
}

impl BlockKernel for Split {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        self.crypt(data, false)
    }
    fn decrypt_blocks(&self, data: &mut [u8]) {
        self.crypt(data, true)
    }
}

/// π on one block in constant time (the key schedule's S, on secret bytes);
/// `false`, with `a` untouched, on a CPU without NEON.
pub(crate) fn sub_block(a: &mut [u8; 16]) -> bool {
    match Neon::detect() {
        Some(m) => {
            super::super::layers::sub_block::<_, Registers>(m, a);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Short calls stay byte-sliced, whole batches go bitsliced, and a tail
    /// goes bitsliced only when it is longer than 96 blocks.
    #[test]
    fn lengths_split_where_documented() {
        let b = 16;
        for (blocks, want) in [(0, 0), (1, 0), (96, 0), (97, 97), (128, 128), (200, 128), (224, 128), (225, 225), (256, 256), (257, 256)] {
            assert_eq!(bitsliced_len(blocks * b), want * b, "{blocks} blocks");
        }
    }
}
