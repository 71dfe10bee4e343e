//! The narrow Kalyna kernel of the `avx512-gfni-narrow` backend: one or two
//! zmm of whole blocks per batch (4 Kalyna-128, 2 Kalyna-256 or 1 Kalyna-512
//! blocks each; two interleave their rounds; a partial register loads only
//! its own 128-bit lanes), for the short
//! calls of chained modes (CBC/CFB/OFB encryption, CMAC, CCM, KW), which the
//! wide row-sliced kernel would pad to 512 bytes. A batch of up to 32 bytes
//! (1-2 Kalyna-128 blocks, 1 Kalyna-256 block: every call of a chained mode
//! of those) runs on half registers (ymm) around the zmm lookups; see
//! "Half registers" below.
//!
//! Layout: the natural one. Byte p of the register is byte p of the data, so
//! column j of a block (DSTU 7624:2014 §5: bytes 8j..8j+8, a little-endian
//! word) is one 64-bit lane and row i is byte i of it. ⊞K_0 / ⊞K_t (§5.1)
//! are one `vpaddq` / `vpsubq`.
//!
//! - SubBytes (§5.2): row i uses π_{i mod 4}, and row i of every column is
//!   a byte p with p mod 4 = i mod 4, a public class. Each π_a is two
//!   `vpermi2b` over its 128-entry halves (the index's bit 7 is ignored):
//!   8 lookups, then blends: by the class (bits 0 and 1 of a constant
//!   register, `vptestmb` hoisted) 3 + 3, and by bit 7 of the input
//!   (`vpmovb2m` + `vpblendmb`) 1. No address depends on data.
//! - ShiftRows + MixColumns (§5.2, §5.3): MixColumns is the circulant
//!   w_i = ⊕_d v_d · s_{(i+d) mod 8} per column, v = (01 01 05 01 08 06 07
//!   04). For each d, every byte of the state is multiplied by the same v_d
//!   (for v_d ≠ 1 one `vgf2p8affineqb`, x ↦ v_d·x as an 8×8 bit matrix),
//!   and term d is a byte permutation of the S-box output. Two forms:
//!   - *permutation form* (Kalyna-256 and -512 on zmm): ShiftRows and the
//!     row rotation by d folded into one constant index per term, `vpermb`.
//!   - *rotation form* (Kalyna-128 always; Kalyna-256 on half registers):
//!     ShiftRows once (Kalyna-128: rows 4..7 of the two columns swap, one
//!     `vpshufd`; Kalyna-256: one `vpermb`), the 5 products of that, then
//!     the row rotation of term d as each 64-bit column rotated right by 8d
//!     bits (`vprorq`; a column is one little-endian u64, row i = byte i).
//!   The 8 terms and the round key are summed by 4 `vpternlog`.
//! - Decryption (§5.4, §5.5): InvShiftRows∘InvMixColumns likewise with
//!   v⁻¹ = (AD 95 76 A8 2F 49 D7 CA): 8 permutations (or 1 InvShiftRows
//!   after the sum and 7 rotations) and 8 products. The round key is added
//!   before InvMixColumns in the standard; the kernel adds
//!   InvShiftRows(InvMixColumns(K_r)) after it instead (both linear), inside
//!   the sum (the rotation form: InvMixColumns(K_r) inside the sum, before
//!   its InvShiftRows).
//!
//! Latencies and throughputs measured on AMD EPYC Zen 4 (this VM; C
//! microbenchmarks of dependent chains and of 8 independent ops, core
//! cycles = 1.43 TSC ticks here): `vpermi2b`/`vpermb` zmm 5, ymm 4;
//! `vpshufb` 2 (ymm and zmm), `vpshufd` 1, `vprolq` 2, `vgf2p8affineqb` 3,
//! `vpternlog`/`vpblendmb` 1, `vpmovb2m` then a blend 5. On zmm, `vpermi2b`,
//! `vpermb`, `vpshufb`, `vprolq` and `vgf2p8affineqb` run one per cycle
//! (double-pumped), `vpternlog` and `vpblendmb` two; on ymm two per cycle.
//!
//! Count per round and register (µops; chain in core cycles):
//!
//! | step | enc µops | dec µops | on the chain |
//! |---|---|---|---|
//! | S-box lookups (`vpermi2b` zmm) | 8 | 8 | 5 + 7 (issue) |
//! | blends (class 6, bit 7 1) + `vpmovb2m` | 8 | 8 | 3 |
//! | permutation form: `vpshufb` / `vpermb` per term | 8 | 8 | 2 / 5 |
//! | rotation form: ShiftRows + 7 `vprorq` | 8 | 8 | 1 + 2 (Kalyna-128) |
//! | products (`vgf2p8affineqb`) | 5 | 8 | 3 |
//! | sums with the round key (`vpternlog`) | 4 | 4 | 2 |
//! | **round** | **33** | **36** | **≈ 23** (Kalyna-128, rotation form) |
//!
//! What limits one block is the lookups, not the shuffle pipes: the
//! rotation form alone, on zmm, left a 1-block Kalyna-128 call where it was
//! (19.3 vs 19.4 ticks/byte), although it takes 7 of the round's 16
//! shuffles away. The 8 zmm lookups all wait for the state and issue one
//! per cycle (12 cycles to the last one), and every other zmm op of the
//! round is double-pumped too. A C model of the round (its exact
//! instruction mix, rounds chained; TSC ticks per round): zmm permutation
//! form 29.9, zmm rotation form 28.2, half registers 22.0, half registers
//! with `vpshufd` for ShiftRows and the products before the rotations 20.4
//! (the kernel's form; ≈ 29 core cycles against the chain's ≈ 23); the
//! lookups and blends alone, half registers, 12.8. Tried there and
//! slower: zero-masked lookups ORed per class (the S-box 15.8 vs 12.8),
//! a chain of 7 selects by (class, bit 7) vector masks so the last lookup
//! waits for one op instead of three (26 vs 22), per-term `vpshufb` on half
//! registers (23.8), the S-box all on ymm with 16 64-entry lookups (37 vs
//! 12.8, in a build of the model that may have spilled).
//!
//! Half registers: a batch of ≤ 32 bytes keeps its state in a ymm. Each
//! round widens it to a zmm (a cast: the high half is unspecified, and so
//! are those lookups' high halves, never used), does the 8 lookups on the
//! zmm tables, takes their low halves (casts) and does the rest on ymm,
//! where each op issues twice as fast. Kalyna-256 uses the rotation form
//! there (its `vpermb` ShiftRows is ymm, 4 cycles); its per-term `vpermb`
//! on ymm measured slower (1 block: enc 13.3 vs 11.6, dec 14.0 vs
//! 11.7-11.9 ticks/byte).
//!
//! Measured (AMD EPYC Zen 4 VM, TSC ticks per byte, `multiblock bench
//! --ways 1 2 4 --reps 7` and `--modes --reps 21 --bytes 65536`, 2-core
//! VM shared with builds; `table` in brackets). Encryption of a 1-block
//! call: Kalyna-128/128 14.2-14.4 (8.9-10.5), 128/256 19.6 (12.1-14.3),
//! 256/256 10.8 (9.2), 256/512 13.7 (11.7), 512/512 9.1-9.9 (12.6).
//! Decryption of a 1-block call: 14.8-15.5, 21.2-21.4, 11.4, 14.8. 4
//! Kalyna-128 blocks (zmm, rotation form): 4.5-5.1. Chained modes on the
//! default (the narrow tier), with `table` in brackets: CBC encryption
//! 15.9 (10.5), 21.4-21.6 (13.7), 11.7-11.8 (9.8), 14.2-14.5 (12.3),
//! 10.1-10.2 (12.7-16.8, noisy); CMAC 15.3-15.4 (9.5), 20.8 (12.7), 11.3
//! (9.5), 13.8-14.3 (12.0), 10.0 (12.7). So Kalyna-128 chains cost ≈ 1.5x
//! `table`, Kalyna-256 1.2x; Kalyna-512 is faster than `table`. The tier:
//! with two batches (the second on half registers) the narrow kernel also
//! beats avx512-gfni at 5-6 Kalyna-128 blocks (80-96 B: enc 6.5 / 5.7 vs
//! 7.0-7.4 / 6.3-6.4, dec 7.0-7.2 / 5.8-6.2 vs 9.5-9.7 / 8.2-8.4) and
//! 3 Kalyna-256 blocks (enc a tie, 7.7-8.4 vs 7.7-8.7; dec 8.2-8.8 vs
//! 11.1-11.4); at 128 B avx512-gfni wins Kalyna-256 encryption (6.1-6.6 vs
//! 6.5-7.0). So the default's tier ends at 96 bytes on Zen 4 (128 on Zen 5:
//! see `avx512_gfni.rs`).
//!
//! Two registers: a batch of more than one register runs both in one
//! round loop, so the second one's lookups fill the first's chain. On a
//! Sapphire Rapids VM (TSC ticks/byte, A/B, 3 rounds), interleaved against
//! one register after the other: Kalyna-128/128 5, 6, 8 blocks enc 5.0,
//! 4.2, 3.1 against 6.9, 5.8, 4.5, dec 5.6, 4.6, 3.4 against 8.1, 6.7, 5.2;
//! Kalyna-256/256 3 and 4 blocks enc 5.6, 4.5 against 8.5, 6.4, dec 6.2,
//! 4.7 against 9.3, 6.5. The default's tier on Intel ends at 128 bytes (decryption 192; see
//! `avx512_gfni.rs`).
//!
//! One block on Intel: a chain of the 8 `vpermi2b` and their sum alone
//! measured 22 core cycles there (a C loop; `vpermi2b` zmm is 3 µops, 2 on
//! port 5, and issues every 2 cycles), 8.8 ticks/byte over Kalyna-128's 10
//! rounds, against 7.4 for the whole `table` block: no one-register form
//! of this S-box reaches 1.1× `table` for one Kalyna-128 block there.
//! Removing the blends (zero-masked or ANDed lookups summed by
//! `vpternlog`) and a `vpshufd` in place of LLVM's `vpermw` for ShiftRows
//! did not change the 1-block time (A/B).

