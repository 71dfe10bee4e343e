//! The `ssse3` backend: the designers' SSE structure (uBlock design
//! document's reference code; seed paper §2, notes/seed-001-ublock.md §2).
//!
//! One block at a time in registers, "nibble-spread": each byte of an xmm
//! holds one nibble (high nibble 0), so
//! - the S-box layer is one `pshufb` with the S-box as the table;
//! - `<<<₃₂ 4/8/20` and PL/PR are one `pshufb` each (masks.rs);
//! - a 64-bit half (n = 128) is one xmm, a 128-bit half (n = 256) two
//!   (nibbles 0..15 and 16..31), and PL₂₅₆/PR₂₅₆ gather from both with two
//!   `pshufb` and an `or` per output register.
//!
//! Conversion in and out: bytes → (high nibbles, low nibbles) → `punpck*bw`
//! (the seed's Table 8 improvement); back with `pmaddubsw` (16·hi + lo) and
//! `packuswb`. Several blocks (`WAYS`) run interleaved for instruction-level
//! parallelism, the rest one by one.
//!
//! Constant time: only `pshufb` on secret indices (a register, not memory),
//! no secret branch or address.

use super::key_schedule::MAX_ROUND_KEYS;
use super::masks::{
    pk16, rc_nibbles, PL128, PL128_INV, PL256, PL256_INV, PR128, PR128_INV, PR256, PR256_INV, ROT20, ROT4,
    ROT8,
};
use super::tables::{S, S_INV, T};
use super::{Keys, Variant};
use crate::cpu::{Backend, BackendInfo, BlockKernel};
use core::arch::x86_64::*;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Blocks interleaved in the main loop.
const WAYS: usize = 4;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "ssse3", constant_time: true, ways: WAYS, needs: "ssse3" },
    available: |cpu| cpu.ssse3,
    new: |keys| Box::new(Ssse3::new(keys)),
};

/// One 16-byte lane, aligned for loads.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct Lane([u8; 16]);

impl Zeroize for Lane {
    /// One 16-byte volatile store (the `[u8; 16]` impl would store bytewise).
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive Lane.
        unsafe { core::ptr::write_volatile(self, Lane([0; 16])) };
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

/// Round keys nibble-spread: per round [X0 key, X1 key] (n = 128) or
/// [X0a, X0b, X1a, X1b] (n = 256).
#[derive(Zeroize, ZeroizeOnDrop)]
struct Ssse3 {
    rk: Box<[[Lane; 4]; MAX_ROUND_KEYS]>,
    #[zeroize(skip)]
    rounds: usize,
    #[zeroize(skip)]
    wide: bool,
}

impl Ssse3 {
    fn new(keys: &Keys) -> Ssse3 {
        let mut rk = Box::new([[Lane::default(); 4]; MAX_ROUND_KEYS]);
        // SAFETY: a kernel is built only after `available` saw SSSE3.
        unsafe { expand(keys.variant, keys.key(), &mut rk) };
        Ssse3 { rk, rounds: keys.variant.rounds(), wide: keys.variant.block_bytes() == 32 }
    }
}

static RC_NIBBLES: [[u8; 16]; 24] = rc_nibbles(1);

/// The key schedule (paper §1.5, Algorithm 3) on the nibble-spread k-bit
/// register: PK by `pshufb`, S and T (×2 in GF(2⁴)) by `pshufb` with the
/// 16-entry table in a register. out[t] = RK^t as [X0, X1] or
/// [X0a, X0b, X1a, X1b].
#[target_feature(enable = "ssse3")]
unsafe fn expand(v: Variant, key: &[u8], out: &mut [[Lane; 4]; MAX_ROUND_KEYS]) {
    let low = _mm_set1_epi8(0x0f);
    let split = |at: usize| {
        let x = _mm_loadu_si128(key.as_ptr().add(at).cast());
        let (hi, lo) = (_mm_and_si128(_mm_srli_epi16(x, 4), low), _mm_and_si128(x, low));
        (_mm_unpacklo_epi8(hi, lo), _mm_unpackhi_epi8(hi, lo))
    };
    let st = |x: __m128i, lane: &mut Lane| _mm_store_si128(lane.0.as_mut_ptr().cast(), x);
    let (s, t, pk) = (ld(&S), ld(&T), ld(&pk16(v)));
    if key.len() == 16 {
        // (A, B) = (K0‖K1, K2‖K3), 8 nibbles per quarter.
        let (mut a, mut b) = split(0);
        st(a, &mut out[0][0]);
        st(b, &mut out[0][1]);
        for i in 1..=v.rounds() {
            let a1 = _mm_shuffle_epi8(a, pk); // K0'‖K1' = PK1(K0‖K1)
            let sv = _mm_shuffle_epi8(s, _mm_xor_si128(a1, ld(&RC_NIBBLES[i - 1])));
            let tv = _mm_shuffle_epi8(t, a1);
            // K2 ^= S(K0' ⊕ RC) (low 64 bits), K3 ^= T(K1') (high 64 bits).
            let u = _mm_castpd_si128(_mm_move_sd(_mm_castsi128_pd(tv), _mm_castsi128_pd(sv)));
            a = _mm_xor_si128(b, u); // K2‖K3
            b = _mm_shuffle_epi32::<0x4e>(a1); // K1'‖K0'
            st(a, &mut out[i][0]);
            st(b, &mut out[i][1]);
        }
    } else {
        // K0..K3, 16 nibbles each.
        let ((k0, k1), (k2, k3)) = (split(0), split(16));
        let mut k = [k0, k1, k2, k3];
        let regs = v.block_bytes() / 8;
        for (x, lane) in k.iter().zip(out[0].iter_mut()).take(regs) {
            st(*x, lane);
        }
        for i in 1..=v.rounds() {
            let k0 = _mm_shuffle_epi8(k[0], pk); // PK on K0
            let k1 = _mm_shuffle_epi32::<0x4e>(k[1]); // PK on K1: swap halves
            let k2 = _mm_xor_si128(k[2], _mm_shuffle_epi8(s, _mm_xor_si128(k0, ld(&RC_NIBBLES[i - 1]))));
            let k3 = _mm_xor_si128(k[3], _mm_shuffle_epi8(t, k1));
            k = [k2, k3, k1, k0];
            for (x, lane) in k.iter().zip(out[i].iter_mut()).take(regs) {
                st(*x, lane);
            }
        }
    }
}

impl BlockKernel for Ssse3 {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: this kernel is built only after `available` saw SSSE3.
        unsafe { self.run::<true>(data) }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { self.run::<false>(data) }
    }
}

