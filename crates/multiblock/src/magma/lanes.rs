//! The dword-lane layout: one register holds N1 of `BYTES / 4` blocks (a
//! 32-bit lane each), another their N2. Load: `pshufb` puts the two blocks
//! of each 128-bit lane in [N1 N1 N2 N2] order and applies the byte order
//! (see `layout`), then `punpck{l,h}qdq` of two registers gives the N1 and
//! N2 registers; store reverses it. The round's g is a per-machine
//! strategy ([`Sub`], in `subs.rs`). [`LaneCipher`] is the batch cipher of
//! every backend on this layout alone: 1 to 4 interleaved groups.

use super::feistel::{groups, swapping, Layout};
use super::key_schedule::RoundKeys;
use super::keys::Keys;
use super::{layout, Sbox};
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

impl<S> Lanes<S> {
    /// The GOST 28147-89 MAC steps ([`crate::backend::BlockKernel::imit_steps`])
    /// with round keys `rk` (K0..K7 twice), one group in registers: every
    /// lane holds the same block (`splat64`), so the chain is one round's
    /// latency per round; loading and splitting the next message block is
    /// off the chain, and the state meets memory only at the ends.
    #[inline(always)]
    pub(super) fn imit_steps<M: Simd>(&self, m: M, rk: &[u32; 16], state: &mut [u8; 8], data: &[u8])
    where
        S: Sub<M>,
    {
        let c = <Self as Layout<M>>::consts(self, m);
        let split = |block: &[u8]| {
            let v = m.splat64(u64::from_le_bytes(block.try_into().expect("8 bytes")));
            Self::halves(m, &c, v, v)
        };
        let (a, b) = split(&state[..]);
        let (mut a, mut b) = ([a], [b]);
        for block in data.chunks_exact(8) {
            let (n1, n2) = split(block);
            (a[0], b[0]) = (m.xor(a[0], n1), m.xor(b[0], n2));
            swapping::<M, Self, 1, 16>(m, &c, rk, &mut a, &mut b);
        }
        let (x, _) = Self::blocks(m, &c, a[0], b[0]);
        *state = m.low64(x).to_le_bytes();
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
    #[inline(always)]
    fn imit_steps(&self, m: M, state: &mut [u8; 8], data: &[u8]) -> bool {
        self.lanes.imit_steps(m, self.rk.imit(), state, data);
        true
    }
}