use super::super::constants::{MDS, MDS_INV, SBOX, SBOX_INV};
use super::super::variant::{MAX_BLOCK, MAX_ROUND_KEYS};
use super::super::zmm_sbox::{sboxes, sub_by_class, CLASS};
use super::super::variant::{Keys, Variant};
use crate::gf256::{self, KALYNA};
use crate::backend::Backend;
use crate::kernel::{self, BatchCipher};
use crate::simd::{Avx512, Avx512Gfni, Gfni, Job, Machine, Narrow as Halves, Simd, Vbmi, Zmm};
use std::sync::OnceLock;

/// One register's worth of bytes.
type Pattern = [u8; 64];

/// ShiftRows shift δ_i = ⌊i·nb/8⌋ of row i (§5.2).
const fn shift_of(row: usize, nb: usize) -> usize {
    row * nb / 8
}

/// The byte permutation of MixColumns' term d after ShiftRows: byte p of the
/// result (column c, row i of its block) is byte index[p] of the S-box
/// output, row r = (i + d) mod 8 of column (c − δ_r) mod nb.
const fn enc_index(nb: usize, d: usize) -> Pattern {
    let (bb, mut idx, mut p) = (8 * nb, [0u8; 64], 0);
    while p < 64 {
        let (base, c, i) = (p / bb * bb, p % bb / 8, p % 8);
        let r = (i + d) % 8;
        idx[p] = (base + 8 * ((c + nb - shift_of(r, nb)) % nb) + r) as u8;
        p += 1;
    }
    idx
}

