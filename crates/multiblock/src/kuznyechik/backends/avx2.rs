//! Constant-time Kuznyechik on AVX2, 32 blocks per batch, for CPUs without
//! AVX-512 VBMI: `avx2`, and `avx2-gfni` where GFNI (VEX) is present (Intel
//! Alder Lake and later cores without AVX-512, Tremont/Gracemont). Same
//! byte-sliced layout and LFSR form of L as `avx512_gfni.rs` (see
//! `sliced.rs`), 16 ymm = byte j of 32 blocks.
//!
//! - π: 16 `vpshufb` of the low nibble into the rows π[16h..16h+16], then a
//!   tree of 15 `vpblendvb` on bits 4, 5, 6, 7 (3 shifts bring each bit to
//!   bit 7): 35 ops per register, no memory access that depends on data.
//! - c·x in GF(2^8)/0x1C3: `avx2`: c·x = c·lo(x) ⊕ c·(hi(x)<<4), two 16-entry
//!   `vpshufb` tables: and, shift, and, 2 shuffles, xor = 6 ops;
//!   `avx2-gfni`: one `vgf2p8affineqb` with the 8×8 bit matrix of c.
//!
//! Count per round per batch of 32 blocks (512 B):
//! - `avx2`: L = 16 steps × (6 pair XORs + 7 × 6 multiply + 10 XORs) = 928
//!   ops, 224 of them `vpshufb`; S = 16 × 35 = 560 ops, 256 `vpshufb`.
//!   1488 ops ≈ 2.9 per byte per round, 9 rounds ≈ 26 ops/B, 8.4 of them
//!   shuffles (2 per cycle on Zen 3; 1 per cycle, port 5, on Intel).
//!   Floor ≈ 26 / 4 ≈ 6.5 cycles/B on Zen 3; on Intel ≥ 8.4 cycles/B from
//!   `vpshufb` on port 5 alone.
//! - `avx2-gfni`: L = 16 × (6 + 7 + 10) = 368 ops; S unchanged 560; 928 ops
//!   ≈ 16 ops/B over 9 rounds; π's 256 shuffles per round (4.5/B) are the
//!   floor on Intel (port 5).
//!
//! With 16 ymm registers the state alone fills the register file, so the
//! tables are reloaded from L1 each time (loads are not the limit).

use super::super::layers::{self, Nibble, NibbleGfni};
use super::super::masked::MaskedL;
use super::super::sliced::Sliced;
use super::super::keys::Keys;
use crate::backend::Backend;
use crate::kernel::{self, Everywhere};
use crate::simd::{self, Machine, Xmm, Ymm};

/// Calls of up to this many bytes run one block at a time on
/// [`MaskedL`] (see `masked.rs`), longer ones byte-sliced. Crossovers
/// measured on Sapphire Rapids with the narrow kernel at ~47 ticks/byte:
/// `avx2` pads 5 blocks to its 16-block xmm batch at ~49, `avx2-gfni` 5
/// blocks at ~40 and 4 at ~50.
const NARROW_MAX: usize = 80;
const NARROW_MAX_GFNI: usize = 48;

type Y = Ymm<simd::Avx2>;
type Yg = Ymm<simd::Avx2Gfni>;

pub(crate) const BACKEND: Backend<Keys> =
    kernel::tiered_backend::<Y, MaskedL, Y, Sliced<Nibble>, Everywhere<NARROW_MAX>>("avx2", true, 32);
pub(crate) const BACKEND_GFNI: Backend<Keys> =
    kernel::tiered_backend::<Yg, MaskedL, Yg, Sliced<NibbleGfni>, Everywhere<NARROW_MAX_GFNI>>(
        "avx2-gfni", true, 32,
    );
/// The narrow tier by itself (never a default): for measurements and tests.
pub(crate) const BACKEND_NARROW: Backend<Keys> = kernel::backend::<Y, MaskedL>("avx2-narrow", true, 1);

/// π on one block in constant time (the key schedule's S, on secret bytes);
/// `false`, with `a` untouched, on a CPU without AVX2.
pub(crate) fn sub_block(a: &mut [u8; 16]) -> bool {
    match Xmm::<simd::Avx2>::detect() {
        Some(m) => {
            layers::sub_block::<_, Nibble>(m, a);
            true
        }
        None => false,
    }
}
