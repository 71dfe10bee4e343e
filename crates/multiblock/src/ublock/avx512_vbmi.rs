//! The `avx512-vbmi` backend: avx2.rs's nibble-spread, high-nibble-packed
//! groups in 64-byte zmm registers (notes/seed-001-ublock.md §2.6), with
//! `vpermb` (AVX-512 VBMI) for the 32-nibble permutations of n = 256.
//!
//! - n = 128: a group is [X0, X1] zmm = 8 blocks (4 lanes × low/high
//!   nibble), rounds exactly as avx2.rs (tracked coordinates: PL free, PR
//!   one `vpshufb`), 25 instructions per round and group, 9 of them
//!   shuffles (port 5 on Intel), 2 shifts.
//! - n = 256: a group is [X0, X1] zmm = 4 blocks: bytes 0..31 hold the 32
//!   nibbles of a half of blocks 0 (low nibbles) and 1 (high), bytes 32..63
//!   those of blocks 2 and 3. `<<<₃₂` stays inside 16-byte lanes (one
//!   `vpshufb`), PL₂₅₆/PR₂₅₆ are one `vpermb` each: 26 instructions per
//!   round and group (avx2: 60 for the same 4 blocks).
//!
//! Keys: the avx2 backend's SIMD key schedule (every AVX-512 VBMI CPU has
//! AVX2). Inputs shorter than one zmm main-loop step finish on the avx2
//! kernel (xmm/ymm groups), so short messages do not pay for 16 blocks.
//! Constant time as avx2.rs: shuffles on secret data in registers only.
//!
//! The AVX-512 intrinsics are stable since Rust 1.89; the workspace still
//! says rust-version 1.85 (to be raised, see the report).
#![allow(clippy::incompatible_msrv)]

use super::avx2::{Avx2, K32, MASKS_DEC, MASKS_ENC};
use super::key_schedule::MAX_ROUND_KEYS;
use super::masks::{ROT20, ROT4, ROT8};
use super::tables::{PL_256, PL_256_INV, PR_256, PR_256_INV, S, S_INV};
use super::Keys;
use crate::cpu::{Backend, BackendInfo, BlockKernel};
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// zmm groups interleaved in the main loop.
const GROUPS: usize = 4;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo {
        name: "avx512-vbmi",
        constant_time: true,
        ways: 8 * GROUPS,
        needs: "avx2+avx512f+avx512bw+avx512vbmi",
    },
    available: |cpu| cpu.avx2 && cpu.avx512f && cpu.avx512bw && cpu.avx512vbmi,
    new: |keys| Box::new(Avx512::new(keys)),
};

/// One zmm of round key.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct K64([u8; 64]);

impl Default for K64 {
    fn default() -> K64 {
        K64([0; 64])
    }
}

impl Zeroize for K64 {
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive K64.
        unsafe { core::ptr::write_volatile(self, K64([0; 64])) };
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

struct Avx512 {
    /// The avx2 kernel: its round keys (n = 128 uses them directly) and
    /// the short tails.
    small: Avx2,
    /// n = 256: [X0, X1] per round in the zmm layout, [encryption, decryption].
    wide_rk: Box<[[[K64; 2]; MAX_ROUND_KEYS]; 2]>,
}

impl Avx512 {
    fn new(keys: &Keys) -> Avx512 {
        let small = Avx2::new(keys);
        let mut wide_rk = Box::new([[[K64::default(); 2]; MAX_ROUND_KEYS]; 2]);
        if small.wide {
            // [X0a, X0b, X1a, X1b] (16 bytes each, both ymm lanes) → per half
            // a ‖ b ‖ a ‖ b.
            for (z, y) in wide_rk.iter_mut().zip(small.rk.iter()) {
                for (zt, yt) in z.iter_mut().zip(y.iter()).take(small.rounds + 1) {
                    for h in 0..2 {
                        for q in 0..2 {
                            zt[h].0[32 * q..32 * q + 16].copy_from_slice(&yt[2 * h].0[..16]);
                            zt[h].0[32 * q + 16..32 * q + 32].copy_from_slice(&yt[2 * h + 1].0[..16]);
                        }
                    }
                }
            }
        }
        Avx512 { small, wide_rk }
    }
}

impl Drop for Avx512 {
    fn drop(&mut self) {
        for dir in self.wide_rk.iter_mut() {
            for k in dir.iter_mut() {
                k.iter_mut().for_each(Zeroize::zeroize);
            }
        }
    }
}

impl BlockKernel for Avx512 {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: this kernel is built only after `available` saw AVX2,
        // AVX-512 F/BW and VBMI.
        unsafe { self.run::<true>(data) }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { self.run::<false>(data) }
    }
}