/// InvShiftRows after InvMixColumns' term d: byte p (column c, row i) is
/// row (i + d) mod 8 of column (c + δ_i) mod nb of the input.
const fn dec_index(nb: usize, d: usize) -> Pattern {
    let (bb, mut idx, mut p) = (8 * nb, [0u8; 64], 0);
    while p < 64 {
        let (base, c, i) = (p / bb * bb, p % bb / 8, p % 8);
        idx[p] = (base + 8 * ((c + shift_of(i, nb)) % nb) + (i + d) % 8) as u8;
        p += 1;
    }
    idx
}

/// The 8 term permutations of one direction for nb columns.
const fn indices(nb: usize, dec: bool) -> [Pattern; 8] {
    let mut t = [[0u8; 64]; 8];
    let mut d = 0;
    while d < 8 {
        t[d] = if dec { dec_index(nb, d) } else { enc_index(nb, d) };
        d += 1;
    }
    t
}

/// [enc, dec] term permutations for nb = 2, 4, 8.
static INDICES: [[[Pattern; 8]; 2]; 3] =
    [[indices(2, false), indices(2, true)], [indices(4, false), indices(4, true)], [indices(8, false), indices(8, true)]];

/// The `vgf2p8affineqb` matrices of v's or v⁻¹'s coefficients.
const fn matrices(v: &[u8; 8]) -> [u64; 8] {
    let mut m = [0u64; 8];
    let mut d = 0;
    while d < 8 {
        m[d] = gf256::mul_matrix(v[d], KALYNA);
        d += 1;
    }
    m
}

const ENC_MATRICES: [u64; 8] = matrices(&MDS);
const DEC_MATRICES: [u64; 8] = matrices(&MDS_INV);

/// The round keys repeated over a register. The decryption keys are
/// built on the first decryption: encryption-only uses (CBC/CFB/OFB
/// encryption, CTR, every MAC) skip their InvMixColumns, which is most of
/// the key setup of the 512-bit variant (measured on Zen 4: a 64-byte
/// Kalyna-512/512 message with key setup takes 75 cycles/byte, 145 if the
/// decryption keys are built with the key).
pub(crate) struct NarrowKeys {
    variant: Variant,
    /// K_r, r = 0..=t.
    enc: [Pattern; 19],
    /// Boxed: the kernel is built on the stack and moved into its box, and
    /// these 2.4 KiB (uninitialised until the first decryption) would be
    /// copied with it on every key setup.
    dec: OnceLock<Box<DecKeys>>,
}

/// What decryption adds to the round keys. Each variant fills only the
/// forms its kernels read (see [`DecKeys::new`]); the rest stay zero.
pub(crate) struct DecKeys {
    /// InvShiftRows(InvMixColumns(K_r)) for r = 1..t (0 and t unused):
    /// Kalyna-256 on whole registers, Kalyna-512.
    dec: [Pattern; 19],
    /// InvMixColumns(K_r) for r = 1..t (the rotation form's): Kalyna-128,
    /// Kalyna-256 on half registers.
    dec_mixed: [Pattern; 19],
}

// Wiped as slices: one `memset` and a barrier each (the derived wipe of
// an array of arrays stores byte by byte, about 3.6k cycles for the
// 3.6 KiB of both, which a 64-byte message with key setup paid in full).
// The decryption keys are wiped when their box is dropped with `dec`.
crate::wipe::wiped_as_slices!(NarrowKeys: enc);
crate::wipe::wiped_as_slices!(DecKeys: dec, dec_mixed);

