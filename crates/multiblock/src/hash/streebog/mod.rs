//! Streebog, GOST R 34.11-2012 (RFC 6986): the 512- and 256-bit hash.
//!
//! Bytes as RustCrypto `streebog` and the other common implementations take
//! them: the message is hashed in memory order, its first byte the least
//! significant of the standard's first 512-bit block, and the digest is
//! h (or its high half) in the same order; the standard prints both
//! reversed.
//!
//! - `constants.rs`: π, τ, A, C_1..C_12, the IVs (RFC 6986 §5);
//! - `reference.rs`: g_N straight from §6–7 (oracle, not constant-time);
//! - `portable.rs`: constant-time plain Rust (π by Kuznyechik's bitsliced
//!   circuit, l by masks);
//! - `affine.rs` (`avx512-gfni`, via `avx512_gfni.rs`): one state in one
//!   zmm, π by `vpermi2b`, P for free and L by per-word `vgf2p8affineqb`
//!   products; 6.8 cycles/byte on Zen 4 against 20.6 for RustCrypto
//!   `streebog` (its floor there: 6.25, see the module);
//! - `paired.rs` (`avx2-gfni`, `avx2`, via `avx2.rs`): the state and the
//!   key side by side in four ymm, π from its GF(2^4) structure, L by
//!   per-lane `vgf2p8affineqb` or `pshufb` nibble tables; 10.7 and 14.6
//!   cycles/byte on Zen 4;
//! - `xmm.rs` (`ssse3`, via `ssse3.rs`): the algorithm of `paired.rs` on
//!   eight xmm (x86-64 without AVX2), P by 24 unpacks, L by `pshufb`
//!   nibble tables; 23.8 cycles/byte on Zen 4 (`portable`: 350);
//! - `neon.rs` (`neon`, aarch64): the state and the key side by side in
//!   eight 16-byte registers, π in registers (`TBL`/`TBX`), P by `TRN`,
//!   L by `TBL` nibble tables; counted at ≈ 77 vector instructions per
//!   byte, not measured on hardware;
//! - `iv_keys.rs`: the keys of every message's first compression
//!   g_0(IV, m), computed at compile time;
//! - `pair_constants.rs`: C_1..C_12 and those keys in the layouts of
//!   `paired.rs`, `xmm.rs` and `neon.rs`;
//! - `one_message.rs`: stage 2 and the final chain of compressions with
//!   h in registers, shared by the kernels of one message;
//! - `pi_structure.rs`: π from its decomposition (Biryukov, Perrin,
//!   Udovenko 2016) for `paired.rs` and `xmm.rs`: logarithm tables for
//!   the GF(2^4) products (α by GFNI where there is GFNI);
//! - this file: the kernel trait, the three stages of §8 (Σ and N as
//!   512-bit numbers, the padding), [`Core`], [`digest_many`].
//!
//! Everything here around the kernel is constant-time for a given message
//! length: Σ and N are added with carries in arithmetic, the padding is
//! placed by the (public) length.

mod constants;
mod iv_keys;
mod portable;
mod reference;
#[cfg(any(target_arch = "x86_64", test))]
mod affine;
#[cfg(any(target_arch = "x86_64", test))]
mod rows;
#[cfg(target_arch = "x86_64")]
mod avx512_gfni;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(any(target_arch = "x86_64", test))]
mod paired;
#[cfg(any(target_arch = "x86_64", test))]
mod split;
#[cfg(any(target_arch = "aarch64", test))]
mod neon;
#[cfg(target_arch = "x86_64")]
mod ssse3;
#[cfg(any(target_arch = "x86_64", test))]
mod xmm;
#[cfg(any(target_arch = "x86_64", test))]
mod pi_structure;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", test))]
mod one_message;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", test))]
mod pair_constants;
#[cfg(test)]
mod tests;

