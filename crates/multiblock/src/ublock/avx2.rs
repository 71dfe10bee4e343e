//! The `avx2` backend: the seed paper's AVX2 layouts (notes/seed-001-ublock.md
//! §2.2, §2.6) with a twist for n = 256.
//!
//! State: nibble-spread (one nibble position per byte, masks.rs) AND
//! "high-nibble parallelism" (§2.6): the low nibble of a byte belongs to one
//! block, the high nibble to another. A 16-byte lane thus holds the same
//! half (16 nibbles) of two blocks, and a ymm of two lanes holds four blocks
//! — a "group":
//!
//! ```text
//!              lane 0                   lane 1
//! lo nibbles   block 0                  block 1
//! hi nibbles   block 2                  block 3
//! ```
//!
//! - n = 128: a group is [X0, X1], "left-left + right-right" (§2.2): the
//!   X0 halves of four blocks in one register, no lane crossing anywhere.
//! - n = 256: a group is [X0a, X0b, X1a, X1b] (a = nibbles 0..15, b = 16..31
//!   of the half). The seed keeps a 32-nibble half in one ymm and crosses
//!   lanes with `vpermq` for PL₂₅₆/PR₂₅₆ (Alg. 5, 2 blocks per ymm pair);
//!   here the lanes carry different blocks, so PL₂₅₆/PR₂₅₆ are 2 `vpshufb`
//!   + `vpor` per output register with no lane crossing, 4 blocks per group.
//!
//! Every operation except the S-box is a byte shuffle or XOR, so it moves
//! both nibbles of a byte together. The S-box splits: lo = x & 0f,
//! hi = (x >> 4) & 0f, S(x) = pshufb(S, lo) ^ pshufb(S << 4, hi).
//!
//! For n = 128 the registers use "tracked" coordinates (masks.rs): PL costs
//! nothing, PR is one realigning shuffle.
//!
//! Per round and group: 25 instructions for n = 128 (11 on the shuffle and
//! shift ports: 4 S-box `vpshufb`, 2 `vpsrlw`, 5 linear-layer `vpshufb`),
//! 60 for n = 256 (28 there). Shuffle masks are memory operands, so only the
//! S-box tables and 0x0f take registers. The main loop interleaves 4 groups
//! (n = 128) or 3 (n = 256) against the ~15-cycle latency of a round; a
//! tail uses the fewest groups that hold it, 1–2 blocks an xmm group, in
//! place (padding slots point to a scratch block), so short messages never
//! pay for a full batch. Decryption is the same instruction mix in reverse
//! order. Key setup: the SIMD key schedule (avx2_key_schedule.rs) with the
//! key in all four slots.
//!
//! Constant time: `vpshufb` on secret indices in registers; no secret branch
//! or address.

use super::avx2_key_schedule::schedule;
use super::key_schedule::MAX_ROUND_KEYS;
use super::masks::{
    MAX_ROUNDS_128, PL256, PL256_INV, PR256, PR256_INV, ROT20, ROT4, ROT8, TRACKED_DEC, TRACKED_ENC,
};
use super::tables::{S, S_INV};
use super::{Keys, Variant};
use crate::cpu::{Backend, BackendInfo, BlockKernel};
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// Groups of 4 blocks interleaved in the main loop (n = 128, n = 256).
pub(crate) const GROUPS_128: usize = 4;
pub(crate) const GROUPS_256: usize = 3;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "avx2", constant_time: true, ways: 4 * GROUPS_128, needs: "avx2" },
    available: |cpu| cpu.avx2,
    new: |keys| Box::new(Avx2::new(keys)),
};

/// One round-key register: 16 nibbles ×0x11 (both halves of every byte),
/// repeated in both lanes.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
pub(crate) struct K32(pub(crate) [u8; 32]);