impl NarrowKeys {
    fn new(keys: &Keys) -> NarrowKeys {
        let v = keys.variant;
        let mut k = NarrowKeys { variant: v, enc: [[0; 64]; 19], dec: OnceLock::new() };
        // Fixed-size copies (register moves), not a memcpy call per block.
        match v.block_bytes() {
            16 => repeat_keys::<16>(keys, &mut k.enc),
            32 => repeat_keys::<32>(keys, &mut k.enc),
            _ => repeat_keys::<64>(keys, &mut k.enc),
        }
        k
    }

    /// The decryption keys, built on first use on machine `m`.
    #[inline(always)]
    fn dec<M: Gfni + Vbmi + Avx512, const NB: usize>(&self, m: M) -> &DecKeys {
        kernel::once!(self.dec, DecKeys::new::<M, NB>(m, self.variant, &self.enc))
    }
}

/// Each round key of `keys` (BB-byte blocks) repeated over its pattern.
fn repeat_keys<const BB: usize>(keys: &Keys, enc: &mut [Pattern; 19]) {
    for (r, pattern) in enc.iter_mut().enumerate().take(keys.variant.rounds() + 1) {
        let key: &[u8; BB] = keys.round_key(r).try_into().expect("BB-byte round key");
        for block in pattern.chunks_exact_mut(BB) {
            block.copy_from_slice(key);
        }
    }
}

/// The key schedule back from the patterns (each round key is the first
/// `block_bytes` of its pattern): `avx512-gfni` keys its wide kernel from
/// it on its first long call (`kernel::tiered_backend`).
impl kernel::KeySchedule<Keys> for Narrow {
    fn key_schedule(&self) -> Keys {
        let k = &self.keys;
        let bb = k.variant.block_bytes();
        let mut keys = Keys { variant: k.variant, rk: [[0; MAX_BLOCK]; MAX_ROUND_KEYS] };
        for r in 0..=k.variant.rounds() {
            keys.rk[r][..bb].copy_from_slice(&k.enc[r][..bb]);
        }
        keys
    }
}

impl DecKeys {
    /// From the round keys `enc` with the kernel's own linear layers (GFNI
    /// products: constant-time, about 20 instructions per round key, where
    /// the scalar constant-time column product took most of Kalyna-512's
    /// key setup). Written in place in its box: built on the stack and
    /// then boxed, its 2.4 KiB would be copied once more per first
    /// decryption.
    #[inline(always)]
    fn new<M: Gfni + Vbmi + Avx512, const NB: usize>(m: M, v: Variant, enc: &[Pattern; 19]) -> Box<DecKeys> {
        let idx = index_registers(m, NB, true);
        let mut k = Box::new(DecKeys { dec: [[0; 64]; 19], dec_mixed: [[0; 64]; 19] });
        // Only the forms this variant's kernels read (a public choice by
        // variant): the rotation form on half registers (NB ≤ 4) and for
        // Kalyna-128 on whole ones, the permutation form on the others.
        for r in 1..v.rounds() {
            let key = m.load(&enc[r]);
            if NB <= 4 {
                m.store(mix(m, key, &MDS_INV, &DEC_MATRICES, m.zero()), &mut k.dec_mixed[r]);
            }
            if !rotates(NB) {
                m.store(linear::<M, NB>(m, key, &idx, &MDS_INV, &DEC_MATRICES, m.zero()), &mut k.dec[r]);
            }
        }
        k
    }
}

// No closures below: they would not inherit the target features (see `simd`).

/// [`sub_by_class`] of a half register `x` (machine `M`'s half `H`): the
/// lookups on M's whole 128-entry tables (the index widened; its high half
/// is unspecified, and so are those lookups' high halves, never used), the
/// blends on H.
#[inline(always)]
fn sub_half<M: Vbmi + Halves>(m: M, t: &[[M::V; 4]; 4], class: HalfV<M>, x: HalfV<M>) -> HalfV<M>
where
    M::Half: Avx512,
{
    let (h, wide) = (m.half(), m.widen(x));
    let (mut lo, mut hi) = ([x; 4], [x; 4]);
    for a in 0..4 {
        lo[a] = m.low_half(m.permi2b(t[a][0], wide, t[a][1]));
        hi[a] = m.low_half(m.permi2b(t[a][2], wide, t[a][3]));
    }
    let lo = h.select_bit::<1>(class, h.select_bit::<0>(class, lo[0], lo[1]), h.select_bit::<0>(class, lo[2], lo[3]));
    let hi = h.select_bit::<1>(class, h.select_bit::<0>(class, hi[0], hi[1]), h.select_bit::<0>(class, hi[2], hi[3]));
    h.select_bit::<7>(x, lo, hi)
}

/// A register of machine M's half.
type HalfV<M> = <<M as Halves>::Half as Simd>::V;

