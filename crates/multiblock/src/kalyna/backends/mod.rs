//! Kalyna's backends, fastest first, each in its module: the adapter that
//! makes a kernel on a machine a registry entry, or a whole backend.

crate::backend_modules! {
    x86_64: [avx2, avx2_gfni, avx512_gfni, narrow],
    aarch64: [neon],
    everywhere: [portable, reference, table],
}

use super::variant::Keys;
use crate::backend::Backend;

/// Fastest first; the default is the first constant-time one the CPU runs:
/// `portable` (plain Rust, bitsliced) runs on every CPU, so it is the default
/// wherever no SIMD backend does. `table` is last: never a default.
#[cfg(target_arch = "x86_64")]
pub(crate) static BACKENDS: &[Backend<Keys>] = &[
    avx512_gfni::BACKEND,
    narrow::BACKEND,
    avx2_gfni::BACKEND,
    avx2::BACKEND,
    portable::BACKEND,
    reference::BACKEND,
    table::BACKEND,
];
#[cfg(target_arch = "aarch64")]
pub(crate) static BACKENDS: &[Backend<Keys>] = &[neon::BACKEND, portable::BACKEND, reference::BACKEND, table::BACKEND];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) static BACKENDS: &[Backend<Keys>] = &[portable::BACKEND, reference::BACKEND, table::BACKEND];
