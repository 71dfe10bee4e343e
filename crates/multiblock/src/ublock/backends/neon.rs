//! `neon`: constant-time uBlock on aarch64 Advanced SIMD: the plain form of
//! `ssse3` (`plain.rs`; `pshufb` is a `TBL` there), four blocks interleaved.

use super::super::plain::{Spread, WAYS};
use super::super::rounds::Ecb;
use super::super::variant::Keys;
use crate::backend::Backend;
use crate::kernel;
use crate::simd::Neon;

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Neon, Ecb<Spread>>("neon", true, WAYS);
