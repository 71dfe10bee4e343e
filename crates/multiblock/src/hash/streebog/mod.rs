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
//! - `rows.rs`: eight states at once in zmm (`avx512-gfni`'s many
//!   messages), and what the AVX-512 kernels need of a machine;
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
//! - `compress.rs`: the kernel trait and the running values of §8 (h, and
//!   Σ and N as 512-bit numbers with their additions);
//! - this file: the three stages of §8 on them (the padding), the
//!   backends, [`Core`], [`digest_many`].
//!
//! Everything here around the kernel is constant-time for a given message
//! length: Σ and N are added with carries in arithmetic, the padding is
//! placed by the (public) length.

mod compress;
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
use compress::{add, add_small, Block, Compress, State};
use crate::backend::{self, Backend};
use crate::error::{Error, Result};
use crate::{BackendChoice, BackendInfo};
use zeroize::Zeroize;

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
