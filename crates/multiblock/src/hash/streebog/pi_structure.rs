//! π from its structure: two GF(2^4) products and a few 4-bit tables in
//! place of a 256-entry lookup, for kernels without a whole-table lookup
//! instruction (`paired.rs` on ymm, `xmm.rs` on xmm).
//!
//! The decomposition is Biryukov, Perrin and Udovenko's (EUROCRYPT 2016,
//! "Reverse-Engineering the S-Box of Streebog, Kuznyechik and STRIBOBr1";
//! full version IACR ePrint 2016/071, the final decomposition of π: its
//! figure, the tables of the four 4-bit maps and the two matrices). With ⊙
//! the product and I the inverse (I(0) = 0) in GF(2^4) = GF(2)[X]/(X^4 +
//! X^3 + 1):
//!
//! - (l, r) = α(x), l the high nibble, α an 8×8 bit matrix;
//! - l' = ν0(l) if r = 0, else ν1(l ⊙ I(r));
//! - r' = σ(r ⊙ φ(l'));
//! - π(x) = ω(l' ‖ r'), ω an 8×8 bit matrix.
//!
//! The tables below are the paper's; [`pi_by_structure`] is checked
//! against [`PI`](super::constants::PI) on all 256 inputs.
//!
//! The kernels compute the core c = l' ⊕ (r' << 4) and leave ω (and the
//! nibble swap) to the linear layer that follows: [`OUTPUT`] is the matrix
//! with π(x) = OUTPUT · c, folded into L's 8×8 blocks by `paired.rs`.
//!
//! Four ways to the core, each generic over the machine ([`Core`]):
//!
//! [`Logs`] (`avx2`): the products by logarithms to the base X (a
//! generator: X^4 + X^3 + 1 is primitive). The kernel holds α(x) already
//! ([`Core::DOMAIN`]): l and r are its nibbles. log l and log r by `pshufb`
//! (log 0 is 0xc0: a sum with it, or it less a logarithm, keeps bit 7
//! set, and `pshufb` then returns 0; where r = 0 the blend below takes
//! ν0's lookup); l ⊙ I(r) by log l − log r mod 15 as min(d,
//! d + 15) of the byte difference d (below zero d wraps to 256 + d, and
//! d + 15 is the residue), l' ⊙ φ's product by a sum mod 15 as min(s, s −
//! 15) (`pminub` both); the tables after them are indexed by the
//! logarithm. ν1(0) = 7 is the zero that `pshufb` returns for
//! l = 0, so the ν0 and ν1 tables hold ν ⊕ 7 (φ's table is indexed
//! accordingly); r = 0 makes σ's lookup 0, so its table holds σ ⊕ σ(0);
//! the core comes out as c ⊕ 0xc7 ([`Core::OFFSET`]), a constant the
//! kernel's round constants take off. Per register: 3 to split α(x) into
//! l and r, 2 logarithms, 3 for the difference, 2 `pshufb` (ν0, ν1) and a
//! blend (on log r's bit 7), `pshufb` log φ, 3 for the sum, `pshufb` σ,
//! XOR: 17 µops (6 `pshufb`, a shift and the blend on the two pipes that
//! AMD Zen 4 and Zen 5 share among shuffles and blends, 9 on any pipe)
//! against 35 for Kuznyechik's 16-row `pshufb` tree (16 `pshufb`, 3 shifts
//! and 15 blends on those two pipes, an AND). The difference takes one µop
//! and one step of the chain fewer than log l + (log r ⊕ 15) mod 15: on AMD
//! Zen 4, alternating runs of the two forms put it 1–3% ahead on every size
//! of Streebog-512 on `avx2-gfni` and `avx2` (best and median of 8), and
//! 2–4% on Zen 5.
//!
//! [`ZeroingLogs`] (`ssse3`): `Logs` with ν0's and ν1's lookups indexed
//! so that each returns 0 where the other is meant, their XOR in place of
//! the blend SSSE3 lacks (−log r as log r ⊕ 15, which ν0's index takes
//! too): 20 µops per register, as many as `Logs` with SSSE3's blend of 4,
//! and ν0's and ν1's lookups do not wait for a blend.
//!
//! [`AffineLogs`] (`avx2-gfni`): the same with l and r straight from x by
//! one `vgf2p8affineqb` each (α and the nibble's place in one matrix; the
//! kernel's values stay as they are): 16 µops (6 `pshufb` and the blend on
//! the shared pipes, 2 affine mostly beside them, 7 on any pipe), a chain
//! of ≈ 15 cycles (affine 3, then 12 one-cycle steps).
//!
//! [`Field`] (GFNI, tests and comparison): GF(2^4) as the subfield
//! {y : y^16 = y} of GF(2^8)/0x11B, the field of `vgf2p8mulb` and
//! `vgf2p8affineinvqb`; a nibble n goes in by the field isomorphism E(X) =
//! β (a root of X^4 + X^3 + 1 there), composed with α so that l̂ = E(l) and
//! r̂ = E(r) come from x by one `vgf2p8affineqb` each, and back by one more
//! ([`TO_NIBBLE`]). Per register: 2 affine, compare r̂ with 0 and subtract
//! the mask (r̂ = 0 becomes 1, so that l̂ ⊙ r̂⁻¹ = l̂ is ν0's index too),
//! `vgf2p8affineinvqb`, `vgf2p8mulb`, affine to a nibble, 2 `pshufb` and a
//! blend, `pshufb` E(φ), `vgf2p8mulb`, affine to a nibble, `pshufb` σ << 4,
//! XOR: 15 µops (8 products, 3 `pshufb` and a blend, which on AMD Zen 4
//! mostly share two pipes, and 3 on any), but a chain of ≈ 25
//! cycles (six GFNI steps of 3): slower in `paired.rs`, whose block is one
//! long chain (see there).
//!
//! [`TreeCore`]: the tree over the core's 256-byte table (comparison).
//!
//! All are constant-time: `pshufb` on tables in registers, GFNI, compares,
//! blends and arithmetic; no data-dependent address or branch.

