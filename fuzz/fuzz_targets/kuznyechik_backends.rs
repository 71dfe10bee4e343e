//! Kuznyechik: every backend this CPU runs equals `reference` (dynamic and
//! typed API) on an arbitrary key and data.
#![no_main]

use libfuzzer_sys::fuzz_target;
use multiblock::kuznyechik::Kuznyechik;
use multiblock::{BackendChoice, CipherId};
use multiblock_fuzz::{available_backends, check_backends, check_typed, key_of};

#[derive(arbitrary::Arbitrary, Debug)]
struct Input {
    key: [u8; 32],
    data: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let id = CipherId::Kuznyechik;
    let key = key_of(&input.key, id.key_bytes());
    let want = check_backends(id, &key, None, &input.data);
    for name in available_backends(id) {
        let typed = Kuznyechik::with_backend(&key, BackendChoice::Named(name)).unwrap();
        check_typed(&typed, &format!("{id} {name}"), &want);
    }
});
