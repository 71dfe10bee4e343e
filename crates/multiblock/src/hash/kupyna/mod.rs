//! Kupyna, the hash function of DSTU 7564:2014 (Ukraine; Oliynykov et al.,
//! "A New Standard of Ukraine: The Kupyna Hash Function", IACR ePrint
//! 2015/885), with digests of 8 to 512 bits, and its MAC.
//!
//! Structure (ePrint 2015/885 §4): the message is padded (a 1 bit, zeros,
//! its length in 96 bits) to blocks of the state length l (512 bits for
//! digests up to 256 bits, 1024 above); each block m updates the chaining
//! value h ← T⊕(h ⊕ m) ⊕ T+(m) ⊕ h, and the digest is the last n bits of
//! T⊕(h) ⊕ h. T⊕ and T+ are Kalyna-like permutations of the state (10 or 14
//! rounds of round constants, SubBytes with Kalyna's π0..π3, ShiftBytes and
//! MixColumns with Kalyna's MDS matrix), differing in how the round
//! constants are applied (⊕ on row 0, or + mod 2^64 on each column).
//!
//! The MAC (DSTU 7564:2014's message authentication mode; ePrint 2015/885
//! §5): MAC_K(M) = H(Pad(K) ‖ Pad(M) ‖ ¬K) with a key as long as the MAC, for
//! MACs of 256, 384 and 512 bits.
//!
//! Backends, fastest first: `avx512-gfni` (one message's T⊕ and T+ in zmm
//! registers, interleaved; many messages interleaved in `digest_many`; see
//! `avx512_gfni.rs`), `avx2-gfni` and `avx2` (T⊕ and T+ in the two lanes
//! of ymm registers, Kalyna's nibble S-box, MixColumns by `vpshufb`
//! rotations and GFNI products or doublings; see `avx2.rs`); on aarch64
//! `neon` (T⊕ and T+ side by side in 16-byte registers, the S-boxes as
//! whole tables in registers, T⊕ in Kalyna's row layout throughout; see
//! `neon.rs`); everywhere `portable` (constant-time plain Rust: bitsliced
//! S-boxes, SWAR MixColumns; see `portable.rs`), `reference` (the oracle,
//! not constant-time).
//! Each gives the hasher here its compression functions and the chaining
//! value they work on (`kernel.rs`).

mod constants;
mod kernel;
mod portable;
mod reference;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod ssse3;
#[cfg(any(target_arch = "x86_64", test))]
mod avx512_gfni;
#[cfg(any(target_arch = "x86_64", test))]
mod rows;
#[cfg(any(target_arch = "x86_64", test))]
mod job_on;
#[cfg(any(target_arch = "x86_64", test))]
mod ymm_rows;
#[cfg(any(target_arch = "x86_64", test))]
mod ymm_staggered;
#[cfg(any(target_arch = "aarch64", test))]
mod neon;
#[cfg(test)]
mod tests;

use super::buffer::absorb;
use crate::backend::{always, Backend, BackendChoice, BackendInfo};
use crate::error::{Error, Result};
use constants::{cols_for, iv_byte0, LENGTH_FIELD_BYTES};
use kernel::{Kernel, KernelFns, State};
use zeroize::Zeroize;

/// Fastest first; the default is the first constant-time one the CPU runs.
#[cfg(target_arch = "x86_64")]
pub(crate) static BACKENDS: &[Backend<(), Kernel>] =
    &[avx512_gfni::BACKEND, avx2::AVX2_GFNI, avx2::AVX2, ssse3::SSSE3, PORTABLE, REFERENCE];
/// Fastest first; the default is the first constant-time one the CPU runs.
#[cfg(target_arch = "aarch64")]
pub(crate) static BACKENDS: &[Backend<(), Kernel>] = &[neon::BACKEND, PORTABLE, REFERENCE];
/// Fastest first; the default is the first constant-time one the CPU runs.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) static BACKENDS: &[Backend<(), Kernel>] = &[PORTABLE, REFERENCE];

const PORTABLE: Backend<(), Kernel> = Backend {
    info: BackendInfo { name: "portable", constant_time: true, ways: 1, needs: "nothing" },
    available: always,
    new: |_| &portable::KERNEL,
};

const REFERENCE: Backend<(), Kernel> = Backend {
    info: BackendInfo { name: "reference", constant_time: false, ways: 1, needs: "nothing" },
    available: always,
    new: |_| &reference::KERNEL,
};

/// The name backend selection reports in its errors.
const NAME: &str = "kupyna";

