//! Size-aware dispatch inside the default backend (a wide kernel sends short
//! calls to its narrow one, `kernel/tiered.rs` and `kernel/paired.rs`): every
//! call length from 0 to 300 blocks, in both directions, must give what the
//! reference backend gives, with lengths in any order and keys changed
//! between calls.

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
    // ECB encrypts every block on its own, so a run of blocks taken from
    // the reference's encryption of a longer text is the reference's
    // encryption of that run: one reference pass (the slow part) serves
    // every length, each from its own random offset.
    let block = id.block_bytes();
    let text = rng.bytes(2 * MAX_BLOCKS * block);
    let mut encrypted = text.clone();
    reference.encrypt_blocks(&mut encrypted).unwrap();
    for &blocks in lengths {
        let at = rng.below(MAX_BLOCKS + 1) * block;
        let run = at..at + blocks * block;
        let mut got = text[run.clone()].to_vec();
        auto.encrypt_blocks(&mut got).unwrap();
        assert!(got == encrypted[run.clone()], "{id}: encryption of {blocks} blocks on {}", auto.backend().name);
        auto.decrypt_blocks(&mut got).unwrap();
        assert!(got == text[run], "{id}: decryption of {blocks} blocks on {}", auto.backend().name);
    }
}

#[test]
fn every_length_matches_the_reference() {
    if !default_is_unforced() {
        eprintln!("MULTIBLOCK_BACKEND is set: the default is forced, nothing to dispatch");
        return;
    }
    let mut rng = Rng::new(0xd15_7a7c4);
    for id in CipherId::ALL {
        // Increasing, decreasing, and a fresh key every few lengths in
        // random order.
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
