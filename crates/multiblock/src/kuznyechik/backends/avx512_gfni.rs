//! Constant-time Kuznyechik on AVX-512 VBMI + GFNI, 64 blocks per batch.
//!
//! Layout (see `sliced.rs`): 16 zmm, zmm j = byte j of 64 blocks; in and out
//! of that form by a 16×16 byte transpose inside each 128-bit lane, 4 stages
//! of `vpunpck{l,h}{bw,wd,dq,qdq}` = 64 shuffles per direction per batch.
//!
//! - π: `vpermi2b` over π[0..128] and over π[128..256] (each uses the low 7
//!   index bits), `vpmovb2m` for bit 7, `vpblendmb`: 4 instructions, no
//!   memory access. On Intel, where a zmm `vpermi2b` is three µops and
//!   overwrites an input, four `vpermb` over π's quarters instead (the
//!   second of each pair merge-masked by bit 6), 7 µops against 8
//!   ([`QUARTERS`]); the table below counts the halves.
//! - L = R^16 as the LFSR in place on the 16 registers: per step 6 pair XORs,
//!   7 `vgf2p8affineqb` multiplications by the constants 148, 32, 133, 16,
//!   194, 192, 251 (GF(2^8)/0x1C3 as 8×8 bit matrices) and 5 `vpternlogq`
//!   (0x96) that sum 7 products, 3 unit terms and the step constant that
//!   carries the round key: 18 µops per step.
//!
//! Count per round per batch of 64 blocks (1 KiB), Sapphire Rapids ports
//! (512-bit: p0 and p5; affine p0, vpermi2b/vpunpck p5, vpmovb2m p0,
//! ternlog/xor/blend p05):
//!
//! | option | affine (p0) | vpermi2b (p5) | p05 | total | bound |
//! |---|---|---|---|---|---|
//! | **LFSR (chosen)** | 112 + 16 movb2m | 32 | 96 xor + 80 ternlog + 16 blend | 352 | 176 c (two ports) |
//! | 16×16 matrix | 256 + 16 | 32 | 128 ternlog + 16 | 448 | 272 c (p0) |
//! | basis change to 0x11B + `vgf2p8mulb` | same count as the matrix or the LFSR (mulb is p0 too) | | | | no gain byte-sliced |
//!
//! Latency of the LFSR chain: xor 1 + affine 5 + ternlog 1 = 7 c per step
//! (112 per L) < 176, so one batch keeps both ports busy.
//! Per batch: 9 × 352 + 128 transposes + 16 (K1) + 32 loads/stores
//! ≈ 3330 µops ≈ 1650 cycles / 1024 B ≈ 1.6 core cycles per byte, both ways
//! (decryption is the same steps in reverse order, with π⁻¹ and L⁻¹(K_i)).
//!
//! Tails: whole 64-block batches in place; a rest of 33..63 blocks is padded
//! into one zmm batch, a rest of 1..32 blocks runs as one batch of 32 in ymm
//! (AVX-512VL: `vpermi2b` ymm indexes 64 entries, so π takes 4 lookups and
//! 3 blends there; L is the same 288 µops on 3 ports).

use super::super::layers::{Vbmi, VbmiQuarters};
use super::super::narrow::{NarrowKernel, BLOCKS};
use super::super::sliced::Sliced;
use super::super::keys::Keys;
use crate::backend::{Backend, BlockKernel};
use crate::cpu::{self, Core};
use crate::kernel::{self, NarrowBounds};
use crate::simd::{Avx512Gfni, Zmm};

/// Short calls run on the 1-to-4-block kernel (`narrow.rs`): up to 192
/// bytes (12 blocks) on AMD Zen 4, up to 320 (20) on Zen 5, and on Intel
/// encryptions of up to 320 bytes and decryptions of up to 256 (16). The
/// byte-sliced keys are made on the first longer call
/// (`kernel::tiered_backend`). The wide kernel pads a call to its 64-block
/// batch, about 1540 TSC ticks a call on a Sapphire Rapids VM, where the
/// narrow one costs 4.8 ticks/byte (77 a block). Measured (TSC ticks/byte,
/// wide against narrow):
/// - Sapphire Rapids: 16 blocks enc 6.1 against 4.8, dec 5.6 against 4.8;
///   20 blocks enc 5.0 against 4.8, dec 4.6 against 4.8.
/// - AMD Zen 4: they met at 12–14 blocks.
/// - AMD Zen 5: 16 blocks enc 4.56 against 3.51, dec 4.54 against 3.48;
///   20 blocks 3.68 against 3.49 and 3.46; 21 blocks 3.51 against 3.73
///   and 3.49 against 3.70.
pub(crate) struct Bounds;

impl NarrowBounds for Bounds {
    const INTEL: (usize, usize) = (320, 256);
    const AMD_HALF_ZMM: (usize, usize) = (192, 192);
    const AMD_FULL_ZMM: (usize, usize) = (320, 320);
}

/// The wide kernel's π by two `vpermi2b` over the table's halves (AMD's
/// cores, where a `vpermi2b` is one µop).
const HALVES: Backend<Keys> = kernel::tiered_backend::<Z, NarrowKernel, Z, Sliced<Vbmi>, Bounds>("avx512-gfni", true, 64);

/// By four `vpermb` over its quarters (Intel: 7 µops a lookup against 8,
/// `layers::PermuteQuarters`). On Intel Emerald Rapids, 1 MiB ECB in
/// three alternating runs: encryption 1.13-1.16 TSC ticks per byte
/// against 1.21-1.24 by the halves, decryption 1.11 against 1.18-1.21.
const QUARTERS: Backend<Keys> = kernel::tiered_backend::<Z, NarrowKernel, Z, Sliced<VbmiQuarters>, Bounds>("avx512-gfni", true, 64);

/// The form of the class of core (`MULTIBLOCK_CORE` can set it).
fn keyed_for_core(keys: &Keys) -> Box<dyn BlockKernel> {
    match cpu::core() {
        Core::Intel => (QUARTERS.new)(keys),
        Core::AmdHalfZmm | Core::AmdFullZmm => (HALVES.new)(keys),
    }
}

pub(crate) const BACKEND: Backend<Keys> = Backend { new: keyed_for_core, ..HALVES };

type Z = Zmm<Avx512Gfni>;

/// Short calls alone (1 to 4 blocks per batch, one zmm per block, AES basis;
/// see `narrow.rs`): `avx512-gfni`'s narrow half, forced only.
pub(crate) const BACKEND_NARROW: Backend<Keys> =
    kernel::backend::<Zmm<Avx512Gfni>, NarrowKernel>("avx512-gfni-narrow", true, BLOCKS);
