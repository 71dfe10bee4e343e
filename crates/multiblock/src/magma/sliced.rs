//! The byte-sliced layout (the `avx2` bulk, one group of `BYTES` blocks:
//! 32 on ymm).
//!
//! Register `X[p]` holds byte `p` (0 = least significant) of N1 of the
//! group's blocks, `Y[p]` byte `p` of N2: eight registers. Every byte of a
//! register then needs the same S-boxes, so one `pshufb` table per register
//! and nibble serves all blocks, and the rotation by 11 = one byte (free: a
//! register renaming) + 3 bits, folded into the tables. Load: `pshufb` sorts
//! each lane's two blocks by (word, byte) and applies the byte order (see
//! `layout`), then an 8×8 transpose of 16-bit words (unpack 16/32/64) per
//! lane; store is the same transpose and the inverse shuffle.
//!
//! Round, per group (s = N1 + k; E[q] = tables applied to byte q of s):
//! - add with carries across the byte registers, 19 instructions: vpaddb;
//!   carry-out = generate | carry-in & (sum == 0), masks 0/-1; generate is
//!   an unsigned compare done as vpcmpgtb on bytes xor 0x80;
//! - per byte q, 6: vpand (low nibble), vpsrlw+vpand (high nibble),
//!   2 vpshufb, vpor: `E[q] = π(2q)(lo) << 3 | D(hi)`, where D holds bit 0 of
//!   π(2q+1) at bit 7 and its bits 1..3 at bits 0..2 — the bits of S's byte q
//!   that rotl11 sends to bytes q+1 and q+2;
//! - per byte p, 4: `Y[p] ^= E[p-1] & 0xF8 | E[p-2] & 0x07` (mux + vpxor).
//!
//! 59 instructions per 32 blocks against 76 for four dword-lane rounds
//! (`subs::Blend`), and only 8 vpshufb + 4 shifts on the shuffle/shift ports
//! (against 28): 15 % to 20 % faster on Zen 3. One group only: two
//! interleaved groups measured no faster (register spills).
//!
//! The round keys are read as whole registers of one byte repeated (the
//! adds take them as memory operands): 14 KiB per key, which the `avx2`
//! backend builds only when a call has a whole group.

use super::feistel::Layout;
use super::layout::word_byte;
use super::key_schedule::RoundKeys;
use super::keys::ByteOrder;
use super::Sbox;
use crate::simd::Simd;
use zeroize::Zeroize;

/// Key bytes are stored this wide: the layout runs on xmm and ymm.
const KEY_WIDTH: usize = 32;

/// The key bytes of one round, repeated: `k[p]` and `kx[p] = k[p] ^ 0x80`.
#[derive(Clone, Copy)]
pub(super) struct RoundVecs {
    k: [[u8; KEY_WIDTH]; 4],
    kx: [[u8; KEY_WIDTH]; 3],
}

/// Both directions' round keys in this form.
pub(super) struct KeyVecs {
    pub(super) enc: [RoundVecs; 32],
    pub(super) dec: [RoundVecs; 32],
}

impl KeyVecs {
    pub(super) fn new(rk: &RoundKeys) -> Box<KeyVecs> {
        let zero = RoundVecs { k: [[0; KEY_WIDTH]; 4], kx: [[0; KEY_WIDTH]; 3] };
        let mut v = Box::new(KeyVecs { enc: [zero; 32], dec: [zero; 32] });
        for r in 0..32 {
            for (out, k) in [(&mut v.enc[r], rk.enc[r]), (&mut v.dec[r], rk.dec[r])] {
                let b = k.to_le_bytes();
                for p in 0..4 {
                    out.k[p] = [b[p]; KEY_WIDTH];
                }
                for p in 0..3 {
                    out.kx[p] = [b[p] ^ 0x80; KEY_WIDTH];
                }
            }
        }
        v
    }
}

impl Drop for KeyVecs {
    fn drop(&mut self) {
        // 14 KiB: one bulk wipe (memset + barrier) instead of the derive's
        // byte-by-byte volatile writes, which cost ~14k cycles per key.
        for v in self.enc.iter_mut().chain(self.dec.iter_mut()) {
            v.k.as_flattened_mut().zeroize();
            v.kx.as_flattened_mut().zeroize();
        }
    }
}

/// The tables of the layout (S-box and byte order; no key).
pub(super) struct Sliced {
    /// `a[q]`: π(2q) << 3; `d[q]`: (π(2q+1) & 1) << 7 | π(2q+1) >> 1.
    a: [[u8; 16]; 4],
    d: [[u8; 16]; 4],
    gather: [u8; 16],
    scatter: [u8; 16],
}

