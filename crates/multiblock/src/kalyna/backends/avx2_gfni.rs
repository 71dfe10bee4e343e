//! The `avx2-gfni` backend: constant-time Kalyna on AVX2 + GFNI (VEX), for
//! CPUs with GFNI but no AVX-512 (Intel Alder Lake and later client cores,
//! Gracemont); all five variants, both directions, 256 bytes (8 ymm) per
//! batch in the row-sliced layout of `row_sliced.rs` (ymm i = row i of 4
//! chunks).
//!
//! - In/out (`layers::Nibble`): the 4-register transpose of `nibble.rs`
//!   (16 shuffles) on each half (two chunks per ymm, one per 128-bit lane), then 8 `vpunpck{l,h}qdq`
//!   join row a and row a+4 of the halves: 40 shuffles per 256 bytes and
//!   direction, plus a `vpaddq`/`vpsubq` with K_0 or K_t per load.
//! - S-box: no VBMI, so the nibble S-box of `nibble.rs` (16 `vpshufb` over
//!   the 16 rows of the table, a 3-level `vpblendvb` tree on bits 4..6):
//!   35 ops per register, 16 table loads.
//! - ShiftRows: one `vpshufb` per row with δ_i ≠ 0.
//! - MixColumns: 3 `vgf2p8affineqb` + 8 XORs + 1 key XOR = 12 ops per
//!   register; InvMixColumns: 8 `vgf2p8affineqb` + 8 XORs = 16 ops
//!   (no 3-input XOR without AVX-512VL).
//!
//! Counts per ymm (32 bytes) and round:
//!
//! | kernel | S-box | ShiftRows | Mix | enc / dec ops | per byte and round |
//! |---|---|---|---|---|---|
//! | `avx2` (half-row layout, MixColumns by doubling, InvMix = M⁻²·M by nibble tables) | 35 | 1 | 19 / 38 | 56 / 76 | 1.75 / 2.4 |
//! | **`avx2-gfni`, row-sliced (chosen)** | 35 | ≤ 1 | 12 / 16 | ≤ 48 / ≤ 52 | 1.5 / 1.6 |
//! | `avx2-gfni`, half-row layout | 35 | 1 | 17 / 23 (+ swaps) | 53 / 59 | 1.7 / 1.8 |
//!
//! The S-box is 70 % of the work; its 16 `vpshufb` and 7 `vpblendvb` go to
//! p1/p5 and p0/p1/p5 on Intel cores. GFNI cannot do the S-boxes
//! themselves: they are not affine-equivalent to inversion (differential
//! uniformity 8, inversion's is 4).
//!
//! Static model of the compiled code (objdump of the release build: the
//! S-box loop body 8 times + the MixColumns block = one round of 256 bytes,
//! `llvm-mca` 14): enc 645 instructions (the S-box loop keeps its 16 table
//! rows in memory: 18 loads per register), 174 cycles with
//! `-mcpu=alderlake` (0.68 c/B per round, ≈ 7 c/B for 128/128), 116 with
//! `-mcpu=znver3` (0.45 c/B per round); dec 756 instructions, 197 / 131
//! cycles (0.77 / 0.51 c/B per round). Measured on AMD Zen 4 (TSC cycles/byte, 1 MiB
//! ECB): 4.1 / 4.2 for 128/128, 5.8 / 6.1 for 128/256, 7.2 / 8.6 for 512/512.
//!
//! Tails: whole batches in place; the rest is padded into one batch (the
//! batch driver of `kernel`).

use super::super::layers::Nibble;
use super::super::row_sliced::RowSliced;
use super::super::variant::Keys;
use crate::backend::Backend;
use crate::kernel;
use crate::simd::{Avx2Gfni, Ymm};

/// ways: Kalyna-128 blocks per batch.
pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Ymm<Avx2Gfni>, RowSliced<Nibble>>("avx2-gfni", true, 16);