// `Field` and `TreeCore` run in the tests and their speed comparison only.
#![cfg_attr(not(test), allow(dead_code))]

use crate::gf256::{self, IDENTITY};
use crate::kuznyechik::layers::{Lookup, Tree};
use crate::simd::{Gfni, MinU8, Simd};

/// α as printed: row y (byte y) gives output bit 7 − y, its bit 7 − x is
/// the entry of column x (input bit 7 − x). That is `vgf2p8affineqb`'s
/// layout (output bit i from byte 7 − i, input bit j at bit j).
const ALPHA: u64 = u64::from_le_bytes([0x08, 0x41, 0x43, 0xef, 0x8a, 0x44, 0x1a, 0x20]);
/// ω as printed, in the same layout.
const OMEGA: u64 = u64::from_le_bytes([0x0a, 0x04, 0x20, 0x9a, 0x08, 0x44, 0x82, 0x01]);

/// The 4-bit maps of the decomposition.
pub(super) const NU0: [u8; 16] = [0x2, 0x5, 0x3, 0xb, 0x6, 0x9, 0xe, 0xa, 0x0, 0x4, 0xf, 0x1, 0x8, 0xd, 0xc, 0x7];
pub(super) const NU1: [u8; 16] = [0x7, 0x6, 0xc, 0x9, 0x0, 0xf, 0x8, 0x1, 0x4, 0x5, 0xb, 0xe, 0xd, 0x2, 0x3, 0xa];
pub(super) const SIGMA: [u8; 16] = [0xc, 0xd, 0x0, 0x4, 0x8, 0xb, 0xa, 0xe, 0x3, 0x9, 0x5, 0x2, 0xf, 0x1, 0x6, 0x7];
pub(super) const PHI: [u8; 16] = [0xb, 0x2, 0xb, 0x8, 0xc, 0x4, 0x1, 0xc, 0x6, 0x3, 0x5, 0x8, 0xe, 0x3, 0x6, 0xb];

/// X^4 + X^3 + 1 without its X^4 (nibble bit i: the coefficient of X^i).
const GF16_POLY: u8 = 0x9;

/// The product in GF(2^4).
pub(super) const fn gf16_mul(a: u8, b: u8) -> u8 {
    let (mut acc, mut a, mut i) = (0u8, a & 15, 0);
    while i < 4 {
        if b >> i & 1 == 1 {
            acc ^= a;
        }
        a = (a << 1 & 15) ^ if a & 8 != 0 { GF16_POLY } else { 0 };
        i += 1;
    }
    acc
}

