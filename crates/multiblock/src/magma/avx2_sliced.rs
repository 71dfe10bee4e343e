//! The bulk kernel of the `avx2` backend: 32 blocks at a time on a
//! byte-sliced state (the short tail runs on the dword-lane kernel in
//! `avx2.rs`, whose latency per call is half of this one's).
//!
//! Layout: register `X[p]` holds byte `p` (0 = least significant) of N1 of
//! the 32 blocks, `Y[p]` byte `p` of N2 — eight ymm. Every byte of a register
//! then needs the same S-boxes, so one vpshufb table per register and nibble
//! serves all 32 blocks, and the rotation by 11 = one byte (free: a register
//! renaming) + 3 bits, folded into the tables. Load: vpshufb sorts each
//! lane's two blocks by (word, byte) and applies the byte order (see
//! `layout`), then an 8×8 transpose of 16-bit words (unpack 16/32/64) per
//! lane; store is the same transpose and the inverse shuffle.
//!
//! Round, per 32 blocks (s = N1 + k; E[q] = tables applied to byte q of s):
//! - add with carries across the byte registers, 19 instructions: vpaddb;
//!   carry-out = generate | carry-in & (sum == 0), masks 0/-1; generate is
//!   an unsigned compare done as vpcmpgtb on bytes xor 0x80;
//! - per byte q, 6: vpand (low nibble), vpsrlw+vpand (high nibble),
//!   2 vpshufb, vpor: `E[q] = π(2q)(lo) << 3 | D(hi)`, where D holds bit 0 of
//!   π(2q+1) at bit 7 and its bits 1..3 at bits 0..2 — the bits of S's byte q
//!   that rotl11 sends to bytes q+1 and q+2;
//! - per byte p, 4: `Y[p] ^= E[p-1] & 0xF8 | E[p-2] & 0x07` (mux + vpxor).
//! 59 instructions per 32 blocks against 76 for four dword-lane rounds, and
//! only 8 vpshufb + 4 shifts on the shuffle/shift ports (against 28): 15 %
//! to 20 % faster on Zen 3. One group only: two interleaved groups measured
//! no faster (register spills).

use super::layout::word_byte;
use super::schedule::RoundKeys;
use super::{ByteOrder, Sbox};
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// Blocks per call of [`Sliced::crypt`].
pub(super) const BLOCKS: usize = 32;

/// The key bytes of one round, broadcast: `k[p]` and `kx[p] = k[p] ^ 0x80`.
#[derive(Clone, Copy)]
struct RoundVecs {
    k: [[u8; 32]; 4],
    kx: [[u8; 32]; 3],
}

struct KeyVecs {
    enc: [RoundVecs; 32],
    dec: [RoundVecs; 32],
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

/// The keyed tables of the kernel.
pub(super) struct Sliced {
    keys: Box<KeyVecs>,
    /// `a[q]`: π(2q) << 3; `d[q]`: (π(2q+1) & 1) << 7 | π(2q+1) >> 1.
    a: [[u8; 16]; 4],
    d: [[u8; 16]; 4],
    gather: [u8; 16],
    scatter: [u8; 16],
}

fn round_vecs(rk: &[u32; 32]) -> [RoundVecs; 32] {
    core::array::from_fn(|r| {
        let b = rk[r].to_le_bytes();
        RoundVecs { k: core::array::from_fn(|p| [b[p]; 32]), kx: core::array::from_fn(|p| [b[p] ^ 0x80; 32]) }
    })
}

/// The two tables of byte `q` (see the module comment).
pub(super) fn sliced_tables(sbox: &Sbox) -> ([[u8; 16]; 4], [[u8; 16]; 4]) {
    let a = core::array::from_fn(|q| core::array::from_fn(|v| sbox[2 * q][v] << 3));
    let d = core::array::from_fn(|q| {
        core::array::from_fn(|v| {
            let s = sbox[2 * q + 1][v];
            ((s & 1) << 7) | (s >> 1)
        })
    });
    (a, d)
}

/// A lane shuffle sorting two blocks to 16-bit words (word h*4+p = byte p of
/// N(h+1) of both blocks).
fn sort_pair(order: ByteOrder) -> [u8; 16] {
    core::array::from_fn(|i| {
        let (w, block) = (i / 2, i % 2);
        (8 * block + word_byte(order, w / 4, w % 4)) as u8
    })
}

impl Sliced {
    pub(super) fn new(sbox: &Sbox, order: ByteOrder, rk: &RoundKeys) -> Sliced {
        let (a, d) = sliced_tables(sbox);
        let gather = sort_pair(order);
        let mut scatter = [0u8; 16];
        for (i, &g) in gather.iter().enumerate() {
            scatter[usize::from(g)] = i as u8;
        }
        Sliced { keys: Box::new(KeyVecs { enc: round_vecs(&rk.enc), dec: round_vecs(&rk.dec) }), a, d, gather, scatter }
    }
}

/// Per lane, the 8×8 transpose of 16-bit words: word i of output w = word w of input i.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose(r: [__m256i; 8]) -> [__m256i; 8] {
    let lo: [__m256i; 4] = core::array::from_fn(|i| _mm256_unpacklo_epi16(r[2 * i], r[2 * i + 1]));
    let hi: [__m256i; 4] = core::array::from_fn(|i| _mm256_unpackhi_epi16(r[2 * i], r[2 * i + 1]));
    let mut out = [_mm256_setzero_si256(); 8];
    for (half, v) in [lo, hi].iter().enumerate() {
        let a = _mm256_unpacklo_epi32(v[0], v[1]);
        let b = _mm256_unpacklo_epi32(v[2], v[3]);
        let c = _mm256_unpackhi_epi32(v[0], v[1]);
        let d = _mm256_unpackhi_epi32(v[2], v[3]);
        out[4 * half] = _mm256_unpacklo_epi64(a, b);
        out[4 * half + 1] = _mm256_unpackhi_epi64(a, b);
        out[4 * half + 2] = _mm256_unpacklo_epi64(c, d);
        out[4 * half + 3] = _mm256_unpackhi_epi64(c, d);
    }
    out
}