use super::buffer::absorb;
use crate::backend::{self, Backend};
use crate::error::{Error, Result};
use crate::{BackendChoice, BackendInfo};
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
    /// kernel with the IV's key schedule ([`iv_keys`]) runs only the
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
static ZERO_N: [Block; 16] = [[0; 64]; 16];

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
    fn new(digest_bytes: usize) -> State {
        State { h: constants::iv(digest_bytes), n: [0; 64], sigma: [0; 64] }
    }

    /// Nothing compressed yet: h is the IV and N zero (N counts the bits
    /// hashed, a public length). Not after [`finish`], which leaves N zero
    /// for an empty message: a finished state is spent, and is reset or
    /// dropped before it hashes again.
    fn is_fresh(&self) -> bool {
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

type Kernel = Box<dyn Compress>;

/// A backend of Streebog, as [`Core::choose`] picks it.
pub(crate) type Chosen = &'static Backend<(), Kernel>;

/// Fastest first; the default is the first constant-time one this CPU runs.
#[cfg(target_arch = "x86_64")]
pub(crate) static BACKENDS: &[Backend<(), Kernel>] =
    &[avx512_gfni::BACKEND, avx2::BACKEND_GFNI, avx2::BACKEND, ssse3::BACKEND, portable::BACKEND, reference::BACKEND];
/// Fastest first; the default is the first constant-time one this CPU runs.
#[cfg(target_arch = "aarch64")]
pub(crate) static BACKENDS: &[Backend<(), Kernel>] = &[neon::BACKEND, portable::BACKEND, reference::BACKEND];
/// Fastest first; the default is the first constant-time one this CPU runs.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) static BACKENDS: &[Backend<(), Kernel>] = &[portable::BACKEND, reference::BACKEND];

fn select(digest_bytes: usize, choice: BackendChoice<'_>) -> Result<&'static Backend<(), Kernel>> {
    let name = match digest_bytes {
        32 => "streebog-256",
        64 => "streebog-512",
        _ => return Err(Error::Param(format!("Streebog digests are 32 or 64 bytes, not {digest_bytes}"))),
    };
    backend::select(name, BACKENDS, choice)
}

/// A Streebog computation in progress: the state of §8 and the bytes of a
/// block not yet complete. Wiped on drop.
pub(crate) struct Core {
    backend: &'static Backend<(), Kernel>,
    kernel: Kernel,
    digest_bytes: usize,
    state: State,
    buf: Block,
    buffered: usize,
}

impl Clone for Core {
    fn clone(&self) -> Core {
        Core {
            backend: self.backend,
            kernel: (self.backend.new)(&()),
            digest_bytes: self.digest_bytes,
            state: self.state.clone(),
            buf: self.buf,
            buffered: self.buffered,
        }
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        self.state.zeroize();
        self.buf[..].zeroize();
    }
}

impl Core {
    /// [`Core::on`] the backend of [`Core::choose`] (the hasher builds
    /// its state from the two in place).
    #[cfg(test)]
    pub(crate) fn new(digest_bytes: usize, choice: BackendChoice<'_>) -> Result<Core> {
        Ok(Core::on(Core::choose(digest_bytes, choice)?, digest_bytes))
    }

    /// The backend for a digest of `digest_bytes`: 32 (Streebog-256) or 64
    /// (Streebog-512); Err(crate::Error::Param(..)) otherwise.
    pub(crate) fn choose(digest_bytes: usize, choice: BackendChoice<'_>) -> Result<Chosen> {
        select(digest_bytes, choice)
    }

    /// A fresh computation on `backend` (of [`Core::choose`] for
    /// `digest_bytes`). Infallible and inlined, so that a caller builds it
    /// in place: a hasher returned through a `Result` of its own is written
    /// once, not copied from one frame into the next.
    #[inline(always)]
    pub(crate) fn on(backend: Chosen, digest_bytes: usize) -> Core {
        Core { backend, kernel: (backend.new)(&()), digest_bytes, state: State::new(digest_bytes), buf: [0; 64], buffered: 0 }
    }

    /// Runs stage 2 on every whole block of the message so far but the
    /// last: a message's last 1 to 64 bytes wait in the buffer, so that
    /// finalizing runs them and stage 3 as one chain of compressions.
    pub(crate) fn update(&mut self, data: &[u8]) {
        let (kernel, state, digest_bytes) = (&*self.kernel, &mut self.state, self.digest_bytes);
        absorb(&mut self.buf, &mut self.buffered, 64, data, |blocks| stage_2(kernel, state, digest_bytes, blocks));
    }

    /// Compresses the held bytes now if they are a whole block (a state
    /// that is cloned for many messages, such as HMAC's after K ⊕ ipad,
    /// then does not compress that block again in each clone).
    pub(crate) fn compress_held(&mut self) {
        if self.buffered == 64 {
            stage_2(&*self.kernel, &mut self.state, self.digest_bytes, &self.buf);
            self.buffered = 0;
        }
    }

    /// No message bytes have come yet.
    pub(crate) fn is_empty(&self) -> bool {
        self.state.is_fresh() && self.buffered == 0
    }

    /// How many message bytes wait in the buffer.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.buffered
    }

    /// [`Core::compress_held`] of two states: where both are fresh with a
    /// whole block held on one backend (HMAC's K ⊕ ipad and K ⊕ opad),
    /// their first compressions run side by side in the kernel's lanes.
    pub(crate) fn compress_held_pair(a: &mut Core, b: &mut Core) {
        let both = a.buffered == 64 && b.buffered == 64 && a.state.is_fresh() && b.state.is_fresh();
        if both && a.digest_bytes == b.digest_bytes && core::ptr::eq(a.backend, b.backend) {
            let (mut h, mut m) = ([a.state.h, b.state.h], [a.buf, b.buf]);
            a.kernel.g_many_from_iv(a.digest_bytes, &mut h, &m);
            (a.state.h, b.state.h) = (h[0], h[1]);
            a.state.advance(&m[0]);
            b.state.advance(&m[1]);
            (a.buffered, b.buffered) = (0, 0);
            h.as_flattened_mut().zeroize();
            m.as_flattened_mut().zeroize();
        } else {
            a.compress_held();
            b.compress_held();
        }
    }

    /// Writes the digest (out.len() == digest_bytes). The state is spent:
    /// [`Core::reset`] or a drop follows (both wipe it).
    pub(crate) fn finalize_into(&mut self, out: &mut [u8]) {
        assert_eq!(out.len(), self.digest_bytes, "Streebog digest length");
        finish(&*self.kernel, &mut self.state, &self.buf[..self.buffered], out);
    }

    /// Starts over with an empty message (the state and buffer wiped).
    pub(crate) fn reset(&mut self) {
        self.state.zeroize();
        self.buf[..].zeroize();
        self.state = State::new(self.digest_bytes);
        self.buffered = 0;
    }

    pub(crate) fn backend(&self) -> BackendInfo {
        self.backend.info
    }
}

/// Stage 2 of §8 on the whole blocks of `data`, the first from the IV's
/// keys where the state has compressed nothing yet.
fn stage_2(kernel: &dyn Compress, st: &mut State, digest_bytes: usize, data: &[u8]) {
    if st.is_fresh() {
        kernel.blocks_from_iv(digest_bytes, st, data)
    } else {
        kernel.blocks(st, data)
    }
}

/// The end of §8 on the message's last 0 to 64 bytes `rest` (after
/// stage 2 on the blocks before them): a whole block goes through stage 2
/// first (h ← g_N(h, rest), N ← N + 512, Σ ← Σ + rest) and leaves no bytes;
/// then stage 3 on the 0..63 left: m = left ‖ 1 ‖ 0…, h ← g_N(h, m),
/// N ← N + |left|, Σ ← Σ + m, h ← g_0(h, N), h ← g_0(h, Σ). N and Σ do
/// not depend on h, so they are computed first and the 3 or 4
/// compressions run as one chain. The digest is h, or its high 256 bits.
fn finish(kernel: &dyn Compress, st: &mut State, rest: &[u8], out: &mut [u8]) {
    debug_assert!(rest.len() <= 64);
    let fresh = st.is_fresh();
    let (mut ns, mut ms) = ([[0u8; 64]; 4], [[0u8; 64]; 4]);
    let mut steps = 0;
    let left = if let Ok(block) = <&Block>::try_from(rest) {
        (ns[0], ms[0]) = (st.n, *block);
        st.advance(block);
        steps = 1;
        &[][..]
    } else {
        rest
    };
    ms[steps][..left.len()].copy_from_slice(left);
    ms[steps][left.len()] = 1;
    ns[steps] = st.n;
    add_small(&mut st.n, 8 * left.len() as u64);
    add(&mut st.sigma, &ms[steps]);
    // g_0 of N, then of Σ (ns[steps + 1..] stay zero).
    (ms[steps + 1], ms[steps + 2]) = (st.n, st.sigma);
    if fresh {
        kernel.chain_from_iv(out.len(), &mut st.h, &ns[..steps + 3], &ms[..steps + 3]);
    } else {
        kernel.chain(&mut st.h, &ns[..steps + 3], &ms[..steps + 3]);
    }
    out.copy_from_slice(&st.h[64 - out.len()..]);
    ms.as_flattened_mut().zeroize();
}

/// Hashes independent messages (any lengths), many at once in the SIMD lanes where the backend can.
///
/// Each message is a chain of compressions (its blocks, the padded last
/// block, N, Σ); the kernel runs [`Compress::lanes`] chains of different
/// messages together, a new message taking a lane as soon as its last one
/// ends. Which messages share a call depends on the lengths only.
pub(crate) fn digest_many(digest_bytes: usize, messages: &[&[u8]], choice: BackendChoice<'_>) -> Result<Vec<Vec<u8>>> {
    let backend = select(digest_bytes, choice)?;
    let kernel = (backend.new)(&());
    let lanes = kernel.lanes().max(1);
    let mut out = vec![Vec::new(); messages.len()];
    let mut walks: Vec<Walk<'_>> = Vec::with_capacity(lanes);
    let mut next = 0;
    let (mut h, mut n, mut m) = (vec![[0u8; 64]; lanes], vec![[0u8; 64]; lanes], vec![[0u8; 64]; lanes]);
    loop {
        while walks.len() < lanes && next < messages.len() {
            walks.push(Walk::new(next, messages[next], digest_bytes));
            next += 1;
        }
        if walks.is_empty() {
            h.as_flattened_mut().zeroize();
            m.as_flattened_mut().zeroize();
            return Ok(out);
        }
        // While every message has whole blocks left, as many of them as
        // all have run in one call (from 2: for one block the step below
        // costs the same without gathering the slices).
        let common = walks.iter().map(|w| w.whole().saturating_sub(w.step)).min().unwrap_or(0);
        if common >= 2 {
            let data: Vec<&[u8]> = walks.iter().map(|w| &w.msg[64 * w.step..64 * (w.step + common)]).collect();
            let mut states: Vec<&mut State> = walks.iter_mut().map(|w| &mut w.st).collect();
            kernel.blocks_many(&mut states, &data);
            for w in &mut walks {
                w.step += common;
            }
            continue;
        }
        // The inputs are written in place: returned by value and pushed,
        // each block would be copied twice more per compression, about a
        // tenth of a 64-byte message's time.
        let k = walks.len();
        for (w, ((h, n), m)) in walks.iter().zip(h.iter_mut().zip(&mut n).zip(&mut m)) {
            *h = w.st.h;
            w.input(n, m);
        }
        if walks.iter().all(|w| w.step == 0) {
            kernel.g_many_from_iv(digest_bytes, &mut h[..k], &m[..k]);
        } else {
            kernel.g_many(&mut h[..k], &n[..k], &m[..k]);
        }
        for (w, (h, m)) in walks.iter_mut().zip(h.iter().zip(&m)) {
            w.after(h, m);
        }
        walks.retain_mut(|w| {
            if w.step < w.steps() {
                return true;
            }
            out[w.index] = w.st.h[64 - digest_bytes..].to_vec();
            false
        });
    }
}

/// One message of [`digest_many`] and how far its compressions are.
struct Walk<'a> {
    index: usize,
    msg: &'a [u8],
    st: State,
    /// Compressions done: the whole blocks, then the padded block, N, Σ.
    step: usize,
}

