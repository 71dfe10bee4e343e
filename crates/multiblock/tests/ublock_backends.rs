//! uBlock SIMD backends against the reference backend (the oracle):
//! 1. every backend this CPU runs, forced by name, all three variants,
//!    random keys, every length 0..=300 blocks, both directions;
//! 2. the ECB vectors of crates/multiblock/vectors/ublock.json (with Monte-Carlo
//!    `iterations`) on every backend;
//! 3. the multi-key API against one `Cipher` per stream.

mod common;
use common::*;
use multiblock::ublock::{self, Variant};
use multiblock::{backends, BackendChoice, Cipher, Direction};

const VARIANTS: [(Variant, &str); 3] = [
    (Variant::U128_128, "ublock-128-128"),
    (Variant::U128_256, "ublock-128-256"),
    (Variant::U256_256, "ublock-256-256"),
];

/// The non-reference backends this CPU runs.
fn simd_backends(name: &str) -> Vec<&'static str> {
    backends(name)
        .unwrap()
        .into_iter()
        .filter(|b| b.available && b.info.name != "reference")
        .map(|b| b.info.name)
        .collect()
}

#[test]
fn the_simd_backends_this_cpu_runs_are_listed() {
    let cpu = multiblock::CpuFeatures::get();
    for (_, name) in VARIANTS {
        let list = simd_backends(name);
        assert_eq!(list.contains(&"ssse3"), cpu.ssse3, "{name}: {list:?}");
        assert_eq!(list.contains(&"avx2"), cpu.avx2, "{name}: {list:?}");
        let vbmi = cpu.avx2 && cpu.avx512f && cpu.avx512bw && cpu.avx512vbmi;
        assert_eq!(list.contains(&"avx512-vbmi"), vbmi, "{name}: {list:?}");
        let all = backends(name).unwrap();
        assert!(all.iter().all(|b| b.info.name == "reference" || b.info.constant_time));
    }
}

#[test]
fn every_length_up_to_300_blocks_equals_reference() {
    for (v, name) in VARIANTS {
        let bb = v.block_bytes();
        for backend in simd_backends(name) {
            let mut rng = Rng::new(0x5eed ^ bb as u64 ^ backend.len() as u64);
            for blocks in 0..=300 {
                let key = rng.bytes(v.key_bytes());
                let fast = Cipher::new(name, &key, None, Some(backend)).unwrap();
                assert_eq!(fast.backend().name, backend);
                let slow = Cipher::new(name, &key, None, Some("reference")).unwrap();
                let pt = rng.bytes(blocks * bb);

                let mut want = pt.clone();
                slow.encrypt_blocks(&mut want).unwrap();
                let mut got = pt.clone();
                fast.encrypt_blocks(&mut got).unwrap();
                assert!(got == want, "{name} {backend} encrypt, {blocks} blocks");

                // Decrypt random data too (not only our own ciphertext).
                let mut want_d = pt.clone();
                slow.decrypt_blocks(&mut want_d).unwrap();
                let mut got_d = pt.clone();
                fast.decrypt_blocks(&mut got_d).unwrap();
                assert!(got_d == want_d, "{name} {backend} decrypt, {blocks} blocks");

                fast.decrypt_blocks(&mut got).unwrap();
                assert!(got == pt, "{name} {backend} round trip, {blocks} blocks");
            }
        }
    }
}

#[test]
fn json_ecb_vectors_on_every_backend() {
    let mut checked = 0;
    for v in vectors("ublock.json").iter().filter(|v| field(v, "mode") == Some("ecb")) {
        let name = field(v, "cipher").unwrap();
        let key = hex(field(v, "key").unwrap());
        let pt = field(v, "plaintext").unwrap();
        let ct = field(v, "ciphertext").unwrap();
        let iterations = v.get("iterations").and_then(|x| x.as_u64()).unwrap_or(1);
        for backend in simd_backends(name) {
            let c = Cipher::new(name, &key, None, Some(backend)).unwrap();
            let mut buf = hex(pt);
            for _ in 0..iterations {
                c.encrypt_blocks(&mut buf).unwrap();
            }
            assert_eq!(to_hex(&buf), ct, "{name} {backend} encrypt");
            for _ in 0..iterations {
                c.decrypt_blocks(&mut buf).unwrap();
            }
            assert_eq!(to_hex(&buf), pt, "{name} {backend} decrypt");
            checked += 1;
        }
    }
    assert!(checked > 0 || simd_backends("ublock-128-128").is_empty());
}

