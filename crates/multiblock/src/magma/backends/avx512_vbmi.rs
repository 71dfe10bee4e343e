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
//! stay busy. A partial batch is loaded and stored with byte masks (the
//! length is public) instead of a padded copy.
//!
//! Calls of up to 256 bytes (32 blocks) run the same round on ymm
//! registers instead (`narrow.rs`, which is also the `avx512-vbmi-narrow`
//! backend): one key setup serves both widths (a paired backend,
//! `kernel/paired.rs`). 256 bytes is where the zmm groups overtook the
//! ymm ones in `bench --ways` on AMD Zen 4 (32 blocks: ymm 1.42, zmm 1.63
//! ticks/byte; 48 blocks: ymm 1.59, zmm 1.25).
//!
//! On Intel every call runs on zmm, the MAC steps too: there `vpermb` zmm
//! is one µop of 3 cycles and `vpermi2b` ymm three of 4-5 (measured on a
//! Sapphire Rapids VM), so the zmm round is shorter. Measured there (TSC
//! ticks/byte, A/B, 3 rounds), zmm against ymm: 1 block 26.9 against 32.2,
//! 16 blocks 1.58 against 2.34, 32 blocks 1.07 against 1.67; CBC
//! encryption 28.8 against 34.3 and the GOST R 34.13 MAC 28.3 against
//! 33.9 (`table12`: 30.0 and 28.3).

use super::narrow::Narrow;
use super::super::keys::Keys;
use crate::backend::Backend;
use crate::kernel::{self, NarrowBounds};
use crate::simd::{Avx512Vbmi, Ymm, Zmm};

/// The longest call that runs on ymm on AMD (Zen 4; Zen 5's sweep agrees:
/// ymm and zmm tie at 32 blocks, zmm wins at 48).
const NARROW_MAX: usize = 256;

/// On Intel none: every call on zmm.
pub(crate) struct Bounds;

impl NarrowBounds for Bounds {
    const INTEL: (usize, usize) = (0, 0);
    const AMD_HALF_ZMM: (usize, usize) = (NARROW_MAX, NARROW_MAX);
    const AMD_FULL_ZMM: (usize, usize) = (NARROW_MAX, NARROW_MAX);
}

pub(crate) const BACKEND: Backend<Keys> =
    kernel::paired_backend::<Ymm<Avx512Vbmi>, Zmm<Avx512Vbmi>, Narrow, Bounds>("avx512-vbmi", true, 64);

#[cfg(test)]
mod tests {
    use super::super::reference;
use super::super::super::keys::ByteOrder;
use super::super::super::SboxSet;
    use super::*;
    use crate::kernel::Everywhere;
    use crate::simd::emu::Emu;
    use crate::test_rng::Rng;
    use crate::test_util::check_against;

    /// The paired kernel on the emulated 256- and 512-bit machines against
    /// the reference: lengths on both sides of `NARROW_MAX`, a whole and a
    /// partial zmm batch, both directions and the MAC steps, both byte
    /// orders; and with no narrow calls (Intel's plan: the MAC steps on
    /// the wide machine).
    #[test]
    fn both_widths_match_the_reference() {
        let paired = kernel::paired_backend::<Emu<32>, Emu<64>, Narrow, Everywhere<NARROW_MAX>>("emulated", true, 64);
        let wide_only = kernel::paired_backend::<Emu<32>, Emu<64>, Narrow, Everywhere<0>>("emulated", true, 64);
        let mut rng = Rng(0x3412_2016);
        for (backend, order) in [(&paired, ByteOrder::Magma), (&paired, ByteOrder::Gost89), (&wide_only, ByteOrder::Magma)] {
            let keys = Keys::new(&rng.bytes(32), SboxSet::Tc26Z, order);
            let (kernel, oracle) = ((backend.new)(&keys), (reference::BACKEND.new)(&keys));
            for blocks in (0..=40).chain([63, 64, 65, 127, 129]) {
                let data = rng.bytes(8 * blocks);
                check_against(&*kernel, &*oracle, &data, &format!("{order:?} {blocks} blocks"));
                let (mut got, mut want) = ([3u8; 8], [3u8; 8]);
                assert!(kernel.imit_steps(&mut got, &data) && oracle.imit_steps(&mut want, &data));
                assert_eq!(got, want, "{order:?} imit {blocks} blocks");
            }
        }
    }
}
