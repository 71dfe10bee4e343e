//! Kuznyechik's backends, fastest first, each in its module: the adapter
//! that makes a kernel on a machine a registry entry, or a whole backend.

crate::backend_modules! {
    x86_64: [avx2, avx512_gfni, table],
    aarch64: [neon],
    everywhere: [portable, reference],
}

use super::keys::Keys;
use crate::backend::Backend;

/// Fastest first; the default is the first constant-time one the CPU runs:
/// `portable` (plain Rust, bitsliced) runs on every CPU, so it is the default
/// wherever no SIMD backend does. `table` is last: never a default.
#[cfg(target_arch = "x86_64")]
pub(crate) static BACKENDS: &[Backend<Keys>] = &[
    avx512_gfni::BACKEND,
    avx512_gfni::BACKEND_NARROW,
    avx2::BACKEND_GFNI,
    avx2::BACKEND,
    avx2::BACKEND_NARROW,
    portable::BACKEND,
    reference::BACKEND,
    table::BACKEND,
];
#[cfg(target_arch = "aarch64")]
pub(crate) static BACKENDS: &[Backend<Keys>] = &[neon::BACKEND, portable::BACKEND, reference::BACKEND];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) static BACKENDS: &[Backend<Keys>] = &[portable::BACKEND, reference::BACKEND];