/// I: a^14 = a⁻¹ (0 ↦ 0).
pub(super) const fn gf16_inv(a: u8) -> u8 {
    let (mut p, mut i) = (1, 0);
    while i < 14 {
        p = gf16_mul(p, a);
        i += 1;
    }
    p
}

/// π by the decomposition, a byte at a time (tests).
pub(super) const fn pi_by_structure(x: u8) -> u8 {
    let y = gf256::affine_byte(ALPHA, x);
    let (l, r) = (y >> 4, y & 15);
    let l2 = if r == 0 { NU0[l as usize] } else { NU1[gf16_mul(l, gf16_inv(r)) as usize] };
    let r2 = SIGMA[gf16_mul(r, PHI[l2 as usize]) as usize];
    gf256::affine_byte(OMEGA, l2 << 4 | r2)
}

/// The matrix of x ↦ a·(b·x).
pub(super) const fn compose(a: u64, b: u64) -> u64 {
    let mut images = [0u8; 8];
    let mut j = 0;
    while j < 8 {
        images[j] = gf256::affine_byte(a, gf256::affine_byte(b, 1 << j));
        j += 1;
    }
    gf256::matrix_of(&images)
}

/// The nibble swap.
const SWAP: u64 = gf256::matrix_of(&[0x10, 0x20, 0x40, 0x80, 0x01, 0x02, 0x04, 0x08]);

/// π(x) = OUTPUT · c for the core c = l' ⊕ (r' << 4): ω after the swap.
pub(crate) const OUTPUT: u64 = compose(OMEGA, SWAP);

/// The core as a 256-byte table: OUTPUT⁻¹ · π(x) (for [`TreeCore`]).
pub(super) static CORE: [u8; 256] = {
    let mut inverse = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        inverse[gf256::affine_byte(OUTPUT, c as u8) as usize] = c as u8;
        c += 1;
    }
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = inverse[super::constants::PI[x] as usize];
        x += 1;
    }
    t
};

// ---- GF(2^4) inside GF(2^8)/0x11B ----

/// β: the least root of X^4 + X^3 + 1 in GF(2^8)/0x11B (it lies in the
/// subfield of order 16, being of degree 4).
const BETA: u8 = {
    let mut b = 2u16;
    loop {
        let x = b as u8;
        let x2 = gf256::mul(x, x, gf256::AES);
        let x3 = gf256::mul(x2, x, gf256::AES);
        if gf256::mul(x3, x, gf256::AES) ^ x3 == 1 {
            break x;
        }
        b += 1;
    }
};

/// E: nibble n (bits 0..3) ↦ Σ n_i β^i.
pub(super) const fn embed(n: u8) -> u8 {
    let (mut acc, mut power, mut i) = (0u8, 1u8, 0);
    while i < 4 {
        if n >> i & 1 == 1 {
            acc ^= power;
        }
        power = gf256::mul(power, BETA, gf256::AES);
        i += 1;
    }
    acc
}

/// x ↦ E(high nibble of α(x)) and E(low nibble of α(x)).
const L_HAT: u64 = alpha_embedded(4);
const R_HAT: u64 = alpha_embedded(0);

const fn alpha_embedded(shift: u32) -> u64 {
    let mut images = [0u8; 8];
    let mut j = 0;
    while j < 8 {
        images[j] = embed(gf256::affine_byte(ALPHA, 1 << j) >> shift & 15);
        j += 1;
    }
    gf256::matrix_of(&images)
}