impl Avx512 {
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    unsafe fn run<const ENC: bool>(&self, data: &mut [u8]) {
        let r = self.small.rounds;
        let dir = if ENC { 0 } else { 1 };
        let (bb, per_group) = if self.small.wide { (32, 4) } else { (16, 8) };
        let step = GROUPS * per_group * bb;
        let mut chunks = data.chunks_exact_mut(step);
        for c in &mut chunks {
            if self.small.wide {
                groups256::<ENC>(&self.wide_rk[dir][..=r], c.as_mut_ptr());
            } else {
                groups128::<ENC>(&self.small.rk[dir][..=r], c.as_mut_ptr());
            }
        }
        let rest = chunks.into_remainder();
        // One more zmm step through a padded buffer if the tail fills more
        // than one zmm group; the rest (≤ 8 / 4 blocks) on the avx2 kernel.
        let (full, small) = if rest.len() > per_group * bb { (rest, &mut [][..]) } else { rest.split_at_mut(0) };
        if !full.is_empty() {
            let mut buf = [K64::default(); 4 * GROUPS];
            let bytes = buf.as_mut_ptr().cast::<u8>();
            core::ptr::copy_nonoverlapping(full.as_ptr(), bytes, full.len());
            if self.small.wide {
                groups256::<ENC>(&self.wide_rk[dir][..=r], bytes);
            } else {
                groups128::<ENC>(&self.small.rk[dir][..=r], bytes);
            }
            core::ptr::copy_nonoverlapping(bytes, full.as_mut_ptr(), full.len());
            buf.iter_mut().for_each(Zeroize::zeroize);
        }
        if !small.is_empty() {
            if ENC {
                self.small.encrypt_blocks(small);
            } else {
                self.small.decrypt_blocks(small);
            }
        }
    }
}

/// A 16-byte pattern in every lane.
#[inline(always)]
unsafe fn splat(m: &[u8; 16]) -> __m512i {
    _mm512_broadcast_i32x4(_mm_loadu_si128(m.as_ptr().cast()))
}

/// A K32 (16 bytes twice) in every lane.
#[inline(always)]
unsafe fn k32(k: &K32) -> __m512i {
    _mm512_broadcast_i64x4(_mm256_load_si256(k.0.as_ptr().cast()))
}

/// S-box (or inverse) tables for both nibbles, and 0x0f.
struct Consts {
    s_lo: __m512i,
    s_hi: __m512i,
    low: __m512i,
}

#[inline(always)]
unsafe fn consts<const ENC: bool>() -> Consts {
    let s = if ENC { &S } else { &S_INV };
    Consts { s_lo: splat(s), s_hi: splat(&s.map(|x| x << 4)), low: _mm512_set1_epi8(0x0f) }
}

#[inline(always)]
unsafe fn sbox(x: __m512i, c: &Consts) -> __m512i {
    let lo = _mm512_and_si512(x, c.low);
    let hi = _mm512_and_si512(_mm512_srli_epi16::<4>(x), c.low);
    _mm512_xor_si512(_mm512_shuffle_epi8(c.s_lo, lo), _mm512_shuffle_epi8(c.s_hi, hi))
}

/// x ^= pshufb(y, m).
#[inline(always)]
unsafe fn xs(x: __m512i, y: __m512i, m: __m512i) -> __m512i {
    _mm512_xor_si512(x, _mm512_shuffle_epi8(y, m))
}

/// 8 consecutive 16-byte blocks at `p` → [X0, X1] (slot = lane, low/high
/// nibble = blocks 0..3 / 4..7), nibble-spread.
#[inline(always)]
unsafe fn load128(p: *const u8, low: __m512i) -> [__m512i; 2] {
    let a = _mm512_loadu_si512(p.cast());
    let b = _mm512_loadu_si512(p.add(64).cast());
    let high = _mm512_set1_epi8(0xf0u8 as i8);
    let (ah, al) = (_mm512_and_si512(_mm512_srli_epi16::<4>(a), low), _mm512_and_si512(a, low));
    let (bh, bl) = (_mm512_and_si512(b, high), _mm512_and_si512(_mm512_slli_epi16::<4>(b), high));
    [
        _mm512_or_si512(_mm512_unpacklo_epi8(ah, al), _mm512_unpacklo_epi8(bh, bl)),
        _mm512_or_si512(_mm512_unpackhi_epi8(ah, al), _mm512_unpackhi_epi8(bh, bl)),
    ]
}

/// Packs the low nibbles of [lane j of x: bytes 2i, 2i+1] into bytes:
/// per lane, x's 16 nibbles then y's.
#[inline(always)]
unsafe fn pack(x: __m512i, y: __m512i, low: __m512i) -> __m512i {
    let w = _mm512_set1_epi16(0x0110);
    _mm512_packus_epi16(
        _mm512_maddubs_epi16(_mm512_and_si512(x, low), w),
        _mm512_maddubs_epi16(_mm512_and_si512(y, low), w),
    )
}

