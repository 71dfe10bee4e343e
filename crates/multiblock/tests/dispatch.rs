//! Size-aware dispatch under the default backend choice: every call length
//! from 0 to 300 blocks, in both directions, must give what the reference
//! backend gives, whichever tier (`Cipher::short_backends`) it runs on, with
//! the tiers keyed in any order and keys changed between calls.

mod common;

use common::Rng;
use multiblock::{Cipher, CipherId};

const MAX_BLOCKS: usize = 300;

/// The default must not be forced by the environment for this test.
fn default_is_unforced() -> bool {
    std::env::var("MULTIBLOCK_BACKEND").map_or(true, |v| v.trim().is_empty())
}

fn check(id: CipherId, rng: &mut Rng, lengths: &[usize]) {
    let key = rng.bytes(id.key_bytes());
    let auto = Cipher::with_id(id, &key, None, multiblock::BackendChoice::Auto).unwrap();
    let reference = Cipher::new(id.name(), &key, None, Some("reference")).unwrap();
    for &blocks in lengths {
        let plain = rng.bytes(blocks * id.block_bytes());
        let (mut got, mut want) = (plain.clone(), plain.clone());
        auto.encrypt_blocks(&mut got).unwrap();
        reference.encrypt_blocks(&mut want).unwrap();
        assert!(got == want, "{id}: encryption of {blocks} blocks (tiers {:?})", tiers(&auto));
        auto.decrypt_blocks(&mut got).unwrap();
        assert!(got == plain, "{id}: decryption of {blocks} blocks (tiers {:?})", tiers(&auto));
    }
}

fn tiers(c: &Cipher) -> Vec<(&'static str, usize)> {
    let mut t: Vec<_> = c.short_backends().iter().map(|(b, n)| (b.name, *n)).collect();
    t.push((c.backend().name, usize::MAX));
    t
}

#[test]
fn every_length_on_every_tier_matches_the_reference() {
    if !default_is_unforced() {
        eprintln!("MULTIBLOCK_BACKEND is set: the default is forced, nothing to dispatch");
        return;
    }
    let mut rng = Rng::new(0xd15_7a7c4);
    for id in CipherId::ALL {
        // Increasing (narrow tiers keyed first), decreasing (the widest
        // first), and a fresh key every few lengths in random order.
        let up: Vec<usize> = (0..=MAX_BLOCKS).collect();
        let down: Vec<usize> = up.iter().rev().copied().collect();
        check(id, &mut rng, &up);
        check(id, &mut rng, &down);
        for _ in 0..8 {
            let some: Vec<usize> = (0..6).map(|_| rng.below(MAX_BLOCKS + 1)).collect();
            check(id, &mut rng, &some);
        }
    }
}

#[test]
fn short_tiers_are_constant_time_and_increasing() {
    let mut rng = Rng::new(7);
    for id in CipherId::ALL {
        let c = Cipher::with_id(id, &rng.bytes(id.key_bytes()), None, multiblock::BackendChoice::Auto).unwrap();
        for t in [c.short_backends(), c.short_backends_decrypt()] {
            assert!(t.iter().all(|(b, _)| b.constant_time), "{id}: {:?}", tiers(&c));
            assert!(t.windows(2).all(|w| w[0].1 < w[1].1), "{id}: {:?}", tiers(&c));
        }
        let names = |t: &[(&multiblock::BackendInfo, usize)]| t.iter().map(|(b, _)| b.name).collect::<Vec<_>>();
        assert_eq!(names(c.short_backends()), names(c.short_backends_decrypt()), "{id}: one set of tiers");
        assert!(c.backend().constant_time || !default_is_unforced(), "{id}");
        // A forced backend never dispatches.
        let forced = Cipher::new(id.name(), &rng.bytes(id.key_bytes()), None, Some(c.backend().name)).unwrap();
        assert!(forced.short_backends().is_empty() && forced.short_backends_decrypt().is_empty(), "{id}");
    }
}