/// The two tables of byte `q` (see the module comment).
fn sliced_tables(sbox: &Sbox) -> ([[u8; 16]; 4], [[u8; 16]; 4]) {
    let (mut a, mut d) = ([[0u8; 16]; 4], [[0u8; 16]; 4]);
    for q in 0..4 {
        for v in 0..16 {
            a[q][v] = sbox[2 * q][v] << 3;
            let s = sbox[2 * q + 1][v];
            d[q][v] = ((s & 1) << 7) | (s >> 1);
        }
    }
    (a, d)
}

impl Sliced {
    pub(super) fn new(sbox: &Sbox, order: ByteOrder) -> Sliced {
        let (a, d) = sliced_tables(sbox);
        // Per lane, 16-bit word h*4+p = byte p of N(h+1) of both blocks.
        let (mut gather, mut scatter) = ([0u8; 16], [0u8; 16]);
        for (i, g) in gather.iter_mut().enumerate() {
            let (w, block) = (i / 2, i % 2);
            *g = (8 * block + word_byte(order, w / 4, w % 4)) as u8;
            scatter[usize::from(*g)] = i as u8;
        }
        Sliced { a, d, gather, scatter }
    }
}

/// Per lane, the 8×8 transpose of 16-bit words: word i of output w = word w of input i.
#[inline(always)]
fn transpose<M: Simd>(m: M, r: [M::V; 8]) -> [M::V; 8] {
    let mut v = [[r[0]; 4]; 2];
    for i in 0..4 {
        v[0][i] = m.unpack_lo::<2>(r[2 * i], r[2 * i + 1]);
        v[1][i] = m.unpack_hi::<2>(r[2 * i], r[2 * i + 1]);
    }
    let mut out = [r[0]; 8];
    for (half, v) in v.iter().enumerate() {
        let a = m.unpack_lo::<4>(v[0], v[1]);
        let b = m.unpack_lo::<4>(v[2], v[3]);
        let c = m.unpack_hi::<4>(v[0], v[1]);
        let d = m.unpack_hi::<4>(v[2], v[3]);
        out[4 * half] = m.unpack_lo::<8>(a, b);
        out[4 * half + 1] = m.unpack_hi::<8>(a, b);
        out[4 * half + 2] = m.unpack_lo::<8>(c, d);
        out[4 * half + 3] = m.unpack_hi::<8>(c, d);
    }
    out
}

pub(super) struct SlicedConsts<M: Simd> {
    a: [M::V; 4],
    d: [M::V; 4],
    low_nibbles: M::V,
    top5: M::V,
    sign: M::V,
    gather: M::V,
    scatter: M::V,
}

/// The key byte register `k` (its first `BYTES` bytes).
#[inline(always)]
fn key<M: Simd>(m: M, k: &[u8; KEY_WIDTH]) -> M::V {
    m.load(k)
}

/// Carry-out masks of an unsigned byte add `t = x + k`: k > t, as a signed
/// compare of the bytes xor 0x80.
#[inline(always)]
fn generate<M: Simd>(m: M, c: &SlicedConsts<M>, t: M::V, kx: &[u8; KEY_WIDTH]) -> M::V {
    m.gt8(key(m, kx), m.xor(t, c.sign))
}

impl<M: Simd> Layout<M> for Sliced {
    type Half = [M::V; 4];
    type Key = RoundVecs;
    /// Read from memory by the adds (as memory operands).
    type KeyV<'a> = &'a RoundVecs;
    type Consts = SlicedConsts<M>;
    const GROUP_BYTES: usize = 8 * M::BYTES;