#[inline(always)]
unsafe fn store128(s: &[__m512i; 2], p: *mut u8, low: __m512i) {
    _mm512_storeu_si512(p.cast(), pack(s[0], s[1], low));
    let (x, y) = (_mm512_srli_epi16::<4>(s[0]), _mm512_srli_epi16::<4>(s[1]));
    _mm512_storeu_si512(p.add(64).cast(), pack(x, y, low));
}

/// GROUPS groups of n = 128 at `p`, round keys and tracked masks as avx2.rs.
#[inline(always)]
unsafe fn groups128<const ENC: bool>(rk: &[[K32; 4]], p: *mut u8) {
    let c = consts::<ENC>();
    let masks = core::hint::black_box(if ENC { &MASKS_ENC } else { &MASKS_DEC });
    let mut st = [[_mm512_setzero_si512(); 2]; GROUPS];
    for (g, s) in st.iter_mut().enumerate() {
        *s = load128(p.add(128 * g), c.low);
    }
    let r = rk.len() - 1;
    for (t, k) in rk[..r].iter().enumerate() {
        let m = &masks[t];
        let (m4, m8, m20, re) = (k32(&m[0]), k32(&m[1]), k32(&m[2]), k32(&m[3]));
        let (k0, k1) = (k32(&k[0]), k32(&k[1]));
        for s in st.iter_mut() {
            if ENC {
                let mut x0 = sbox(_mm512_xor_si512(s[0], k0), &c);
                let mut x1 = sbox(_mm512_xor_si512(s[1], k1), &c);
                x1 = _mm512_xor_si512(x1, x0);
                x0 = xs(x0, x1, m4);
                x1 = xs(x1, x0, m8);
                x0 = xs(x0, x1, m8);
                x1 = xs(x1, x0, m20);
                x0 = _mm512_xor_si512(x0, x1);
                *s = [x0, _mm512_shuffle_epi8(x1, re)];
            } else {
                let mut y0 = _mm512_xor_si512(s[0], k0);
                let mut y1 = _mm512_shuffle_epi8(_mm512_xor_si512(s[1], k1), re);
                y0 = _mm512_xor_si512(y0, y1);
                y1 = xs(y1, y0, m20);
                y0 = xs(y0, y1, m8);
                y1 = xs(y1, y0, m8);
                y0 = xs(y0, y1, m4);
                y1 = _mm512_xor_si512(y1, y0);
                *s = [sbox(y0, &c), sbox(y1, &c)];
            }
        }
    }
    let (k0, k1) = (k32(&rk[r][0]), k32(&rk[r][1]));
    for (g, s) in st.iter().enumerate() {
        store128(&[_mm512_xor_si512(s[0], k0), _mm512_xor_si512(s[1], k1)], p.add(128 * g), c.low);
    }
}

/// `vpermb` index of a byte permutation P of 16 bytes on 32 nibbles, in
/// both 32-byte halves: out nibble 2i+t ← nibble 2·P[i]+t.
const fn vpermb_index(p: &[u8; 16]) -> [u8; 64] {
    let mut m = [0u8; 64];
    let mut i = 0;
    while i < 16 {
        let mut t = 0;
        while t < 2 {
            m[2 * i + t] = 2 * p[i] + t as u8;
            m[32 + 2 * i + t] = 32 + 2 * p[i] + t as u8;
            t += 1;
        }
        i += 1;
    }
    m
}

#[repr(C, align(64))]
struct Idx([u8; 64]);

static PL_IDX: Idx = Idx(vpermb_index(&PL_256));
static PR_IDX: Idx = Idx(vpermb_index(&PR_256));
static PL_INV_IDX: Idx = Idx(vpermb_index(&PL_256_INV));
static PR_INV_IDX: Idx = Idx(vpermb_index(&PR_256_INV));

