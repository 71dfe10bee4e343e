//! uBlock: every backend this CPU runs equals `reference` on an arbitrary
//! variant, key and data (dynamic and typed API), and the multi-key API on
//! every backend equals one reference cipher per stream.
#![no_main]

use libfuzzer_sys::fuzz_target;
use multiblock::ublock::{multi_key, Ublock128_128, Ublock128_256, Ublock256_256, Variant};
use multiblock::{BackendChoice, Direction};
use multiblock_fuzz::{available_backends, check_backends, check_typed, ecb, key_of, keyed};

#[derive(arbitrary::Arbitrary, Debug)]
struct Input {
    variant: u8,
    key: [u8; 32],
    data: Vec<u8>,
    /// Multi-key streams: (key, length in blocks), their data cut from `data`.
    streams: Vec<([u8; 32], u8)>,
}

const VARIANTS: [Variant; 3] = [Variant::U128_128, Variant::U128_256, Variant::U256_256];

fuzz_target!(|input: Input| {
    let variant = VARIANTS[input.variant as usize % VARIANTS.len()];
    let id = variant.id();
    let key = key_of(&input.key, id.key_bytes());
    let want = check_backends(id, &key, None, &input.data);
    for name in available_backends(id) {
        let choice = BackendChoice::Named(name);
        let what = format!("{id} {name}");
        match variant {
            Variant::U128_128 => check_typed(&Ublock128_128::with_backend(&key, choice).unwrap(), &what, &want),
            Variant::U128_256 => check_typed(&Ublock128_256::with_backend(&key, choice).unwrap(), &what, &want),
            Variant::U256_256 => check_typed(&Ublock256_256::with_backend(&key, choice).unwrap(), &what, &want),
        }
    }
    multi_key_agrees(variant, &input);
});

fn multi_key_agrees(variant: Variant, input: &Input) {
    let id = variant.id();
    let n = id.block_bytes();
    let mut rest = &input.data[..];
    let mut streams: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    for (k, blocks) in input.streams.iter().take(9) {
        let len = (*blocks as usize % 8 * n).min(rest.len() / n * n);
        streams.push((key_of(k, id.key_bytes()), rest[..len].to_vec()));
        rest = &rest[len..];
    }
    for direction in [Direction::Encrypt, Direction::Decrypt] {
        let enc = direction == Direction::Encrypt;
        let want: Vec<Vec<u8>> = streams.iter().map(|(k, d)| ecb(&keyed(id, k, None, "reference"), d, enc)).collect();
        for name in available_backends(id) {
            let mut bufs: Vec<Vec<u8>> = streams.iter().map(|(_, d)| d.clone()).collect();
            let mut views: Vec<(&[u8], &mut [u8])> =
                streams.iter().zip(bufs.iter_mut()).map(|((k, _), b)| (&k[..], &mut b[..])).collect();
            multi_key(variant, &mut views, direction, BackendChoice::Named(name)).unwrap();
            assert!(bufs == want, "{id} {name}: multi-key {direction:?} differs from reference");
        }
    }
}
