//! π_0..π_3 (DSTU 7624:2014 §5.2) in 64-byte registers by `vpermi2b`, for
//! the AVX-512 VBMI kernels of Kalyna (`layers.rs`, `backends/narrow.rs`)
//! and Kupyna (`hash/kupyna/`). Each π_a is 4 registers of 64 entries; a
//! lookup is two `vpermi2b` over the 128-entry halves (the index's bit 7 is
//! ignored) and a blend on bit 7 of the input. No address depends on data.

use crate::simd::{lookup256, Avx512, Gfni, Simd, Vbmi};

/// π_0..π_3 (or their inverses) as registers: `t[a][q]` = entries
/// 64q..64q+64 of π_a.
pub(crate) type Sboxes<M> = [[<M as Simd>::V; 4]; 4];

/// Byte p holds its S-box class p mod 4 (the class register of
/// [`sub_by_class`] in the natural layout, where row i of a column is byte
/// i of its 64-bit lane).
pub(crate) static CLASS: [u8; 64] = {
    let mut c = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        c[p] = (p % 4) as u8;
        p += 1;
    }
    c
};

/// Loads the 4 tables `s` into registers.
#[inline(always)]
pub(crate) fn sboxes<M: Simd>(m: M, s: &[[u8; 256]; 4]) -> Sboxes<M> {
    let mut t = [[m.zero(); 4]; 4];
    for a in 0..4 {
        for q in 0..4 {
            t[a][q] = m.load(&s[a][64 * q..]);
        }
    }
    t
}

/// π_a on every byte of `x` by its halves ([`lookup256::by_halves`]).
#[inline(always)]
pub(crate) fn sub<M: Vbmi + Avx512>(m: M, t: &Sboxes<M>, x: M::V, a: usize) -> M::V {
    lookup256::by_halves(m, &t[a], x)
}

/// π_a on every byte of `x` by its quarters ([`lookup256::by_quarters`]:
/// fewer µops where a `vpermi2b` takes three, Intel).
#[inline(always)]
pub(crate) fn sub_quarters<M: Vbmi + Avx512>(m: M, t: &Sboxes<M>, x: M::V, a: usize) -> M::V {
    lookup256::by_quarters(m, &t[a], x)
}

/// Byte p of `x` through π_c, c = bits 0 and 1 of byte p of `class`: 8
/// lookups, 6 blends by the class and one by bit 7.
#[inline(always)]
pub(crate) fn sub_by_class<M: Vbmi + Avx512>(m: M, t: &Sboxes<M>, class: M::V, x: M::V) -> M::V {
    let (mut lo, mut hi) = ([x; 4], [x; 4]);
    for a in 0..4 {
        lo[a] = m.permi2b(t[a][0], x, t[a][1]);
        hi[a] = m.permi2b(t[a][2], x, t[a][3]);
    }
    let lo = m.select_bit::<1>(class, m.select_bit::<0>(class, lo[0], lo[1]), m.select_bit::<0>(class, lo[2], lo[3]));
    let hi = m.select_bit::<1>(class, m.select_bit::<0>(class, hi[0], hi[1]), m.select_bit::<0>(class, hi[2], hi[3]));
    m.select_bit::<7>(x, lo, hi)
}

/// Byte p is FF where bit `BIT` of its class p mod 4 is set, else 00 (the
/// class masks of [`sub_by_class_bitwise`]).
pub(crate) static CLASS_BITS: [[u8; 64]; 2] = {
    let mut c = [[0u8; 64]; 2];
    let mut p = 0;
    while p < 64 {
        c[0][p] = if p % 4 & 1 != 0 { 0xff } else { 0 };
        c[1][p] = if p % 4 & 2 != 0 { 0xff } else { 0 };
        p += 1;
    }
    c
};

/// The `vgf2p8affineqb` matrix whose every output bit is the input's bit 7.
const SPREAD_BIT7: u64 = 0x8080_8080_8080_8080;

/// Byte k of `hi` where bit 7 of byte k of `x` is set, else of `lo`: bit 7
/// spread over its byte by one product, then a bitwise select
/// (`vpternlogq`), which is shorter from its inputs to its output than
/// `vpmovb2m` and `vpblendmb` on Intel and on AMD Zen 5.
#[inline(always)]
pub(crate) fn select_by_bit7<M: Avx512 + Gfni>(m: M, x: M::V, lo: M::V, hi: M::V) -> M::V {
    // vpternlogq: a ? b : c.
    m.ternlog::<0xCA>(m.affine(x, SPREAD_BIT7), hi, lo)
}

/// As [`sub_by_class`], with every select a bitwise one (`vpternlogq` by a
/// byte mask of 00 or FF): the class masks are [`CLASS_BITS`], and bit 7
/// of each byte of `x` selects by [`select_by_bit7`]. On Intel a
/// `vpblendmb` takes 3 core cycles from its inputs and a `vpternlogq` 1,
/// so the lookup's chain is 4 cycles shorter (three selects in series).
#[inline(always)]
pub(crate) fn sub_by_class_bitwise<M: Vbmi + Avx512 + Gfni>(m: M, t: &Sboxes<M>, class_bits: &[M::V; 2], x: M::V) -> M::V {
    // vpternlogq: a ? b : c.
    const PICK: i32 = 0xCA;
    let (mut lo, mut hi) = ([x; 4], [x; 4]);
    for a in 0..4 {
        lo[a] = m.permi2b(t[a][0], x, t[a][1]);
        hi[a] = m.permi2b(t[a][2], x, t[a][3]);
    }
    let [b0, b1] = *class_bits;
    let lo = m.ternlog::<PICK>(b1, m.ternlog::<PICK>(b0, lo[3], lo[2]), m.ternlog::<PICK>(b0, lo[1], lo[0]));
    let hi = m.ternlog::<PICK>(b1, m.ternlog::<PICK>(b0, hi[3], hi[2]), m.ternlog::<PICK>(b0, hi[1], hi[0]));
    select_by_bit7(m, x, lo, hi)
}
