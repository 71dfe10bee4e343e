//! The generic backend adapter: a family writes a [`BatchCipher`] (what one
//! batch of blocks does on machine `M`), and [`backend`] turns it into a
//! registry entry whose keyed kernel runs the one batch driver
//! ([`batch::for_each_batch`]) inside the machine's instruction set.
//!
//! # Size-aware dispatch
//!
//! The one place where a call's length chooses a kernel. A wide kernel is
//! the fastest on long messages but pays for its width on short ones (a
//! call padded to its granule, per-key material sized for its registers);
//! a narrow kernel has one block's latency. A backend that has both is one
//! registry entry that sends each call to one of them:
//!
//! - [`paired_backend`] (`paired.rs`): one batch cipher, one key material,
//!   on a narrow and a wide machine (Magma, uBlock).
//! - [`tiered_backend`] (`tiered.rs`): a narrow and a wide batch cipher with
//!   different key material; the narrow one is keyed with the backend, the
//!   wide one on the first longer call, from the key schedule the narrow
//!   one gives back (Kalyna, Kuznyechik).
//! - `bounds.rs`: where the narrow kernel stops, in bytes, per direction
//!   and per class of CPU ([`crate::cpu::core`]), measured with
//!   `multiblock-bench --ways` where the two kernels' costs cross.
//!
//! Which kernel runs depends on the call's length and the CPU's class
//! only, both public, and both kernels are constant-time, so the whole is.
//! Choosing between backends is `backend.rs`'s job and never depends on a
//! call's length.

pub(crate) mod batch;
pub(crate) mod bitslice;
#[cfg(target_arch = "x86_64")]
mod bounds;
#[cfg(target_arch = "x86_64")]
mod paired;
#[cfg(target_arch = "x86_64")]
mod tiered;

#[cfg(target_arch = "x86_64")]
pub(crate) use paired::paired_backend;
#[cfg(target_arch = "x86_64")]
pub(crate) use bounds::{Everywhere, NarrowBounds};
#[cfg(target_arch = "x86_64")]
pub(crate) use tiered::{tiered_backend, KeySchedule};

use crate::backend::{Backend, BackendInfo, BlockKernel};
use crate::simd::{Job, Machine};

/// The value of the `OnceLock` `cell`, made by `make` on first use: key
/// material a kernel needs only for some calls (the wide registers of
/// uBlock's `avx512-vbmi`, Kalyna's narrow decryption keys, Magma's sliced
/// layout), so that a key used for short messages never pays for it. A
/// macro rather than `get_or_init`, because a closure is compiled outside
/// the kernel's `#[target_feature]` function. A racing thread may set the
/// cell first; every `make` of one key gives the same value.
#[cfg(target_arch = "x86_64")]
macro_rules! once {
    ($cell:expr, $make:expr) => {{
        let cell = &$cell;
        if cell.get().is_none() {
            let _ = cell.set($make);
        }
        cell.get().expect("set just above")
    }};
}
#[cfg(target_arch = "x86_64")]
pub(crate) use once;

/// `$body` for `$g` = 0, …, G − 1 as straight-line code for the small G
/// of a kernel's register groups, so that their independent chains
/// interleave: LLVM may keep a plain loop over them rolled once a whole
/// call is inlined into one function. A macro, not a function taking a
/// closure, since a closure is compiled outside the kernel's
/// `#[target_feature]` function.
macro_rules! unrolled {
    ($g:ident in $n:expr => $body:block) => {
        match $n {
            1 => {
                let $g = 0;
                $body
            }
            2 => {
                {
                    let $g = 0;
                    $body
                }
                let $g = 1;
                $body
            }
            n => {
                for $g in 0..n $body
            }
        }
    };
}
pub(crate) use unrolled;

/// One backend's work on whole batches, keyed.
///
/// Implementations hold their key material in zeroizing types, and write
/// `encrypt`/`decrypt` `#[inline(always)]` so that they are compiled inside
/// the machine's `#[target_feature]` function.
pub(crate) trait BatchCipher<M: Machine>: Send + Sync + Sized + 'static {
    /// The family's expanded key.
    type Keys: 'static;
    /// Bytes per full batch.
    const BATCH_BYTES: usize;
    /// The tail is padded to a multiple of this (a divisor of the batch).
    const GRANULE_BYTES: usize;
    /// Keys the kernel (called once per key, on a CPU that runs `M`).
    fn new(m: M, keys: &Self::Keys) -> Self;
    /// Encrypts `batch` in place: a multiple of `GRANULE_BYTES` bytes, at most
    /// `BATCH_BYTES`.
    fn encrypt(&self, m: M, batch: &mut [u8]);
    /// Decrypts likewise.
    fn decrypt(&self, m: M, batch: &mut [u8]);
    /// [`BlockKernel::imit_steps`] (Magma / GOST 28147-89 only); `false`:
    /// none.
    #[inline(always)]
    fn imit_steps(&self, _m: M, _state: &mut [u8; 8], _data: &[u8]) -> bool {
        false
    }
}

/// A keyed kernel: a machine token and the family's batch cipher.
struct Kernel<M, C> {
    machine: M,
    cipher: C,
}

/// One call of `encrypt_blocks` (`DECRYPT` false) or `decrypt_blocks` on
/// machine `M` with batch cipher `C`.
struct Run<'a, M, C, const DECRYPT: bool> {
    machine: M,
    cipher: &'a C,
    data: &'a mut [u8],
}

