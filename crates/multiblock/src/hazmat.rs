//! Tools for measuring and checking the library, not for using it: outside
//! the stable API and its semver promises. The time-stamp counter that the
//! benchmark (`multiblock bench`) and the examples turn into cycles per
//! byte, and the published test vectors that `multiblock selftest` runs.
//! Also the families' own mode types ([`modes`]), for tools that need one
//! standard's construction by itself.

/// The published test vectors the library is checked against, as the JSON
/// text of the crate's `vectors/` files, by family: `(name, json)`. Each
/// file's `conventions` says how its bytes read and each vector's `source`
/// where it was published.
pub const VECTORS: [(&str, &str); 5] = [
    ("kalyna", include_str!("../vectors/kalyna.json")),
    ("kuznyechik", include_str!("../vectors/kuznyechik.json")),
    ("magma", include_str!("../vectors/magma.json")),
    ("gost89", include_str!("../vectors/gost89.json")),
    ("ublock", include_str!("../vectors/ublock.json")),
];

/// The published digests of the hashes (GOST R 34.11-2012 / RFC 6986,
/// DSTU 7564:2014), as the JSON text of `vectors/hashes/digests.json`: each
/// vector names its hash, message, digest and source.
pub const HASH_VECTORS: &str = include_str!("../vectors/hashes/digests.json");

/// TSC ticks (x86-64), or nanoseconds since an arbitrary start elsewhere.
#[inline]
pub fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC exists on every x86-64 CPU and has no preconditions.
        #[allow(unused_unsafe)]
        unsafe {
            core::arch::x86_64::_rdtsc()
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        use std::time::Instant;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_nanos() as u64
    }
}

/// The fewest [`ticks`] of `reps` runs of `f`: on a shared machine a short
/// sample is often free of preemption, an average never is.
///
/// ```
/// let t = multiblock::hazmat::best_ticks(3, || {
///     std::hint::black_box(multiblock::hash::digest(multiblock::hash::HashId::Streebog256, b"abc").unwrap());
/// });
/// assert!(t > 0);
/// ```
pub fn best_ticks(reps: usize, mut f: impl FnMut()) -> u64 {
    let mut best = u64::MAX;
    for _ in 0..reps {
        let t = ticks();
        f();
        best = best.min(ticks() - t);
    }
    best
}

/// [`ticks`] per second, counted against the monotonic clock over `span`
/// (the median of three spans, so that one preemption does not skew it).
///
/// ```
/// let hz = multiblock::hazmat::tsc_hz(std::time::Duration::from_millis(5));
/// assert!(hz > 0.0);
/// ```
pub fn tsc_hz(span: std::time::Duration) -> f64 {
    let mut rates: Vec<f64> = (0..3)
        .map(|_| {
            let t0 = std::time::Instant::now();
            let c0 = ticks();
            while t0.elapsed() < span {
                std::hint::spin_loop();
            }
            ticks().wrapping_sub(c0) as f64 / t0.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[1]
}

/// The families' own mode types and the threaded one-shot calls, outside
/// the stable API: [`crate::modes`]' one-shot calls, streams, `many` and
/// `aead` are the recommended way to use a mode.
pub mod modes {
    pub use crate::modes::dstu::{
        Cbc as KalynaCbc, KalynaCcm, KalynaCfb, KalynaCmac, KalynaCtr, KalynaGcm, KalynaGmac, KalynaKw, KalynaOfb,
        KalynaXts,
    };
    pub use crate::modes::gost::{
        Cbc as GostCbc, Cfb as GostCfb, Cmac as GostCmac, Cnt, Ctr as GostCtr, Imit, KuznyechikXts, Ofb as GostOfb,
        OmacAcpkm,
    };
    pub use crate::modes::threaded::{decrypt_threads, encrypt_threads};
}