/// Term d of the sum: the permutation `idx`, times the coefficient whose
/// matrix is `matrix` (skipped for the coefficient 1).
#[inline(always)]
fn term<M: Gfni + Vbmi, const NB: usize>(m: M, x: M::V, idx: M::V, coef: u8, matrix: u64) -> M::V {
    // A Kalyna-128 block is one 128-bit lane: the in-lane shuffle does.
    let y = if NB == 2 { m.shuffle8(x, idx) } else { m.permb(x, idx) };
    if coef == 1 {
        y
    } else {
        m.affine(y, matrix)
    }
}

/// ⊕ of the 8 terms of `x` (coefficients `v`) and `key`.
#[inline(always)]
fn linear<M: Gfni + Vbmi + Avx512, const NB: usize>(
    m: M,
    x: M::V,
    idx: &[M::V; 8],
    v: &[u8; 8],
    matrices: &[u64; 8],
    key: M::V,
) -> M::V {
    let mut t = [x; 8];
    for d in 0..8 {
        t[d] = term::<M, NB>(m, x, idx[d], v[d], matrices[d]);
    }
    // MixColumns' unit terms (d = 0, 1, 3) are ready first: summed first.
    let a = m.xor3(t[0], t[1], t[3]);
    let b = m.xor3(t[2], t[4], t[5]);
    let c = m.xor3(t[6], t[7], key);
    m.xor3(a, b, c)
}

/// ⊕ over d of v_d · z with row i of every column ← row (i + d) mod 8,
/// and `key`. The row rotation is each little-endian 64-bit column rotated
/// right by 8d bits (`vprorq`); the products (bytewise) come first, which
/// measured faster than after.
#[inline(always)]
fn mix<M: Gfni + Vbmi + Avx512>(m: M, z: M::V, v: &[u8; 8], matrices: &[u64; 8], key: M::V) -> M::V {
    let mut p = [z; 8];
    for d in 0..8 {
        if v[d] != 1 {
            p[d] = m.affine(z, matrices[d]);
        }
    }
    let t = [
        p[0],
        m.rotl64::<56>(p[1]),
        m.rotl64::<48>(p[2]),
        m.rotl64::<40>(p[3]),
        m.rotl64::<32>(p[4]),
        m.rotl64::<24>(p[5]),
        m.rotl64::<16>(p[6]),
        m.rotl64::<8>(p[7]),
    ];
    let a = m.xor3(t[0], t[1], t[3]);
    let b = m.xor3(t[2], t[4], t[5]);
    let c = m.xor3(t[6], t[7], key);
    m.xor3(a, b, c)
}

/// The whole-block permutation `idx` (ShiftRows or InvShiftRows).
#[inline(always)]
fn shift_rows<M: Vbmi, const NB: usize>(m: M, x: M::V, idx: M::V) -> M::V {
    if NB == 2 {
        // Rows 4..7 of the two columns swap (both directions): the 32-bit
        // words (0, 3, 2, 1), `vpshufd` (1 cycle; `vpshufb` 2 on Zen 4).
        m.shuffle32::<0x6c>(x)
    } else {
        m.permb(x, idx)
    }
}

/// [`linear`] for encryption with one permutation: MixColumns' terms as
/// row rotations of ShiftRows(x).
#[inline(always)]
fn linear_enc_rot<M: Gfni + Vbmi + Avx512, const NB: usize>(m: M, x: M::V, sr: M::V, key: M::V) -> M::V {
    mix(m, shift_rows::<M, NB>(m, x, sr), &MDS, &ENC_MATRICES, key)
}

/// [`linear`] for decryption with one permutation: InvShiftRows after the
/// sum of InvMixColumns' rotated terms and `key` = InvMixColumns(K_r).
#[inline(always)]
fn linear_dec_rot<M: Gfni + Vbmi + Avx512, const NB: usize>(m: M, x: M::V, isr: M::V, key: M::V) -> M::V {
    shift_rows::<M, NB>(m, mix(m, x, &MDS_INV, &DEC_MATRICES, key), isr)
}

/// Whether variant NB's kernel uses the rotation form ([`linear_enc_rot`]).
const fn rotates(nb: usize) -> bool {
    nb == 2
}

/// The batch's blocks as one register: a whole load, or its 128-bit lanes
/// (the rest zero: public padding that is never stored).
#[inline(always)]
fn load<M: Simd>(m: M, src: &[u8]) -> M::V {
    if src.len() == M::BYTES {
        return m.load(src);
    }
    let mut v = m.zero();
    for (lane, piece) in src.chunks_exact(16).enumerate() {
        v = m.load_lane(v, lane, piece);
    }
    v
}

/// The inverse of [`load`].
#[inline(always)]
fn store<M: Simd>(m: M, v: M::V, dst: &mut [u8]) {
    if dst.len() == M::BYTES {
        return m.store(v, dst);
    }
    for (lane, piece) in dst.chunks_exact_mut(16).enumerate() {
        m.store_lane(v, lane, piece);
    }
}

/// The terms' permutations of one direction as registers.
#[inline(always)]
fn index_registers<M: Simd>(m: M, nb: usize, dec: bool) -> [M::V; 8] {
    let p = &INDICES[nb.trailing_zeros() as usize - 1][usize::from(dec)];
    let mut idx = [m.zero(); 8];
    for d in 0..8 {
        idx[d] = m.load(&p[d]);
    }
    idx
}