/// A backend of Kupyna, as [`Core::choose`] picks it.
pub(crate) type Chosen = &'static Backend<(), Kernel>;

fn choose(choice: BackendChoice<'_>) -> Result<Chosen> {
    crate::backend::select(NAME, BACKENDS, choice)
}

fn check_digest_bytes(digest_bytes: usize) -> Result<()> {
    if (1..=64).contains(&digest_bytes) {
        Ok(())
    } else {
        Err(Error::Param(format!("Kupyna digests are 1 to 64 bytes, not {digest_bytes}")))
    }
}

/// The initial chaining value for a state of `cols` columns.
fn initial_state(cols: usize) -> State {
    let mut h = [0u8; 128];
    h[0] = iv_byte0(cols);
    h
}

/// The message's last blocks, padded: `rest` (0 to `block` bytes of a
/// message of `len` bytes not yet compressed), 0x80, zeros and the 96-bit
/// length in bits, one or two blocks in `out`; returns their length.
/// Branches on lengths only.
fn pad_tail(rest: &[u8], len: u128, block: usize, out: &mut [u8; 256]) -> usize {
    let n = if rest.len() < block - LENGTH_FIELD_BYTES { block } else { 2 * block };
    out[..rest.len()].copy_from_slice(rest);
    out[rest.len()] = 0x80;
    out[rest.len() + 1..n].fill(0);
    let bits = len.wrapping_mul(8).to_le_bytes();
    out[n - LENGTH_FIELD_BYTES..n].copy_from_slice(&bits[..LENGTH_FIELD_BYTES]);
    n
}

/// A Kupyna hash computation in progress.
#[derive(Clone)]
pub(crate) struct Core {
    h: State,
    buf: [u8; 128],
    buffered: usize,
    /// Message bytes so far (the length field is its bit count mod 2^96).
    len: u128,
    digest_bytes: usize,
    cols: usize,
    kernel: Kernel,
    /// Where `kernel` comes from (its name and properties).
    backend: &'static Backend<(), Kernel>,
}

impl Drop for Core {
    fn drop(&mut self) {
        self.h[..].zeroize();
        self.buf[..].zeroize();
    }
}

impl Core {
    /// digest_bytes: 1..=64 (8 to 512 bits in 8-bit steps, DSTU 7564 allows
    /// any); state 512 bits for ≤ 32 bytes, 1024 above.
    pub(crate) fn new(digest_bytes: usize, choice: BackendChoice<'_>) -> Result<Core> {
        Ok(Core::on(Core::choose(digest_bytes, choice)?, digest_bytes))
    }

    /// The backend [`Core::new`] runs on; Err as there.
    pub(crate) fn choose(digest_bytes: usize, choice: BackendChoice<'_>) -> Result<Chosen> {
        check_digest_bytes(digest_bytes)?;
        choose(choice)
    }

    /// A fresh computation on `backend` (of [`Core::choose`] for
    /// `digest_bytes`). Infallible and inlined, so that a caller builds it
    /// in place: a hasher returned through a `Result` of its own is written
    /// once, not copied from one frame into the next.
    #[inline(always)]
    pub(crate) fn on(backend: Chosen, digest_bytes: usize) -> Core {
        let cols = cols_for(digest_bytes);
        Core { h: initial_state(cols), buf: [0; 128], buffered: 0, len: 0, digest_bytes, cols, kernel: (backend.new)(&()), backend }
    }

    /// Compresses every whole block of the message so far but the last: a
    /// message's last 1 to `block` bytes wait in the buffer, so that
    /// `finalize_into` runs them with the padding and the output
    /// transformation in one kernel call.
    pub(crate) fn update(&mut self, data: &[u8]) {
        let block = self.block_bytes();
        self.len = self.len.wrapping_add(data.len() as u128);
        let (kernel, cols, h) = (self.kernel, self.cols, &mut self.h);
        absorb(&mut self.buf, &mut self.buffered, block, data, |blocks| (kernel.compress)(cols, h, blocks));
    }

    /// Compresses the held bytes now if they are a whole block (a state
    /// that is cloned for many messages, such as the MAC's after Pad(K) or
    /// HMAC's after K ⊕ ipad, then does not compress that block again in
    /// each clone).
    pub(crate) fn compress_held(&mut self) {
        let block = self.block_bytes();
        if self.buffered == block {
            (self.kernel.compress)(self.cols, &mut self.h, &self.buf[..block]);
            self.buffered = 0;
        }
    }

