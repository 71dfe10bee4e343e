//! A narrow and a wide batch cipher with different key material behind one
//! backend. Calls of up to a bound in bytes (one for encryption, one for
//! decryption, per CPU class: `bounds.rs`) run on the narrow cipher, and
//! so does the rest of a longer call after the wide cipher's whole
//! batches when it is that short. The narrow cipher is keyed with the
//! backend: short messages, chained modes and key setup pay only its key
//! setup. The wide cipher is keyed on the first longer call, from the key
//! schedule the narrow one gives back ([`KeySchedule`]).
//! The wide keys are made the same way whenever they are made. The module
//! documentation of `kernel` describes the size-aware dispatch as a whole.

use super::{both, imit, run, wide_len, BatchCipher, Kernel, NarrowBounds};
use crate::backend::{Backend, BackendInfo, BlockKernel};
use crate::simd::Machine;
use std::sync::OnceLock;

/// The wide cipher's key material starts on a cache line, so that its
/// 64-byte round keys do not straddle two.
#[repr(align(64))]
struct Line<T>(T);

/// A keyed pair: narrow cipher `CN` on machine `N`, wide `CW` on `W`.
struct Tiered<N, CN, W: Machine, CW: BatchCipher<W>> {
    narrow: Kernel<N, CN>,
    /// The longest encryption and decryption the narrow cipher runs, on
    /// this CPU.
    max_enc: usize,
    max_dec: usize,
    wide_machine: W,
    /// Keyed from `narrow`'s key schedule on the first longer call.
    /// Boxed on its own: a 64-byte-aligned field would make the whole pair
    /// an aligned allocation, which cost a 64-byte Kalyna message with key
    /// setup about 5% (Zen 4); unaligned, the wide kernel's round keys
    /// straddled cache lines and its 8-to-16-block calls ran 3–10% slower.
    wide: OnceLock<Box<Line<CW>>>,
}

/// A narrow cipher that gives back the key schedule it was keyed with, so
/// that a pair keeps no copy of it for its wide cipher (a copy and its wipe
/// cost a 64-byte Kalyna message with key setup about 3%, Zen 4).
pub(crate) trait KeySchedule<K> {
    fn key_schedule(&self) -> K;
}

impl<N, CN, W, CW> Tiered<N, CN, W, CW>
where
    N: Machine,
    CN: BatchCipher<N> + KeySchedule<CW::Keys>,
    W: Machine,
    CW: BatchCipher<W>,
{
    /// The wide cipher's whole batches (and a longer rest), then the
    /// narrow cipher's rest of up to its limit ([`wide_len`]).
    fn crypt<const DECRYPT: bool>(&self, data: &mut [u8]) {
        let max = if DECRYPT { self.max_dec } else { self.max_enc };
        let (wide, narrow) = data.split_at_mut(wide_len(data.len(), CW::BATCH_BYTES, max));
        if !wide.is_empty() {
            run::<W, CW, DECRYPT>(self.wide_machine, self.wide(), wide);
        }
        if !narrow.is_empty() {
            run::<N, CN, DECRYPT>(self.narrow.machine, &self.narrow.cipher, narrow);
        }
    }

    /// The wide cipher, keyed on first use (outside the machine's
    /// instruction set, as every `BatchCipher::new` is called).
    fn wide(&self) -> &CW {
        let make = || {
            // The family's `Keys` wipes itself when dropped here.
            let keys = self.narrow.cipher.key_schedule();
            Box::new(Line(CW::new(self.wide_machine, &keys)))
        };
        &self.wide.get_or_init(make).0
    }
}

impl<N, CN, W, CW> BlockKernel for Tiered<N, CN, W, CW>
where
    N: Machine,
    CN: BatchCipher<N> + KeySchedule<CW::Keys>,
    W: Machine,
    CW: BatchCipher<W>,
{
    fn encrypt_blocks(&self, data: &mut [u8]) {
        self.crypt::<false>(data)
    }
    fn decrypt_blocks(&self, data: &mut [u8]) {
        self.crypt::<true>(data)
    }
    /// A MAC step is a one-block chain: the narrow cipher's.
    fn imit_steps(&self, state: &mut [u8; 8], data: &[u8]) -> bool {
        imit::<N, CN>(self.narrow.machine, &self.narrow.cipher, state, data)
    }
}

fn keyed<N, CN, W, CW, B: NarrowBounds>(keys: &CW::Keys) -> Box<dyn BlockKernel>
where
    N: Machine,
    CN: BatchCipher<N, Keys = CW::Keys> + KeySchedule<CW::Keys>,
    W: Machine,
    CW: BatchCipher<W>,
{
    let (narrow, wide) = N::detect().zip(W::detect()).expect("a backend is keyed only after `available` said yes");
    // Written in place, as `super::keyed` does.
    let slot = Box::<Tiered<N, CN, W, CW>>::new_uninit();
    let (max_enc, max_dec) = B::here();
    let kernel: Box<Tiered<N, CN, W, CW>> = Box::write(
        slot,
        Tiered {
            narrow: Kernel { machine: narrow, cipher: CN::new(narrow, keys) },
            max_enc,
            max_dec,
            wide_machine: wide,
            wide: OnceLock::new(),
        },
    );
    kernel
}

/// The registry entry of narrow cipher `CN` on `N` (calls within the
/// bounds `B` of this CPU's class) and wide cipher `CW` on `W` (longer
/// calls): `ways` blocks per wide batch.
pub(crate) const fn tiered_backend<N, CN, W, CW, B: NarrowBounds>(
    name: &'static str,
    constant_time: bool,
    ways: usize,
) -> Backend<CW::Keys>
where
    N: Machine,
    CN: BatchCipher<N, Keys = CW::Keys> + KeySchedule<CW::Keys>,
    W: Machine,
    CW: BatchCipher<W>,
{
    Backend {
        info: BackendInfo { name, constant_time, ways, needs: W::NEEDS },
        available: both::<N, W>,
        new: keyed::<N, CN, W, CW, B>,
    }
}

