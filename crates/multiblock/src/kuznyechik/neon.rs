//! `neon`: constant-time Kuznyechik on aarch64 Advanced SIMD, 16 blocks per
//! batch in the byte-sliced layout of `sliced.rs` (16 registers = byte j of
//! 16 blocks; a shorter message is zero-padded to 16 blocks).
//!
//! - π, π⁻¹: the 256-byte table in registers, `TBL` over its first 64
//!   bytes and `TBX` over the next three quarters (index − 64 each time),
//!   7 operations per register plus 4 four-register table loads (32 vector
//!   registers: 16 hold the state, so the table is reloaded from L1);
//! - c·x in GF(2^8)/0x1C3: two 16-entry `TBL` nibble tables (and, shift,
//!   and, 2 `TBL`, xor), as `avx2`.
//!
//! Per round per 16 blocks: S 16 × 7 = 112, L 16 × (6 + 7 × 5 + 10) = 816
//! vector operations; see the README for llvm-mca estimates.

use super::layers::{self, Registers};
use super::sliced::SlicedWhole;
use super::Keys;
use crate::cpu::Backend;
use crate::kernel;
use crate::simd::{Machine, Neon};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Neon, SlicedWhole<Registers>>("neon", true, 16);

/// π on one block in constant time (the key schedule's S, on secret bytes);
/// `false`, with `a` untouched, on a CPU without NEON.
pub(crate) fn sub_block(a: &mut [u8; 16]) -> bool {
    match Neon::detect() {
        Some(m) => {
            layers::sub_block::<_, Registers>(m, a);
            true
        }
        None => false,
    }
}
