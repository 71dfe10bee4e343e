//! The `avx512-gfni` backend: constant-time Kalyna on AVX-512 F/BW + VBMI +
//! GFNI, all five variants, both directions, 512 bytes (8 zmm) per batch in
//! the row-sliced layout of `row_sliced.rs` (zmm i = row i of 8 chunks).
//!
//! - In/out: per 64-byte chunk one `vpaddq`/`vpsubq` with K_0 or K_t (the
//!   mod-2^64 key addition costs one instruction in the natural layout), one
//!   `vpermb` (8×8 byte transpose, its own inverse) and a 3-stage 8×8
//!   transpose of 64-bit lanes across the 8 zmm (24 `vpermt2q`).
//! - S-box π_a: `vpermi2b` over π_a[0..128] and over π_a[128..256] (each uses
//!   index bits 0..6), `vpmovb2m` of bit 7, `vpblendmb`: 4 instructions, no
//!   memory access that depends on data. On Intel a zmm `vpermi2b` is three
//!   µops (two on p5) and overwrites an input, so there π_a is four
//!   `vpermb` over its quarters, the second of each pair merge-masked by
//!   bit 6 (`vptestmb`), then the blend on bit 7: 7 µops against 8 and no
//!   register copies ([`QUARTERS`]); the tables below count the halves.
//! - ShiftRows: one `vpshufb` per row with δ_i ≠ 0.
//! - MixColumns 8, InvMixColumns 12 µops per register (see `row_sliced.rs`).
//!
//! Layouts compared (µops per zmm = 64 bytes and round; SPR runs 512-bit
//! ops on p0 and p5 only: `vgf2p8affineqb` and `vpmovb2m` p0, `vpermi2b`,
//! `vpshufb` and `vpermt2q` p5, ternlog/xor/blend p05):
//!
//! | layout | S-box | ShiftRows | Mix enc / dec | total enc / dec | p0 enc / dec |
//! |---|---|---|---|---|---|
//! | byte-sliced (zmm j = byte j of 64 blocks; 128-bit blocks only: 256-bit blocks need 32 zmm, 512-bit 64) | 4 | 0 | 8 / 12 | 12 / 16 | 4 / 9 |
//! | **row-sliced (chosen)**: zmm i = row i of 64 columns | 4 | ≤ 1 | 8 / 12 | ≤ 13 / ≤ 17 | 4 / 9 |
//! | half-row (zmm = rows a, a+4, as `avx2`) | 4 | 1 | 10 / 14 (+1 swap per view) | 15 / 19 | 4 / 9 |
//!
//! Row-sliced costs at most one `vpshufb` more than byte-sliced and works
//! for every block size with one transpose per 512 bytes.
//! Planned bound per zmm and round: enc 13 µops / 2 ports = 6.5 c, dec
//! max(9 on p0, 17 / 2) = 9 c, i.e. 0.10 / 0.14 c/B per round.
//!
//! Static model of the compiled round loop (objdump of the release build,
//! `llvm-mca` 14 `-mcpu=sapphirerapids`, which uses the SKX port model),
//! per round and batch of 512 bytes:
//!
//! | loop | instructions | of which reg. copies | llvm-mca cycles | µops on p0/p1/p5 | 2-port bound | c/B per round |
//! |---|---|---|---|---|---|---|
//! | enc, nb = 2 | 148 | 31 (`vpermt2b` overwrites its table) | 57.4 | 146 | 73 c | 0.112 (mca) / 0.143 |
//! | dec, nb = 2 | 178 | 31 | 70.6 | 176 | 88 c | 0.138 / 0.172 |
//! | enc, nb = 8 | 153 | 31 | 57.6 | 151 | 75.5 c | 0.113 / 0.147 |
//! | dec, nb = 8 | 180 | 31 | 69.5 | 178 | 89 c | 0.136 / 0.174 |
//!
//! The model lets 512-bit µops use p1, which SPR does not, so the 2-port
//! bound (p0 + p5 only) is the honest one; the in/out transposes add
//! ≈ 150 instructions per batch (≈ 0.15 c/B). Expected c/B, enc / dec:
//! 128/128 (10 rounds) ≈ 1.6 / 1.9; 128/256, 256/256 (14) ≈ 2.2 / 2.6;
//! 256/512, 512/512 (18) ≈ 2.8 / 3.3 (targets 2.0 / 2.5, 2.8 / 3.5,
//! 3.6 / 4.5). Measured on AMD Zen 4 (TSC cycles/byte, 1 MiB ECB): 0.98 / 1.32
//! for 128/128, 1.34 / 1.82 for 128/256, 1.75 / 2.4 for 256/512 and 512/512.
//!
//! Tails: whole batches in place; the rest is padded into one batch (the
//! batch driver of `kernel`). Short calls go to the narrow kernel instead
//! (see [`Bounds`]).