    /// No message bytes have come yet.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many message bytes wait in the buffer.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.buffered
    }

    /// [`Core::compress_held`] of two states: where both hold a whole
    /// block on one backend that runs several at once (HMAC's K ⊕ ipad and
    /// K ⊕ opad), the two compressions run side by side.
    pub(crate) fn compress_held_pair(a: &mut Core, b: &mut Core) {
        let block = a.block_bytes();
        let both = a.buffered == block && b.buffered == block && a.cols == b.cols && core::ptr::eq(a.backend, b.backend);
        match a.kernel.compress_many {
            Some(many) if both => {
                let mut h = [a.h, b.h];
                many(a.cols, &mut h, &[&a.buf[..block], &b.buf[..block]]);
                (a.h, b.h) = (h[0], h[1]);
                (a.buffered, b.buffered) = (0, 0);
                h.as_flattened_mut().zeroize();
            }
            _ => {
                a.compress_held();
                b.compress_held();
            }
        }
    }

    /// Writes the digest (out.len() == digest_bytes). The state is spent:
    /// [`Core::reset`] or a drop follows (both wipe it).
    pub(crate) fn finalize_into(&mut self, out: &mut [u8]) {
        assert_eq!(out.len(), self.digest_bytes, "the digest is {} bytes", self.digest_bytes);
        let block = self.block_bytes();
        let mut tail = [0u8; 256];
        let n = pad_tail(&self.buf[..self.buffered], self.len, block, &mut tail);
        match self.kernel.finish {
            Some(finish) => finish(self.cols, &mut self.h, &tail[..n]),
            None => {
                (self.kernel.compress)(self.cols, &mut self.h, &tail[..n]);
                (self.kernel.output)(self.cols, &mut self.h);
            }
        }
        out.copy_from_slice(&self.h[block - self.digest_bytes..block]);
        tail[..n].zeroize();
    }

    /// Writes the digest (out.len() == digest_bytes) and resets to the
    /// initial state.
    pub(crate) fn finalize_into_reset(&mut self, out: &mut [u8]) {
        self.finalize_into(out);
        self.reset();
    }

    /// Starts over with an empty message (the buffer wiped).
    pub(crate) fn reset(&mut self) {
        self.h = initial_state(self.cols);
        self.buf[..].zeroize();
        self.buffered = 0;
        self.len = 0;
    }

    pub(crate) fn digest_bytes(&self) -> usize {
        self.digest_bytes
    }

    /// 64 or 128.
    pub(crate) fn block_bytes(&self) -> usize {
        8 * self.cols
    }

    pub(crate) fn backend(&self) -> BackendInfo {
        self.backend.info
    }
}

/// The digests of `messages`, on one backend; where it runs several
/// messages at once (`Kernel::compress_many`), in groups of similar length.
pub(crate) fn digest_many(digest_bytes: usize, messages: &[&[u8]], choice: BackendChoice<'_>) -> Result<Vec<Vec<u8>>> {
    check_digest_bytes(digest_bytes)?;
    let kernel = (choose(choice)?.new)(&());
    let cols = cols_for(digest_bytes);
    let block = 8 * cols;
    let mut out = vec![vec![0u8; digest_bytes]; messages.len()];
    // Each message: its whole blocks in place, then its padded tail.
    let mut tails = vec![[0u8; 256]; messages.len()];
    let mut blocks = Vec::with_capacity(messages.len());
    for (msg, tail) in messages.iter().zip(tails.iter_mut()) {
        let whole = msg.len() / block * block;
        let n = pad_tail(&msg[whole..], msg.len() as u128, block, tail);
        blocks.push((whole / block, (whole + n) / block));
    }
    let block_of = |i: usize, s: usize| -> &[u8] {
        let whole = blocks[i].0;
        if s < whole {
            &messages[i][s * block..(s + 1) * block]
        } else {
            &tails[i][(s - whole) * block..(s - whole + 1) * block]
        }
    };
    let lanes = if kernel.compress_many.is_some() { kernel.lanes.max(1) } else { 1 };
    // Longest first, so that a group's lanes end close together.
    let mut order: Vec<usize> = (0..messages.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(blocks[i].1));
    let mut states = vec![initial_state(cols); lanes];
    let mut input: Vec<&[u8]> = Vec::with_capacity(lanes);
    for group in order.chunks(lanes) {
        for s in states.iter_mut() {
            *s = initial_state(cols);
        }
        match kernel.compress_many {
            Some(many) if group.len() > 1 => {
                let steps = blocks[group[0]].1;
                // The whole blocks every message of the group has, in one
                // call: the kernel keeps the states in its layout between
                // them (from 2; for one the steps below cost the same).
                let common = group.iter().map(|&i| blocks[i].0).min().unwrap_or(0);
                let start = if common >= 2 { common } else { 0 };
                if start > 0 {
                    input.clear();
                    input.extend(group.iter().map(|&i| &messages[i][..start * block]));
                    many(cols, &mut states[..group.len()], &input);
                }
                for s in start..steps {
                    // The lanes still running: a prefix, by the sort.
                    let active = group.iter().take_while(|&&i| blocks[i].1 > s).count();
                    input.clear();
                    input.extend(group[..active].iter().map(|&i| block_of(i, s)));
                    many(cols, &mut states[..active], &input);
                }
            }
            _ => {
                for (k, &i) in group.iter().enumerate() {
                    let whole = blocks[i].0 * block;
                    (kernel.compress)(cols, &mut states[k], &messages[i][..whole]);
                    (kernel.compress)(cols, &mut states[k], &tails[i][..(blocks[i].1 - blocks[i].0) * block]);
                }
            }
        }
        match kernel.output_many {
            Some(many) => many(cols, &mut states[..group.len()]),
            None => {
                for s in &mut states[..group.len()] {
                    (kernel.output)(cols, s);
                }
            }
        }
        for (k, &i) in group.iter().enumerate() {
            out[i].copy_from_slice(&states[k][block - digest_bytes..block]);
        }
    }
    states.as_flattened_mut().zeroize();
    tails.as_flattened_mut().zeroize();
    Ok(out)
}