/// One stream per `Cipher` on the reference backend: the expected result.
fn per_stream(name: &str, keys: &[Vec<u8>], data: &[Vec<u8>], encrypt: bool) -> Vec<Vec<u8>> {
    keys.iter()
        .zip(data)
        .map(|(k, d)| {
            let c = Cipher::new(name, k, None, Some("reference")).unwrap();
            let mut d = d.clone();
            if encrypt {
                c.encrypt_blocks(&mut d).unwrap();
            } else {
                c.decrypt_blocks(&mut d).unwrap();
            }
            d
        })
        .collect()
}

/// Runs `f` on (key, data) pairs built from copies of `data`.
fn run_streams(
    keys: &[Vec<u8>],
    data: &[Vec<u8>],
    f: impl FnOnce(&mut [(&[u8], &mut [u8])]) -> multiblock::Result<()>,
) -> multiblock::Result<Vec<Vec<u8>>> {
    let mut out: Vec<Vec<u8>> = data.to_vec();
    let mut streams: Vec<(&[u8], &mut [u8])> =
        keys.iter().map(|k| k.as_slice()).zip(out.iter_mut().map(|d| d.as_mut_slice())).collect();
    f(&mut streams)?;
    Ok(out)
}

#[test]
fn multi_key_equals_one_cipher_per_stream() {
    for (v, name) in VARIANTS {
        let bb = v.block_bytes();
        let mut choices = vec![None];
        choices.extend(simd_backends(name).into_iter().map(Some));
        choices.push(Some("reference"));
        for choice in choices {
            let mut rng = Rng::new(0x3417 ^ bb as u64 ^ choice.map_or(0, |c| c.len() as u64));
            for case in 0..120 {
                // 0..=13 streams; lengths mostly short, sometimes equal,
                // sometimes one long stream among short ones; some empty.
                let n = if case == 0 { 0 } else { rng.below(14) };
                let equal = rng.below(3) == 0;
                let common = rng.below(9);
                let lens: Vec<usize> = (0..n)
                    .map(|_| match (equal, rng.below(10)) {
                        (true, _) => common,
                        (false, 0) => 0,
                        (false, 1) => 20 + rng.below(60),
                        _ => rng.below(9),
                    })
                    .collect();
                let keys: Vec<Vec<u8>> = (0..n).map(|_| rng.bytes(v.key_bytes())).collect();
                let data: Vec<Vec<u8>> = lens.iter().map(|&l| rng.bytes(l * bb)).collect();
                for encrypt in [true, false] {
                    let want = per_stream(name, &keys, &data, encrypt);
                    let dir = if encrypt { Direction::Encrypt } else { Direction::Decrypt };
                    let got = run_streams(&keys, &data, |s| match choice {
                        None if encrypt => ublock::encrypt_multi_key(v, s),
                        None => ublock::decrypt_multi_key(v, s),
                        Some(b) => {
                            let ran = ublock::multi_key(v, s, dir, BackendChoice::Named(b))?;
                            assert_eq!(ran, b);
                            Ok(())
                        }
                    })
                    .unwrap();
                    assert!(got == want, "{name} {choice:?} case {case} encrypt={encrypt} lens {lens:?}");
                }
            }
        }
    }
}

#[test]
fn multi_key_rejects_bad_streams_and_writes_nothing() {
    for (v, name) in VARIANTS {
        let bb = v.block_bytes();
        let good_key = vec![7u8; v.key_bytes()];
        let bad_key = vec![7u8; v.key_bytes() - 1];
        let data = vec![vec![1u8; 2 * bb], vec![2u8; bb]];
        let bad = run_streams(&[good_key.clone(), bad_key], &data, |s| ublock::encrypt_multi_key(v, s));
        assert!(
            matches!(bad, Err(multiblock::Error::KeyLength { expected, .. }) if expected == v.key_bytes()),
            "{name}: {bad:?}"
        );
        let mut d = data.clone();
        d[1].push(0);
        let mut out = d.clone();
        let mut streams: Vec<(&[u8], &mut [u8])> =
            out.iter_mut().map(|x| (good_key.as_slice(), x.as_mut_slice())).collect();
        let r = ublock::encrypt_multi_key(v, &mut streams);
        assert!(matches!(r, Err(multiblock::Error::DataLength { .. })), "{name}: {r:?}");
        assert_eq!(out, d, "{name}: nothing written");
        // Forcing a backend by name follows the usual rules.
        let r = run_streams(std::slice::from_ref(&good_key), &data[..1], |s| {
            ublock::multi_key(v, s, Direction::Encrypt, BackendChoice::Named("nope")).map(|_| ())
        });
        assert!(matches!(r, Err(multiblock::Error::UnknownBackend { .. })), "{name}: {r:?}");
    }
}