impl Zeroize for K32 {
    /// One 32-byte volatile store (the `[u8; 32]` impl would store bytewise).
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive K32.
        unsafe { core::ptr::write_volatile(self, K32([0; 32])) };
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

/// Round keys RK⁰..RK^r in group form: [X0, X1] or [X0a, X0b, X1a, X1b].
pub(crate) type GroupKeys = [[K32; 4]; MAX_ROUND_KEYS];

pub(crate) struct Avx2 {
    /// Round keys in the order the rounds use them: [encryption, decryption].
    pub(crate) rk: Box<[GroupKeys; 2]>,
    pub(crate) rounds: usize,
    pub(crate) wide: bool,
}

impl Avx2 {
    /// Only on a CPU with AVX2.
    pub(crate) fn new(keys: &Keys) -> Avx2 {
        let v = keys.variant;
        let mut rk = Box::new([[[K32::default(); 4]; MAX_ROUND_KEYS]; 2]);
        let mut key_buf = [0u8; 128];
        for k in key_buf.chunks_exact_mut(v.key_bytes()).take(4) {
            k.copy_from_slice(keys.key());
        }
        let [enc, dec] = &mut *rk;
        // SAFETY: a kernel is built only after `available` saw AVX2.
        unsafe { schedule_both(v, &key_buf, enc, dec) };
        key_buf.zeroize();
        Avx2 { rk, rounds: v.rounds(), wide: v.block_bytes() == 32 }
    }
}

impl Drop for Avx2 {
    fn drop(&mut self) {
        let regs = if self.wide { 4 } else { 2 };
        for dir in self.rk.iter_mut() {
            for k in &mut dir[..=self.rounds] {
                k[..regs].iter_mut().for_each(Zeroize::zeroize);
            }
        }
    }
}

/// The same key in all four slots of the SIMD key schedule: the single-key
/// round keys of both directions.
#[target_feature(enable = "avx2")]
unsafe fn schedule_both(v: Variant, key_buf: &[u8; 128], enc: &mut GroupKeys, dec: &mut GroupKeys) {
    if v.block_bytes() == 16 {
        schedule::<__m256i, true, 1>(v, key_buf, enc);
        schedule::<__m256i, false, 1>(v, key_buf, dec);
    } else {
        schedule::<__m256i, true, 2>(v, key_buf, enc);
        schedule::<__m256i, false, 2>(v, key_buf, dec);
    }
}

/// P_t⁻¹ of [`TRACKED_ENC`] / [`TRACKED_DEC`] as registers: what the
/// round key of the t-th round executed is gathered by (n = 128).
static PINV_ENC: [K32; MAX_ROUNDS_128 + 1] = pinv(&TRACKED_ENC);
static PINV_DEC: [K32; MAX_ROUNDS_128 + 1] = pinv(&TRACKED_DEC);

const fn pinv(m: &[[[u8; 16]; 5]; MAX_ROUNDS_128 + 1]) -> [K32; MAX_ROUNDS_128 + 1] {
    let mut out = [K32([0; 32]); MAX_ROUNDS_128 + 1];
    let mut t = 0;
    while t <= MAX_ROUNDS_128 {
        out[t] = wide(&m[t][4]);
        t += 1;
    }
    out
}

/// A group-form round-key register (plain coordinates, from the SIMD key
/// schedule) as the t-th round executed in one direction needs it:
/// gathered into the tracked coordinates for n = 128.
#[inline(always)]
pub(crate) unsafe fn key_for_round<V: Vector, const ENC: bool, const H: usize>(x: V, t: usize) -> V {
    if H == 1 {
        x.shuffle(V::key(if ENC { &PINV_ENC[t] } else { &PINV_DEC[t] }))
    } else {
        x
    }
}

impl BlockKernel for Avx2 {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        let rk = &self.rk[0][..=self.rounds];
        // SAFETY: this kernel is built only after `available` saw AVX2.
        unsafe {
            if self.wide {
                crypt::<true, 2, GROUPS_256>(rk, data)
            } else {
                crypt::<true, 1, GROUPS_128>(rk, data)
            }
        }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        let rk = &self.rk[1][..=self.rounds];
        // SAFETY: as above.
        unsafe {
            if self.wide {
                crypt::<false, 2, GROUPS_256>(rk, data)
            } else {
                crypt::<false, 1, GROUPS_128>(rk, data)
            }
        }
    }
}

