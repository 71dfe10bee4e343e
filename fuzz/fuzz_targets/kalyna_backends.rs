//! Kalyna: every backend this CPU runs equals `reference` (dynamic and typed
//! API) on an arbitrary variant, key and data.
#![no_main]

use libfuzzer_sys::fuzz_target;
use multiblock::kalyna::{Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512, Kalyna512_512};
use multiblock::{BackendChoice, CipherId};
use multiblock_fuzz::{available_backends, check_backends, check_typed, key_of};

#[derive(arbitrary::Arbitrary, Debug)]
struct Input {
    variant: u8,
    key: Vec<u8>,
    data: Vec<u8>,
}

const VARIANTS: [CipherId; 5] = [
    CipherId::Kalyna128_128,
    CipherId::Kalyna128_256,
    CipherId::Kalyna256_256,
    CipherId::Kalyna256_512,
    CipherId::Kalyna512_512,
];

fuzz_target!(|input: Input| {
    let id = VARIANTS[input.variant as usize % VARIANTS.len()];
    let key = key_of(&input.key, id.key_bytes());
    let want = check_backends(id, &key, None, &input.data);
    for name in available_backends(id) {
        let choice = BackendChoice::Named(name);
        let what = format!("{id} {name}");
        match id {
            CipherId::Kalyna128_128 => check_typed(&Kalyna128_128::with_backend(&key, choice).unwrap(), &what, &want),
            CipherId::Kalyna128_256 => check_typed(&Kalyna128_256::with_backend(&key, choice).unwrap(), &what, &want),
            CipherId::Kalyna256_256 => check_typed(&Kalyna256_256::with_backend(&key, choice).unwrap(), &what, &want),
            CipherId::Kalyna256_512 => check_typed(&Kalyna256_512::with_backend(&key, choice).unwrap(), &what, &want),
            _ => check_typed(&Kalyna512_512::with_backend(&key, choice).unwrap(), &what, &want),
        }
    }
});