/// 4 consecutive 32-byte blocks at `p` → [X0, X1] in the n = 256 layout.
#[inline(always)]
unsafe fn load256(p: *const u8, low: __m512i) -> [__m512i; 2] {
    let z01 = _mm512_loadu_si512(p.cast()); // b0.X0 b0.X1 b1.X0 b1.X1
    let z23 = _mm512_loadu_si512(p.add(64).cast()); // b2.. b3..
    let lo_src = _mm512_shuffle_i64x2::<0b01_00_01_00>(z01, z23); // b0.X0 b0.X1 b2.X0 b2.X1
    let hi_src = _mm512_shuffle_i64x2::<0b11_10_11_10>(z01, z23); // b1.. b3..
    // Per lane (a 16-byte half of one block): unpacklo = its nibbles 0..15,
    // unpackhi = 16..31. Then X0 = [X0a, X0b] of blocks 0|1 and 2|3.
    let i0 = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    let i1 = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    let spread = |v: __m512i, shift_up: bool| {
        let (h, l) = (_mm512_and_si512(_mm512_srli_epi16::<4>(v), low), _mm512_and_si512(v, low));
        let (u, w) = (_mm512_unpacklo_epi8(h, l), _mm512_unpackhi_epi8(h, l));
        let (u, w) = if shift_up { (_mm512_slli_epi16::<4>(u), _mm512_slli_epi16::<4>(w)) } else { (u, w) };
        [_mm512_permutex2var_epi64(u, i0, w), _mm512_permutex2var_epi64(u, i1, w)]
    };
    let (a, b) = (spread(lo_src, false), spread(hi_src, true));
    [_mm512_or_si512(a[0], b[0]), _mm512_or_si512(a[1], b[1])]
}

#[inline(always)]
unsafe fn store256(s: &[__m512i; 2], p: *mut u8, low: __m512i) {
    let i0 = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    let i1 = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    // [X0a X0b X0a' X0b'], [X1a X1b ..] → per lane one 16-byte block half.
    let halves = |x0: __m512i, x1: __m512i| {
        let u = _mm512_permutex2var_epi64(x0, i0, x1); // X0a X1a X0a' X1a'
        let w = _mm512_permutex2var_epi64(x0, i1, x1); // X0b X1b X0b' X1b'
        pack(u, w, low) // b.X0 b.X1 b'.X0 b'.X1
    };
    let lo = halves(s[0], s[1]);
    let hi = halves(_mm512_srli_epi16::<4>(s[0]), _mm512_srli_epi16::<4>(s[1]));
    _mm512_storeu_si512(p.cast(), _mm512_shuffle_i64x2::<0b01_00_01_00>(lo, hi));
    _mm512_storeu_si512(p.add(64).cast(), _mm512_shuffle_i64x2::<0b11_10_11_10>(lo, hi));
}

/// GROUPS groups of n = 256 at `p`; `rk` in execution order.
#[inline(always)]
unsafe fn groups256<const ENC: bool>(rk: &[[K64; 2]], p: *mut u8) {
    let c = consts::<ENC>();
    let (m4, m8, m20) = (splat(&ROT4), splat(&ROT8), splat(&ROT20));
    let (pl, pr) = if ENC { (&PL_IDX, &PR_IDX) } else { (&PL_INV_IDX, &PR_INV_IDX) };
    let pl = _mm512_load_si512(pl.0.as_ptr().cast());
    let pr = _mm512_load_si512(pr.0.as_ptr().cast());
    let mut st = [[_mm512_setzero_si512(); 2]; GROUPS];
    for (g, s) in st.iter_mut().enumerate() {
        *s = load256(p.add(128 * g), c.low);
    }
    let r = rk.len() - 1;
    for k in &rk[..r] {
        let k0 = _mm512_load_si512(k[0].0.as_ptr().cast());
        let k1 = _mm512_load_si512(k[1].0.as_ptr().cast());
        for s in st.iter_mut() {
            if ENC {
                let mut x0 = sbox(_mm512_xor_si512(s[0], k0), &c);
                let mut x1 = sbox(_mm512_xor_si512(s[1], k1), &c);
                x1 = _mm512_xor_si512(x1, x0);
                x0 = xs(x0, x1, m4);
                x1 = xs(x1, x0, m8);
                x0 = xs(x0, x1, m8);
                x1 = xs(x1, x0, m20);
                x0 = _mm512_xor_si512(x0, x1);
                *s = [_mm512_permutexvar_epi8(pl, x0), _mm512_permutexvar_epi8(pr, x1)];
            } else {
                let mut y0 = _mm512_permutexvar_epi8(pl, _mm512_xor_si512(s[0], k0));
                let mut y1 = _mm512_permutexvar_epi8(pr, _mm512_xor_si512(s[1], k1));
                y0 = _mm512_xor_si512(y0, y1);
                y1 = xs(y1, y0, m20);
                y0 = xs(y0, y1, m8);
                y1 = xs(y1, y0, m8);
                y0 = xs(y0, y1, m4);
                y1 = _mm512_xor_si512(y1, y0);
                *s = [sbox(y0, &c), sbox(y1, &c)];
            }
        }
    }
    let k0 = _mm512_load_si512(rk[r][0].0.as_ptr().cast());
    let k1 = _mm512_load_si512(rk[r][1].0.as_ptr().cast());
    for (g, s) in st.iter().enumerate() {
        store256(&[_mm512_xor_si512(s[0], k0), _mm512_xor_si512(s[1], k1)], p.add(128 * g), c.low);
    }
}