/// Multi-key speed (the scenario of Gao et al. 2024: short messages, key setup
/// included). Not a correctness test: run with
/// `cargo test --release -p multiblock --test ublock_backends -- --ignored --nocapture`.
/// Prints TSC ticks per byte, best of many repetitions, for S streams of
/// L bytes: one `Cipher` per stream (default backend), one multi-key call
/// per stream, and one multi-key call for all streams.
#[test]
#[ignore]
fn bench_multi_key() {
    use multiblock::hazmat::ticks;
    fn best(reps: usize, mut f: impl FnMut()) -> u64 {
        f();
        (0..reps).map(|_| {
            let t0 = ticks();
            f();
            ticks() - t0
        }).min().unwrap()
    }
    let reps: usize = std::env::var("REPS").ok().and_then(|x| x.parse().ok()).unwrap_or(300);
    println!("{:<15} {:>7} {:>6} {:>11} {:>11} {:>11} {:>8} {:>8}", "cipher", "streams", "bytes",
        "cipher/str", "multi/str", "multi-all", "vs ciph", "vs 1-by-1");
    for (v, name) in VARIANTS {
        for (streams, len) in [(1usize, 64usize), (4, 16), (4, 32), (4, 64), (16, 64), (64, 64), (4, 256), (4, 4096), (4, 65536)] {
            let mut rng = Rng::new(99);
            let keys: Vec<Vec<u8>> = (0..streams).map(|_| rng.bytes(v.key_bytes())).collect();
            let len = len / v.block_bytes() * v.block_bytes();
            if len == 0 {
                continue;
            }
            let mut data: Vec<Vec<u8>> = (0..streams).map(|_| rng.bytes(len)).collect();
            let total = (streams * len) as f64;
            let r = if len > 4096 { reps / 10 + 1 } else { reps };
            let per_cipher = best(r, || {
                for (k, d) in keys.iter().zip(data.iter_mut()) {
                    Cipher::new(name, k, None, None).unwrap().encrypt_blocks(d).unwrap();
                }
            });
            let per_call = best(r, || {
                for (k, d) in keys.iter().zip(data.iter_mut()) {
                    ublock::encrypt_multi_key(v, &mut [(k.as_slice(), d.as_mut_slice())]).unwrap();
                }
            });
            let all = best(r, || {
                let mut s: Vec<(&[u8], &mut [u8])> =
                    keys.iter().map(|k| k.as_slice()).zip(data.iter_mut().map(|d| d.as_mut_slice())).collect();
                ublock::encrypt_multi_key(v, &mut s).unwrap();
            });
            println!("{:<15} {:>7} {:>6} {:>11.2} {:>11.2} {:>11.2} {:>7.2}x {:>7.2}x", name, streams, len,
                per_cipher as f64 / total, per_call as f64 / total, all as f64 / total,
                per_cipher as f64 / all as f64, per_call as f64 / all as f64);
        }
    }
}

/// Every SIMD backend against `avx2` (itself checked against the reference
/// above) on every length 0..=300 blocks: the same coverage at a cost an
/// emulator can afford (the AVX-512 backend is run under Bochs, see
/// scripts/emu-avx512.sh: `-- ublock_backends simd_backends_equal_avx2`).
#[test]
fn simd_backends_equal_avx2_every_length() {
    for (v, name) in VARIANTS {
        let bb = v.block_bytes();
        let list = simd_backends(name);
        if !list.contains(&"avx2") {
            return;
        }
        for backend in list.into_iter().filter(|b| *b != "avx2") {
            let mut rng = Rng::new(0xa5a5 ^ bb as u64);
            for blocks in 0..=300 {
                let key = rng.bytes(v.key_bytes());
                let fast = Cipher::new(name, &key, None, Some(backend)).unwrap();
                let base = Cipher::new(name, &key, None, Some("avx2")).unwrap();
                let pt = rng.bytes(blocks * bb);
                for encrypt in [true, false] {
                    let (mut a, mut b) = (pt.clone(), pt.clone());
                    if encrypt {
                        fast.encrypt_blocks(&mut a).unwrap();
                        base.encrypt_blocks(&mut b).unwrap();
                    } else {
                        fast.decrypt_blocks(&mut a).unwrap();
                        base.decrypt_blocks(&mut b).unwrap();
                    }
                    assert!(a == b, "{name} {backend} vs avx2, encrypt={encrypt}, {blocks} blocks");
                }
            }
        }
    }
}
