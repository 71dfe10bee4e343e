//! The [`Layer`]s of the row-sliced kernel (`row_sliced.rs`): one per
//! instruction set, each generic over the machines that have it, so the
//! emulator runs both in the tests.
//!
//! - [`Vbmi`] (zmm, AVX-512 VBMI: `avx512-gfni`): π_a by two `vpermi2b` over
//!   its halves and a `vpblendmb` on bit 7 (4 µops on AMD's cores), or on
//!   Intel, where a zmm `vpermi2b` is three µops, by four `vpermb` over its
//!   quarters (`Vbmi<true>`: 7 µops against 8); in and out of rows per
//!   64-byte chunk one `vpermb` (8×8 byte transpose) and, over the 8
//!   registers, a 3-stage 8×8 transpose of 64-bit lanes (24 `vpermt2q`).
//! - [`Nibble`] (ymm, AVX2: `avx2-gfni`): the nibble S-box of `nibble.rs`
//!   (35 ops); in and out by its 4-register transpose on each half (two
//!   chunks per register, one per 128-bit lane), then 8 `vpunpck{l,h}qdq`
//!   joining row a and row a+4 of the halves: 40 shuffles per 256 bytes.

use super::nibble::{self, from_rows, to_rows, Rows, DEC_ROWS, ENC_ROWS};
use super::row_sliced::{Layer, Pattern};
use super::constants::{SBOX, SBOX_INV};
use super::zmm_sbox::{self, Sboxes};
use super::zmm_transpose::{transpose_lanes, BYTE_TRANSPOSE};
use crate::simd::{Avx512, Simd, Vbmi as VbmiOps};

/// S-boxes by `vpermi2b` over each table's halves (or, with `QUARTERS`, by
/// `vpermb` over its quarters: `zmm_sbox::sub_quarters`), transposes by
/// `vpermb` and `vpermt2q`; for 64-byte registers.
pub(crate) struct Vbmi<const QUARTERS: bool = false>;

/// S-boxes by `vpshufb` over nibble rows, transposes by `vpshufb` and
/// unpacks; for 32-byte registers.
pub(crate) struct Nibble;

/// ± `k` on every 64-bit column.
#[inline(always)]
fn add_key<M: Simd>(m: M, v: M::V, k: M::V, sub: bool) -> M::V {
    if sub {
        m.sub64(v, k)
    } else {
        m.add64(v, k)
    }
}

impl<M: VbmiOps + Avx512, const QUARTERS: bool> Layer<M> for Vbmi<QUARTERS> {
    /// π_a as 4 registers of 64 entries each, a = 0..3.
    type Sboxes = Sboxes<M>;

    #[inline(always)]
    fn sboxes(m: M, inverse: bool) -> Self::Sboxes {
        const { assert!(M::BYTES == 64) };
        zmm_sbox::sboxes(m, if inverse { &SBOX_INV } else { &SBOX })
    }
    /// 256-entry lookup: two 128-entry `vpermi2b`, bit 7 picks; or four
    /// 64-entry `vpermb`, bit 6 and bit 7 pick.
    #[inline(always)]
    fn sub(m: M, t: &Self::Sboxes, x: M::V, a: usize) -> M::V {
        if QUARTERS {
            return zmm_sbox::sub_quarters(m, t, x, a);
        }
        zmm_sbox::sub(m, t, x, a)
    }
    #[inline(always)]
    fn load_rows(m: M, src: &[u8], key: &Pattern, sub: bool) -> [M::V; 8] {
        let src = &src[..512];
        let (k, t) = (m.load(key), m.load(&BYTE_TRANSPOSE));
        let mut x = [k; 8];
        for (c, xc) in x.iter_mut().enumerate() {
            *xc = m.permb(add_key(m, m.load(&src[64 * c..]), k, sub), t);
        }
        transpose_lanes(m, &mut x);
        x
    }
    #[inline(always)]
    fn store_rows(m: M, mut x: [M::V; 8], key: &Pattern, sub: bool, dst: &mut [u8]) {
        let dst = &mut dst[..512];
        transpose_lanes(m, &mut x);
        let (k, t) = (m.load(key), m.load(&BYTE_TRANSPOSE));
        for (c, v) in x.into_iter().enumerate() {
            m.store(add_key(m, m.permb(v, t), k, sub), &mut dst[64 * c..]);
        }
    }
}

/// Bytes 16p..16p+16 of `key` in every 128-bit lane.
#[inline(always)]
fn key_piece<M: Simd>(m: M, key: &Pattern, p: usize) -> M::V {
    let mut lane = [0u8; 16];
    lane.copy_from_slice(&key[16 * p..16 * p + 16]);
    m.splat128(&lane)
}

impl<M: Simd> Layer<M> for Nibble {
    type Sboxes = &'static Rows;

    #[inline(always)]
    fn sboxes(_: M, inverse: bool) -> &'static Rows {
        const { assert!(M::BYTES == 32) };
        if inverse {
            &DEC_ROWS
        } else {
            &ENC_ROWS
        }
    }
    #[inline(always)]
    fn sub(m: M, t: &&'static Rows, x: M::V, a: usize) -> M::V {
        nibble::sbox(m, x, &t.0[a])
    }
    /// Register R_p of half h = piece p (bytes 16p..16p+16) of chunks 2h and
    /// 2h+1; `to_rows` makes lane L of y_h[a] = [row a | row a+4] of chunk
    /// 2h+L; row a of all four chunks is then y_0[a].lo64 ‖ y_1[a].lo64.
    #[inline(always)]
    fn load_rows(m: M, src: &[u8], key: &Pattern, sub: bool) -> [M::V; 8] {
        let src = &src[..256];
        let mut x = [m.zero(); 8];
        for h in 0..2 {
            let mut r = [m.zero(); 4];
            for (p, rp) in r.iter_mut().enumerate() {
                *rp = add_key(m, m.load_lanes(&src[128 * h + 16 * p..], 64), key_piece(m, key, p), sub);
            }
            // x[4h + a] = y_h[a] for now; joined below.
            x[4 * h..4 * h + 4].copy_from_slice(&to_rows(m, r));
        }
        let mut out = x;
        for a in 0..4 {
            out[a] = m.unpack_lo::<8>(x[a], x[4 + a]);
            out[4 + a] = m.unpack_hi::<8>(x[a], x[4 + a]);
        }
        out
    }
    #[inline(always)]
    fn store_rows(m: M, x: [M::V; 8], key: &Pattern, sub: bool, dst: &mut [u8]) {
        let dst = &mut dst[..256];
        let mut y = [[m.zero(); 4]; 2];
        for a in 0..4 {
            y[0][a] = m.unpack_lo::<8>(x[a], x[a + 4]);
            y[1][a] = m.unpack_hi::<8>(x[a], x[a + 4]);
        }
        for (h, yh) in y.into_iter().enumerate() {
            for (p, v) in from_rows(m, yh).into_iter().enumerate() {
                let v = add_key(m, v, key_piece(m, key, p), sub);
                m.store_lanes(v, &mut dst[128 * h + 16 * p..], 64);
            }
        }
    }
}
