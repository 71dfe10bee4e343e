//! The shared rounds with every layout, at every register width they serve,
//! on the emulator (so the AVX-512 forms are checked on any CPU): ECB of
//! random keys and blocks, whole and partial groups, both directions,
//! against the reference backend.

use super::groups::Batch;
use super::key_schedule_simd;
use super::layouts::{Plain, Shuffled, Tracked};
use super::rounds::{run, Layout};
use super::{backends::reference, Keys, Variant};
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
        // One 16-byte lane per key register, as the backends keep them.
        let rk = key_schedule_simd::schedule::<Emu<16>, PACKED, 16>(Emu, &keys);
        let plain = rng.bytes(blocks * v.block_bytes());
        let mut want = plain.clone();
        (reference::BACKEND.new)(&keys).encrypt_blocks(&mut want);
        let mut got = plain.clone();
        let (enc, dec) = (layout(Emu, true), layout(Emu, false));
        run::<Emu<N>, L, _, true, G, 16>(Emu, &enc, &mut Batch::<H, PACKED> { data: &mut got }, &rk.get(true));
        assert_eq!(got, want, "{v:?} N {N} packed {PACKED} blocks {blocks}");
        run::<Emu<N>, L, _, false, G, 16>(Emu, &dec, &mut Batch::<H, PACKED> { data: &mut got }, &rk.get(false));
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

/// On fresh keys, encryption only, decryption only, and both interleaved
/// at sizes that reach every group width and tail, on every backend this
/// CPU runs, against the reference backend.
#[test]
fn fresh_keys_either_direction_match_the_reference_on_this_cpu() {
    use crate::cpu::CpuFeatures;
    let cpu = CpuFeatures::get();
    let mut rng = Rng(0x0b1c_1a2e);
    for v in [Variant::U128_128, Variant::U128_256, Variant::U256_256] {
        let bb = v.block_bytes();
        for b in super::BACKENDS.iter().filter(|b| (b.available)(cpu)) {
            let keys = Keys::new(v, &rng.bytes(v.key_bytes()));
            let oracle = (reference::BACKEND.new)(&keys);
            for blocks in [1, 4, 33] {
                let data = rng.bytes(blocks * bb);
                let (mut want_enc, mut want_dec) = (data.clone(), data.clone());
                oracle.encrypt_blocks(&mut want_enc);
                oracle.decrypt_blocks(&mut want_dec);
                let mut got = data.clone();
                (b.new)(&keys).encrypt_blocks(&mut got);
                assert_eq!(got, want_enc, "{} {v:?} encrypt only, {blocks} blocks", b.info.name);
                let mut got = data.clone();
                (b.new)(&keys).decrypt_blocks(&mut got);
                assert_eq!(got, want_dec, "{} {v:?} decrypt only, {blocks} blocks", b.info.name);
            }
            let kernel = (b.new)(&keys);
            for (i, blocks) in [3, 1, 40, 2, 17, 64].into_iter().enumerate() {
                let data = rng.bytes(blocks * bb);
                let (mut want, mut got) = (data.clone(), data.clone());
                if i % 2 == 0 {
                    oracle.decrypt_blocks(&mut want);
                    kernel.decrypt_blocks(&mut got);
                } else {
                    oracle.encrypt_blocks(&mut want);
                    kernel.encrypt_blocks(&mut got);
                }
                assert_eq!(got, want, "{} {v:?} interleaved call {i}, {blocks} blocks", b.info.name);
            }
        }
    }
}
