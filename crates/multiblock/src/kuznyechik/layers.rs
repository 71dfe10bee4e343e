//! The byte-wise maps of a byte-sliced round (π, π⁻¹, products by ℓ's
//! constants), once per instruction set, each generic over the machines
//! that have it (and so also run on the emulator in tests).

use super::sliced::{Layer, MULS, MUL_MATRICES};
use crate::gf256::{self, KUZNYECHIK};
use super::constants::{PI, PI_INV};
use crate::simd::{lookup256, Avx512, Gfni, Job, Simd, Table256};
use core::marker::PhantomData;

/// The round's maps from a lookup strategy `L` (π and π⁻¹) and a product
/// strategy `P` (ℓ's constants).
pub(crate) struct Layers<L, P>(PhantomData<fn() -> (L, P)>);

/// AVX-512 VBMI + GFNI (`vpermi2b` lookups, `vgf2p8affineqb` products).
pub(crate) type Vbmi = Layers<Permute, Affine>;
/// The same with zmm lookups by `vpermb` over quarters (Intel's form).
pub(crate) type VbmiQuarters = Layers<PermuteQuarters, Affine>;
/// AVX2 (`pshufb` lookups and nibble-table products).
pub(crate) type Nibble = Layers<Tree, NibbleTables>;
/// AVX2 with GFNI products.
pub(crate) type NibbleGfni = Layers<Tree, Affine>;
/// NEON (`TBL`/`TBX` lookups over the whole table, nibble-table products).
#[allow(dead_code)] // the aarch64 backend's (tested on the emulator everywhere)
pub(crate) type Registers = Layers<Table, NibbleTables>;

/// A 256-entry byte lookup without data-dependent addresses.
pub(crate) trait Lookup<M: Simd>: 'static {
    fn lookup(m: M, x: M::V, table: &[u8; 256]) -> M::V;
}

/// Products by [`MULS`]`[k]` in GF(2^8)/0x1C3.
pub(crate) trait Products<M: Simd>: 'static {
    fn mul(m: M, x: M::V, k: usize) -> M::V;
}

impl<M: Simd, L: Lookup<M>, P: Products<M>> Layer<M> for Layers<L, P> {
    #[inline(always)]
    fn sub(m: M, x: M::V) -> M::V {
        L::lookup(m, x, &PI)
    }
    #[inline(always)]
    fn sub_inv(m: M, x: M::V) -> M::V {
        L::lookup(m, x, &PI_INV)
    }
    #[inline(always)]
    fn mul(m: M, x: M::V, k: usize) -> M::V {
        P::mul(m, x, k)
    }
}

/// `vpermi2b` over the 256-byte table (2, 4 or 8 pieces for zmm, ymm,
/// xmm), then mask blends on the high index bits: on zmm 2 `vpermi2b`,
/// `vpmovb2m` and `vpblendmb`.
///
/// (Kernel code has no closures: a closure is compiled without the
/// `#[target_feature]`s of the function it is written in, and its intrinsics
/// would not inline.)
pub(crate) struct Permute;

impl<M: crate::simd::Vbmi + Avx512> Lookup<M> for Permute {
    #[inline(always)]
    fn lookup(m: M, x: M::V, t: &[u8; 256]) -> M::V {
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
}

/// On zmm four `vpermb` over the table's 64-byte quarters
/// ([`lookup256::by_quarters`]: on Intel 7 µops a lookup against 8);
/// narrower registers as [`Permute`].
pub(crate) struct PermuteQuarters;

impl<M: crate::simd::Vbmi + Avx512> Lookup<M> for PermuteQuarters {
    #[inline(always)]
    fn lookup(m: M, x: M::V, t: &[u8; 256]) -> M::V {
        if M::BYTES != 64 {
            return Permute::lookup(m, x, t);
        }
        let quarters = [m.load(&t[..64]), m.load(&t[64..128]), m.load(&t[128..192]), m.load(&t[192..])];
        lookup256::by_quarters(m, &quarters, x)
    }
}

/// 16 `pshufb` of the low nibble into the rows t[16h..16h+16], then a tree
/// of 15 `pblendvb` on bits 4..7 (`pblendvb` reads bit 7 of each mask byte;
/// a 16-bit shift left by 3, 2, 1 moves bit 4, 5, 6 there): 35 operations.
pub(crate) struct Tree;

impl<M: Simd> Lookup<M> for Tree {
    #[inline(always)]
    fn lookup(m: M, x: M::V, t: &[u8; 256]) -> M::V {
        let lo = m.and(x, m.splat8(0x0f));
        let mut r = [lo; 16];
        for (v, row) in r.iter_mut().zip(t.as_chunks::<16>().0) {
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
}

/// The 256-byte table in registers ([`Table256`]: on NEON one `TBL`, three
/// `TBX` and three subtractions, 7 operations, against the tree's 35).
#[allow(dead_code)] // the aarch64 backend's
pub(crate) struct Table;

impl<M: Table256> Lookup<M> for Table {
    #[inline(always)]
    fn lookup(m: M, x: M::V, t: &[u8; 256]) -> M::V {
        m.lookup256(t, x)
    }
}

/// One `vgf2p8affineqb` with the 8×8 bit matrix of the constant.
pub(crate) struct Affine;

impl<M: Gfni> Products<M> for Affine {
    #[inline(always)]
    fn mul(m: M, x: M::V, k: usize) -> M::V {
        m.affine(x, MUL_MATRICES[k])
    }
}

/// c·x = c·lo(x) ⊕ c·(hi(x)<<4) by two 16-entry `pshufb` tables: and,
/// shift, and, 2 shuffles, xor.
pub(crate) struct NibbleTables;

impl<M: Simd> Products<M> for NibbleTables {
    #[inline(always)]
    fn mul(m: M, x: M::V, k: usize) -> M::V {
        let nibbles = m.splat8_opaque(0x0f);
        let lo = m.and(x, nibbles);
        let hi = m.and(m.shr16::<4>(x), nibbles);
        m.xor(m.shuffle8(m.splat128(&MUL_LO[k]), lo), m.shuffle8(m.splat128(&MUL_HI[k]), hi))
    }
}

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

/// π on one block in `m`'s instruction set with layer `S`: the key
/// schedule's S, on secret bytes.
pub(crate) fn sub_block<M: Simd, S: Layer<M>>(m: M, a: &mut [u8; 16]) {
    struct Sub<'a, M, S>(M, &'a mut [u8; 16], PhantomData<fn() -> S>);
    impl<M: Simd, S: Layer<M>> Job for Sub<'_, M, S> {
        type Output = ();
        #[inline(always)]
        fn run(self) {
            let Sub(m, a, _) = self;
            m.store(S::sub(m, m.load(a)), a);
        }
    }
    m.vectorize(Sub::<M, S>(m, a, PhantomData))
}
