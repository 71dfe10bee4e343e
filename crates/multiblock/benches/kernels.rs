//! Criterion benches of the kernels `multiblock bench` measures, for
//! developers who want statistics (confidence intervals, regressions
//! against a saved baseline): ECB on 16 KiB per backend and direction, and
//! key setup plus a 64-byte message on the default backend.
//!
//! `cargo bench -p multiblock --bench kernels -- gost89` runs a subset.
// criterion_group! makes undocumented public functions.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use multiblock::{backends, BackendChoice, Cipher, CipherId};
use std::hint::black_box;

const LONG: usize = 16 << 10;
const SHORT: usize = 64;

fn key(id: CipherId) -> Vec<u8> {
    (0..id.key_bytes()).map(|i| (i * 7 + 1) as u8).collect()
}

fn ecb(c: &mut Criterion) {
    for id in CipherId::ALL {
        let mut group = c.benchmark_group(format!("{id}/ecb"));
        group.throughput(Throughput::Bytes(LONG as u64));
        for b in backends(id.name()).expect("known cipher").into_iter().filter(|b| b.available) {
            let cipher = Cipher::with_id(id, &key(id), None, BackendChoice::Named(b.info.name)).expect("available backend");
            let mut buf = vec![0x5au8; LONG];
            group.bench_function(BenchmarkId::new("encrypt", b.info.name), |bench| {
                bench.iter(|| cipher.encrypt_blocks(black_box(&mut buf)).expect("whole blocks"))
            });
            group.bench_function(BenchmarkId::new("decrypt", b.info.name), |bench| {
                bench.iter(|| cipher.decrypt_blocks(black_box(&mut buf)).expect("whole blocks"))
            });
        }
        group.finish();
    }
}

fn short_message(c: &mut Criterion) {
    let mut group = c.benchmark_group("short-64B-with-key-setup");
    group.throughput(Throughput::Bytes(SHORT as u64));
    for id in CipherId::ALL {
        let k = key(id);
        let mut buf = [0u8; SHORT];
        group.bench_function(id.name(), |bench| {
            bench.iter(|| {
                let cipher = Cipher::with_id(id, black_box(&k), None, BackendChoice::Auto).expect("default backend");
                cipher.encrypt_blocks(black_box(&mut buf)).expect("whole blocks")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, ecb, short_message);
criterion_main!(benches);
