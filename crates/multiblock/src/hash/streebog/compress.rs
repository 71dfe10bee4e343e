//! The compression interface every Streebog kernel implements
//! ([`Compress`]) and the running values of RFC 6986 §8 it works on
//! ([`State`]: h, N and Σ, with their 512-bit additions), below the
//! kernels and the hasher that picks one.

use super::constants;
use zeroize::Zeroize;

/// A 512-bit value in memory order (byte i = coefficient of 2^(8i)).
pub(crate) type Block = [u8; 64];

/// One backend's compression function.
pub(crate) trait Compress: Send + Sync {
    /// h ← g_N(h, m) (RFC 6986 §7).
    fn g(&self, h: &mut Block, n: &Block, m: &Block);

    /// Stage 2 of §8 on the whole 64-byte blocks of `data`: per block m,
    /// h ← g_N(h, m), N ← N + 512, Σ ← Σ + m.
    fn blocks(&self, st: &mut State, data: &[u8]) {
        for m in data.as_chunks::<64>().0 {
            self.g(&mut st.h, &st.n, m);
            st.advance(m);
        }
    }

    /// h ← g_(n[i])(h, m[i]) for i = 0, 1, …: one chain of compressions
    /// (the last steps of §8), in one call where the kernel gains by
    /// keeping h in its registers between them.
    fn chain(&self, h: &mut Block, n: &[Block], m: &[Block]) {
        for (n, m) in n.iter().zip(m) {
            self.g(h, n, m);
        }
    }

    /// [`Compress::chain`] whose first compression is a message's first,
    /// g_0(IV, `m[0]`): h the IV of a `digest_bytes` digest and `n[0]` zero. A
    /// kernel with the IV's key schedule ([`iv_keys`](super::iv_keys)) runs only the
    /// state's chain there.
    fn chain_from_iv(&self, digest_bytes: usize, h: &mut Block, n: &[Block], m: &[Block]) {
        let _ = digest_bytes;
        self.chain(h, n, m)
    }

    /// [`Compress::blocks`] on a state that has compressed nothing yet (h
    /// the IV of a `digest_bytes` digest, N zero): the first block as in
    /// [`Compress::chain_from_iv`].
    fn blocks_from_iv(&self, digest_bytes: usize, st: &mut State, data: &[u8]) {
        let _ = digest_bytes;
        self.blocks(st, data)
    }

    /// How many independent g the kernel runs together in [`Compress::g_many`].
    fn lanes(&self) -> usize {
        1
    }

    /// `h[i]` ← g_0(IV, `m[i]`) for each i: every compression a message's
    /// first (`h[i]` the IV of a `digest_bytes` digest), as in
    /// [`Compress::chain_from_iv`].
    fn g_many_from_iv(&self, digest_bytes: usize, h: &mut [Block], m: &[Block]) {
        let _ = digest_bytes;
        for (h, m) in h.chunks_mut(ZERO_N.len()).zip(m.chunks(ZERO_N.len())) {
            self.g_many(h, &ZERO_N[..h.len()], m)
        }
    }

    /// h[i] ← g_(n[i])(h[i], m[i]) for each i (independent inputs).
    fn g_many(&self, h: &mut [Block], n: &[Block], m: &[Block]) {
        for ((h, n), m) in h.iter_mut().zip(n).zip(m) {
            self.g(h, n, m);
        }
    }

    /// [`Compress::blocks`] on several messages at once: `data[i]` (whole
    /// blocks, every one of the same length) through `states[i]`. Here one
    /// [`Compress::g_many`] per block; a kernel that holds the states in
    /// its registers across the blocks runs them in one call.
    fn blocks_many(&self, states: &mut [&mut State], data: &[&[u8]]) {
        blocks_many_by_g_many(self, states, data)
    }
}

/// N of a message's first compressions, for [`Compress::g_many_from_iv`]
/// by [`Compress::g_many`].
pub(super) static ZERO_N: [Block; 16] = [[0; 64]; 16];