impl<M: Machine, C: BatchCipher<M>, const DECRYPT: bool> Job for Run<'_, M, C, DECRYPT> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let one = Direction::<M, C, DECRYPT> { machine: self.machine, cipher: self.cipher };
        batch::for_each_batch(self.data, C::BATCH_BYTES, C::GRANULE_BYTES, &one);
    }
}

/// Runs one direction of `cipher` over `data` on `machine`, inside its
/// instruction sets.
#[inline(always)]
fn run<M: Machine, C: BatchCipher<M>, const DECRYPT: bool>(machine: M, cipher: &C, data: &mut [u8]) {
    machine.vectorize(Run::<M, C, DECRYPT> { machine, cipher, data })
}

/// One call of `imit_steps`.
struct Imit<'a, M, C> {
    machine: M,
    cipher: &'a C,
    state: &'a mut [u8; 8],
    data: &'a [u8],
}

impl<M: Machine, C: BatchCipher<M>> Job for Imit<'_, M, C> {
    type Output = bool;
    #[inline(always)]
    fn run(self) -> bool {
        self.cipher.imit_steps(self.machine, self.state, self.data)
    }
}

/// Runs `cipher`'s MAC steps on `machine`, inside its instruction sets.
#[inline(always)]
fn imit<M: Machine, C: BatchCipher<M>>(machine: M, cipher: &C, state: &mut [u8; 8], data: &[u8]) -> bool {
    machine.vectorize(Imit { machine, cipher, state, data })
}

/// A keyed batch cipher seen as one direction's batch function.
struct Direction<'a, M, C, const DECRYPT: bool> {
    machine: M,
    cipher: &'a C,
}

impl<M: Machine, C: BatchCipher<M>, const DECRYPT: bool> batch::BatchFn for Direction<'_, M, C, DECRYPT> {
    #[inline(always)]
    fn call(&self, b: &mut [u8]) {
        if DECRYPT {
            self.cipher.decrypt(self.machine, b)
        } else {
            self.cipher.encrypt(self.machine, b)
        }
    }
}

impl<M: Machine, C: BatchCipher<M>> BlockKernel for Kernel<M, C> {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        run::<M, C, false>(self.machine, &self.cipher, data)
    }
    fn decrypt_blocks(&self, data: &mut [u8]) {
        run::<M, C, true>(self.machine, &self.cipher, data)
    }
    fn imit_steps(&self, state: &mut [u8; 8], data: &[u8]) -> bool {
        imit(self.machine, &self.cipher, state, data)
    }
}

fn keyed<M: Machine, C: BatchCipher<M>>(keys: &C::Keys) -> Box<dyn BlockKernel> {
    let machine = M::detect().expect("a backend is keyed only after `available` said yes");
    // Allocated first and written in place: `Box::new(Kernel { .. })` built
    // the kernel (up to a few KiB of round keys and tables) on the stack and
    // then copied it with a `memcpy` call, a few percent of a short message
    // with key setup.
    let slot = Box::<Kernel<M, C>>::new_uninit();
    let kernel: Box<Kernel<M, C>> = Box::write(slot, Kernel { machine, cipher: C::new(machine, keys) });
    kernel
}

/// How many leading bytes of a call of `len` bytes a wide kernel (batches
/// of `batch` bytes) takes, beside a narrow one for short calls (the
/// tiered backends; Kuznyechik `neon`): none if the narrow one takes the whole
/// call (up to `max`); else its whole batches, and the rest too unless the
/// rest is at most `max`, which the narrow cipher runs for less than a
/// padded wide batch (Kuznyechik `avx512-gfni`, Sapphire Rapids: a 65-block
/// call cost twice a 64-block one).
pub(crate) fn wide_len(len: usize, batch: usize, max: usize) -> usize {
    let rest = len % batch;
    if len <= max {
        0
    } else if rest <= max {
        len - rest
    } else {
        len
    }
}

/// Whether this CPU runs both machines (of a paired or tiered backend).
#[cfg(target_arch = "x86_64")]
fn both<N: Machine, W: Machine>(features: &crate::cpu::CpuFeatures) -> bool {
    N::available(features) && W::available(features)
}

/// The registry entry of batch cipher `C` on machine `M`: `ways` blocks per
/// batch, constant-time or not as the family knows.
pub(crate) const fn backend<M: Machine, C: BatchCipher<M>>(
    name: &'static str,
    constant_time: bool,
    ways: usize,
) -> Backend<C::Keys> {
    Backend {
        info: BackendInfo { name, constant_time, ways, needs: M::NEEDS },
        available: M::available,
        new: keyed::<M, C>,
    }
}

#[cfg(test)]
mod tests {
    use super::wide_len;

    /// Short calls stay narrow, whole wide batches go wide, and a rest
    /// after them goes narrow only when the narrow limit covers it.
    #[test]
    fn calls_split_where_documented() {
        let (batch, max) = (1024, 320);
        for (len, want) in [
            (0, 0),
            (16, 0),
            (320, 0),
            (336, 336),
            (1024, 1024),
            (1040, 1024),
            (1344, 1024),
            (1360, 1360),
            (2048, 2048),
            (2368, 2048),
            (2400, 2400),
        ] {
            assert_eq!(wide_len(len, batch, max), want, "{len} bytes");
        }
    }
}
