//! uBlock's rounds on nibble-spread registers, written once for every
//! machine (Wu et al., J. Cryptologic Research 2019, 6(6), Algorithms 1
//! and 2; the SIMD forms of Gao et al. 2024, "Fast software implementation
//! of uBlock", §2.2 and §2.6).
//!
//! A register holds one nibble per byte. In *packed* form (avx2,
//! avx512-vbmi) the low nibble of a byte belongs to one block and the high
//! nibble to another, so a 16-byte lane carries the same 16 nibbles of two
//! blocks; in *plain* form (ssse3) the high nibble is zero. Every step but
//! the S-box is a byte shuffle or XOR and moves both nibbles together; the
//! S-box looks both up ([`NibbleMap`]).
//!
//! A half block (X0 or X1) is `H` registers of 16·BYTES/16 nibbles; what
//! differs per machine and variant (which table and masks, PL/PR by one
//! `pshufb`, two `pshufb` and an OR, `vpermb`, or the tracked coordinates
//! of n = 128) is a [`Layout`] (layouts.rs); where the blocks come from is a
//! [`Groups`] (groups.rs). [`run`] is the one kernel: load G groups, all
//! rounds, whitening, store.

use zeroize::Zeroize;

use super::variant::Keys;
use crate::kernel::BatchCipher;
use crate::simd::{Machine, Simd};

/// One register of round key or shuffle mask, the 16-byte pattern in all
/// four lanes (xmm and ymm read its first 16 or 32 bytes).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct K64(pub(crate) [u8; 64]);

impl Default for K64 {
    fn default() -> K64 {
        K64([0; 64])
    }
}

impl Zeroize for K64 {
    /// One volatile store of the whole register image.
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned, exclusive K64.
        unsafe { core::ptr::write_volatile(self, K64([0; 64])) };
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

impl K64 {
    /// A 16-byte pattern in every lane.
    pub(crate) const fn lanes(m: &[u8; 16]) -> K64 {
        let mut k = [0u8; 64];
        let mut j = 0;
        while j < 64 {
            k[j] = m[j % 16];
            j += 1;
        }
        K64(k)
    }
}

/// Round-key registers in execution order (r rounds, then the output
/// whitening), per round [X0, X1] or [X0a, X0b, X1a, X1b] (2·H registers
/// of the layout that reads them): register i of round t at byte
/// (t·regs + i)·S, S the width they were made at (a narrower machine reads
/// the first bytes of each).
#[derive(Clone, Copy)]
pub(crate) struct KeyRegs<'a, const S: usize> {
    pub(crate) bytes: &'a [u8],
    pub(crate) regs: usize,
    /// r + 1.
    pub(crate) count: usize,
}

impl<'a, const S: usize> KeyRegs<'a, S> {
    /// Register i of round t.
    #[inline(always)]
    pub(crate) fn reg(&self, t: usize, i: usize) -> &'a [u8] {
        &self.bytes[(t * self.regs + i) * S..]
    }
}

/// A 16-entry nibble table applied to every byte: in packed form to both
/// nibbles (two `pshufb`, a shift and two ANDs), in plain form to the low
/// one (one `pshufb`; the high nibble is zero).
pub(crate) struct NibbleMap<M: Simd, const PACKED: bool> {
    lo: M::V,
    hi: M::V,
    low: M::V,
}

impl<M: Simd, const PACKED: bool> NibbleMap<M, PACKED> {
    #[inline(always)]
    pub(crate) fn new(m: M, table: &[u8; 16]) -> Self {
        let mut hi = [0u8; 16];
        for (h, &t) in hi.iter_mut().zip(table) {
            *h = t << 4;
        }
        NibbleMap { lo: m.splat128(table), hi: m.splat128(&hi), low: m.splat8(0x0f) }
    }
    #[inline(always)]
    pub(crate) fn apply(&self, m: M, x: M::V) -> M::V {
        if PACKED {
            let lo = m.and(x, self.low);
            let hi = m.and(m.shr16::<4>(x), self.low);
            m.xor(m.shuffle8(self.lo, lo), m.shuffle8(self.hi, hi))
        } else {
            m.shuffle8(self.lo, x)
        }
    }
}

