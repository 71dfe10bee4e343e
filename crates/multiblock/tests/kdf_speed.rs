//! Cycles of HMAC-Streebog-256 and of TLSTREE against the Streebog
//! compressions they make (ignored by default; run optimized:
//! `cargo test --release -p multiblock --test kdf_speed -- --ignored --nocapture`).
//!
//! Streebog (RFC 6986 §8) compresses each 64-byte block once and finishes
//! with three more: the padded last block, then N and Σ. So HMAC-Streebog-256
//! of 64 bytes from the key is 9 compressions (K ⊕ ipad, the block, 3 to
//! finish the inner hash; K ⊕ opad, 3 to finish the outer one), 7 with the
//! keyed state reused; a KDF (an 18-byte message for TLSTREE) is 8; an
//! uncached TLSTREE step is three KDFs, 24. The cost of one compression is
//! this library's own (default backend), taken from a 4 KiB message.

use multiblock::hazmat::{ticks, tsc_hz};
use multiblock::kdf::hmac::digest::{KeyInit, Mac};
use multiblock::kdf::hmac::{hmac_streebog256, HmacStreebog256};
use multiblock::kdf::{kdf_gostr3411_2012_256, tlstree, Suite, TlsTree};
use std::hint::black_box;
use multiblock::hash::{HashId, Hasher, Hmac};

/// Fewest ticks of `f` over `runs` runs of `reps` calls each, per call.
fn best<T>(runs: usize, reps: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut best = u64::MAX;
    for _ in 0..runs {
        let t0 = ticks();
        for _ in 0..reps {
            black_box(f());
        }
        best = best.min(ticks() - t0);
    }
    best as f64 / reps as f64
}

#[test]
#[ignore = "timing; run optimized with --ignored --nocapture"]
fn kdf_cycles() {
    // Many short runs: the fewest ticks are the runs no interrupt or
    // neighbour disturbed.
    const RUNS: usize = 400;
    let long = vec![0x5au8; 4096];
    let msg64 = [0xa5u8; 64];
    let key = [0x11u8; 32];

    // One compression: the 63 extra blocks of a 4 KiB message over a 64-byte
    // one, through `Hasher` (the `Digest` types compress a first piece of
    // whole blocks at once, for `SimpleHmac`: one kernel call more).
    let digest = |data: &[u8]| {
        let mut h = Hasher::new(HashId::Streebog256).unwrap();
        h.update(data);
        let mut out = [0u8; 32];
        h.finalize_into(&mut out);
        out
    };
    let h_long = best(RUNS, 4, || digest(black_box(&long[..])));
    let h_64 = best(RUNS, 20, || digest(black_box(&msg64[..])));
    let g = (h_long - h_64) / 63.0;

    let hmac_oneshot = best(RUNS, 10, || hmac_streebog256(black_box(&key), black_box(&msg64)));
    let keyed = <HmacStreebog256 as KeyInit>::new_from_slice(&key).unwrap();
    let hmac_prekeyed = best(RUNS, 10, || {
        let mut mac = keyed.clone();
        mac.update(black_box(&msg64));
        mac.finalize().into_bytes()
    });
    let by_name = best(RUNS, 10, || {
        let mut mac = Hmac::new(HashId::Streebog256, black_box(&key)).unwrap();
        mac.update(black_box(&msg64));
        mac.finalize()
    });
    let by_name_keyed = Hmac::new(HashId::Streebog256, &key).unwrap();
    let by_name_prekeyed = best(RUNS, 10, || {
        let mut mac = by_name_keyed.clone();
        mac.update(black_box(&msg64));
        mac.finalize()
    });
    let kdf = best(RUNS, 10, || kdf_gostr3411_2012_256(black_box(&key), b"level1", &[0; 8]));
    let tree_uncached = best(RUNS, 4, || tlstree(black_box(&key), Suite::KuznyechikMgmS, black_box(12345)));
    let mut tree = TlsTree::new(&key, Suite::KuznyechikMgmS);
    tree.key(0);
    let tree_same = best(RUNS, 1000, || *tree.key(black_box(3)));
    let mut seq = 0u64;
    let mut tree = TlsTree::new(&key, Suite::KuznyechikMgmS);
    // Every call crosses a level-3 boundary (C_3 = …fff8) and no level-2 one.
    let tree_level3 = best(RUNS, 4, || {
        seq = (seq + 8) & 0xfff8;
        *tree.key(seq)
    });

    let setup = best(RUNS, 20, || Hasher::new(HashId::Streebog256).unwrap());
    let h0 = best(RUNS, 20, || digest(black_box(&long[..0])));
    let ghz = tsc_hz(std::time::Duration::from_millis(20)) / 1e9;
    let row = |name: &str, ticks: f64, compressions: f64| {
        println!(
            "{name:<44} {ticks:>9.0} cycles {:>8.2} µs  {compressions:>4} g = {:>6.0} cycles  ratio {:.2}",
            ticks / ghz / 1000.0,
            compressions * g,
            ticks / (compressions * g).max(1.0)
        );
    };
    println!("Streebog-256 (this library, default backend) compression g: {g:.0} cycles = {:.1} cycles/byte", g / 64.0);
    row("Hasher::new and drop (backend choice, state)", setup, 0.0);
    row("Streebog-256 of 0 B", h0, 3.0);
    row("Streebog-256 of 64 B", h_64, 4.0);
    row("HMAC-Streebog-256, 64 B, from the key", hmac_oneshot, 9.0);
    // `SimpleHmac` keeps the state after K ⊕ ipad (compressed: its first
    // update) and compresses K ⊕ opad for each tag: a clone makes 8.
    row("SimpleHmac over Streebog-256, keyed cloned", hmac_prekeyed, 8.0);
    row("hash::Hmac over Streebog-256, 64 B, from the key", by_name, 9.0);
    row("hash::Hmac over Streebog-256, 64 B, keyed cloned", by_name_prekeyed, 7.0);
    row("KDF_GOSTR3411_2012_256 (18-byte message)", kdf, 8.0);
    row("TLSTREE uncached (three levels)", tree_uncached, 24.0);
    row("TlsTree::key, level-3 boundary crossed", tree_level3, 8.0);
    row("TlsTree::key, same level-3 key", tree_same, 0.0);
}
