//! uBlock's backends, fastest first, each in its module: the adapter that
//! makes a kernel on a machine a registry entry, or a whole backend.

crate::backend_modules! {
    x86_64: [avx2, avx512_vbmi, ssse3],
    aarch64: [neon],
    everywhere: [portable, reference],
}

use super::variant::Keys;
use crate::backend::Backend;

/// Fastest first; the default is the first constant-time one the CPU runs.
#[cfg(target_arch = "x86_64")]
pub(crate) static BACKENDS: &[Backend<Keys>] =
    &[avx512_vbmi::BACKEND, avx2::BACKEND, ssse3::BACKEND, portable::BACKEND, reference::BACKEND];
#[cfg(target_arch = "aarch64")]
pub(crate) static BACKENDS: &[Backend<Keys>] = &[neon::BACKEND, portable::BACKEND, reference::BACKEND];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) static BACKENDS: &[Backend<Keys>] = &[portable::BACKEND, reference::BACKEND];
