//! The dword-lane layout: one register holds N1 of `BYTES / 4` blocks (a
//! 32-bit lane each), another their N2. Load: `pshufb` puts the two blocks
//! of each 128-bit lane in [N1 N1 N2 N2] order and applies the byte order
//! (see `layout`), then `punpck{l,h}qdq` of two registers gives the N1 and
//! N2 registers; store reverses it. The round's g is a per-machine
//! strategy ([`Sub`], in `subs.rs`). [`LaneCipher`] is the batch cipher of
//! every backend on this layout alone: 1 to 4 interleaved groups.

use super::feistel::{groups, Layout};
use super::schedule::RoundKeys;
use super::{layout, Keys, Sbox};
use crate::kernel::BatchCipher;
use crate::simd::Simd;

/// The S-box layer and the rotation by 11 on dword lanes.
pub(super) trait Sub<M: Simd>: Sized {
    /// The tables of `sbox`.
    fn new(sbox: &Sbox) -> Self;
    /// The registers a call loads once.
    type Consts;
    fn consts(&self, m: M) -> Self::Consts;
    /// `rotl11(S(x))` on every 32-bit lane.
    fn sub_rot(m: M, c: &Self::Consts, x: M::V) -> M::V;
    /// `y ^ rotl11(S(x))`: a strategy may merge the last steps.
    #[inline(always)]
    fn xor_sub_rot(m: M, c: &Self::Consts, x: M::V, y: M::V) -> M::V {
        m.xor(y, Self::sub_rot(m, c, x))
    }
}

/// Dword lanes with S-box strategy `S`.
pub(super) struct Lanes<S> {
    pub(super) sub: S,
    gather: [u8; 16],
    scatter: [u8; 16],
}

impl<S> Lanes<S> {
    pub(super) fn new(keys: &Keys, sub: S) -> Lanes<S> {
        Lanes { sub, gather: layout::pair_gather(keys.order), scatter: layout::pair_scatter(keys.order) }
    }
}

pub(super) struct LaneConsts<M: Simd, C> {
    sub: C,
    gather: M::V,
    scatter: M::V,
}

impl<M: Simd, S: Sub<M>> Layout<M> for Lanes<S> {
    type Half = M::V;
    type Key = u32;
    type KeyV<'a> = M::V;
    type Consts = LaneConsts<M, S::Consts>;
    const GROUP_BYTES: usize = 2 * M::BYTES;

    #[inline(always)]
    fn consts(&self, m: M) -> Self::Consts {
        LaneConsts { sub: self.sub.consts(m), gather: m.splat128(&self.gather), scatter: m.splat128(&self.scatter) }
    }
    #[inline(always)]
    fn load(m: M, c: &Self::Consts, src: &[u8]) -> (M::V, M::V) {
        Self::halves(m, c, m.load(src), m.load(&src[M::BYTES..]))
    }
    #[inline(always)]
    fn store(m: M, c: &Self::Consts, n1: M::V, n2: M::V, dst: &mut [u8]) {
        let (x, y) = Self::blocks(m, c, n1, n2);
        m.store(x, dst);
        m.store(y, &mut dst[M::BYTES..]);
    }
    #[inline(always)]
    fn key(m: M, k: &u32) -> M::V {
        m.splat32(*k)
    }
    #[inline(always)]
    fn round(m: M, c: &Self::Consts, k: M::V, x: &M::V, y: &mut M::V) {
        *y = S::xor_sub_rot(m, &c.sub, m.add32(*x, k), *y);
    }
}

impl<S> Lanes<S> {
    /// (N1, N2) of the blocks in registers `x` (the first `BYTES` bytes)
    /// and `y`.
    #[inline(always)]
    pub(super) fn halves<M: Simd, C>(m: M, c: &LaneConsts<M, C>, x: M::V, y: M::V) -> (M::V, M::V) {
        // Quadwords [N1 N2] of 2 blocks each.
        let (x, y) = (m.shuffle8(x, c.gather), m.shuffle8(y, c.gather));
        (m.unpack_lo::<8>(x, y), m.unpack_hi::<8>(x, y))
    }
    /// The inverse of [`Lanes::halves`].
    #[inline(always)]
    pub(super) fn blocks<M: Simd, C>(m: M, c: &LaneConsts<M, C>, n1: M::V, n2: M::V) -> (M::V, M::V) {
        (m.shuffle8(m.unpack_lo::<8>(n1, n2), c.scatter), m.shuffle8(m.unpack_hi::<8>(n1, n2), c.scatter))
    }
}

/// Round keys and dword lanes with strategy `S`: a batch of 1 to 4 groups.
pub(crate) struct LaneCipher<S> {
    pub(super) rk: RoundKeys,
    pub(super) lanes: Lanes<S>,
}

impl<M: Simd, S: Sub<M> + Send + Sync + 'static> BatchCipher<M> for LaneCipher<S> {
    type Keys = Keys;
    const BATCH_BYTES: usize = 4 * <Lanes<S> as Layout<M>>::GROUP_BYTES;
    const GRANULE_BYTES: usize = <Lanes<S> as Layout<M>>::GROUP_BYTES;

    fn new(_: M, keys: &Keys) -> Self {
        LaneCipher { rk: RoundKeys::new(keys), lanes: Lanes::new(keys, S::new(keys.sbox)) }
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        groups(m, &self.lanes, &self.rk.enc, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        groups(m, &self.lanes, &self.rk.dec, batch)
    }
}