/// A linear map with TO_NIBBLE · E(n) = n: E's image and the unit vectors
/// that extend it to a basis of GF(2)^8 (the latter sent to 0) are a basis
/// Q; TO_NIBBLE is the low nibble of Q⁻¹.
pub(super) const TO_NIBBLE: u64 = {
    // E(X^k) for k < 4, then unit vectors where they grow the span.
    let mut basis = [0u8; 8];
    let mut span = [false; 256];
    span[0] = true;
    let (mut rank, mut k) = (0, 0);
    while rank < 8 {
        let v = if k < 4 { embed(1 << k) } else { 1u8 << (k - 4) } as usize;
        if !span[v] {
            let mut s = 0;
            while s < 256 {
                if span[s] {
                    span[s ^ v] = true;
                }
                s += 1;
            }
            basis[rank] = v as u8;
            rank += 1;
        }
        k += 1;
    }
    // Q: coefficient bits ↦ Σ coefficient_k basis[k]; its inverse by table.
    let mut inverse = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let (mut v, mut k) = (0u8, 0);
        while k < 8 {
            if c >> k & 1 == 1 {
                v ^= basis[k];
            }
            k += 1;
        }
        inverse[v as usize] = c as u8;
        c += 1;
    }
    let mut images = [0u8; 8];
    let mut j = 0;
    while j < 8 {
        images[j] = inverse[1 << j] & 15;
        j += 1;
    }
    gf256::matrix_of(&images)
};

/// E(φ(n)).
static PHI_HAT: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        t[n] = embed(PHI[n]);
        n += 1;
    }
    t
};

/// σ(n) << 4.
static SIGMA_HIGH: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        t[n] = SIGMA[n] << 4;
        n += 1;
    }
    t
};

/// The core of π on a machine: c = l' ⊕ (r' << 4) in every byte, with
/// π(x) = [`OUTPUT`] · c, or c ⊕ [`Core::OFFSET`] (a constant the kernel
/// folds into its round constants).
pub(crate) trait Core<M: Simd>: 'static {
    /// What `core` returns is c ⊕ OFFSET in every byte.
    const OFFSET: u8 = 0;
    /// The bytewise linear map D the kernel keeps its values under:
    /// `core` takes D(x), the kernel's linear layer ends in D. The identity
    /// or α (`enter` and `leave` know no other).
    const DOMAIN: u64 = IDENTITY;
    fn core(m: M, x: M::V) -> M::V;
    /// x ↦ D(x) bytewise (α by its nibble tables).
    #[inline(always)]
    fn enter(m: M, x: M::V) -> M::V {
        if Self::DOMAIN == ALPHA {
            by_nibbles(m, x, &ALPHA_LOW, &ALPHA_HIGH)
        } else {
            x
        }
    }
    /// D(x) ↦ x bytewise.
    #[inline(always)]
    fn leave(m: M, y: M::V) -> M::V {
        if Self::DOMAIN == ALPHA {
            by_nibbles(m, y, &ALPHA_INV_LOW, &ALPHA_INV_HIGH)
        } else {
            y
        }
    }
}

/// The GF(2^4) products by GFNI (see the module documentation).
pub(crate) struct Field;

impl<M: Gfni> Core<M> for Field {
    #[inline(always)]
    fn core(m: M, x: M::V) -> M::V {
        let l_hat = m.affine(x, L_HAT);
        let r_hat = m.affine(x, R_HAT);
        let r_zero = m.eq8(r_hat, m.zero());
        // r̂ = 0 → 1: then l̂ ⊙ r̂⁻¹ = l̂, the index of ν0.
        let r_inv = m.affine_inverse(m.sub8(r_hat, r_zero), IDENTITY);
        let t = m.affine(m.mul(l_hat, r_inv), TO_NIBBLE);
        let l2 = m.blendv(m.shuffle8(m.splat128(&NU1), t), m.shuffle8(m.splat128(&NU0), t), r_zero);
        let u = m.mul(r_hat, m.shuffle8(m.splat128(&PHI_HAT), l2));
        m.xor(l2, m.shuffle8(m.splat128(&SIGMA_HIGH), m.affine(u, TO_NIBBLE)))
    }
}

/// GF(2^4) products by logarithms, without GFNI (see the module
/// documentation).
pub(crate) struct Logs;

/// log 0: with any logarithm (≤ 14) or 15 − logarithm added, or a
/// logarithm taken from it, bit 7 stays set, and after ± 15 as well; log 0 +
/// (log 0 ⊕ 15) = 0x18f keeps it too (0x8f, then 0x80), which
/// [`ZeroingLogs`] needs.
const LOG_ZERO: u8 = 0xc0;