use super::super::layers::Vbmi;
use super::narrow::Narrow;
use super::super::row_sliced::RowSliced;
use super::super::variant::Keys;
use crate::backend::{Backend, BlockKernel};
use crate::cpu::{self, Core};
use crate::kernel::{self, NarrowBounds};
use crate::simd::{Avx512Gfni, Zmm};

/// Short calls run on the narrow kernel (`narrow.rs`: one register, or two
/// interleaved), which does not pad a call to the 512-byte batch:
/// encryptions of up to 96 bytes (6 Kalyna-128, 3 Kalyna-256 or 1
/// Kalyna-512 block) and decryptions of up to 128 on AMD Zen 4, both up to
/// 128 on Zen 5, on Intel encryptions of up to 128 and decryptions of up to
/// 192. Measured (`bench --ways`, TSC ticks/byte, narrow against wide):
/// - AMD EPYC Zen 4: at 112–128 bytes the wide decryption is 5–17% slower
///   for all three block sizes even against a narrow kernel of one
///   register per batch; with two registers interleaved (`narrow.rs`,
///   "Two registers"), at 128 bytes the wide Kalyna-256 encryption is
///   faster (6.1-6.6 against 6.5-7.0).
/// - AMD EPYC Zen 5 (family 26), two registers: at 128 bytes the narrow
///   encryption wins for every block size (Kalyna-128/256 2.34 against
///   3.01, Kalyna-256/256 2.47 against 3.09, Kalyna-512 3.15 against 3.86)
///   and the decryptions tie (2.53 / 2.56, 2.66 / 2.67, 3.41 / 3.39); at
///   160-192 bytes the wide kernel wins both ways (Kalyna-128/128
///   decryption at 192: 1.89 against 2.17).
/// - A Sapphire Rapids VM, two registers: at 128 bytes Kalyna-128/128 enc
///   3.1 against 4.7, dec 3.4 against 5.2, Kalyna-256/256 enc 4.5 against
///   6.6; at 192 bytes the wide encryption wins (Kalyna-128 3.1 against
///   3.5), the narrow decryption still (Kalyna-128 3.9 against 4.5,
///   Kalyna-256 5.3 against 5.8); at 256 they tie or the wide one wins.
pub(crate) struct Bounds;

impl NarrowBounds for Bounds {
    const INTEL: (usize, usize) = (128, 192);
    const AMD_HALF_ZMM: (usize, usize) = (96, 128);
    const AMD_FULL_ZMM: (usize, usize) = (128, 128);
}

/// The row-sliced kernel's S-boxes by two `vpermi2b` over each table's
/// halves (AMD's cores, where a `vpermi2b` is one µop).
const HALVES: Backend<Keys> = kernel::tiered_backend::<Z, Narrow, Z, RowSliced<Vbmi>, Bounds>("avx512-gfni", true, 32);

/// By four `vpermb` over its quarters (Intel, where a zmm `vpermi2b` is
/// three µops, two on the shuffle port, and a `vpermb` one: 7 µops a
/// lookup against 8). On Intel Emerald Rapids, 1 MiB ECB in alternating
/// runs (TSC ticks per byte, halves against quarters): Kalyna-128/128
/// encryption 0.96 against 0.92-0.97, decryption 1.25-1.28 against
/// 1.18-1.24; Kalyna-256/512 1.75-1.84 against 1.64-1.70, 2.31-2.48
/// against 2.08-2.15; Kalyna-512/512 1.78-1.84 against 1.67-1.72,
/// 2.33-2.39 against 2.11-2.16.
const QUARTERS: Backend<Keys> = kernel::tiered_backend::<Z, Narrow, Z, RowSliced<Vbmi<true>>, Bounds>("avx512-gfni", true, 32);

/// The form of the class of core (`MULTIBLOCK_CORE` can set it).
fn keyed_for_core(keys: &Keys) -> Box<dyn BlockKernel> {
    match cpu::core() {
        Core::Intel => (QUARTERS.new)(keys),
        Core::AmdHalfZmm | Core::AmdFullZmm => (HALVES.new)(keys),
    }
}

/// ways: Kalyna-128 blocks per wide batch. Short calls on the narrow
/// kernel; the row-sliced keys are made on the first longer call
/// (`kernel::tiered_backend`).
pub(crate) const BACKEND: Backend<Keys> = Backend { new: keyed_for_core, ..HALVES };

type Z = Zmm<Avx512Gfni>;
