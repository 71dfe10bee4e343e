//! The per-machine parts of a round ([`Layout`]), each generic over every
//! machine that has the instructions (so the emulator runs them in tests),
//! and the masks they read, computed at compile time (masks.rs).
//!
//! | layout | used by | S-box | `<<<₃₂` | PL, PR | masks |
//! |---|---|---|---|---|---|
//! | [`Plain`] | ssse3 | 1 `pshufb` | 1 `pshufb` | 1 `pshufb` (n = 128), 2 + OR per register (256) | registers |
//! | [`Tracked`] | avx2, avx512-vbmi, n = 128 | 2 `pshufb` + shift + 2 AND + XOR | 1 `pshufb` | PL free, PR 1 `pshufb` | memory operands |
//! | [`Shuffled`] | avx2 n = 256 | as Tracked | 1 `pshufb` | 2 `pshufb` + OR per register | memory operands |
//! | [`Permuted`] | avx512-vbmi n = 256 | as Tracked | 1 `pshufb` | 1 `vpermb` | registers |
//!
//! Memory operands: 16 ymm are few for 3–4 groups, and with constants LLVM
//! knows it may turn one `vpshufb` into two other shuffles (`<<<₃₂ 8` became
//! `vpshuflw` + `vpshufhw`) and hoist them into registers, then spill. The
//! mask pointers are `black_box`ed (and the fixed masks indexed with an
//! opaque zero stride), so each stays a memory operand inside the round.

use super::masks::{
    MAX_ROUNDS_128, PL128, PL128_INV, PL256, PL256_INV, PR128, PR128_INV, PR256, PR256_INV, ROT20, ROT4, ROT8,
    TRACKED_DEC, TRACKED_ENC,
};
use super::rounds::{Layout, NibbleMap, K64};
use super::constants::{PL_256, PL_256_INV, PR_256, PR_256_INV, S, S_INV};
use crate::simd::{Simd, Vbmi};

/// The S-box of a direction.
const fn sbox(enc: bool) -> &'static [u8; 16] {
    if enc {
        &S
    } else {
        &S_INV
    }
}

/// masks.rs `perm16` masks in the order [`permute2`] takes them.
const fn four(p: &[[[u8; 16]; 2]; 2]) -> [[u8; 16]; 4] {
    [p[0][0], p[0][1], p[1][0], p[1][1]]
}

/// A half of two registers (32 nibbles, lanes a and b) through a byte
/// permutation: out_o = pshufb(a, m[2o]) | pshufb(b, m[2o+1]) (masks.rs
/// `perm16`).
///
/// `OPAQUE` (masks in registers): opaque shuffles, which LLVM would
/// otherwise merge pairwise into `vpermt2w` where AVX-512 VBMI is enabled
/// (see `Simd::shuffle8_opaque`); masks read from memory stay plain
/// shuffles with memory operands.
#[inline(always)]
fn permute2<M: Simd, const OPAQUE: bool>(m: M, x: &mut [M::V], masks: [M::V; 4]) {
    let (a, b) = (x[0], x[1]);
    x[0] = m.or(shuffle::<M, OPAQUE>(m, a, masks[0]), shuffle::<M, OPAQUE>(m, b, masks[1]));
    x[1] = m.or(shuffle::<M, OPAQUE>(m, a, masks[2]), shuffle::<M, OPAQUE>(m, b, masks[3]));
}

/// `shuffle8`, opaque if `OPAQUE`.
#[inline(always)]
fn shuffle<M: Simd, const OPAQUE: bool>(m: M, table: M::V, idx: M::V) -> M::V {
    if OPAQUE {
        m.shuffle8_opaque(table, idx)
    } else {
        m.shuffle8(table, idx)
    }
}

/// PL and PR of a layout whose masks live in registers.
pub(crate) trait Halves<M: Simd> {
    /// Registers per half block.
    const H: usize;
    fn new(m: M, enc: bool) -> Self;
    fn pl(&self, m: M, x: &mut [M::V]);
    fn pr(&self, m: M, x: &mut [M::V]);
}

/// S-box, rotation masks and the permutation `P` in registers.
pub(crate) struct InRegisters<M: Simd, P, const PACKED: bool> {
    s: NibbleMap<M, PACKED>,
    rot: [M::V; 3],
    p: P,
}

impl<M: Simd, P: Halves<M>, const PACKED: bool> InRegisters<M, P, PACKED> {
    #[inline(always)]
    pub(crate) fn new(m: M, enc: bool) -> Self {
        let rot = [m.splat128(&ROT4), m.splat128(&ROT8), m.splat128(&ROT20)];
        InRegisters { s: NibbleMap::new(m, sbox(enc)), rot, p: P::new(m, enc) }
    }
}