/// The nibble tables of α: α(x) = ALPHA_LOW[x & 15] ⊕ ALPHA_HIGH[x >> 4].
static ALPHA_LOW: [u8; 16] = nibbles_of(ALPHA, 0);
static ALPHA_HIGH: [u8; 16] = nibbles_of(ALPHA, 4);
/// The same for α⁻¹.
static ALPHA_INV_LOW: [u8; 16] = nibbles_of(gf256::inverse_matrix(ALPHA), 0);
static ALPHA_INV_HIGH: [u8; 16] = nibbles_of(gf256::inverse_matrix(ALPHA), 4);

const fn nibbles_of(matrix: u64, shift: u32) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        t[n] = gf256::affine_byte(matrix, (n as u8) << shift);
        n += 1;
    }
    t
}

/// X^k in GF(2^4).
const fn gf16_exp(k: usize) -> u8 {
    let (mut p, mut i) = (1, 0);
    while i < k {
        p = gf16_mul(p, 2);
        i += 1;
    }
    p
}

/// log n to the base X; [`LOG_ZERO`] for 0.
static LOG: [u8; 16] = {
    let mut t = [LOG_ZERO; 16];
    let mut k = 0;
    while k < 15 {
        t[gf16_exp(k) as usize] = k as u8;
        k += 1;
    }
    t
};

/// ν1(X^k) ⊕ 7 (k < 15), so that the 0 of a lookup at log 0 is ν1(0) ⊕ 7.
static NU1_EXP: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut k = 0;
    while k < 15 {
        t[k] = NU1[gf16_exp(k) as usize] ^ NU1[0];
        k += 1;
    }
    t
};

/// ν0(n) ⊕ 7, to match [`NU1_EXP`].
static NU0_XOR: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        t[n] = NU0[n] ^ NU1[0];
        n += 1;
    }
    t
};

/// log φ(l'), indexed by l' ⊕ 7 (φ has no zero).
static LOG_PHI: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        t[n] = LOG[PHI[n ^ NU1[0] as usize] as usize];
        n += 1;
    }
    t
};

/// (σ(X^k) << 4) ⊕ (σ(0) << 4) (k < 15): the lookup at log 0 is 0.
static SIGMA_EXP: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut k = 0;
    while k < 15 {
        t[k] = (SIGMA[gf16_exp(k) as usize] ^ SIGMA[0]) << 4;
        k += 1;
    }
    t
};

/// What the XOR of the two lookups lacks: ν1(0) (the ⊕ 7 of the ν
/// tables) and σ(0) << 4 (the ⊕ σ(0) of σ's).
const CORE_OFFSET: u8 = NU1[0] | SIGMA[0] << 4;

/// The kernel holds α(x): l and r are then its nibbles.
impl<M: MinU8> Core<M> for Logs {
    const OFFSET: u8 = CORE_OFFSET;
    const DOMAIN: u64 = ALPHA;
    #[inline(always)]
    fn core(m: M, y: M::V) -> M::V {
        let nibble = m.splat8_opaque(0x0f);
        logs_core(m, m.and(m.shr16::<4>(y), nibble), m.and(y, nibble))
    }
}

/// A bytewise linear map by its two nibble tables.
#[inline(always)]
fn by_nibbles<M: Simd>(m: M, x: M::V, low: &[u8; 16], high: &[u8; 16]) -> M::V {
    let nibble = m.splat8_opaque(0x0f);
    let lo = m.shuffle8(m.splat128(low), m.and(x, nibble));
    m.xor(lo, m.shuffle8(m.splat128(high), m.and(m.shr16::<4>(x), nibble)))
}

/// l' and r' from the nibbles l and r (bytes 0..15) by the logarithm
/// tables; the core c ⊕ [`CORE_OFFSET`].
#[inline(always)]
fn logs_core<M: MinU8>(m: M, l: M::V, r: M::V) -> M::V {
    let log = m.splat128(&LOG);
    let log_r = m.shuffle8(log, r);
    // log l − log r mod 15: d, or d + 15 where d wrapped below zero.
    let d = m.sub8(m.shuffle8(log, l), log_r);
    let t = m.min8u(d, m.add8(d, m.splat8(15)));
    // r = 0 (log r's bit 7): ν0(l).
    let l2 = m.blendv(m.shuffle8(m.splat128(&NU1_EXP), t), m.shuffle8(m.splat128(&NU0_XOR), l), log_r);
    let u = mod15(m, m.add8(m.shuffle8(m.splat128(&LOG_PHI), l2), log_r));
    m.xor(l2, m.shuffle8(m.splat128(&SIGMA_EXP), u))
}