/// Whether a call of `len` bytes runs on half registers: up to half a
/// register of Kalyna-128 or Kalyna-256 blocks (a public length).
fn on_half<M: Simd>(nb: usize, len: usize) -> bool {
    nb <= 4 && len <= M::BYTES / 2
}

/// [`encrypt_nb`] on half a register (see [`on_half`]): the S-box lookups
/// on whole registers, the rest (blends, ShiftRows, rotations, products,
/// sums: single-pumped on Zen 4) on the half.
#[inline(always)]
fn encrypt_half<M: Vbmi + Halves, const NB: usize>(m: M, k: &NarrowKeys, data: &mut [u8])
where
    M::Half: Gfni + Vbmi + Avx512,
{
    let (h, t) = (m.half(), k.variant.rounds());
    let (sb, class, sr) = (sboxes(m, &SBOX), h.load(&CLASS), h.load(&INDICES[NB.trailing_zeros() as usize - 1][0][0]));
    let mut s = h.add64(load(h, data), h.load(&k.enc[0]));
    for r in 1..t {
        s = linear_enc_rot::<M::Half, NB>(h, sub_half(m, &sb, class, s), sr, h.load(&k.enc[r]));
    }
    s = h.add64(linear_enc_rot::<M::Half, NB>(h, sub_half(m, &sb, class, s), sr, h.zero()), h.load(&k.enc[t]));
    store(h, s, data);
}

/// [`decrypt_nb`] on half a register.
#[inline(always)]
fn decrypt_half<M: Vbmi + Halves, const NB: usize>(m: M, k: &NarrowKeys, dk: &DecKeys, data: &mut [u8])
where
    M::Half: Gfni + Vbmi + Avx512,
{
    let (h, t) = (m.half(), k.variant.rounds());
    let (sb, class, isr) = (sboxes(m, &SBOX_INV), h.load(&CLASS), h.load(&INDICES[NB.trailing_zeros() as usize - 1][1][0]));
    let s = h.sub64(load(h, data), h.load(&k.enc[t]));
    let mut s = sub_half(m, &sb, class, linear_dec_rot::<M::Half, NB>(h, s, isr, h.zero()));
    for r in (1..t).rev() {
        s = sub_half(m, &sb, class, linear_dec_rot::<M::Half, NB>(h, s, isr, h.load(&dk.dec_mixed[r])));
    }
    store(h, h.sub64(s, h.load(&k.enc[0])), data);
}

/// Encrypts one batch in place (NB = the variant's nb, a constant): half a
/// register, one register, or two interleaved (the second maybe partial).
#[inline(always)]
fn encrypt_nb<M: Gfni + Vbmi + Avx512 + Halves, const NB: usize>(m: M, k: &NarrowKeys, data: &mut [u8])
where
    M::Half: Gfni + Vbmi + Avx512,
{
    if on_half::<M>(NB, data.len()) {
        encrypt_half::<M, NB>(m, k, data)
    } else if data.len() <= M::BYTES {
        encrypt_regs::<M, NB, 1>(m, k, data)
    } else {
        encrypt_regs::<M, NB, 2>(m, k, data)
    }
}

/// Decrypts one batch in place, as [`encrypt_nb`].
#[inline(always)]
fn decrypt_nb<M: Gfni + Vbmi + Avx512 + Halves, const NB: usize>(m: M, k: &NarrowKeys, data: &mut [u8])
where
    M::Half: Gfni + Vbmi + Avx512,
{
    let dk = k.dec::<M, NB>(m);
    if on_half::<M>(NB, data.len()) {
        decrypt_half::<M, NB>(m, k, dk, data)
    } else if data.len() <= M::BYTES {
        decrypt_regs::<M, NB, 1>(m, k, dk, data)
    } else {
        decrypt_regs::<M, NB, 2>(m, k, dk, data)
    }
}

/// The R registers of `data` (each M::BYTES, the last maybe partial).
#[inline(always)]
fn load_regs<M: Simd, const R: usize>(m: M, data: &[u8]) -> [M::V; R] {
    let mut s = [m.zero(); R];
    for (v, piece) in s.iter_mut().zip(data.chunks(M::BYTES)) {
        *v = load(m, piece);
    }
    s
}

/// The inverse of [`load_regs`].
#[inline(always)]
fn store_regs<M: Simd, const R: usize>(m: M, s: [M::V; R], data: &mut [u8]) {
    for (v, piece) in s.into_iter().zip(data.chunks_mut(M::BYTES)) {
        store(m, v, piece);
    }
}

/// A direction's S-box tables, term permutations and class register.
type RoundConsts<M> = ([[<M as Simd>::V; 4]; 4], [<M as Simd>::V; 8], <M as Simd>::V);

