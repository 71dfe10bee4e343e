//! `avx512-vbmi`: constant-time Magma / GOST 28147-89 with AVX-512 VBMI
//! `vpermb`: one 64-byte table lookup substitutes a nibble of every byte of
//! 16 words at once, each byte with the S-box of its own position
//! (`subs::Permb`, on the dword lanes of `lanes`).
//!
//! Up to 4 groups of 16 blocks (64) are interleaved to hide the ~8 cycle
//! latency of a round; a short tail runs only the groups it needs.
//! Round per 16 blocks, 9 instructions: vpaddd (key) · 2 vpternlogd +
//! vpsrld (indexes) · 2 vpermb · vpord · vprold 11 · vpxord. Ports (Ice
//! Lake and later): p5 2 (vpermb), p0 2 (vpsrld, vprold), p05 5 → 4.5
//! cycles per round per 16 blocks, about 1.13 cycles/byte if ports 0 and 5
//! stay busy.

use super::lanes::LaneCipher;
use super::subs::Permb;
use super::Keys;
use crate::cpu::Backend;
use crate::kernel;
use crate::simd::{Avx512Vbmi, Zmm};

pub(crate) const BACKEND: Backend<Keys> =
    kernel::backend::<Zmm<Avx512Vbmi>, LaneCipher<Permb>>("avx512-vbmi", true, 64);