/// The parts of a round that differ per machine and variant, for round `t`
/// in execution order (the tracked masks of n = 128 change every round).
pub(crate) trait Layout<M: Simd> {
    /// Registers per half block.
    const H: usize;
    /// Masks are memory operands read anew by each group of a round (see
    /// [`run`]).
    const RELOAD_PER_GROUP: bool = false;
    /// S (encryption) or S⁻¹ on every nibble.
    fn sbox(&self, m: M, x: M::V) -> M::V;
    /// x <<<₃₂ 4, 8, 20 for `r` = 0, 1, 2.
    fn rot(&self, m: M, t: usize, r: usize, x: M::V) -> M::V;
    /// PL (PL⁻¹ when decrypting) on the H registers of X0.
    fn pl(&self, m: M, t: usize, x: &mut [M::V]);
    /// PR (PR⁻¹) on X1.
    fn pr(&self, m: M, t: usize, x: &mut [M::V]);
}

/// Where a kernel's groups of blocks are read from and written to, in the
/// register form of its layout (`low` is 0x0f in every byte).
pub(crate) trait Groups<M: Simd> {
    fn load(&self, m: M, g: usize, low: M::V) -> [M::V; 4];
    fn store(&mut self, m: M, g: usize, s: &[M::V; 4], low: M::V);
}

/// The XOR network of Algorithm 1 (steps 6–11) as (half written, rotation
/// of the other half: 0, 1, 2 = <<<₃₂ 4, 8, 20, 3 = none):
/// X1 ^= X0, X0 ^= X1 <<< 4, X1 ^= X0 <<< 8, X0 ^= X1 <<< 8,
/// X1 ^= X0 <<< 20, X0 ^= X1. Each step undoes itself, so Algorithm 2 runs
/// them backwards.
const NETWORK: [(usize, usize); 6] = [(1, 3), (0, 0), (1, 1), (0, 1), (1, 2), (0, 3)];

#[inline(always)]
fn network<M: Simd, L: Layout<M>>(m: M, l: &L, t: usize, s: &mut [M::V; 4], backwards: bool) {
    for k in 0..NETWORK.len() {
        let (dst, r) = NETWORK[if backwards { NETWORK.len() - 1 - k } else { k }];
        for h in 0..L::H {
            let y = s[(1 - dst) * L::H + h];
            let y = if r < 3 { l.rot(m, t, r, y) } else { y };
            s[dst * L::H + h] = m.xor(s[dst * L::H + h], y);
        }
    }
}

/// PL and PR (or their inverses) on the two halves.
#[inline(always)]
fn permute<M: Simd, L: Layout<M>>(m: M, l: &L, t: usize, s: &mut [M::V; 4]) {
    let (x0, x1) = s.split_at_mut(L::H);
    l.pl(m, t, x0);
    l.pr(m, t, &mut x1[..L::H]);
}

/// Register i of round-key registers `k` (S bytes each): loaded, or, when
/// stored as one 16-byte lane (S = 16 on a wider machine), broadcast to
/// every lane by the load (`vbroadcasti128`: a load-port operation, as
/// cheap as a plain load, and a quarter of the key memory to write, zero
/// and wipe per key on zmm).
#[inline(always)]
fn key<M: Simd, const S: usize>(m: M, k: &[u8], i: usize) -> M::V {
    if S < M::BYTES {
        m.splat128(k[i * S..i * S + 16].try_into().expect("16 bytes"))
    } else {
        m.load(&k[i * S..])
    }
}