impl<M: Simd, P: Halves<M>, const PACKED: bool> Layout<M> for InRegisters<M, P, PACKED> {
    const H: usize = P::H;
    #[inline(always)]
    fn sbox(&self, m: M, x: M::V) -> M::V {
        self.s.apply(m, x)
    }
    #[inline(always)]
    fn rot(&self, m: M, _: usize, r: usize, x: M::V) -> M::V {
        m.shuffle8(x, self.rot[r])
    }
    #[inline(always)]
    fn pl(&self, m: M, _: usize, x: &mut [M::V]) {
        self.p.pl(m, x)
    }
    #[inline(always)]
    fn pr(&self, m: M, _: usize, x: &mut [M::V]) {
        self.p.pr(m, x)
    }
}

/// One block per register set, the high nibble of every byte zero (ssse3,
/// the uBlock designers' SSE structure): everything in registers.
pub(crate) type Plain<M, const H: usize> = InRegisters<M, Shuffles<M, H>, false>;

/// PL, PR by one `pshufb` (H = 1) or two and an OR per register (H = 2).
pub(crate) struct Shuffles<M: Simd, const H: usize> {
    pl: [M::V; 4],
    pr: [M::V; 4],
}

impl<M: Simd, const H: usize> Halves<M> for Shuffles<M, H> {
    const H: usize = H;
    #[inline(always)]
    fn new(m: M, enc: bool) -> Self {
        let (pl, pr) = match (enc, H) {
            (true, 1) => ([PL128; 4], [PR128; 4]),
            (false, 1) => ([PL128_INV; 4], [PR128_INV; 4]),
            (true, _) => (four(&PL256), four(&PR256)),
            (false, _) => (four(&PL256_INV), four(&PR256_INV)),
        };
        let mut regs = [[m.zero(); 4]; 2];
        for (r, p) in regs.iter_mut().zip([&pl, &pr]) {
            for (v, mask) in r.iter_mut().zip(p) {
                *v = m.splat128(mask);
            }
        }
        Shuffles { pl: regs[0], pr: regs[1] }
    }
    #[inline(always)]
    fn pl(&self, m: M, x: &mut [M::V]) {
        shuffles::<M, H>(m, x, self.pl)
    }
    #[inline(always)]
    fn pr(&self, m: M, x: &mut [M::V]) {
        shuffles::<M, H>(m, x, self.pr)
    }
}

#[inline(always)]
fn shuffles<M: Simd, const H: usize>(m: M, x: &mut [M::V], masks: [M::V; 4]) {
    if H == 1 {
        x[0] = m.shuffle8(x[0], masks[0]);
    } else {
        permute2::<M, true>(m, x, masks);
    }
}

/// [`TRACKED_ENC`] / [`TRACKED_DEC`] as registers: per round t
/// [rot4, rot8, rot20, realign] and P_t⁻¹ (what RK^t is gathered by).
pub(crate) struct TrackedMasks {
    pub(crate) round: [[K64; 4]; MAX_ROUNDS_128 + 1],
    pub(crate) pinv: [K64; MAX_ROUNDS_128 + 1],
}

const fn tracked(m: &[[[u8; 16]; 5]; MAX_ROUNDS_128 + 1]) -> TrackedMasks {
    let zero = K64([0; 64]);
    let mut out = TrackedMasks { round: [[zero; 4]; MAX_ROUNDS_128 + 1], pinv: [zero; MAX_ROUNDS_128 + 1] };
    let mut t = 0;
    while t <= MAX_ROUNDS_128 {
        let mut k = 0;
        while k < 4 {
            out.round[t][k] = K64::lanes(&m[t][k]);
            k += 1;
        }
        out.pinv[t] = K64::lanes(&m[t][4]);
        t += 1;
    }
    out
}

pub(crate) static TRACKED: [TrackedMasks; 2] = [tracked(&TRACKED_ENC), tracked(&TRACKED_DEC)];

/// Packed n = 128 in tracked coordinates (masks.rs `tracked_masks`): PL
/// costs nothing, PR is one realigning `pshufb`, the rotations' masks
/// change every round.
pub(crate) struct Tracked<'a, M: Simd> {
    s: NibbleMap<M, true>,
    masks: &'a TrackedMasks,
}

impl<M: Simd> Tracked<'_, M> {
    #[inline(always)]
    pub(crate) fn new(m: M, enc: bool) -> Self {
        let masks = core::hint::black_box(&TRACKED[usize::from(!enc)]);
        Tracked { s: NibbleMap::new(m, sbox(enc)), masks }
    }
}

impl<M: Simd> Layout<M> for Tracked<'_, M> {
    const H: usize = 1;
    const RELOAD_PER_GROUP: bool = true;
    #[inline(always)]
    fn sbox(&self, m: M, x: M::V) -> M::V {
        self.s.apply(m, x)
    }
    #[inline(always)]
    fn rot(&self, m: M, t: usize, r: usize, x: M::V) -> M::V {
        m.shuffle8(x, m.load(&self.masks.round[t][r].0))
    }
    #[inline(always)]
    fn pl(&self, _: M, _: usize, _: &mut [M::V]) {}
    #[inline(always)]
    fn pr(&self, m: M, t: usize, x: &mut [M::V]) {
        x[0] = m.shuffle8(x[0], m.load(&self.masks.round[t][3].0));
    }
}

