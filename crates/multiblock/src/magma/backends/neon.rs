//! `neon`: constant-time Magma / GOST 28147-89 on aarch64 Advanced SIMD:
//! the dword lanes of `lanes` with `subs::Blend` (its word and byte blends
//! are one `BSL` each on NEON, `pshufb` a `TBL`), 4 groups of 4 blocks.

use super::super::lanes::LaneCipher;
use super::super::subs::Blend;
use super::super::keys::Keys;
use crate::backend::Backend;
use crate::kernel;
use crate::simd::Neon;

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Neon, LaneCipher<Blend>>("neon", true, 16);