/// The logarithm cores without a blend (SSSE3 has no `pblendvb`: its
/// blend is a compare and three logic operations): ν1's and ν0's lookups
/// are indexed so that each returns 0 where the other is meant, and their
/// XOR is l'. r ≠ 0: ν0's index l ⊕ (15 − log r) ⊕ 0x80 has bit 7 set;
/// r = 0: the sum for ν1 has bit 7 set ([`LOG_ZERO`]) and ν0's index is
/// l ⊕ 0x4f, whose low nibble l ⊕ 15 [`NU0_XOR_15`] is indexed by. Per
/// register 20 µops, as many as `Logs` with SSSE3's blend (the blend's 4
/// become 3, but −log r's XOR, which `Logs` does without, comes back), and
/// the two lookups do not wait for each other.
pub(crate) struct ZeroingLogs;

/// ν0(n ⊕ 15) ⊕ 7: [`NU0_XOR`] at the index [`ZeroingLogs`] makes.
static NU0_XOR_15: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        t[n] = NU0[n ^ 15] ^ NU1[0];
        n += 1;
    }
    t
};

impl<M: MinU8> Core<M> for ZeroingLogs {
    const OFFSET: u8 = CORE_OFFSET;
    const DOMAIN: u64 = ALPHA;
    #[inline(always)]
    fn core(m: M, y: M::V) -> M::V {
        let nibble = m.splat8_opaque(0x0f);
        let (l, r) = (m.and(m.shr16::<4>(y), nibble), m.and(y, nibble));
        let log = m.splat128(&LOG);
        let log_r = m.shuffle8(log, r);
        let neg_r = m.xor(log_r, m.splat8(15));
        let t = mod15(m, m.add8(m.shuffle8(log, l), neg_r));
        let nu0_index = m.xor(m.xor(l, neg_r), m.splat8(0x80));
        let l2 = m.xor(m.shuffle8(m.splat128(&NU1_EXP), t), m.shuffle8(m.splat128(&NU0_XOR_15), nu0_index));
        let u = mod15(m, m.add8(m.shuffle8(m.splat128(&LOG_PHI), l2), log_r));
        m.xor(l2, m.shuffle8(m.splat128(&SIGMA_EXP), u))
    }
}

/// s mod 15 for s < 30: min(s, s − 15) (unsigned); bit 7, where set,
/// stays set.
#[inline(always)]
fn mod15<M: MinU8>(m: M, s: M::V) -> M::V {
    m.min8u(s, m.sub8(s, m.splat8(15)))
}

/// The logarithm tables with GFNI's α: l and r by one `vgf2p8affineqb`
/// each instead of 9 nibble operations (see the module documentation).
pub(crate) struct AffineLogs;

/// x ↦ the high and the low nibble of α(x), as bytes 0..15.
const ALPHA_L: u64 = compose(SHIFT_RIGHT_4, ALPHA);
const ALPHA_R: u64 = compose(LOW_NIBBLE, ALPHA);
const SHIFT_RIGHT_4: u64 = gf256::matrix_of(&[0, 0, 0, 0, 1, 2, 4, 8]);
const LOW_NIBBLE: u64 = gf256::matrix_of(&[1, 2, 4, 8, 0, 0, 0, 0]);

impl<M: Gfni + MinU8> Core<M> for AffineLogs {
    const OFFSET: u8 = CORE_OFFSET;
    #[inline(always)]
    fn core(m: M, x: M::V) -> M::V {
        logs_core(m, m.affine(x, ALPHA_L), m.affine(x, ALPHA_R))
    }
}

/// The core by Kuznyechik's `pshufb` tree over the 256-byte [`CORE`] table
/// (16 lookups and 15 blends).
pub(crate) struct TreeCore;

impl<M: Simd> Core<M> for TreeCore {
    #[inline(always)]
    fn core(m: M, x: M::V) -> M::V {
        Tree::lookup(m, x, &CORE)
    }
}