impl Ssse3 {
    #[target_feature(enable = "ssse3")]
    unsafe fn run<const ENC: bool>(&self, data: &mut [u8]) {
        let rk = &self.rk[..=self.rounds];
        if self.wide {
            let mut chunks = data.chunks_exact_mut(32 * WAYS);
            for c in &mut chunks {
                blocks::<ENC, 2, WAYS>(rk, c.as_mut_ptr());
            }
            for c in chunks.into_remainder().chunks_exact_mut(32) {
                blocks::<ENC, 2, 1>(rk, c.as_mut_ptr());
            }
        } else {
            let mut chunks = data.chunks_exact_mut(16 * WAYS);
            for c in &mut chunks {
                blocks::<ENC, 1, WAYS>(rk, c.as_mut_ptr());
            }
            for c in chunks.into_remainder().chunks_exact_mut(16) {
                blocks::<ENC, 1, 1>(rk, c.as_mut_ptr());
            }
        }
    }
}

/// The constants of one direction: S-box (or inverse), rotations, and the
/// final permutations PL, PR (or their inverses), as 1 (n = 128) or 4 masks.
struct Consts {
    s: __m128i,
    low: __m128i,
    rot4: __m128i,
    rot8: __m128i,
    rot20: __m128i,
    pl: [__m128i; 4],
    pr: [__m128i; 4],
}

#[inline(always)]
unsafe fn ld(b: &[u8; 16]) -> __m128i {
    _mm_loadu_si128(b.as_ptr().cast())
}

#[inline(always)]
unsafe fn masks(m: &[[[u8; 16]; 2]; 2]) -> [__m128i; 4] {
    [ld(&m[0][0]), ld(&m[0][1]), ld(&m[1][0]), ld(&m[1][1])]
}

#[inline(always)]
unsafe fn consts<const ENC: bool, const H: usize>() -> Consts {
    let one = |m: &[u8; 16]| {
        let v = ld(m);
        [v, v, v, v]
    };
    let (pl, pr) = match (ENC, H) {
        (true, 1) => (one(&PL128), one(&PR128)),
        (false, 1) => (one(&PL128_INV), one(&PR128_INV)),
        (true, _) => (masks(&PL256), masks(&PR256)),
        (false, _) => (masks(&PL256_INV), masks(&PR256_INV)),
    };
    Consts {
        s: ld(if ENC { &S } else { &S_INV }),
        low: _mm_set1_epi8(0x0f),
        rot4: ld(&ROT4),
        rot8: ld(&ROT8),
        rot20: ld(&ROT20),
        pl,
        pr,
    }
}