/// ECB over whole blocks of 16·H bytes with round keys `rk` in group form
/// and execution order (the same key in every slot). Main loop: G ymm
/// groups; tail: the fewest groups that hold it (xmm for 1–2 blocks), in
/// place.
///
/// # Safety
/// The CPU must have AVX2; `data.len()` must be a multiple of 16·H.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn crypt<const ENC: bool, const H: usize, const G: usize>(
    rk: &[[K32; 4]],
    data: &mut [u8],
) {
    let bb = 16 * H;
    let group = 4 * bb;
    let mut chunks = data.chunks_exact_mut(G * group);
    for c in &mut chunks {
        groups::<__m256i, ENC, H, G>(rk, &consecutive::<__m256i, H, G>(c.as_mut_ptr()));
    }
    let rest = chunks.into_remainder();
    if rest.is_empty() {
        return;
    }
    // The last 1..4·G blocks in place; slots past the end work on scratch.
    let blocks = rest.len() / bb;
    let mut scratch = K32::default();
    let (p, sp) = (rest.as_mut_ptr(), scratch.0.as_mut_ptr());
    let slots = |g: usize, lanes: usize| -> Slots {
        core::array::from_fn(|s| {
            let b = g * 2 * lanes + s;
            if s < 2 * lanes && b < blocks {
                p.add(b * bb)
            } else {
                sp
            }
        })
    };
    match blocks {
        1 | 2 => groups::<__m128i, ENC, H, 1>(rk, &[slots(0, 1)]),
        3 | 4 => groups::<__m256i, ENC, H, 1>(rk, &[slots(0, 2)]),
        5..=8 => groups::<__m256i, ENC, H, 2>(rk, &[slots(0, 2), slots(1, 2)]),
        9..=12 => groups::<__m256i, ENC, H, 3>(rk, &[slots(0, 2), slots(1, 2), slots(2, 2)]),
        _ => groups::<__m256i, ENC, H, 4>(rk, &[slots(0, 2), slots(1, 2), slots(2, 2), slots(3, 2)]),
    }
    scratch.zeroize();
}

/// The operations the rounds need, on xmm (a 2-block group) or ymm (4).
/// Every method is a single AVX2 instruction (VEX-encoded for xmm).
pub(crate) trait Vector: Copy {
    /// 16-byte lanes.
    const LANES: usize;
    /// Lane 0 from `p0`, lane 1 (ymm) from `p1`.
    unsafe fn load_lanes(p0: *const u8, p1: *const u8) -> Self;
    unsafe fn store_lanes(self, p0: *mut u8, p1: *mut u8);
    /// A 16-byte constant in every lane.
    unsafe fn splat(c: &[u8; 16]) -> Self;
    /// A round-key register (its first LANES·16 bytes).
    unsafe fn key(k: &K32) -> Self;
    unsafe fn set1(b: u8) -> Self;
    unsafe fn xor(self, o: Self) -> Self;
    unsafe fn or(self, o: Self) -> Self;
    unsafe fn and(self, o: Self) -> Self;
    /// 16-bit lanes shifted right / left by 4.
    unsafe fn shr4(self) -> Self;
    unsafe fn shl4(self) -> Self;
    /// `pshufb`: self is the table, out[j] = self[idx[j]] (0 if bit 7).
    unsafe fn shuffle(self, idx: Self) -> Self;
    unsafe fn unpacklo(self, o: Self) -> Self;
    unsafe fn unpackhi(self, o: Self) -> Self;
    /// `pmaddubsw` (self unsigned, o signed).
    unsafe fn maddubs(self, o: Self) -> Self;
    /// `packuswb`.
    unsafe fn packus(self, o: Self) -> Self;
    /// 32-bit words 2, 3 of each lane from `o` (`vpblendd`).
    unsafe fn blend_hi64(self, o: Self) -> Self;
    /// The two 64-bit halves of each lane swapped (`vpshufd 0x4e`).
    unsafe fn swap64(self) -> Self;
    /// Into the first LANES·16 bytes of a round-key slot.
    unsafe fn store_key(self, k: &mut K32);
}

