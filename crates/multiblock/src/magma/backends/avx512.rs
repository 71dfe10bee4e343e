//! `avx512`: constant-time Magma / GOST 28147-89 with AVX-512F+BW: 512-bit
//! `vpshufb` with merge-masking, `vpternlogd` and `vprold` (`subs::Masked`,
//! on the dword lanes of `lanes`).
//!
//! Up to 4 groups of 16 blocks (64) interleaved; a short tail runs only the
//! groups it needs. Round per 16 blocks, 12 instructions (vpaddd, the 10 of
//! `Masked`, vpxord): ports (Ice Lake and later) p5 4 (vpshufb), p0 2
//! (shift, rotate), p05 6 → 6 cycles per round per 16 blocks, 1.5
//! cycles/byte at best. Sovyn et al. 2019 (Zakhyst Informatsii 21(4)),
//! Table 5: 1.88 cycles/byte for AVX-512 at 64 blocks (Skylake-SP).

use super::super::lanes::LaneCipher;
use super::super::subs::Masked;
use super::super::keys::Keys;
use crate::backend::Backend;
use crate::kernel;
use crate::simd::{Avx512Bw, Zmm};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Zmm<Avx512Bw>, LaneCipher<Masked>>("avx512", true, 64);
