//! The child side: marks the probe regions with signals the tracing parent
//! intercepts (SIGUSR1 starts recording, SIGUSR2 stops it) and never sees
//! delivered.

use crate::cases::Probe;

/// Raises SIGUSR1 before and SIGUSR2 after every library call.
pub struct SignalProbe;

impl Probe for SignalProbe {
    fn enter(&self) {
        // SAFETY: raise only sends a signal to this thread; the tracer
        // swallows it (without a tracer the default action would end the
        // process, which only `ct-trace --child` run by hand could see).
        unsafe { libc::raise(libc::SIGUSR1) };
    }

    fn leave(&self) {
        // SAFETY: as above.
        unsafe { libc::raise(libc::SIGUSR2) };
    }
}