/// One encryption round of register `x` with round key `key` (zero: none).
#[inline(always)]
fn enc_round<M: Gfni + Vbmi + Avx512, const NB: usize>(m: M, c: &RoundConsts<M>, x: M::V, key: M::V) -> M::V {
    let (sb, idx, class) = c;
    let y = sub_by_class(m, sb, *class, x);
    if rotates(NB) {
        linear_enc_rot::<M, NB>(m, y, idx[0], key)
    } else {
        linear::<M, NB>(m, y, idx, &MDS, &ENC_MATRICES, key)
    }
}

/// One decryption round: the inverse linear layer with `key` (the
/// variant's form of InvMixColumns(K_r); zero: none), then the inverse
/// S-boxes.
#[inline(always)]
fn dec_round<M: Gfni + Vbmi + Avx512, const NB: usize>(m: M, c: &RoundConsts<M>, x: M::V, key: M::V) -> M::V {
    let (sb, idx, class) = c;
    let y = if rotates(NB) {
        linear_dec_rot::<M, NB>(m, x, idx[0], key)
    } else {
        linear::<M, NB>(m, x, idx, &MDS_INV, &DEC_MATRICES, key)
    };
    sub_by_class(m, sb, *class, y)
}

/// Encrypts R whole or partial registers, their rounds interleaved: one
/// round of one register is a dependency chain, and the second register's
/// lookups fill its latency.
#[inline(always)]
fn encrypt_regs<M: Gfni + Vbmi + Avx512, const NB: usize, const R: usize>(m: M, k: &NarrowKeys, data: &mut [u8]) {
    let t = k.variant.rounds();
    let c = (sboxes(m, &SBOX), index_registers(m, NB, false), m.load(&CLASS));
    let mut s = load_regs::<M, R>(m, data);
    for v in s.iter_mut() {
        *v = m.add64(*v, m.load(&k.enc[0]));
    }
    for r in 1..t {
        let key = m.load(&k.enc[r]);
        for v in s.iter_mut() {
            *v = enc_round::<M, NB>(m, &c, *v, key);
        }
    }
    for v in s.iter_mut() {
        *v = m.add64(enc_round::<M, NB>(m, &c, *v, m.zero()), m.load(&k.enc[t]));
    }
    store_regs(m, s, data);
}

/// Decrypts R registers, as [`encrypt_regs`].
#[inline(always)]
fn decrypt_regs<M: Gfni + Vbmi + Avx512, const NB: usize, const R: usize>(
    m: M,
    k: &NarrowKeys,
    dk: &DecKeys,
    data: &mut [u8],
) {
    let t = k.variant.rounds();
    let c = (sboxes(m, &SBOX_INV), index_registers(m, NB, true), m.load(&CLASS));
    let keys = if rotates(NB) { &dk.dec_mixed } else { &dk.dec };
    let mut s = load_regs::<M, R>(m, data);
    for v in s.iter_mut() {
        *v = dec_round::<M, NB>(m, &c, m.sub64(*v, m.load(&k.enc[t])), m.zero());
    }
    for r in (1..t).rev() {
        let key = m.load(&keys[r]);
        for v in s.iter_mut() {
            *v = dec_round::<M, NB>(m, &c, *v, key);
        }
    }
    for v in s.iter_mut() {
        *v = m.sub64(*v, m.load(&k.enc[0]));
    }
    store_regs(m, s, data);
}

/// ψ = MixColumns∘ShiftRows∘SubBytes on whole blocks in place, in constant
/// time: the key schedule's round (§6). Returns false, having done nothing,
/// when the CPU lacks AVX-512 VBMI or GFNI.
pub(in crate::kalyna) fn psi(v: Variant, s: &mut [u8]) -> bool {
    let Some(m) = Zmm::<Avx512Gfni>::detect() else {
        return false;
    };
    m.vectorize(Psi { m, nb: v.nb(), s });
    true
}

/// [`psi`] on every register of `s`, inside the machine's instruction set.
struct Psi<'a, M> {
    m: M,
    nb: usize,
    s: &'a mut [u8],
}

impl<M: Gfni + Vbmi + Avx512> Job for Psi<'_, M> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        match self.nb {
            2 => psi_nb::<M, 2>(self.m, self.s),
            4 => psi_nb::<M, 4>(self.m, self.s),
            _ => psi_nb::<M, 8>(self.m, self.s),
        }
    }
}

#[inline(always)]
fn psi_nb<M: Gfni + Vbmi + Avx512, const NB: usize>(m: M, s: &mut [u8]) {
    let (sb, idx, class) = (sboxes(m, &SBOX), index_registers(m, NB, false), m.load(&CLASS));
    for chunk in s.chunks_mut(M::BYTES) {
        let y = sub_by_class(m, &sb, class, load(m, chunk));
        store(m, linear::<M, NB>(m, y, &idx, &MDS, &ENC_MATRICES, m.zero()), chunk);
    }
}

/// ways: Kalyna-128 blocks per batch (two registers).
pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Zmm<Avx512Gfni>, Narrow>("avx512-gfni-narrow", true, 8);

/// The narrow kernel: one register of whole blocks per batch.
pub(crate) struct Narrow {
    keys: NarrowKeys,
}

