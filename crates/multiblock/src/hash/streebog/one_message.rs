//! Stage 2 of RFC 6986 §8 on whole blocks and a chain of compressions
//! (its last steps), with h in a kernel's registers from the first
//! compression to the last: the same loops for every kernel that holds
//! one message's state (`split.rs`, `paired.rs`, `xmm.rs`, `neon.rs`),
//! given how it loads, compresses and stores ([`OneMessage`]).
//!
//! A message's first compression, g_0(IV, m), goes to the kernel's
//! `g_from_iv`, which takes the IV's keys from a table (`iv_keys.rs`).

use super::compress::{Block, State};
use crate::simd::{Job, Machine};
use core::marker::PhantomData;

/// A kernel's layout of one state and its compression functions, all
/// `#[inline(always)]` so that the jobs here compile into one function
/// with the machine's features.
pub(super) trait OneMessage {
    type M: Machine;
    /// A 64-byte value in the kernel's registers.
    type Regs: Copy;
    /// h, N, or a message for [`OneMessage::g_from_iv`].
    fn load(m: Self::M, v: &Block) -> Self::Regs;
    /// A message as [`OneMessage::g`] takes it: as [`OneMessage::load`]
    /// has it, unless the layout loads a message differently (the pair
    /// layouts of `xmm.rs` and `neon.rs` load it into X's half alone).
    #[inline(always)]
    fn load_message(m: Self::M, v: &Block) -> Self::Regs {
        Self::load(m, v)
    }
    /// h back to memory order.
    fn store(m: Self::M, h: Self::Regs, out: &mut Block);
    /// g_N(h, m) (RFC 6986 §7).
    fn g(m: Self::M, h: Self::Regs, n: Self::Regs, msg: Self::Regs) -> Self::Regs;
    /// g_0(IV, m), h the IV of a `digest_bytes` digest, from the IV's keys.
    fn g_from_iv(m: Self::M, digest_bytes: usize, h: Self::Regs, msg: Self::Regs) -> Self::Regs;
}

/// h ← g_N(h, m) for N = `n[i]`, m = `msg[i]`, in order
/// (`Compress::chain`); with `from_iv` (a digest length), the first is
/// g_0(IV, `msg[0]`) and `n[0]` is unread.
pub(super) fn chain<K: OneMessage>(m: K::M, h: &mut Block, n: &[Block], msg: &[Block], from_iv: Option<usize>) {
    m.vectorize(Chain::<K> { m, h, n, msg, from_iv, _k: PhantomData })
}

/// Stage 2 on the whole blocks of `data` (`Compress::blocks`); with
/// `from_iv` (a digest length), `st` has compressed nothing yet.
pub(super) fn blocks<K: OneMessage>(m: K::M, st: &mut State, data: &[u8], from_iv: Option<usize>) {
    if data.len() >= 64 {
        m.vectorize(Blocks::<K> { m, st, data, from_iv, _k: PhantomData })
    }
}

/// The `Compress` methods of one message, by [`chain`] and [`blocks`],
/// for a kernel that is [`OneMessage`] and holds its machine in
/// `self.$machine`.
macro_rules! one_message_methods {
    ($machine:tt) => {
        fn chain(&self, h: &mut Block, n: &[Block], msg: &[Block]) {
            super::one_message::chain::<Self>(self.$machine, h, n, msg, None)
        }
        fn chain_from_iv(&self, digest_bytes: usize, h: &mut Block, n: &[Block], msg: &[Block]) {
            super::one_message::chain::<Self>(self.$machine, h, n, msg, Some(digest_bytes))
        }
        fn g(&self, h: &mut Block, n: &Block, msg: &Block) {
            self.chain(h, core::slice::from_ref(n), core::slice::from_ref(msg))
        }
        fn blocks(&self, st: &mut State, data: &[u8]) {
            super::one_message::blocks::<Self>(self.$machine, st, data, None)
        }
        fn blocks_from_iv(&self, digest_bytes: usize, st: &mut State, data: &[u8]) {
            super::one_message::blocks::<Self>(self.$machine, st, data, Some(digest_bytes))
        }
    };
}
pub(super) use one_message_methods;

struct Blocks<'a, K: OneMessage> {
    m: K::M,
    st: &'a mut State,
    data: &'a [u8],
    from_iv: Option<usize>,
    _k: PhantomData<fn() -> K>,
}

impl<K: OneMessage> Job for Blocks<'_, K> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Blocks { m, st, data, from_iv, .. } = self;
        let mut h = K::load(m, &st.h);
        let mut blocks = data.as_chunks::<64>().0;
        if let (Some(digest_bytes), [first, rest @ ..]) = (from_iv, blocks) {
            h = K::g_from_iv(m, digest_bytes, h, K::load(m, first));
            st.advance(first);
            blocks = rest;
        }
        for block in blocks {
            let n = K::load(m, &st.n);
            let msg = K::load_message(m, block);
            h = K::g(m, h, n, msg);
            st.advance(block);
        }
        K::store(m, h, &mut st.h);
    }
}

struct Chain<'a, K: OneMessage> {
    m: K::M,
    h: &'a mut Block,
    n: &'a [Block],
    msg: &'a [Block],
    from_iv: Option<usize>,
    _k: PhantomData<fn() -> K>,
}

impl<K: OneMessage> Job for Chain<'_, K> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Chain { m, h, mut n, mut msg, from_iv, .. } = self;
        let mut hr = K::load(m, h);
        if let (Some(digest_bytes), [first, rest @ ..]) = (from_iv, msg) {
            hr = K::g_from_iv(m, digest_bytes, hr, K::load(m, first));
            (n, msg) = (&n[1..], rest);
        }
        for (n, msg) in n.iter().zip(msg) {
            hr = K::g(m, hr, K::load(m, n), K::load_message(m, msg));
        }
        K::store(m, hr, h);
    }
}
