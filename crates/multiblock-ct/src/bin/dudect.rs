//! Statistical timing test (dudect: Reparaz, Balasch, Verbauwhede, "Dude,
//! is my code constant time?", 2017), on demand:
//!
//!   cargo run --release -p multiblock-ct --features dudect --bin dudect -- \
//!       [--backend NAME] [--samples N] [--filter TEXT] [--continuous TEST]
//!
//! For each cipher, on the backend `Auto` picks (the fastest constant-time
//! one), or with `--backend NAME` on that backend (the ciphers without it
//! are left out; scripts/dudect-all.sh runs every constant-time backend
//! this CPU has), two fix-vs-random tests: `data_*` times encrypting 8 blocks under
//! one key, all-zero blocks (Left) against random ones (Right); `key_*`
//! times key setup + one block, all-zero key (Left) against random keys
//! (Right). For each hash likewise: `hash_*` times hashing a 128-byte
//! message, all zero (Left) against random (Right), on the chosen
//! backend; `hmac_*` (the default backend) times an HMAC of 64 bytes under
//! a zero against a random 32-byte key. `table_*`: the `data_*` test on the `table` backend, a control
//! that shows what a leak looks like on this machine. |t| > 5 (Welch's t of the timing distributions, the
//! `max t` column) would mean the classes are told apart by timing.

use dudect_bencher::rand::{Rng, RngExt};
use dudect_bencher::ctbench::{run_benches_console, BenchMetadata, BenchName, BenchOpts};
use dudect_bencher::{BenchRng, Class, CtRunner};
use multiblock::hash::{HashId, Hasher, Hmac};
use multiblock::{BackendChoice, Cipher, CipherId};
use std::process::ExitCode;
use std::sync::OnceLock;

/// Samples per test (half per class on average); `--samples` changes it.
static SAMPLES: OnceLock<usize> = OnceLock::new();
/// The backend of the `data_*`/`key_*` tests (`--backend`; none: `Auto`).
static BACKEND: OnceLock<Option<String>> = OnceLock::new();

fn samples() -> usize {
    *SAMPLES.get().unwrap_or(&200_000)
}

fn chosen() -> BackendChoice<'static> {
    match BACKEND.get().and_then(|b| b.as_deref()) {
        Some(name) => BackendChoice::Named(name),
        None => BackendChoice::Auto,
    }
}
/// Blocks per timed encryption in the `data_*` tests.
const BLOCKS: usize = 8;

fn random_bytes(rng: &mut BenchRng, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    v
}

fn classes(rng: &mut BenchRng) -> Vec<Class> {
    (0..samples()).map(|_| if rng.random::<bool>() { Class::Left } else { Class::Right }).collect()
}

/// Encryption time with zero vs random plaintext under one random key.
fn data(id: CipherId, runner: &mut CtRunner, rng: &mut BenchRng) {
    data_on(id, chosen(), runner, rng)
}

fn data_on(id: CipherId, backend: BackendChoice<'_>, runner: &mut CtRunner, rng: &mut BenchRng) {
    let key = random_bytes(rng, id.key_bytes());
    let c = Cipher::with_id(id, &key, None, backend).expect("valid key and backend");
    let len = BLOCKS * id.block_bytes();
    let cls = classes(rng);
    let inputs: Vec<Vec<u8>> = cls
        .iter()
        .map(|cl| match cl {
            Class::Left => vec![0u8; len],
            Class::Right => random_bytes(rng, len),
        })
        .collect();
    for (class, input) in cls.into_iter().zip(inputs) {
        runner.run_one(class, || {
            let mut buf = input.clone();
            c.encrypt_blocks(&mut buf).expect("whole blocks");
            buf
        });
    }
}

