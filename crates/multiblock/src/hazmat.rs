//! Tools for measuring the library, not for using it: outside the stable
//! API and its semver promises. Today: the time-stamp counter that the
//! benchmark (`multiblock bench`) and the examples turn into cycles per
//! byte.

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
