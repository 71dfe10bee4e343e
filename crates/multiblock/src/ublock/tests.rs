//! The shared rounds with every layout, at every register width they serve,
//! on the emulator (so the AVX-512 forms are checked on any CPU): ECB of
//! random keys and blocks, whole and partial groups, both directions,
//! against the reference backend.

use super::groups::Batch;
use super::keys;
use super::layouts::{Plain, Shuffled, Tracked};
use super::rounds::{run, Layout};
use super::{reference, Keys, Variant};
use crate::simd::emu::Emu;
use crate::test_rng::Rng;

/// Runs `G` groups of layout `L` (made by `layout`) over `blocks` blocks of
/// `v` on Emu<N>, packed or plain, and compares with the reference.
pub(super) fn check<const N: usize, const PACKED: bool, const H: usize, const G: usize, L>(
    v: Variant,
    layout: fn(Emu<N>, bool) -> L,
    seed: u64,
) where
    L: Layout<Emu<N>>,
{
    let mut rng = Rng(seed);
    let per_group = if PACKED { 2 * N / 16 } else { N / 16 };
    for blocks in [G * per_group, G * per_group - 1, 1] {
        let keys = Keys::new(v, &rng.bytes(v.key_bytes()));
        let rk = keys::schedule::<Emu<N>, PACKED, N>(Emu, &keys);
        let plain = rng.bytes(blocks * v.block_bytes());
        let mut want = plain.clone();
        (reference::BACKEND.new)(&keys).encrypt_blocks(&mut want);
        let mut got = plain.clone();
        let (enc, dec) = (layout(Emu, true), layout(Emu, false));
        run::<Emu<N>, L, _, true, G, N>(Emu, &enc, &mut Batch::<H, PACKED> { data: &mut got }, &rk.get(true));
        assert_eq!(got, want, "{v:?} N {N} packed {PACKED} blocks {blocks}");
        run::<Emu<N>, L, _, false, G, N>(Emu, &dec, &mut Batch::<H, PACKED> { data: &mut got }, &rk.get(false));
        assert_eq!(got, plain, "{v:?} N {N} packed {PACKED} blocks {blocks} decrypt");
    }
}

#[test]
fn tracked_n128_on_every_width() {
    for v in [Variant::U128_128, Variant::U128_256] {
        check::<16, true, 1, 2, _>(v, Tracked::new, 1);
        check::<32, true, 1, 3, _>(v, Tracked::new, 2);
        check::<64, true, 1, 4, _>(v, Tracked::new, 3);
    }
}

#[test]
fn shuffled_n256_on_every_width() {
    check::<16, true, 2, 1, _>(Variant::U256_256, Shuffled::new, 4);
    check::<32, true, 2, 3, _>(Variant::U256_256, Shuffled::new, 5);
    check::<64, true, 2, 2, _>(Variant::U256_256, Shuffled::new, 6);
}

#[test]
fn plain_on_xmm() {
    for v in [Variant::U128_128, Variant::U128_256] {
        check::<16, false, 1, 4, _>(v, Plain::<_, 1>::new, 7);
    }
    check::<16, false, 2, 3, _>(Variant::U256_256, Plain::<_, 2>::new, 8);
}