/// [`Compress::blocks_many`] as one [`Compress::g_many`] per block.
pub(crate) fn blocks_many_by_g_many<K: Compress + ?Sized>(kernel: &K, states: &mut [&mut State], data: &[&[u8]]) {
    let count = data.first().map_or(0, |d| d.len() / 64);
    assert!(states.len() == data.len() && data.iter().all(|d| d.len() == 64 * count));
    if let ([st], [data]) = (&mut *states, data) {
        // One message: its kernel's own chain of blocks, which keeps h and
        // N in registers between them.
        return kernel.blocks(st, data);
    }
    let (mut h, mut n, mut m) = (Vec::new(), Vec::new(), Vec::new());
    for b in 0..count {
        let block = |d: &&[u8]| -> Block { d[64 * b..64 * b + 64].try_into().expect("64 bytes") };
        h.clear();
        h.extend(states.iter().map(|st| st.h));
        n.clear();
        n.extend(states.iter().map(|st| st.n));
        m.clear();
        m.extend(data.iter().map(block));
        kernel.g_many(&mut h, &n, &m);
        for ((st, h), m) in states.iter_mut().zip(&h).zip(&m) {
            st.h = *h;
            st.advance(m);
        }
    }
    h.as_flattened_mut().zeroize();
    m.as_flattened_mut().zeroize();
}

/// The running values of §8: h, N (bits hashed so far) and Σ (the sum of
/// the blocks).
#[derive(Clone)]
pub(crate) struct State {
    pub(crate) h: Block,
    pub(crate) n: Block,
    pub(crate) sigma: Block,
}

/// Each field wiped as a slice (one fill and a barrier); an array's own
/// `zeroize` writes one volatile byte and a fence at a time, which cost
/// more than a compression on short messages.
impl Zeroize for State {
    fn zeroize(&mut self) {
        self.h[..].zeroize();
        self.n[..].zeroize();
        self.sigma[..].zeroize();
    }
}

impl State {
    pub(super) fn new(digest_bytes: usize) -> State {
        State { h: constants::iv(digest_bytes), n: [0; 64], sigma: [0; 64] }
    }

    /// Nothing compressed yet: h is the IV and N zero (N counts the bits
    /// hashed, a public length). Not after stage 3 of §8, which leaves N
    /// zero for an empty message: a finished state is spent, and is reset
    /// or dropped before it hashes again.
    pub(super) fn is_fresh(&self) -> bool {
        self.n == [0; 64]
    }

    /// N ← N + 512, Σ ← Σ + m, after a block of stage 2.
    #[inline(always)]
    pub(crate) fn advance(&mut self, m: &Block) {
        add_small(&mut self.n, 512);
        add(&mut self.sigma, m);
    }
}

/// a ← a + b mod 2^512, carries by arithmetic (no branch on the data).
#[inline(always)]
pub(crate) fn add(a: &mut Block, b: &Block) {
    let mut carry = 0u64;
    for (x, y) in a.as_chunks_mut::<8>().0.iter_mut().zip(b.as_chunks::<8>().0) {
        let (s1, c1) = u64::from_le_bytes(*x).overflowing_add(u64::from_le_bytes(*y));
        let (s2, c2) = s1.overflowing_add(carry);
        carry = u64::from(c1) + u64::from(c2);
        *x = s2.to_le_bytes();
    }
}

/// a ← a + v mod 2^512.
#[inline(always)]
pub(crate) fn add_small(a: &mut Block, v: u64) {
    let mut b = [0u8; 64];
    b[..8].copy_from_slice(&v.to_le_bytes());
    add(a, &b);
}

#[cfg(test)]
mod tests {
    use super::{add, add_small};

    /// N and Σ wrap modulo 2^512, carrying across all words.
    #[test]
    fn sums_carry_through_every_word() {
        let mut a = [0xffu8; 64];
        add_small(&mut a, 1);
        assert_eq!(a, [0; 64]);
        let mut a = [0xffu8; 64];
        a[0] = 0xfe;
        let mut b = [0u8; 64];
        b[0] = 3;
        add(&mut a, &b);
        let mut want = [0u8; 64];
        want[0] = 1;
        assert_eq!(a, want);
    }
}