    #[inline(always)]
    fn consts(&self, m: M) -> SlicedConsts<M> {
        assert!(M::BYTES <= KEY_WIDTH);
        let mut a = [m.zero(); 4];
        let mut d = [m.zero(); 4];
        for q in 0..4 {
            a[q] = m.splat128(&self.a[q]);
            d[q] = m.splat128(&self.d[q]);
        }
        SlicedConsts {
            a,
            d,
            low_nibbles: m.splat8(0x0F),
            top5: m.splat8(0xF8),
            sign: m.splat8(0x80),
            gather: m.splat128(&self.gather),
            scatter: m.splat128(&self.scatter),
        }
    }
    #[inline(always)]
    fn load(m: M, c: &SlicedConsts<M>, src: &[u8]) -> ([M::V; 4], [M::V; 4]) {
        let mut r = [c.gather; 8];
        for (i, v) in r.iter_mut().enumerate() {
            *v = m.shuffle8(m.load(&src[i * M::BYTES..]), c.gather);
        }
        let w = transpose(m, r);
        ([w[0], w[1], w[2], w[3]], [w[4], w[5], w[6], w[7]])
    }
    #[inline(always)]
    fn store(m: M, c: &SlicedConsts<M>, n1: [M::V; 4], n2: [M::V; 4], dst: &mut [u8]) {
        let r = transpose(m, [n1[0], n1[1], n1[2], n1[3], n2[0], n2[1], n2[2], n2[3]]);
        for (i, v) in r.iter().enumerate() {
            m.store(m.shuffle8(*v, c.scatter), &mut dst[i * M::BYTES..]);
        }
    }
    #[inline(always)]
    fn key(_: M, k: &RoundVecs) -> &RoundVecs {
        k
    }
    #[inline(always)]
    fn round(m: M, c: &SlicedConsts<M>, k: &RoundVecs, x: &[M::V; 4], y: &mut [M::V; 4]) {
        // x + k with carries, all 0/-1 masks: c_out = generate | c_in & (sum == 0).
        let zero = m.zero();
        let s0 = m.add8(x[0], key(m, &k.k[0]));
        let c0 = generate(m, c, s0, &k.kx[0]);
        let t1 = m.add8(x[1], key(m, &k.k[1]));
        let s1 = m.sub8(t1, c0);
        let c1 = m.or(generate(m, c, t1, &k.kx[1]), m.and(m.eq8(s1, zero), c0));
        let t2 = m.add8(x[2], key(m, &k.k[2]));
        let s2 = m.sub8(t2, c1);
        let c2 = m.or(generate(m, c, t2, &k.kx[2]), m.and(m.eq8(s2, zero), c1));
        let s3 = m.sub8(m.add8(x[3], key(m, &k.k[3])), c2);
        let mut e = [s0, s1, s2, s3];
        for q in 0..4 {
            let lo = m.and(e[q], c.low_nibbles);
            let hi = m.and(m.shr16::<4>(e[q]), c.low_nibbles);
            e[q] = m.or(m.shuffle8(c.a[q], lo), m.shuffle8(c.d[q], hi));
        }
        for p in 0..4 {
            let (e1, e2) = (e[(p + 3) % 4], e[(p + 2) % 4]);
            y[p] = m.xor(y[p], m.xor(e2, m.and(m.xor(e1, e2), c.top5)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::feistel::tests::check;
    use super::*;
    use crate::magma::{Keys, SboxSet};
    use crate::simd::emu::Emu;

    fn make(keys: &Keys) -> (Sliced, Box<[RoundVecs; 32]>, Box<[RoundVecs; 32]>) {
        let v = KeyVecs::new(&RoundKeys::new(keys));
        (Sliced::new(keys.sbox, keys.order), Box::new(v.enc), Box::new(v.dec))
    }

    #[test]
    fn sliced_matches_the_reference() {
        check::<Emu<16>, _, 1>(Emu, &make);
        check::<Emu<32>, _, 1>(Emu, &make);
        check::<Emu<16>, _, 2>(Emu, &make);
    }

    /// The round's byte arithmetic in scalar form.
    #[test]
    fn sliced_round_model_matches_g() {
        let mut x = 0x0123_4567u32;
        for set in SboxSet::ALL {
            let sbox = set.table();
            let (a, d) = sliced_tables(sbox);
            for i in 0..4000u32 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let k = x.rotate_left(7) ^ i.wrapping_mul(0x9E37_79B9);
                let want = {
                    let v = x.wrapping_add(k);
                    let s: u32 = (0..8).map(|j| u32::from(sbox[j][((v >> (4 * j)) & 15) as usize]) << (4 * j)).sum();
                    s.rotate_left(11)
                };
                let (xb, kb) = (x.to_le_bytes(), k.to_le_bytes());
                let mut s = [0u8; 4];
                let mut carry = 0u8;
                for p in 0..4 {
                    let t = xb[p].wrapping_add(kb[p]);
                    let gen = u8::from(t < kb[p]);
                    s[p] = t.wrapping_add(carry);
                    carry = gen | (carry & u8::from(s[p] == 0));
                }
                let e: [u8; 4] = core::array::from_fn(|q| a[q][usize::from(s[q] & 15)] | d[q][usize::from(s[q] >> 4)]);
                let out: [u8; 4] = core::array::from_fn(|p| (e[(p + 3) % 4] & 0xF8) | (e[(p + 2) % 4] & 0x07));
                assert_eq!(u32::from_le_bytes(out), want, "{} {x:08x} {k:08x}", set.name());
            }
        }
    }
}
