//! The backends of Magma and GOST 28147-89, fastest first, each in its
//! module: the adapter that makes a kernel a registry entry, or a whole one.

crate::backend_modules! {
    x86_64: [avx2, avx512, avx512_vbmi, narrow, ssse3],
    aarch64: [neon],
    everywhere: [portable, reference, table],
}

use super::keys::Keys;
use crate::backend::Backend;

/// Fastest first; the default is the first constant-time one the CPU runs.
/// `table` and `table12` index memory by secret data, so they are chosen only
/// by name; `reference` is the oracle.
pub(crate) static BACKENDS: &[Backend<Keys>] = &[
    #[cfg(target_arch = "aarch64")]
    neon::BACKEND,
    #[cfg(target_arch = "x86_64")]
    avx512_vbmi::BACKEND,
    #[cfg(target_arch = "x86_64")]
    narrow::BACKEND,
    #[cfg(target_arch = "x86_64")]
    avx512::BACKEND,
    #[cfg(target_arch = "x86_64")]
    avx2::BACKEND,
    #[cfg(target_arch = "x86_64")]
    ssse3::BACKEND,
    portable::BACKEND,
    table::BACKEND_12,
    table::BACKEND,
    reference::BACKEND,
];
