//! Statistical timing test (dudect: Reparaz, Balasch, Verbauwhede, "Dude,
//! is my code constant time?", 2017) of the default backends, on demand:
//!
//!   cargo run --release -p multiblock-ct --features dudect --bin dudect
//!   (add `-- --filter kuznyechik` for one cipher, `--continuous NAME` to
//!   keep sampling one test)
//!
//! For each cipher, on the backend `Auto` picks (the fastest constant-time
//! one), two fix-vs-random tests: `data_*` times encrypting 8 blocks under
//! one key, all-zero blocks (Left) against random ones (Right); `key_*`
//! times key setup + one block, all-zero key (Left) against random keys
//! (Right). `table_*`: the `data_*` test on the `table` backend, a control
//! that shows what a leak looks like on this machine. |t| > 5 (Welch's t of the timing distributions, the
//! `max t` column) would mean the classes are told apart by timing.

use dudect_bencher::rand::{Rng, RngExt};
use dudect_bencher::{ctbench_main, BenchRng, Class, CtRunner};
use multiblock::{BackendChoice, Cipher, CipherId};

/// Samples per test (half per class on average).
const SAMPLES: usize = 200_000;
/// Blocks per timed encryption in the `data_*` tests.
const BLOCKS: usize = 8;

fn random_bytes(rng: &mut BenchRng, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    v
}

fn classes(rng: &mut BenchRng) -> Vec<Class> {
    (0..SAMPLES).map(|_| if rng.random::<bool>() { Class::Left } else { Class::Right }).collect()
}

/// Encryption time with zero vs random plaintext under one random key.
fn data(id: CipherId, runner: &mut CtRunner, rng: &mut BenchRng) {
    data_on(id, BackendChoice::Auto, runner, rng)
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
            let c = Cipher::with_id(id, &k, None, BackendChoice::Auto).expect("valid key");
            let mut buf = block.clone();
            c.encrypt_blocks(&mut buf).expect("one block");
            buf
        });
    }
}

/// One `data_*` and one `key_*` test function per cipher (dudect-bencher
/// names the tests after the functions).
macro_rules! tests_for {
    ($($data:ident, $key:ident = $id:expr;)+) => {
        $(
            fn $data(runner: &mut CtRunner, rng: &mut BenchRng) { data($id, runner, rng) }
            fn $key(runner: &mut CtRunner, rng: &mut BenchRng) { key($id, runner, rng) }
        )+
    };
}

tests_for! {
    data_kalyna_128_128, key_kalyna_128_128 = CipherId::Kalyna128_128;
    data_kalyna_256_256, key_kalyna_256_256 = CipherId::Kalyna256_256;
    data_kalyna_512_512, key_kalyna_512_512 = CipherId::Kalyna512_512;
    data_kuznyechik, key_kuznyechik = CipherId::Kuznyechik;
    data_magma, key_magma = CipherId::Magma;
    data_gost89, key_gost89 = CipherId::Gost89;
    data_ublock_128_128, key_ublock_128_128 = CipherId::Ublock128_128;
    data_ublock_256_256, key_ublock_256_256 = CipherId::Ublock256_256;
}

fn table_kalyna_128_128(runner: &mut CtRunner, rng: &mut BenchRng) {
    data_on(CipherId::Kalyna128_128, BackendChoice::Named("table"), runner, rng)
}

fn table_kuznyechik(runner: &mut CtRunner, rng: &mut BenchRng) {
    data_on(CipherId::Kuznyechik, BackendChoice::Named("table"), runner, rng)
}

ctbench_main!(
    data_kalyna_128_128,
    key_kalyna_128_128,
    data_kalyna_256_256,
    key_kalyna_256_256,
    data_kalyna_512_512,
    key_kalyna_512_512,
    data_kuznyechik,
    key_kuznyechik,
    data_magma,
    key_magma,
    data_gost89,
    key_gost89,
    data_ublock_128_128,
    key_ublock_128_128,
    data_ublock_256_256,
    key_ublock_256_256,
    table_kalyna_128_128,
    table_kuznyechik
);
