//! Size-aware dispatch inside one keyed cipher: what [`BackendChoice::Auto`]
//! gives when `MULTIBLOCK_BACKEND` is unset.
//!
//! The widest constant-time backend is the fastest on long messages but pays
//! for its width on short ones: it pads a call to its granule and may build
//! per-key material sized for its registers. So a family lists, per default
//! backend, narrower constant-time backends and the largest call (in bytes)
//! each is the fastest for, measured with `multiblock bench --ways` (the
//! sweep) and the short-message section. A keyed cipher then holds the
//! family's expanded key and one kernel per tier, each keyed on the first
//! call that needs it: keying costs only what the calls made so far need.
//!
//! Which kernel runs depends on the call's length only, which is public, and
//! whether a tier has been keyed depends on the lengths of earlier calls;
//! every tier is a constant-time backend, so the whole is constant-time.
//!
//! [`BackendChoice::Auto`]: crate::BackendChoice::Auto

use crate::cpu::{Backend, BackendInfo, BlockKernel, CpuFeatures};
use std::sync::OnceLock;

/// "Under default backend `wide`, encryptions (and MAC steps) of up to
/// `max_bytes` bytes and decryptions of up to `max_bytes_decrypt` go to
/// backend `narrow`." A family's list is in increasing sizes per `wide`.
/// The two differ where a wide kernel's decryption costs more than its
/// encryption (Kalyna's inverse MixColumns), which moves the crossover.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Crossover {
    pub wide: &'static str,
    pub narrow: &'static str,
    pub max_bytes: usize,
    pub max_bytes_decrypt: usize,
}

/// The most tiers a keyed cipher has (short ones and the wide one); the
/// tiers live inline, so keying for the default allocates only the boxed
/// dispatcher (measured: the `Vec`s it replaced cost a 64-byte message
/// with key setup about 200 cycles, a quarter of Magma's).
const MAX_TIERS: usize = 4;

/// The tiers of a keyed cipher: the family's plan, one kernel cell per
/// tier (keyed on the first call that needs it), and the key they are keyed
/// from. Built in place in its box: moving it would copy the key (1.2 KiB
/// for Kalyna) and the cells.
struct BySize<K: 'static> {
    plan: &'static Plan<K>,
    kernels: [OnceLock<Box<dyn BlockKernel>>; MAX_TIERS],
    keys: K,
}

impl<K: Send + Sync> BySize<K> {
    /// The tier of a call of `len` bytes (`DEC`: a decryption).
    #[inline]
    fn pick<const DEC: bool>(&self, len: usize) -> &dyn BlockKernel {
        // The wide tier's bounds are usize::MAX, so the search ends on a tier.
        let bound = |&(_, enc, dec): &(&Backend<K>, usize, usize)| if DEC { dec } else { enc };
        let tier = self.plan.tiers.iter().position(|t| len <= bound(t)).unwrap_or(MAX_TIERS - 1);
        let backend = self.plan.tiers[tier].0;
        &**self.kernels[tier].get_or_init(|| (backend.new)(&self.keys))
    }
}

impl<K: Send + Sync> BlockKernel for BySize<K> {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        self.pick::<false>(data.len()).encrypt_blocks(data)
    }
    fn decrypt_blocks(&self, data: &mut [u8]) {
        self.pick::<true>(data.len()).decrypt_blocks(data)
    }
    /// Every MAC step is a one-block call in a chain: the tier of one block.
    fn imit_steps(&self, state: &mut [u8; 8], data: &[u8]) -> bool {
        self.pick::<false>(state.len()).imit_steps(state, data)
    }
}