struct Consts {
    a: [__m256i; 4],
    d: [__m256i; 4],
    low_nibbles: __m256i,
    top5: __m256i,
    sign: __m256i,
}

#[inline]
#[target_feature(enable = "avx2")]
fn splat(x: u8) -> __m256i {
    _mm256_set1_epi8(x as i8)
}

#[inline]
#[target_feature(enable = "avx2")]
fn ld(v: &[u8; 32]) -> __m256i {
    // SAFETY: 32 readable bytes.
    unsafe { _mm256_loadu_si256(v.as_ptr().cast()) }
}

/// One round: `y ^= rotl11(S(x + k))` on byte-sliced words.
#[inline]
#[target_feature(enable = "avx2")]
fn round(c: &Consts, x: &[__m256i; 4], y: &mut [__m256i; 4], k: &RoundVecs) {
    // x + k with carries, all 0/-1 masks: c_out = generate | c_in & (sum == 0).
    let zero = _mm256_setzero_si256();
    let carry = |t: __m256i, kx: &[u8; 32]| _mm256_cmpgt_epi8(ld(kx), _mm256_xor_si256(t, c.sign));
    let s0 = _mm256_add_epi8(x[0], ld(&k.k[0]));
    let c0 = carry(s0, &k.kx[0]);
    let t1 = _mm256_add_epi8(x[1], ld(&k.k[1]));
    let s1 = _mm256_sub_epi8(t1, c0);
    let c1 = _mm256_or_si256(carry(t1, &k.kx[1]), _mm256_and_si256(_mm256_cmpeq_epi8(s1, zero), c0));
    let t2 = _mm256_add_epi8(x[2], ld(&k.k[2]));
    let s2 = _mm256_sub_epi8(t2, c1);
    let c2 = _mm256_or_si256(carry(t2, &k.kx[2]), _mm256_and_si256(_mm256_cmpeq_epi8(s2, zero), c1));
    let s3 = _mm256_sub_epi8(_mm256_add_epi8(x[3], ld(&k.k[3])), c2);
    let e: [__m256i; 4] = core::array::from_fn(|q| {
        let s = [s0, s1, s2, s3][q];
        let lo = _mm256_and_si256(s, c.low_nibbles);
        let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(s), c.low_nibbles);
        _mm256_or_si256(_mm256_shuffle_epi8(c.a[q], lo), _mm256_shuffle_epi8(c.d[q], hi))
    });
    for p in 0..4 {
        let (e1, e2) = (e[(p + 3) % 4], e[(p + 2) % 4]);
        let m = _mm256_xor_si256(e2, _mm256_and_si256(_mm256_xor_si256(e1, e2), c.top5));
        y[p] = _mm256_xor_si256(y[p], m);
    }
}

impl Sliced {
    /// ECB over whole groups of 32 blocks: `data.len()` is a multiple of 256.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn crypt(&self, data: &mut [u8], decrypt: bool) {
        assert_eq!(data.len() % (BLOCKS * 8), 0);
        let rk = if decrypt { &self.keys.dec } else { &self.keys.enc };
        let lane = |b: &[u8; 16]| unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(b.as_ptr().cast())) };
        let c = Consts {
            a: core::array::from_fn(|q| lane(&self.a[q])),
            d: core::array::from_fn(|q| lane(&self.d[q])),
            low_nibbles: splat(0x0F),
            top5: splat(0xF8),
            sign: splat(0x80),
        };
        let (gather, scatter) = (lane(&self.gather), lane(&self.scatter));
        for chunk in data.chunks_exact_mut(BLOCKS * 8) {
            let ptr = chunk.as_mut_ptr().cast::<__m256i>();
            // SAFETY: 8 ymm words lie inside `chunk`.
            let r: [__m256i; 8] =
                core::array::from_fn(|i| _mm256_shuffle_epi8(unsafe { _mm256_loadu_si256(ptr.add(i)) }, gather));
            let w = transpose(r);
            let mut a = [w[0], w[1], w[2], w[3]];
            let mut b = [w[4], w[5], w[6], w[7]];
            for r in (0..32).step_by(2) {
                round(&c, &a, &mut b, &rk[r]);
                round(&c, &b, &mut a, &rk[r + 1]);
            }
            // The last round does not swap: N1 is in `b`, N2 in `a`.
            let r = transpose([b[0], b[1], b[2], b[3], a[0], a[1], a[2], a[3]]);
            for (i, v) in r.iter().enumerate() {
                // SAFETY: as for the loads.
                unsafe { _mm256_storeu_si256(ptr.add(i), _mm256_shuffle_epi8(*v, scatter)) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magma::SboxSet;

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
