//! `neon`: constant-time uBlock on aarch64 Advanced SIMD: the plain form of
//! `ssse3` (`plain.rs`; `pshufb` is a `TBL` there), four blocks interleaved.

use super::plain::{Spread, WAYS};
use super::rounds::Ecb;
use super::Keys;
use crate::cpu::Backend;
use crate::kernel;
use crate::simd::Neon;

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Neon, Ecb<Spread>>("neon", true, WAYS);