/// Key setup + one block with a zero vs a random key.
fn key(id: CipherId, runner: &mut CtRunner, rng: &mut BenchRng) {
    let block = random_bytes(rng, id.block_bytes());
    let cls = classes(rng);
    let keys: Vec<Vec<u8>> = cls
        .iter()
        .map(|cl| match cl {
            Class::Left => vec![0u8; id.key_bytes()],
            Class::Right => random_bytes(rng, id.key_bytes()),
        })
        .collect();
    for (class, k) in cls.into_iter().zip(keys) {
        runner.run_one(class, || {
            let c = Cipher::with_id(id, &k, None, chosen()).expect("valid key");
            let mut buf = block.clone();
            c.encrypt_blocks(&mut buf).expect("one block");
            buf
        });
    }
}

/// One `data_*` and one `key_*` test function per cipher (dudect-bencher
/// names the tests after the functions), listed with their cipher.
macro_rules! tests_for {
    ($($data:ident, $key:ident = $id:expr;)+) => {
        $(
            fn $data(runner: &mut CtRunner, rng: &mut BenchRng) { data($id, runner, rng) }
            fn $key(runner: &mut CtRunner, rng: &mut BenchRng) { key($id, runner, rng) }
        )+
        type Test = (&'static str, fn(&mut CtRunner, &mut BenchRng), CipherId);
        const TESTS: &[Test] = &[$((stringify!($data), $data, $id), (stringify!($key), $key, $id)),+];
    };
}

tests_for! {
    data_kalyna_128_128, key_kalyna_128_128 = CipherId::Kalyna128_128;
    data_kalyna_128_256, key_kalyna_128_256 = CipherId::Kalyna128_256;
    data_kalyna_256_256, key_kalyna_256_256 = CipherId::Kalyna256_256;
    data_kalyna_256_512, key_kalyna_256_512 = CipherId::Kalyna256_512;
    data_kalyna_512_512, key_kalyna_512_512 = CipherId::Kalyna512_512;
    data_kuznyechik, key_kuznyechik = CipherId::Kuznyechik;
    data_magma, key_magma = CipherId::Magma;
    data_gost89, key_gost89 = CipherId::Gost89;
    data_ublock_128_128, key_ublock_128_128 = CipherId::Ublock128_128;
    data_ublock_128_256, key_ublock_128_256 = CipherId::Ublock128_256;
    data_ublock_256_256, key_ublock_256_256 = CipherId::Ublock256_256;
}

/// Bytes per timed message in the `hash_*` tests: two blocks of either hash.
const HASH_BYTES: usize = 128;

/// Hashing time of a zero vs a random message.
fn hash_data(id: HashId, runner: &mut CtRunner, rng: &mut BenchRng) {
    let cls = classes(rng);
    let inputs: Vec<Vec<u8>> = cls
        .iter()
        .map(|cl| match cl {
            Class::Left => vec![0u8; HASH_BYTES],
            Class::Right => random_bytes(rng, HASH_BYTES),
        })
        .collect();
    for (class, input) in cls.into_iter().zip(inputs) {
        runner.run_one(class, || {
            let mut h = Hasher::with_backend(id, chosen()).expect("a backend this CPU runs");
            h.update(&input);
            h.finalize()
        });
    }
}

/// HMAC time (key setup and 64 bytes) under a zero vs a random key.
fn hmac_key(id: HashId, runner: &mut CtRunner, rng: &mut BenchRng) {
    let message = random_bytes(rng, 64);
    let cls = classes(rng);
    let keys: Vec<Vec<u8>> = cls
        .iter()
        .map(|cl| match cl {
            Class::Left => vec![0u8; 32],
            Class::Right => random_bytes(rng, 32),
        })
        .collect();
    for (class, k) in cls.into_iter().zip(keys) {
        runner.run_one(class, || {
            let mut mac = Hmac::new(id, &k).expect("a named hash");
            mac.update(&message);
            mac.finalize()
        });
    }
}

/// One `hash_*` and one `hmac_*` test function per named hash.
macro_rules! hash_tests_for {
    ($($data:ident, $key:ident = $id:expr;)+) => {
        $(
            fn $data(runner: &mut CtRunner, rng: &mut BenchRng) { hash_data($id, runner, rng) }
            fn $key(runner: &mut CtRunner, rng: &mut BenchRng) { hmac_key($id, runner, rng) }
        )+
        type HashTest = (&'static str, fn(&mut CtRunner, &mut BenchRng), HashId);
        const HASH_TESTS: &[HashTest] = &[$((stringify!($data), $data, $id), (stringify!($key), $key, $id)),+];
    };
}

hash_tests_for! {
    hash_streebog_256, hmac_streebog_256 = HashId::Streebog256;
    hash_streebog_512, hmac_streebog_512 = HashId::Streebog512;
    hash_kupyna_256, hmac_kupyna_256 = HashId::Kupyna { digest_bits: 256 };
    hash_kupyna_384, hmac_kupyna_384 = HashId::Kupyna { digest_bits: 384 };
    hash_kupyna_512, hmac_kupyna_512 = HashId::Kupyna { digest_bits: 512 };
}

fn table_kalyna_128_128(runner: &mut CtRunner, rng: &mut BenchRng) {
    data_on(CipherId::Kalyna128_128, BackendChoice::Named("table"), runner, rng)
}

fn table_kuznyechik(runner: &mut CtRunner, rng: &mut BenchRng) {
    data_on(CipherId::Kuznyechik, BackendChoice::Named("table"), runner, rng)
}

fn usage() -> ExitCode {
    eprintln!("usage: dudect [--backend NAME] [--samples N] [--filter TEXT] [--continuous TEST] [--out FILE]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut opts = BenchOpts::default();
    let mut backend = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let Some(value) = args.next() else { return usage() };
        match a.as_str() {
            "--backend" => backend = Some(value),
            "--samples" => match value.parse() {
                Ok(n) if n >= 1000 => {
                    let _ = SAMPLES.set(n);
                }
                _ => return usage(),
            },
            "--filter" => opts.filter = Some(value),
            "--continuous" => {
                opts.filter = Some(value);
                opts.continuous = true;
            }
            "--out" => opts.file_out = Some(value.into()),
            _ => return usage(),
        }
    }
    // A named backend: only the ciphers that have it and this CPU runs, and
    // no table controls (they name their backend themselves).
    let runs = |id: CipherId| match &backend {
        None => true,
        Some(name) => multiblock::backends(id.name())
            .is_ok_and(|all| all.iter().any(|s| s.info.name == name.as_str() && s.available)),
    };
    let mut benches: Vec<BenchMetadata> = TESTS
        .iter()
        .filter(|(_, _, id)| runs(*id))
        .map(|&(name, benchfn, _)| BenchMetadata { name: BenchName(name), seed: None, benchfn })
        .collect();
    // HMAC keys its hash on the default backend: its tests run without --backend only.
    let hash_runs = |id: HashId, test: &str| match &backend {
        None => true,
        Some(name) => {
            test.starts_with("hash_")
                && multiblock::hash::backends(id).iter().any(|s| s.info.name == name.as_str() && s.available)
        }
    };
    benches.extend(
        HASH_TESTS
            .iter()
            .filter(|(name, _, id)| hash_runs(*id, name))
            .map(|&(name, benchfn, _)| BenchMetadata { name: BenchName(name), seed: None, benchfn }),
    );
    if backend.is_none() {
        for (name, benchfn) in [
            ("table_kalyna_128_128", table_kalyna_128_128 as fn(&mut CtRunner, &mut BenchRng)),
            ("table_kuznyechik", table_kuznyechik),
        ] {
            benches.push(BenchMetadata { name: BenchName(name), seed: None, benchfn });
        }
    }
    if benches.is_empty() {
        eprintln!("dudect: no cipher or hash has a backend {:?} that this CPU runs", backend.unwrap_or_default());
        return ExitCode::from(2);
    }
    let _ = BACKEND.set(backend);
    match run_benches_console(opts, benches) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dudect: {e}");
            ExitCode::FAILURE
        }
    }
}