/// Kupyna's keyed MAC, DSTU 7564:2014's MAC mode (ePrint 2015/885 §5):
/// H(Pad(K) ‖ Pad(M) ‖ ¬K), Pad as the hash pads, the key as long as the MAC.
#[derive(Clone)]
pub(crate) struct Mac {
    /// The hash after Pad(K) and the message so far.
    core: Core,
    /// The hash after Pad(K) alone: where each MAC starts.
    keyed: Core,
    key: [u8; 64],
    /// Message bytes so far (Pad(M)'s length field).
    len: u128,
}

impl Drop for Mac {
    fn drop(&mut self) {
        self.key[..].zeroize();
    }
}

impl Mac {
    /// digest_bytes 32, 48 or 64 (the MAC sizes the standard defines), with
    /// a key of as many bytes; `Error::Param` / `Error::KeyLength` otherwise.
    pub(crate) fn new(digest_bytes: usize, key: &[u8], choice: BackendChoice<'_>) -> Result<Mac> {
        if ![32, 48, 64].contains(&digest_bytes) {
            return Err(Error::Param(format!("Kupyna MACs are 32, 48 or 64 bytes, not {digest_bytes}")));
        }
        if key.len() != digest_bytes {
            return Err(Error::KeyLength { cipher: "kupyna-mac", expected: digest_bytes, got: key.len() });
        }
        let mut keyed = Core::new(digest_bytes, choice)?;
        let mut tail = [0u8; 256];
        let n = pad_tail(key, key.len() as u128, keyed.block_bytes(), &mut tail);
        keyed.update(&tail[..n]);
        keyed.compress_held();
        tail[..].zeroize();
        let mut k = [0u8; 64];
        k[..key.len()].copy_from_slice(key);
        Ok(Mac { core: keyed.clone(), keyed, key: k, len: 0 })
    }

    pub(crate) fn update(&mut self, data: &[u8]) {
        self.len = self.len.wrapping_add(data.len() as u128);
        self.core.update(data);
    }

    /// Writes the MAC (out.len() == the MAC size) and resets to the keyed
    /// initial state.
    pub(crate) fn finalize_into_reset(&mut self, out: &mut [u8]) {
        let (block, d) = (self.core.block_bytes(), self.core.digest_bytes());
        // Pad(M): what the hash would append to M alone (Pad(K) is whole
        // blocks, so M's alignment is its own); the core holds M's last bytes.
        let mut tail = [0u8; 256];
        let rest = (self.len % block as u128) as usize;
        let n = pad_tail(&[0u8; 128][..rest], self.len, block, &mut tail);
        self.core.update(&tail[rest..n]);
        let mut not_key = [0u8; 64];
        for (nk, k) in not_key.iter_mut().zip(&self.key[..d]) {
            *nk = !k;
        }
        self.core.update(&not_key[..d]);
        self.core.finalize_into_reset(out);
        not_key[..].zeroize();
        self.core = self.keyed.clone();
        self.len = 0;
    }
}
