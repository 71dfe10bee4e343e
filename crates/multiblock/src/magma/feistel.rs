//! The one Feistel kernel of the SIMD backends: `N` groups of blocks
//! interleaved (to hide a round's latency), 32 rounds (GOST R 34.12-2015
//! §5.3, RFC 5830 §6.1), written over a [`Layout`] that says how a group's
//! halves sit in registers and how one round runs on them:
//! - [`super::lanes::Lanes`]: one 32-bit lane per block, with a per-machine
//!   S-box-and-rotate strategy ([`super::subs`]);
//! - [`super::sliced::Sliced`]: byte-sliced halves (the `avx2` bulk).

use crate::simd::{Job, Simd};

/// How one group of blocks is held in registers and how a round runs on it.
pub(super) trait Layout<M: Simd> {
    /// N1 (or N2) of the group's blocks.
    type Half: Copy;
    /// A round key as stored.
    type Key;
    /// A round key as the round reads it (made once per round for every group).
    type KeyV<'a>: Copy
    where
        Self::Key: 'a;
    /// The registers a call loads once (tables, masks, shuffles).
    type Consts;
    /// Bytes of one group (a multiple of 8).
    const GROUP_BYTES: usize;
    fn consts(&self, m: M) -> Self::Consts;
    /// The group at the start of `src` as (N1, N2).
    fn load(m: M, c: &Self::Consts, src: &[u8]) -> (Self::Half, Self::Half);
    /// (N1, N2) back into the first `GROUP_BYTES` of `dst`.
    fn store(m: M, c: &Self::Consts, n1: Self::Half, n2: Self::Half, dst: &mut [u8]);
    fn key(m: M, k: &Self::Key) -> Self::KeyV<'_>;
    /// `y ^= rotl11(S(x + k))`.
    fn round(m: M, c: &Self::Consts, k: Self::KeyV<'_>, x: &Self::Half, y: &mut Self::Half);
}

/// 32 rounds on `N` groups with round keys `rk` (one direction's order);
/// `data.len() == N * L::GROUP_BYTES`.
#[inline(always)]
pub(super) fn crypt<M: Simd, L: Layout<M>, const N: usize>(m: M, layout: &L, rk: &[L::Key; 32], data: &mut [u8]) {
    assert_eq!(data.len(), N * L::GROUP_BYTES);
    let c = layout.consts(m);
    let (a0, b0) = L::load(m, &c, data);
    let (mut a, mut b) = ([a0; N], [b0; N]);
    for i in 1..N {
        (a[i], b[i]) = L::load(m, &c, &data[i * L::GROUP_BYTES..]);
    }
    rounds::<M, L, N>(m, &c, rk, &mut a, &mut b);
    for i in 0..N {
        L::store(m, &c, a[i], b[i], &mut data[i * L::GROUP_BYTES..]);
    }
}

/// The 32 rounds on `N` groups in registers: (N1, N2) in `(a, b)` in and out.
#[inline(always)]
pub(super) fn rounds<M: Simd, L: Layout<M>, const N: usize>(
    m: M,
    c: &L::Consts,
    rk: &[L::Key; 32],
    a: &mut [L::Half; N],
    b: &mut [L::Half; N],
) {
    swapping::<M, L, N, 32>(m, c, rk, a, b);
    // The last round does not swap: N1 is in `b`, N2 in `a`.
    core::mem::swap(a, b);
}

/// `R` (even) rounds that each swap the halves, the last one too, on `N`
/// groups: (N1, N2) in `(a, b)` in and out. With `R = 16` and K0..K7 twice
/// this is the MAC step E16 of GOST 28147-89 (RFC 5830 §8).
#[inline(always)]
pub(super) fn swapping<M: Simd, L: Layout<M>, const N: usize, const R: usize>(
    m: M,
    c: &L::Consts,
    rk: &[L::Key; R],
    a: &mut [L::Half; N],
    b: &mut [L::Half; N],
) {
    for r in (0..R).step_by(2) {
        let k = L::key(m, &rk[r]);
        for i in 0..N {
            L::round(m, c, k, &a[i], &mut b[i]);
        }
        let k = L::key(m, &rk[r + 1]);
        for i in 0..N {
            L::round(m, c, k, &b[i], &mut a[i]);
        }
    }
}

/// [`crypt`] on as many groups (1 to 4) as `data` holds: a short tail runs
/// only the groups it needs.
#[inline(always)]
pub(super) fn groups<M: Simd, L: Layout<M>>(m: M, layout: &L, rk: &[L::Key; 32], data: &mut [u8]) {
    match data.len() / L::GROUP_BYTES {
        1 => m.vectorize(Crypt::<M, L, 1> { m, layout, rk, data }),
        2 => m.vectorize(Crypt::<M, L, 2> { m, layout, rk, data }),
        3 => m.vectorize(Crypt::<M, L, 3> { m, layout, rk, data }),
        _ => m.vectorize(Crypt::<M, L, 4> { m, layout, rk, data }),
    }
}

/// [`crypt`] as a job of its own: one function per group count, as the
/// kernels were before the shared driver. Inlined into the driver's loop,
/// the 4-group rounds spilled more on 16-register machines (ssse3 5 %
/// slower, same instructions otherwise).
struct Crypt<'a, M: Simd, L: Layout<M>, const N: usize> {
    m: M,
    layout: &'a L,
    rk: &'a [L::Key; 32],
    data: &'a mut [u8],
}

impl<M: Simd, L: Layout<M>, const N: usize> Job for Crypt<'_, M, L, N> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        crypt::<M, L, N>(self.m, self.layout, self.rk, self.data)
    }
}

#[cfg(test)]
pub(super) mod tests {
    //! Every layout and strategy on the emulator, at every width, against
    //! the reference backend (every S-box set, both byte orders).
    use super::*;
    use crate::magma::{backends::reference, ByteOrder, Keys, SboxSet};
    use crate::test_rng::Rng;

    /// Runs `crypt` for `N` groups both ways on random keys and data and
    /// compares with the reference backend.
    pub(crate) fn check<M: Simd, L: Layout<M>, const N: usize>(
        m: M,
        make: &dyn Fn(&Keys) -> (L, Box<[L::Key; 32]>, Box<[L::Key; 32]>),
    ) {
        let mut rng = Rng(0x6a_67 + N as u64 + 7 * L::GROUP_BYTES as u64);
        for order in [ByteOrder::Magma, ByteOrder::Gost89] {
            for set in SboxSet::ALL {
                let key: Vec<u8> = (0..32).map(|_| rng.next() as u8).collect();
                let keys = Keys::new(&key, set, order);
                let (layout, enc, dec) = make(&keys);
                let data: Vec<u8> = (0..N * L::GROUP_BYTES).map(|_| rng.next() as u8).collect();
                let oracle = (reference::BACKEND.new)(&keys);
                let mut want = data.clone();
                oracle.encrypt_blocks(&mut want);
                let mut got = data.clone();
                crypt::<M, L, N>(m, &layout, &enc, &mut got);
                assert_eq!(got, want, "encrypt {} {order:?} {} bytes", set.name(), M::BYTES);
                crypt::<M, L, N>(m, &layout, &dec, &mut got);
                assert_eq!(got, data, "decrypt {} {order:?} {} bytes", set.name(), M::BYTES);
            }
        }
    }
}
