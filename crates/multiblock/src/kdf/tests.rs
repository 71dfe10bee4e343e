//! TLSTREE's cache, counted in KDF calls, and the KDF_TREE parameter checks.

use super::{kdf_calls_on_this_thread, kdf_tree_gostr3411_2012_256, tlstree, Suite, TlsTree};
use crate::test_rng::Rng;
use crate::Error;

/// Runs `f` and returns its value with the KDF calls it made.
fn counting<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = kdf_calls_on_this_thread();
    let value = f();
    (value, kdf_calls_on_this_thread() - before)
}

/// The deepest level whose masked sequence number differs between `a` and
/// `b` is what a cached step recomputes: 3 levels if C_1 differs, 2 if only
/// C_2 and C_3, 1 if only C_3, 0 if none.
fn levels_to_recompute(suite: Suite, a: u64, b: u64) -> usize {
    let masks = suite.masks();
    match (0..3).find(|&j| a & masks[j] != b & masks[j]) {
        Some(j) => 3 - j,
        None => 0,
    }
}

#[test]
fn tlstree_recomputes_only_the_levels_that_changed() {
    let root = [0x5a; 32];
    for suite in Suite::ALL {
        let [_, c2, c3] = suite.masks();
        let mut tree = TlsTree::new(&root, suite);
        // The first key derives all three levels.
        assert_eq!(counting(|| *tree.key(0)).1, 3, "{suite:?} first key");
        // Records under one level-3 key recompute nothing (when C_3 leaves
        // low bits out), and a record across a level-3 boundary only level 3.
        let level3_span = (!c3).wrapping_add(1); // records per level-3 key
        if level3_span > 1 {
            assert_eq!(counting(|| *tree.key(level3_span - 1)).1, 0, "{suite:?} same subtree");
        }
        let (key, calls) = counting(|| *tree.key(level3_span));
        assert_eq!(calls, 1, "{suite:?} next level-3 key");
        assert_eq!(key, *tlstree(&root, suite, level3_span));
        // Crossing a level-2 boundary recomputes levels 2 and 3.
        let level2_span = (!c2).wrapping_add(1);
        let (key, calls) = counting(|| *tree.key(level2_span));
        assert_eq!(calls, 2, "{suite:?} next level-2 key");
        assert_eq!(key, *tlstree(&root, suite, level2_span));
        // Going back to record 0 is a new level-2 key again (level 1 is shared).
        assert_eq!(counting(|| *tree.key(0)).1, 2, "{suite:?} back to 0");
    }
}

#[test]
fn tlstree_cache_counts_match_the_masks_for_random_sequences() {
    let mut rng = Rng(0x7157_2ee0);
    let root: [u8; 32] = core::array::from_fn(|_| rng.next() as u8);
    for suite in Suite::ALL {
        let mut tree = TlsTree::new(&root, suite);
        let mut last: Option<u64> = None;
        let mut seq = 0u64;
        for _ in 0..300 {
            // Mostly the next record, sometimes a jump of a few bits, sometimes anywhere.
            seq = match rng.next() % 8 {
                0 => rng.next(),
                1 | 2 => seq.wrapping_add(1u64 << (rng.next() % 64)),
                _ => seq.wrapping_add(1),
            };
            let expected = match last {
                None => 3,
                Some(prev) => levels_to_recompute(suite, prev, seq),
            };
            let (key, calls) = counting(|| *tree.key(seq));
            assert_eq!(calls, expected, "{suite:?} seqnum {seq:#x} after {last:x?}");
            assert_eq!(key, *tlstree(&root, suite, seq), "{suite:?} seqnum {seq:#x}");
            last = Some(seq);
        }
    }
}

#[test]
fn tlstree_uncached_makes_three_kdf_calls() {
    assert_eq!(counting(|| tlstree(&[1; 32], Suite::KuznyechikMgmS, 12345)).1, 3);
}

#[test]
fn kdf_tree_rejects_what_rfc_7836_forbids() {
    let key = [7u8; 32];
    for r in [0, 5, 8] {
        let err = kdf_tree_gostr3411_2012_256(&key, b"l", b"s", r, &mut [0; 32]).unwrap_err();
        assert!(matches!(&err, Error::Param(m) if m.contains(&format!("R = {r}"))), "{err}");
    }
    assert!(matches!(kdf_tree_gostr3411_2012_256(&key, b"l", b"s", 1, &mut []), Err(Error::Param(_))));
    // R = 1: 255 blocks are the most; R = 2 allows more.
    let mut big = vec![0u8; 255 * 32];
    assert!(kdf_tree_gostr3411_2012_256(&key, b"l", b"s", 1, &mut big).is_ok());
    big.push(0);
    let err = kdf_tree_gostr3411_2012_256(&key, b"l", b"s", 1, &mut big).unwrap_err();
    assert_eq!(
        err.to_string(),
        "KDF_TREE_GOSTR3411_2012_256 with R = 1 derives at most 8160 bytes (255 blocks of 32), got 8161 bytes"
    );
    assert!(kdf_tree_gostr3411_2012_256(&key, b"l", b"s", 2, &mut big).is_ok());
}

#[test]
fn debug_shows_no_key() {
    let mut tree = TlsTree::new(&[0xab; 32], Suite::MagmaCtrOmac);
    let key = *tree.key(5);
    let shown = format!("{tree:?}");
    let key_hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
    assert!(!shown.contains(&key_hex[..8]), "{shown}");
    assert!(shown.starts_with("TlsTree { suite: MagmaCtrOmac"), "{shown}");
}
