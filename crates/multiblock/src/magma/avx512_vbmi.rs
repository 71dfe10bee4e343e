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

use super::narrow::Narrow;
use super::Keys;
use crate::cpu::Backend;
use crate::kernel;
use crate::simd::{Avx512Vbmi, Ymm, Zmm};

/// The longest call that runs on ymm.
const NARROW_MAX: usize = 256;

pub(crate) const BACKEND: Backend<Keys> =
    kernel::paired_backend::<Ymm<Avx512Vbmi>, Zmm<Avx512Vbmi>, Narrow, NARROW_MAX>("avx512-vbmi", true, 64);

#[cfg(test)]
mod tests {
    use super::super::{reference, ByteOrder, SboxSet};
    use super::*;
    use crate::simd::emu::Emu;
    use crate::test_rng::Rng;
    use crate::test_util::check_against;

    /// The paired kernel on the emulated 256- and 512-bit machines against
    /// the reference: lengths on both sides of `NARROW_MAX`, a whole and a
    /// partial zmm batch, both directions and the MAC steps, both byte
    /// orders.
    #[test]
    fn both_widths_match_the_reference() {
        let backend = kernel::paired_backend::<Emu<32>, Emu<64>, Narrow, NARROW_MAX>("emulated", true, 64);
        let mut rng = Rng(0x3412_2016);
        for order in [ByteOrder::Magma, ByteOrder::Gost89] {
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
