//! The jobs of Kupyna's x86 kernels, generic over the machine that runs them.

use crate::simd::Job;

/// A job generic over the machine that runs it; [`On`] makes it a [`Job`].
pub(crate) trait JobOn<M> {
    fn run_on(self, m: M);
}

/// `job` on machine `m`, as a [`Job`] for `m.vectorize`.
pub(crate) struct On<M, J>(pub(crate) M, pub(crate) J);

impl<M: Copy, J: JobOn<M>> Job for On<M, J> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        self.1.run_on(self.0)
    }
}