/// A half-block of H registers through a byte permutation (PL or PR).
#[inline(always)]
unsafe fn permute<const H: usize>(x: &mut [__m128i], m: &[__m128i; 4]) {
    if H == 1 {
        x[0] = _mm_shuffle_epi8(x[0], m[0]);
    } else {
        let (a, b) = (x[0], x[1]);
        x[0] = _mm_or_si128(_mm_shuffle_epi8(a, m[0]), _mm_shuffle_epi8(b, m[1]));
        x[1] = _mm_or_si128(_mm_shuffle_epi8(a, m[2]), _mm_shuffle_epi8(b, m[3]));
    }
}

/// x ^= y <<<₃₂ rot, on every register of a half.
#[inline(always)]
unsafe fn xor_rot<const H: usize>(x: &mut [__m128i], y: &[__m128i], rot: __m128i) {
    for h in 0..H {
        x[h] = _mm_xor_si128(x[h], _mm_shuffle_epi8(y[h], rot));
    }
}

/// x ^= y.
#[inline(always)]
unsafe fn xor_half<const H: usize>(x: &mut [__m128i], y: &[__m128i]) {
    for h in 0..H {
        x[h] = _mm_xor_si128(x[h], y[h]);
    }
}

/// Algorithm 1 steps 3–13 on one block (s = X0 regs ‖ X1 regs).
#[inline(always)]
unsafe fn enc_round<const H: usize>(s: &mut [__m128i; 4], k: &[Lane; 4], c: &Consts) {
    for i in 0..2 * H {
        s[i] = _mm_shuffle_epi8(c.s, _mm_xor_si128(s[i], ld(&k[i].0)));
    }
    let (x0, x1) = s.split_at_mut(H);
    xor_half::<H>(x1, x0);
    xor_rot::<H>(x0, x1, c.rot4);
    xor_rot::<H>(x1, x0, c.rot8);
    xor_rot::<H>(x0, x1, c.rot8);
    xor_rot::<H>(x1, x0, c.rot20);
    xor_half::<H>(x0, x1);
    permute::<H>(x0, &c.pl);
    permute::<H>(x1, &c.pr);
}

/// Algorithm 2 steps 3–15 on one block.
#[inline(always)]
unsafe fn dec_round<const H: usize>(s: &mut [__m128i; 4], k: &[Lane; 4], c: &Consts) {
    for i in 0..2 * H {
        s[i] = _mm_xor_si128(s[i], ld(&k[i].0));
    }
    let (y0, y1) = s.split_at_mut(H);
    permute::<H>(y0, &c.pl);
    permute::<H>(y1, &c.pr);
    xor_half::<H>(y0, y1);
    xor_rot::<H>(y1, y0, c.rot20);
    xor_rot::<H>(y0, y1, c.rot8);
    xor_rot::<H>(y1, y0, c.rot8);
    xor_rot::<H>(y0, y1, c.rot4);
    xor_half::<H>(y1, y0);
    for r in s.iter_mut().take(2 * H) {
        *r = _mm_shuffle_epi8(c.s, *r);
    }
}

/// Encrypts (ENC) or decrypts B consecutive blocks of 16·H·2 bytes at `p`.
#[inline(always)]
unsafe fn blocks<const ENC: bool, const H: usize, const B: usize>(rk: &[[Lane; 4]], p: *mut u8) {
    let c = consts::<ENC, H>();
    let bytes = 16 * H;
    let mut st = [[_mm_setzero_si128(); 4]; B];
    for (b, s) in st.iter_mut().enumerate() {
        for h in 0..H {
            let v = _mm_loadu_si128(p.add(b * bytes + 16 * h).cast());
            let hi = _mm_and_si128(_mm_srli_epi16(v, 4), c.low);
            let lo = _mm_and_si128(v, c.low);
            s[2 * h] = _mm_unpacklo_epi8(hi, lo);
            s[2 * h + 1] = _mm_unpackhi_epi8(hi, lo);
        }
    }
    let r = rk.len() - 1;
    if ENC {
        for k in &rk[..r] {
            for s in st.iter_mut() {
                enc_round::<H>(s, k, &c);
            }
        }
    } else {
        for k in rk[1..].iter().rev() {
            for s in st.iter_mut() {
                dec_round::<H>(s, k, &c);
            }
        }
    }
    let last = if ENC { &rk[r] } else { &rk[0] };
    let w = _mm_set1_epi16(0x0110); // bytes (16, 1): 16·hi + lo
    for (b, s) in st.iter().enumerate() {
        for h in 0..H {
            let a = _mm_maddubs_epi16(_mm_xor_si128(s[2 * h], ld(&last[2 * h].0)), w);
            let z = _mm_maddubs_epi16(_mm_xor_si128(s[2 * h + 1], ld(&last[2 * h + 1].0)), w);
            _mm_storeu_si128(p.add(b * bytes + 16 * h).cast(), _mm_packus_epi16(a, z));
        }
    }
}
