//! `ssse3`: constant-time Magma / GOST 28147-89 with 128-bit `pshufb`
//! (`subs::Masks`, on the dword lanes of `lanes`).
//!
//! Up to 4 groups of 4 blocks (16) interleaved; a short tail runs only the
//! groups it needs. Round per 4 blocks, 23 instructions (paddd, the 21 of
//! `Masks`, pxor); SSSE3 has no blend, hence the masks (AVX2 saves 4 with
//! blends). Sovyn et al. 2019 (Zakhyst Informatsii 21(4)), Table 5: 7.66 cycles/byte for SSE at 8 blocks.

use super::super::lanes::LaneCipher;
use super::super::subs::Masks;
use super::super::keys::Keys;
use crate::backend::Backend;
use crate::kernel;
use crate::simd::{Ssse3, Xmm};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Xmm<Ssse3>, LaneCipher<Masks>>("ssse3", true, 16);
