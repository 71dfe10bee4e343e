//! The unit of work a machine runs ([`Job`]), below the machines and the
//! vocabulary of `mod.rs`, so that the plain machines' runner
//! (`baseline.rs`) takes it without importing the layer above it.

/// Work to run inside a function compiled for a machine's instruction set.
/// Implementations mark `run` `#[inline(always)]`, so the whole kernel is
/// compiled there (see the documentation of `simd`).
pub(crate) trait Job {
    type Output;
    fn run(self) -> Self::Output;
}