impl Vector for __m128i {
    const LANES: usize = 1;
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load_lanes(p0: *const u8, _: *const u8) -> Self {
        _mm_loadu_si128(p0.cast())
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store_lanes(self, p0: *mut u8, _: *mut u8) {
        _mm_storeu_si128(p0.cast(), self)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat(c: &[u8; 16]) -> Self {
        _mm_loadu_si128(c.as_ptr().cast())
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn key(k: &K32) -> Self {
        _mm_load_si128(k.0.as_ptr().cast())
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn set1(b: u8) -> Self {
        _mm_set1_epi8(b as i8)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn xor(self, o: Self) -> Self {
        _mm_xor_si128(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn or(self, o: Self) -> Self {
        _mm_or_si128(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn and(self, o: Self) -> Self {
        _mm_and_si128(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shr4(self) -> Self {
        _mm_srli_epi16(self, 4)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shl4(self) -> Self {
        _mm_slli_epi16(self, 4)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shuffle(self, idx: Self) -> Self {
        _mm_shuffle_epi8(self, idx)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpacklo(self, o: Self) -> Self {
        _mm_unpacklo_epi8(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpackhi(self, o: Self) -> Self {
        _mm_unpackhi_epi8(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn maddubs(self, o: Self) -> Self {
        _mm_maddubs_epi16(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn packus(self, o: Self) -> Self {
        _mm_packus_epi16(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn blend_hi64(self, o: Self) -> Self {
        _mm_blend_epi32::<0b1100>(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn swap64(self) -> Self {
        _mm_shuffle_epi32::<0x4e>(self)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store_key(self, k: &mut K32) {
        _mm_store_si128(k.0.as_mut_ptr().cast(), self)
    }
}

impl Vector for __m256i {
    const LANES: usize = 2;
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load_lanes(p0: *const u8, p1: *const u8) -> Self {
        _mm256_loadu2_m128i(p1.cast(), p0.cast())
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store_lanes(self, p0: *mut u8, p1: *mut u8) {
        _mm256_storeu2_m128i(p1.cast(), p0.cast(), self)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat(c: &[u8; 16]) -> Self {
        _mm256_broadcastsi128_si256(_mm_loadu_si128(c.as_ptr().cast()))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn key(k: &K32) -> Self {
        _mm256_load_si256(k.0.as_ptr().cast())
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn set1(b: u8) -> Self {
        _mm256_set1_epi8(b as i8)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn xor(self, o: Self) -> Self {
        _mm256_xor_si256(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn or(self, o: Self) -> Self {
        _mm256_or_si256(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn and(self, o: Self) -> Self {
        _mm256_and_si256(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shr4(self) -> Self {
        _mm256_srli_epi16(self, 4)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shl4(self) -> Self {
        _mm256_slli_epi16(self, 4)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shuffle(self, idx: Self) -> Self {
        _mm256_shuffle_epi8(self, idx)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpacklo(self, o: Self) -> Self {
        _mm256_unpacklo_epi8(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpackhi(self, o: Self) -> Self {
        _mm256_unpackhi_epi8(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn maddubs(self, o: Self) -> Self {
        _mm256_maddubs_epi16(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn packus(self, o: Self) -> Self {
        _mm256_packus_epi16(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn blend_hi64(self, o: Self) -> Self {
        _mm256_blend_epi32::<0b1100_1100>(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn swap64(self) -> Self {
        _mm256_shuffle_epi32::<0x4e>(self)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store_key(self, k: &mut K32) {
        _mm256_store_si256(k.0.as_mut_ptr().cast(), self)
    }
}

/// [`TRACKED_ENC`] / [`TRACKED_DEC`] as 32-byte registers: per round
/// [rot4, rot8, rot20, realign].
pub(crate) type RoundMasks = [[K32; 4]; MAX_ROUNDS_128 + 1];

const fn widen(m: &[[[u8; 16]; 5]; MAX_ROUNDS_128 + 1]) -> RoundMasks {
    let mut out = [[K32([0; 32]); 4]; MAX_ROUNDS_128 + 1];
    let mut t = 0;
    while t <= MAX_ROUNDS_128 {
        let mut k = 0;
        while k < 4 {
            let mut j = 0;
            while j < 16 {
                out[t][k].0[j] = m[t][k][j];
                out[t][k].0[j + 16] = m[t][k][j];
                j += 1;
            }
            k += 1;
        }
        t += 1;
    }
    out
}

pub(crate) static MASKS_ENC: RoundMasks = widen(&TRACKED_ENC);
pub(crate) static MASKS_DEC: RoundMasks = widen(&TRACKED_DEC);

/// The shuffle masks of n = 256 (the same every round) as registers.
pub(crate) struct Masks256 {
    rot: [K32; 3],
    pl: [K32; 4],
    pr: [K32; 4],
}

const fn wide(m: &[u8; 16]) -> K32 {
    let mut k = [0u8; 32];
    let mut j = 0;
    while j < 16 {
        k[j] = m[j];
        k[j + 16] = m[j];
        j += 1;
    }
    K32(k)
}

const fn masks256(pl: &[[[u8; 16]; 2]; 2], pr: &[[[u8; 16]; 2]; 2]) -> Masks256 {
    Masks256 {
        rot: [wide(&ROT4), wide(&ROT8), wide(&ROT20)],
        pl: [wide(&pl[0][0]), wide(&pl[0][1]), wide(&pl[1][0]), wide(&pl[1][1])],
        pr: [wide(&pr[0][0]), wide(&pr[0][1]), wide(&pr[1][0]), wide(&pr[1][1])],
    }
}

static M256_ENC: [Masks256; 1] = [masks256(&PL256, &PR256)];
static M256_DEC: [Masks256; 1] = [masks256(&PL256_INV, &PR256_INV)];

/// The register constants of one direction: the S-box (or its inverse) for
/// low and high nibbles, and 0x0f. The shuffle masks stay in memory
/// (`vpshufb ymm, ymm, m256`): 16 registers are few for 2–4 groups.
pub(crate) struct Consts<V> {
    s_lo: V,
    s_hi: V,
    low: V,
}

#[inline(always)]
pub(crate) unsafe fn consts<V: Vector, const ENC: bool>() -> Consts<V> {
    let s = if ENC { &S } else { &S_INV };
    Consts { s_lo: V::splat(s), s_hi: V::splat(&s.map(|x| x << 4)), low: V::set1(0x0f) }
}

/// The S-box (or inverse) on both nibbles of every byte.
#[inline(always)]
pub(crate) unsafe fn sbox<V: Vector>(x: V, c: &Consts<V>) -> V {
    let lo = x.and(c.low);
    let hi = x.shr4().and(c.low);
    c.s_lo.shuffle(lo).xor(c.s_hi.shuffle(hi))
}

/// A 32-nibble half (two registers) through PL₂₅₆ or PR₂₅₆ (masks.rs).
#[inline(always)]
unsafe fn permute256<V: Vector>(x: &mut [V], m: &[K32; 4]) {
    let (a, b) = (x[0], x[1]);
    x[0] = a.shuffle(V::key(&m[0])).or(b.shuffle(V::key(&m[1])));
    x[1] = a.shuffle(V::key(&m[2])).or(b.shuffle(V::key(&m[3])));
}

/// x ^= y <<<₃₂ rot, on both registers of a 32-nibble half.
#[inline(always)]
unsafe fn xor_rot256<V: Vector>(x: &mut [V], y: &[V], rot: &K32) {
    x[0] = x[0].xor(y[0].shuffle(V::key(rot)));
    x[1] = x[1].xor(y[1].shuffle(V::key(rot)));
}

/// x ^= y.
#[inline(always)]
unsafe fn xor256<V: Vector>(x: &mut [V], y: &[V]) {
    x[0] = x[0].xor(y[0]);
    x[1] = x[1].xor(y[1]);
}

/// Algorithm 1 steps 3–13 on a group of n = 128 in tracked coordinates
/// (masks.rs): the PL shuffle is gone, PR is the `realign` shuffle.
#[inline(always)]
pub(crate) unsafe fn enc_round_128<V: Vector>(s: &mut [V; 4], k: &[K32; 4], m: &[K32; 4], c: &Consts<V>) {
    let mut x0 = sbox(s[0].xor(V::key(&k[0])), c);
    let mut x1 = sbox(s[1].xor(V::key(&k[1])), c);
    x1 = x1.xor(x0);
    x0 = x0.xor(x1.shuffle(V::key(&m[0])));
    x1 = x1.xor(x0.shuffle(V::key(&m[1])));
    x0 = x0.xor(x1.shuffle(V::key(&m[1])));
    x1 = x1.xor(x0.shuffle(V::key(&m[2])));
    x0 = x0.xor(x1);
    s[0] = x0;
    s[1] = x1.shuffle(V::key(&m[3]));
}

/// Algorithm 2 steps 3–15 on a group of n = 128 in tracked coordinates.
#[inline(always)]
pub(crate) unsafe fn dec_round_128<V: Vector>(s: &mut [V; 4], k: &[K32; 4], m: &[K32; 4], c: &Consts<V>) {
    let mut y0 = s[0].xor(V::key(&k[0]));
    let mut y1 = s[1].xor(V::key(&k[1])).shuffle(V::key(&m[3]));
    y0 = y0.xor(y1);
    y1 = y1.xor(y0.shuffle(V::key(&m[2])));
    y0 = y0.xor(y1.shuffle(V::key(&m[1])));
    y1 = y1.xor(y0.shuffle(V::key(&m[1])));
    y0 = y0.xor(y1.shuffle(V::key(&m[0])));
    y1 = y1.xor(y0);
    s[0] = sbox(y0, c);
    s[1] = sbox(y1, c);
}

/// Algorithm 1 steps 3–13 on a group of n = 256, [X0a, X0b, X1a, X1b].
#[inline(always)]
pub(crate) unsafe fn enc_round_256<V: Vector>(s: &mut [V; 4], k: &[K32; 4], m: &Masks256, c: &Consts<V>) {
    for i in 0..4 {
        s[i] = sbox(s[i].xor(V::key(&k[i])), c);
    }
    let (x0, x1) = s.split_at_mut(2);
    xor256(x1, x0);
    xor_rot256(x0, x1, &m.rot[0]);
    xor_rot256(x1, x0, &m.rot[1]);
    xor_rot256(x0, x1, &m.rot[1]);
    xor_rot256(x1, x0, &m.rot[2]);
    xor256(x0, x1);
    permute256(x0, &m.pl);
    permute256(x1, &m.pr);
}

/// Algorithm 2 steps 3–15 on a group of n = 256.
#[inline(always)]
pub(crate) unsafe fn dec_round_256<V: Vector>(s: &mut [V; 4], k: &[K32; 4], m: &Masks256, c: &Consts<V>) {
    for i in 0..4 {
        s[i] = s[i].xor(V::key(&k[i]));
    }
    let (y0, y1) = s.split_at_mut(2);
    permute256(y0, &m.pl);
    permute256(y1, &m.pr);
    xor256(y0, y1);
    xor_rot256(y1, y0, &m.rot[2]);
    xor_rot256(y0, y1, &m.rot[1]);
    xor_rot256(y1, y0, &m.rot[1]);
    xor_rot256(y0, y1, &m.rot[0]);
    xor256(y1, y0);
    for r in s.iter_mut() {
        *r = sbox(*r, c);
    }
}

/// The blocks of a group: slot s (2·LANES of them: lane 0 low, lane 1 low,
/// lane 0 high, lane 1 high) is the block of 16·H bytes at `slots[s]`.
pub(crate) type Slots = [*mut u8; 4];

/// The slots of G groups of consecutive blocks at `p`.
#[inline(always)]
pub(crate) unsafe fn consecutive<V: Vector, const H: usize, const G: usize>(p: *mut u8) -> [Slots; G] {
    let mut out = [[p; 4]; G];
    for (g, slots) in out.iter_mut().enumerate() {
        for (s, slot) in slots.iter_mut().enumerate().take(2 * V::LANES) {
            *slot = p.add((g * 2 * V::LANES + s) * 16 * H);
        }
    }
    out
}

/// Loads a group, nibble-spread.
#[inline(always)]
pub(crate) unsafe fn load_group<V: Vector, const H: usize>(slots: &Slots, low: V) -> [V; 4] {
    let l = V::LANES;
    let mut s = [V::set1(0); 4];
    for h in 0..H {
        let a = V::load_lanes(slots[0].add(16 * h), slots[1].add(16 * h));
        let b = V::load_lanes(slots[l].add(16 * h), slots[l + 1].add(16 * h));
        let (ah, al) = (a.shr4().and(low), a.and(low));
        let high = V::set1(0xf0);
        let (bh, bl) = (b.and(high), b.shl4().and(high));
        s[2 * h] = ah.unpacklo(al).or(bh.unpacklo(bl));
        s[2 * h + 1] = ah.unpackhi(al).or(bh.unpackhi(bl));
    }
    s
}

/// Stores a group loaded by [`load_group`].
#[inline(always)]
pub(crate) unsafe fn store_group<V: Vector, const H: usize>(s: &[V; 4], slots: &Slots, low: V) {
    let l = V::LANES;
    let w = V::splat(&[16, 1, 16, 1, 16, 1, 16, 1, 16, 1, 16, 1, 16, 1, 16, 1]);
    let pack = |x: V, y: V| x.and(low).maddubs(w).packus(y.and(low).maddubs(w));
    for h in 0..H {
        let (x, y) = (s[2 * h], s[2 * h + 1]);
        pack(x, y).store_lanes(slots[0].add(16 * h), slots[1].add(16 * h));
        pack(x.shr4(), y.shr4()).store_lanes(slots[l].add(16 * h), slots[l + 1].add(16 * h));
    }
}

/// G groups in place (all rounds); `rk` holds the round keys in execution
/// order (r rounds and the output whitening).
#[inline(always)]
pub(crate) unsafe fn groups<V: Vector, const ENC: bool, const H: usize, const G: usize>(
    rk: &[[K32; 4]],
    slots: &[Slots; G],
) {
    let c = consts::<V, ENC>();
    // The masks are opaque to LLVM: with known constants it may turn one
    // `vpshufb` into two other shuffles (`<<<₃₂ 8` became `vpshuflw` +
    // `vpshufhw`), and it would hoist them into registers and spill. The
    // zero stride keeps each a memory operand inside the round loop.
    let masks = core::hint::black_box(if ENC { &MASKS_ENC } else { &MASKS_DEC });
    let m256 = core::hint::black_box(if ENC { &M256_ENC } else { &M256_DEC });
    let zero = core::hint::black_box(0usize);
    let mut st = [[V::set1(0); 4]; G];
    for (s, slots) in st.iter_mut().zip(slots) {
        *s = load_group::<V, H>(slots, c.low);
    }
    let r = rk.len() - 1;
    for (t, k) in rk[..r].iter().enumerate() {
        for s in st.iter_mut() {
            match (ENC, H) {
                (true, 1) => enc_round_128::<V>(s, k, &masks[t], &c),
                (false, 1) => dec_round_128::<V>(s, k, &masks[t], &c),
                (true, _) => enc_round_256::<V>(s, k, &m256[t * zero], &c),
                (false, _) => dec_round_256::<V>(s, k, &m256[t * zero], &c),
            }
        }
    }
    for (s, slots) in st.iter_mut().zip(slots) {
        for i in 0..2 * H {
            s[i] = s[i].xor(V::key(&rk[r][i]));
        }
        store_group::<V, H>(s, slots, c.low);
    }
}