/// The fixed masks of n = 256 as registers: rotations, PL, PR (or their
/// inverses) in the two-lane form of masks.rs `perm16`.
pub(crate) struct Masks256 {
    rot: [K64; 3],
    pl: [K64; 4],
    pr: [K64; 4],
}

const fn masks256(pl: &[[[u8; 16]; 2]; 2], pr: &[[[u8; 16]; 2]; 2]) -> Masks256 {
    Masks256 {
        rot: [K64::lanes(&ROT4), K64::lanes(&ROT8), K64::lanes(&ROT20)],
        pl: [K64::lanes(&pl[0][0]), K64::lanes(&pl[0][1]), K64::lanes(&pl[1][0]), K64::lanes(&pl[1][1])],
        pr: [K64::lanes(&pr[0][0]), K64::lanes(&pr[0][1]), K64::lanes(&pr[1][0]), K64::lanes(&pr[1][1])],
    }
}

static MASKS256: [[Masks256; 1]; 2] = [[masks256(&PL256, &PR256)], [masks256(&PL256_INV, &PR256_INV)]];

/// Packed n = 256, a half in two registers (nibbles 0..15, 16..31): PL₂₅₆
/// and PR₂₅₆ gather from both with two `pshufb` and an OR per register, no
/// lane crossing.
pub(crate) struct Shuffled<'a, M: Simd> {
    s: NibbleMap<M, true>,
    masks: &'a [Masks256; 1],
    zero: usize,
}

impl<M: Simd> Shuffled<'_, M> {
    #[inline(always)]
    pub(crate) fn new(m: M, enc: bool) -> Self {
        let masks = core::hint::black_box(&MASKS256[usize::from(!enc)]);
        Shuffled { s: NibbleMap::new(m, sbox(enc)), masks, zero: core::hint::black_box(0) }
    }
    #[inline(always)]
    fn masks(&self, t: usize) -> &Masks256 {
        &self.masks[t * self.zero]
    }
}

impl<M: Simd> Layout<M> for Shuffled<'_, M> {
    const H: usize = 2;
    const RELOAD_PER_GROUP: bool = true;
    #[inline(always)]
    fn sbox(&self, m: M, x: M::V) -> M::V {
        self.s.apply(m, x)
    }
    #[inline(always)]
    fn rot(&self, m: M, t: usize, r: usize, x: M::V) -> M::V {
        m.shuffle8(x, m.load(&self.masks(t).rot[r].0))
    }
    #[inline(always)]
    fn pl(&self, m: M, t: usize, x: &mut [M::V]) {
        let p = &self.masks(t).pl;
        permute2::<M, false>(m, x, [m.load(&p[0].0), m.load(&p[1].0), m.load(&p[2].0), m.load(&p[3].0)]);
    }
    #[inline(always)]
    fn pr(&self, m: M, t: usize, x: &mut [M::V]) {
        let p = &self.masks(t).pr;
        permute2::<M, false>(m, x, [m.load(&p[0].0), m.load(&p[1].0), m.load(&p[2].0), m.load(&p[3].0)]);
    }
}

/// `vpermb` index of a byte permutation P of 16 bytes on 32 nibbles, in
/// each 32-byte half: out nibble 2i+t ← nibble 2·P[i]+t.
const fn vpermb_index(p: &[u8; 16]) -> K64 {
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
    K64(m)
}

static VPERMB: [[K64; 2]; 2] =
    [[vpermb_index(&PL_256), vpermb_index(&PR_256)], [vpermb_index(&PL_256_INV), vpermb_index(&PR_256_INV)]];

/// Packed n = 256 with a whole half in 32 bytes (zmm: two 32-byte halves,
/// each the 32 nibbles of two blocks): PL₂₅₆ and PR₂₅₆ are one `vpermb`.
pub(crate) type Permuted<M> = InRegisters<M, Vpermb<M>, true>;

/// PL₂₅₆, PR₂₅₆ by one `vpermb` each.
pub(crate) struct Vpermb<M: Simd> {
    pl: M::V,
    pr: M::V,
}

impl<M: Vbmi> Halves<M> for Vpermb<M> {
    const H: usize = 1;
    #[inline(always)]
    fn new(m: M, enc: bool) -> Self {
        let [pl, pr] = &VPERMB[usize::from(!enc)];
        Vpermb { pl: m.load(&pl.0), pr: m.load(&pr.0) }
    }
    #[inline(always)]
    fn pl(&self, m: M, x: &mut [M::V]) {
        x[0] = m.permb(x[0], self.pl);
    }
    #[inline(always)]
    fn pr(&self, m: M, x: &mut [M::V]) {
        x[0] = m.permb(x[0], self.pr);
    }
}