impl Drop for Walk<'_> {
    fn drop(&mut self) {
        self.st.zeroize();
    }
}

impl<'a> Walk<'a> {
    fn new(index: usize, msg: &'a [u8], digest_bytes: usize) -> Walk<'a> {
        Walk { index, msg, st: State::new(digest_bytes), step: 0 }
    }

    fn whole(&self) -> usize {
        self.msg.len() / 64
    }

    fn steps(&self) -> usize {
        self.whole() + 3
    }

    /// (N, m) of the next compression, into `n` and `m`.
    fn input(&self, n: &mut Block, m: &mut Block) {
        let whole = self.whole();
        if self.step < whole {
            let at = 64 * self.step;
            *n = self.st.n;
            m.copy_from_slice(&self.msg[at..at + 64]);
        } else if self.step == whole {
            let rest = &self.msg[64 * whole..];
            *n = self.st.n;
            m.fill(0);
            m[..rest.len()].copy_from_slice(rest);
            m[rest.len()] = 1;
        } else if self.step == whole + 1 {
            n.fill(0);
            *m = self.st.n;
        } else {
            n.fill(0);
            *m = self.st.sigma;
        }
    }

    /// Takes the new h, and updates N and Σ for compression `step` on `m`.
    fn after(&mut self, h: &Block, m: &Block) {
        let whole = self.whole();
        self.st.h = *h;
        if self.step < whole {
            self.st.advance(m);
        } else if self.step == whole {
            add_small(&mut self.st.n, 8 * (self.msg.len() - 64 * whole) as u64);
            add(&mut self.st.sigma, m);
        }
        self.step += 1;
    }
}