/// Algorithm 1 steps 3–13: key, S, the XOR-rotation network, PL and PR.
#[inline(always)]
pub(crate) fn enc_round<M: Simd, L: Layout<M>, const S: usize>(m: M, l: &L, t: usize, s: &mut [M::V; 4], k: &[u8]) {
    for i in 0..2 * L::H {
        s[i] = l.sbox(m, m.xor(s[i], key::<M, S>(m, k, i)));
    }
    network(m, l, t, s, false);
    permute(m, l, t, s);
}

/// Algorithm 2 steps 3–15: key, PL⁻¹ and PR⁻¹, the network backwards, S⁻¹.
#[inline(always)]
pub(crate) fn dec_round<M: Simd, L: Layout<M>, const S: usize>(m: M, l: &L, t: usize, s: &mut [M::V; 4], k: &[u8]) {
    for i in 0..2 * L::H {
        s[i] = m.xor(s[i], key::<M, S>(m, k, i));
    }
    permute(m, l, t, s);
    network(m, l, t, s, true);
    for r in s.iter_mut().take(2 * L::H) {
        *r = l.sbox(m, *r);
    }
}

/// G groups in place through all rounds: `rk` holds the round keys in
/// execution order (r rounds, then the output whitening).
#[inline(always)]
pub(crate) fn run<M: Simd, L: Layout<M>, B: Groups<M>, const ENC: bool, const G: usize, const S: usize>(
    m: M,
    l: &L,
    blocks: &mut B,
    rk: &KeyRegs<S>,
) {
    let low = m.splat8(0x0f);
    let mut st = [[m.zero(); 4]; G];
    for (g, s) in st.iter_mut().enumerate() {
        *s = blocks.load(m, g, low);
    }
    let r = rk.count - 1;
    // One slice per round from an exact-chunks iterator: indexing round t
    // in the loop cost a bounds check a round.
    let n = 2 * L::H * S;
    debug_assert_eq!(rk.regs, 2 * L::H);
    let (rounds, whitening) = rk.bytes[..rk.count * n].split_at(r * n);
    for (t, k) in rounds.chunks_exact(n).enumerate() {
        for s in st.iter_mut() {
            if L::RELOAD_PER_GROUP {
                // Without it LLVM loads each mask once per round for all
                // groups and, with 16 ymm registers, spills and reloads it
                // around the groups: 19 more instructions a round for
                // n = 256 on avx2 (3 groups), 3.5% slower.
                core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
            }
            if ENC {
                enc_round::<M, L, S>(m, l, t, s, k);
            } else {
                dec_round::<M, L, S>(m, l, t, s, k);
            }
        }
    }
    for (g, s) in st.iter_mut().enumerate() {
        for i in 0..2 * L::H {
            s[i] = m.xor(s[i], key::<M, S>(m, whitening, i));
        }
        blocks.store(m, g, s, low);
    }
}

/// A uBlock backend's work on one batch of whole blocks, either way;
/// [`Ecb`] makes it the [`BatchCipher`] of `kernel::backend` (tails in whole
/// blocks: the backends place short groups themselves, in place).
pub(crate) trait Crypt<M: Machine>: Send + Sync + Sized + 'static {
    const BATCH_BYTES: usize;
    fn new(m: M, keys: &Keys) -> Self;
    /// Encrypts (ENC) or decrypts `batch` in place; `#[inline(always)]`.
    fn crypt<const ENC: bool>(&self, m: M, batch: &mut [u8]);
}

pub(crate) struct Ecb<T>(T);

impl<M: Machine, T: Crypt<M>> BatchCipher<M> for Ecb<T> {
    type Keys = Keys;
    const BATCH_BYTES: usize = T::BATCH_BYTES;
    const GRANULE_BYTES: usize = 16;

    fn new(m: M, keys: &Keys) -> Self {
        Ecb(T::new(m, keys))
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        self.0.crypt::<true>(m, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        self.0.crypt::<false>(m, batch)
    }
}