/// What a keyed cipher reports of its short-call tiers: each backend and
/// the largest call in bytes it takes, for encryption and for decryption.
/// A keyed cipher holds a reference to its family's (static) report: it is
/// moved by value a few times while it is built, and a copy over 128 bytes
/// is a `memcpy` call (measured: 264-byte engines cost Magma's 64-byte
/// message with key setup about 4%).
pub(crate) struct ShortTiers {
    encrypt: [(&'static BackendInfo, usize); MAX_TIERS - 1],
    decrypt: [(&'static BackendInfo, usize); MAX_TIERS - 1],
    count: usize,
}

impl ShortTiers {
    /// No short tiers: every call runs on the one backend.
    pub(crate) const NONE: ShortTiers = ShortTiers { encrypt: [(&NO_BACKEND, 0); MAX_TIERS - 1], decrypt: [(&NO_BACKEND, 0); MAX_TIERS - 1], count: 0 };

    /// Encryption's tiers (`decrypt`: decryption's), shortest first.
    pub(crate) fn get(&self, decrypt: bool) -> &[(&'static BackendInfo, usize)] {
        if decrypt { &self.decrypt[..self.count] } else { &self.encrypt[..self.count] }
    }
}

/// What fills the unused entries of a [`ShortTiers`].
static NO_BACKEND: BackendInfo = BackendInfo { name: "", constant_time: true, ways: 0, needs: "" };

/// A family's backends and crossovers, with what the default gives for them
/// on this CPU worked out once: the CPU's features (after
/// `MULTIBLOCK_DISABLE`) are fixed for the process. A key setup then costs
/// about 300 instructions here, where looking the tiers up by name and
/// building them on the stack before boxing would cost 550 (callgrind,
/// uBlock-128/128 with one short tier): 9% of a 64-byte uBlock message
/// with key setup.
pub(crate) struct Family<K: 'static> {
    pub backends: &'static [Backend<K>],
    pub crossovers: &'static [Crossover],
    plan: OnceLock<Plan<K>>,
}

/// The default's wide backend and its short tiers on this CPU.
struct Plan<K: 'static> {
    /// Each tier's backend and largest encryption and decryption in bytes,
    /// increasing: the short tiers, then the wide one (`usize::MAX`), which
    /// fills the unused rest.
    tiers: [(&'static Backend<K>, usize, usize); MAX_TIERS],
    /// The short tiers, as a keyed cipher reports them.
    short: ShortTiers,
}

impl<K: Send + Sync + 'static> Family<K> {
    pub(crate) const fn new(backends: &'static [Backend<K>], crossovers: &'static [Crossover]) -> Family<K> {
        Family { backends, crossovers, plan: OnceLock::new() }
    }

    fn plan(&'static self) -> &'static Plan<K> {
        self.plan.get_or_init(|| {
            let cpu = CpuFeatures::get();
            let wide = crate::cpu::default_backend(self.backends, cpu);
            let found = short_tiers(wide, self.backends, self.crossovers, cpu);
            let mut tiers = [(wide, usize::MAX, usize::MAX); MAX_TIERS];
            let mut short = ShortTiers::NONE;
            for (i, &(backend, c)) in found.iter().enumerate() {
                tiers[i] = (backend, c.max_bytes, c.max_bytes_decrypt);
                short.encrypt[i] = (&backend.info, c.max_bytes);
                short.decrypt[i] = (&backend.info, c.max_bytes_decrypt);
            }
            short.count = found.len();
            Plan { tiers, short }
        })
    }

    /// The default (no backend named, `MULTIBLOCK_BACKEND` unset): the
    /// wide backend, keyed with `keys`, and its short tiers, each keyed on
    /// the first call that needs it.
    pub(crate) fn keyed_default(
        &'static self,
        keys: &K,
    ) -> (&'static Backend<K>, Box<dyn BlockKernel>, &'static ShortTiers)
    where
        K: Clone,
    {
        let plan = self.plan();
        // The wide tier follows the short ones.
        let wide = plan.tiers[plan.short.count].0;
        if plan.short.count == 0 {
            return (wide, (wide.new)(keys), &plan.short);
        }
        let slot = Box::<BySize<K>>::new_uninit();
        let by_size = Box::write(slot, BySize { plan, kernels: [const { OnceLock::new() }; MAX_TIERS], keys: keys.clone() });
        (wide, by_size, &plan.short)
    }
}

/// The narrower tiers `crossovers` give for default backend `wide` on this
/// CPU: constant-time, available, in increasing size (at most
/// `MAX_TIERS - 1`; a family lists fewer).
fn short_tiers<K>(
    wide: &Backend<K>,
    backends: &'static [Backend<K>],
    crossovers: &'static [Crossover],
    cpu: &CpuFeatures,
) -> Vec<(&'static Backend<K>, &'static Crossover)> {
    let found: Vec<_> = crossovers
        .iter()
        .filter(|c| c.wide == wide.info.name && c.narrow != wide.info.name)
        .filter_map(|c| Some((backends.iter().find(|b| b.info.name == c.narrow)?, c)))
        .filter(|(b, _)| b.info.constant_time && (b.available)(cpu))
        .collect();
    assert!(found.len() < MAX_TIERS, "a family lists at most {} short tiers", MAX_TIERS - 1);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::always;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A family of `backends` and `crossovers` for one test.
    fn family(backends: &'static [Backend<()>], crossovers: &[Crossover]) -> &'static Family<()> {
        let crossovers: &'static [Crossover] = Box::leak(crossovers.to_vec().into_boxed_slice());
        Box::leak(Box::new(Family::new(backends, crossovers)))
    }

    /// A kernel that adds its tag to every byte, so a test sees which ran.
    struct Tagged(u8);
    impl BlockKernel for Tagged {
        fn encrypt_blocks(&self, data: &mut [u8]) {
            data.iter_mut().for_each(|b| *b = b.wrapping_add(self.0));
        }
        fn decrypt_blocks(&self, data: &mut [u8]) {
            data.iter_mut().for_each(|b| *b = b.wrapping_sub(self.0));
        }
    }

    static KEYED: [AtomicUsize; 3] = [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)];

    fn backend(name: &'static str, constant_time: bool, tag: u8) -> Backend<()> {
        fn make<const T: u8>(_: &()) -> Box<dyn BlockKernel> {
            KEYED[T as usize - 1].fetch_add(1, Ordering::SeqCst);
            Box::new(Tagged(T))
        }
        let new: fn(&()) -> Box<dyn BlockKernel> = match tag {
            1 => make::<1>,
            2 => make::<2>,
            _ => make::<3>,
        };
        Backend { info: BackendInfo { name, constant_time, ways: 1, needs: "" }, available: always, new }
    }

    #[test]
    fn calls_go_to_the_tier_of_their_length_keyed_once_on_first_use() {
        let backends: &'static [Backend<()>] =
            Box::leak(vec![backend("wide", true, 1), backend("mid", true, 2), backend("small", true, 3)].into_boxed_slice());
        let crossovers = [
            Crossover { wide: "wide", narrow: "small", max_bytes: 16, max_bytes_decrypt: 24 },
            Crossover { wide: "wide", narrow: "mid", max_bytes: 64, max_bytes_decrypt: 96 },
            Crossover { wide: "other", narrow: "mid", max_bytes: 1024, max_bytes_decrypt: 1024 },
        ];
        let (wide, kernel, short) = family(backends, &crossovers).keyed_default(&());
        assert_eq!(wide.info.name, "wide");
        let names = |decrypt| short.get(decrypt).iter().map(|(b, n)| (b.name, *n)).collect::<Vec<_>>();
        assert_eq!(names(false), [("small", 16), ("mid", 64)]);
        assert_eq!(names(true), [("small", 24), ("mid", 96)]);
        assert!(KEYED.iter().all(|k| k.load(Ordering::SeqCst) == 0), "no tier keyed before a call");
        // (length, tier of its encryption, tier of its decryption)
        for (len, enc, dec) in [(0, 3, 3), (16, 3, 3), (24, 2, 3), (17, 2, 3), (64, 2, 2), (80, 1, 2), (96, 1, 2), (97, 1, 1), (4096, 1, 1), (8, 3, 3)] {
            let mut data = vec![0u8; len];
            kernel.encrypt_blocks(&mut data);
            assert!(data.iter().all(|&b| b == enc), "{len} bytes encrypted on tier {enc}");
            kernel.decrypt_blocks(&mut data);
            assert!(data.iter().all(|&b| b == enc.wrapping_sub(dec)), "{len} bytes decrypted on tier {dec}");
        }
        assert!(KEYED.iter().all(|k| k.load(Ordering::SeqCst) == 1), "each tier keyed exactly once");
    }

    /// As [`backend`], without counting (the tests run in parallel).
    fn uncounted(name: &'static str, constant_time: bool) -> Backend<()> {
        fn make(_: &()) -> Box<dyn BlockKernel> {
            Box::new(Tagged(1))
        }
        Backend { info: BackendInfo { name, constant_time, ways: 1, needs: "" }, available: always, new: make }
    }

    #[test]
    fn forced_or_leaky_tiers_are_not_used() {
        let backends: &'static [Backend<()>] =
            Box::leak(vec![uncounted("wide", true), uncounted("leaky", false)].into_boxed_slice());
        let crossovers = [Crossover { wide: "wide", narrow: "leaky", max_bytes: 64, max_bytes_decrypt: 64 }];
        let (_, kernel, short) = family(backends, &crossovers).keyed_default(&());
        assert!(short.get(false).is_empty(), "a backend that is not constant-time is never a tier");
        let mut data = [0u8; 16];
        kernel.encrypt_blocks(&mut data);
        assert_eq!(data, [1; 16]);
        let (_, _, short) = family(backends, &[Crossover { wide: "wide", narrow: "wide", max_bytes: 8, max_bytes_decrypt: 8 }])
            .keyed_default(&());
        assert!(short.get(true).is_empty());
    }
}