impl<M: Gfni + Vbmi + Avx512 + Halves> BatchCipher<M> for Narrow
where
    M::Half: Gfni + Vbmi + Avx512,
{
    type Keys = Keys;
    /// Two registers: a call of up to 8 Kalyna-128 blocks runs as one
    /// interleaved batch.
    const BATCH_BYTES: usize = 2 * M::BYTES;
    /// One Kalyna-128 block: a 1-block call is not padded.
    const GRANULE_BYTES: usize = 16;

    fn new(_: M, keys: &Keys) -> Self {
        const { assert!(M::BYTES == 64) };
        Narrow { keys: NarrowKeys::new(keys) }
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        crypt::<M, false>(m, &self.keys, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        crypt::<M, true>(m, &self.keys, batch)
    }
}

/// Encrypts (`DECRYPT` false) or decrypts one batch in place, with the
/// variant's nb as a constant.
#[inline(always)]
fn crypt<M: Gfni + Vbmi + Avx512 + Halves, const DECRYPT: bool>(m: M, k: &NarrowKeys, batch: &mut [u8])
where
    M::Half: Gfni + Vbmi + Avx512,
{
    match k.variant.nb() {
        2 => crypt_nb::<M, 2, DECRYPT>(m, k, batch),
        4 => crypt_nb::<M, 4, DECRYPT>(m, k, batch),
        _ => crypt_nb::<M, 8, DECRYPT>(m, k, batch),
    }
}

/// One direction of [`crypt`] at NB columns.
#[inline(always)]
fn crypt_nb<M: Gfni + Vbmi + Avx512 + Halves, const NB: usize, const DECRYPT: bool>(m: M, k: &NarrowKeys, data: &mut [u8])
where
    M::Half: Gfni + Vbmi + Avx512,
{
    if DECRYPT {
        decrypt_nb::<M, NB>(m, k, data)
    } else {
        encrypt_nb::<M, NB>(m, k, data)
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference;
    use super::*;
    use crate::simd::emu::Emu;
    use crate::test_rng::Rng;
    use crate::test_util::check_against;

    /// The key schedule given back for the wide kernel is the one keyed,
    /// for every variant (a wrong one fails every long call).
    #[test]
    fn key_schedule_comes_back() {
        use crate::kernel::KeySchedule;
        let mut rng = Rng(0x5c4e);
        for v in Variant::ALL {
            let keys = Keys::new(v, &rng.bytes(v.key_bytes()));
            let back = Narrow { keys: NarrowKeys::new(&keys) }.key_schedule();
            assert_eq!(back.variant, v);
            assert_eq!(back.rk, keys.rk, "{v:?}");
        }
    }

    /// Kalyna-128's permutations stay inside their 128-bit lane (`vpshufb`).
    #[test]
    fn kalyna_128_terms_stay_in_their_lane() {
        for dir in &INDICES[0] {
            for idx in dir {
                assert!(idx.iter().enumerate().all(|(p, &i)| usize::from(i) / 16 == p / 16));
            }
        }
    }

    /// The kernel on machine M through the batch driver against the
    /// reference: every variant, random keys, 1..=4 registers and partial
    /// ones (every whole number of blocks up to 2 batches of 2 registers +
    /// 1 block).
    fn check<M: Gfni + Vbmi + Avx512 + Halves>(rng: &mut Rng)
    where
        M::Half: Gfni + Vbmi + Avx512,
    {
        let backend = kernel::backend::<M, Narrow>("emulated", true, 4);
        for v in Variant::ALL {
            for _ in 0..2 {
                let keys = Keys::new(v, &rng.bytes(v.key_bytes()));
                let (kernel, oracle) = ((backend.new)(&keys), (reference::BACKEND.new)(&keys));
                let bb = v.block_bytes();
                for blocks in 0..=(256 / bb + 1) {
                    let what = format!("{v:?}, {blocks} blocks");
                    check_against(&*kernel, &*oracle, &rng.bytes(blocks * bb), &what);
                }
            }
        }
    }

    /// ψ on 1..=10 blocks of every variant against the reference's ψ.
    #[test]
    fn psi_matches_the_reference() {
        let mut rng = Rng(0x7624_0003);
        for v in Variant::ALL {
            let bb = v.block_bytes();
            for blocks in 1..=10 {
                let data = rng.bytes(blocks * bb);
                let mut want = data.clone();
                want.chunks_exact_mut(bb).for_each(reference::psi_block);
                let mut got = data.clone();
                if psi(v, &mut got) {
                    assert_eq!(got, want, "{v:?}, {blocks} blocks");
                }
                let mut got = data.clone();
                Emu::<64>.vectorize(Psi { m: Emu::<64>, nb: v.nb(), s: &mut got });
                assert_eq!(got, want, "{v:?}, {blocks} blocks, emulated");
            }
        }
    }

    #[test]
    fn emulated_kernel_matches_the_reference() {
        check::<Emu<64>>(&mut Rng(0x7624_0001));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn kernel_matches_the_reference_on_this_cpu() {
        use crate::simd::Machine;
        if Zmm::<Avx512Gfni>::detect().is_some() {
            check::<Zmm<Avx512Gfni>>(&mut Rng(0x7624_0002));
        }
    }
}
