//! uBlock's backends, fastest first, each in its module: the adapter that
//! makes a kernel on a machine a registry entry, or a whole backend.

crate::backend_modules! {
    x86_64: [avx2, avx512_vbmi, ssse3],
    aarch64: [neon],
    everywhere: [portable, reference],
}

use super::Keys;
use crate::backend::Backend;

/// Fastest first; the default is the first constant-time one the CPU runs.
pub(crate) static BACKENDS: &[Backend<Keys>] = &[
    #[cfg(target_arch = "aarch64")]
    neon::BACKEND,
    #[cfg(target_arch = "x86_64")]
    avx512_vbmi::BACKEND,
    #[cfg(target_arch = "x86_64")]
    avx2::BACKEND,
    #[cfg(target_arch = "x86_64")]
    ssse3::BACKEND,
    portable::BACKEND,
    reference::BACKEND,
];
