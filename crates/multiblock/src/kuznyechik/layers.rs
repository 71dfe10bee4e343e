//! The byte-wise maps of a byte-sliced round (π, π⁻¹, products by ℓ's
//! constants), once per instruction set, each generic over the machines
//! that have it (and so also run on the emulator in tests).

use super::sliced::{Layer, MULS, MUL_MATRICES};
use crate::gf256::{self, KUZNYECHIK};
use super::tables::{PI, PI_INV};
use crate::simd::{Avx512, Gfni, Simd};

/// AVX-512 VBMI + GFNI: π by `vpermi2b` over the 256-byte table (2, 4 or 8
/// pieces for zmm, ymm, xmm) and mask blends on the high index bits;
/// products by `vgf2p8affineqb`. No memory access depends on data.
pub(crate) struct Vbmi;

impl<M: crate::simd::Vbmi + Avx512 + Gfni> Layer<M> for Vbmi {
    #[inline(always)]
    fn sub(m: M, x: M::V) -> M::V {
        lookup(m, x, &PI)
    }
    #[inline(always)]
    fn sub_inv(m: M, x: M::V) -> M::V {
        lookup(m, x, &PI_INV)
    }
    #[inline(always)]
    fn mul(m: M, x: M::V, k: usize) -> M::V {
        m.affine(x, MUL_MATRICES[k])
    }
}

/// 256-entry lookup: `vpermi2b` indexes 2·BYTES entries with the low index
/// bits; the pieces are then chosen by bits 5, 6, 7 (as many as needed).
/// (Kernel code has no closures: a closure is compiled without the
/// `#[target_feature]`s of the function it is written in, and its intrinsics
/// would not inline.)
#[inline(always)]
fn lookup<M: crate::simd::Vbmi + Avx512>(m: M, x: M::V, t: &[u8; 256]) -> M::V {
    let b = M::BYTES;
    let mut p = [m.zero(); 8];
    for (i, v) in p.iter_mut().enumerate().take(256 / (2 * b)) {
        *v = m.permi2b(m.load(&t[2 * b * i..]), x, m.load(&t[2 * b * i + b..]));
    }
    if b == 16 {
        for i in 0..4 {
            p[i] = m.select_bit::<5>(x, p[2 * i], p[2 * i + 1]);
        }
    }
    if b <= 32 {
        for i in 0..2 {
            p[i] = m.select_bit::<6>(x, p[2 * i], p[2 * i + 1]);
        }
    }
    m.select_bit::<7>(x, p[0], p[1])
}

/// AVX2: π by 16 `vpshufb` of the low nibble into the rows π[16h..16h+16]
/// and a tree of 15 `vpblendvb` on bits 4..7 (35 operations, no memory
/// access that depends on data); c·x = c·lo(x) ⊕ c·(hi(x)<<4) by two
/// 16-entry `vpshufb` tables.
pub(crate) struct Nibble;

/// As [`Nibble`], with the products by one `vgf2p8affineqb`.
pub(crate) struct NibbleGfni;

impl<M: Simd> Layer<M> for Nibble {
    #[inline(always)]
    fn sub(m: M, x: M::V) -> M::V {
        tree(m, x, &PI_ROWS)
    }
    #[inline(always)]
    fn sub_inv(m: M, x: M::V) -> M::V {
        tree(m, x, &PI_INV_ROWS)
    }
    #[inline(always)]
    fn mul(m: M, x: M::V, k: usize) -> M::V {
        let nibbles = m.splat8(0x0f);
        let lo = m.and(x, nibbles);
        let hi = m.and(m.shr16::<4>(x), nibbles);
        m.xor(m.shuffle8(m.splat128(&MUL_LO[k]), lo), m.shuffle8(m.splat128(&MUL_HI[k]), hi))
    }
}

impl<M: Gfni> Layer<M> for NibbleGfni {
    #[inline(always)]
    fn sub(m: M, x: M::V) -> M::V {
        tree(m, x, &PI_ROWS)
    }
    #[inline(always)]
    fn sub_inv(m: M, x: M::V) -> M::V {
        tree(m, x, &PI_INV_ROWS)
    }
    #[inline(always)]
    fn mul(m: M, x: M::V, k: usize) -> M::V {
        m.affine(x, MUL_MATRICES[k])
    }
}

/// 256-entry lookup by nibbles: row lookups by the low nibble, then a blend
/// tree on bits 4..7 (`pblendvb` reads bit 7 of each mask byte; a 16-bit
/// shift left by 3, 2, 1 moves bit 4, 5, 6 there).
#[inline(always)]
fn tree<M: Simd>(m: M, x: M::V, rows: &[[u8; 16]; 16]) -> M::V {
    let lo = m.and(x, m.splat8(0x0f));
    let mut r = [lo; 16];
    for (v, row) in r.iter_mut().zip(rows) {
        *v = m.shuffle8(m.splat128(row), lo);
    }
    // Halve the candidates on bits 4, 5, 6 (shifted to bit 7), then 7.
    let mut n = 16;
    for sel in [m.shl16::<3>(x), m.shl16::<2>(x), m.shl16::<1>(x), x] {
        n /= 2;
        for i in 0..n {
            r[i] = m.blendv(r[2 * i], r[2 * i + 1], sel);
        }
    }
    r[0]
}

/// Row h of a 256-entry table: entries 16h..16h+16.
const fn rows(s: &[u8; 256]) -> [[u8; 16]; 16] {
    let mut r = [[0u8; 16]; 16];
    let mut i = 0;
    while i < 256 {
        r[i / 16][i % 16] = s[i];
        i += 1;
    }
    r
}

static PI_ROWS: [[u8; 16]; 16] = rows(&PI);
static PI_INV_ROWS: [[u8; 16]; 16] = rows(&PI_INV);

/// For each of [`MULS`]: c·n and c·(n<<4) for nibbles n.
static MUL_LO: [[u8; 16]; 7] = mul_tables(0);
static MUL_HI: [[u8; 16]; 7] = mul_tables(4);

const fn mul_tables(shift: u32) -> [[u8; 16]; 7] {
    let mut t = [[0u8; 16]; 7];
    let mut k = 0;
    while k < 7 {
        let mut n = 0;
        while n < 16 {
            t[k][n] = gf256::mul(MULS[k], (n as u8) << shift, KUZNYECHIK);
            n += 1;
        }
        k += 1;
    }
    t
}
