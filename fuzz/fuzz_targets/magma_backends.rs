//! Magma and GOST 28147-89 with every S-box set: every backend this CPU runs
//! equals `reference` (dynamic and typed API) on an arbitrary key and data.
#![no_main]

use libfuzzer_sys::fuzz_target;
use multiblock::magma::{
    Gost89CryptoProA, Gost89CryptoProB, Gost89CryptoProC, Gost89CryptoProD, Gost89Tc26Z, Gost89Test, Magma, SboxSet,
};
use multiblock::{BackendChoice, CipherId};
use multiblock_fuzz::{available_backends, check_backends, check_typed, key_of};

#[derive(arbitrary::Arbitrary, Debug)]
struct Input {
    /// 0: magma; otherwise gost89 with S-box set `sbox - 1` (modulo the sets).
    sbox: u8,
    key: [u8; 32],
    data: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let (id, sbox) = match input.sbox as usize % (SboxSet::ALL.len() + 1) {
        0 => (CipherId::Magma, None),
        i => (CipherId::Gost89, Some(SboxSet::ALL[i - 1].name())),
    };
    let key = key_of(&input.key, id.key_bytes());
    let want = check_backends(id, &key, sbox, &input.data);
    for name in available_backends(id) {
        let choice = BackendChoice::Named(name);
        let what = format!("{id} {sbox:?} {name}");
        match sbox {
            None => check_typed(&Magma::with_backend(&key, choice).unwrap(), &what, &want),
            Some("tc26-z") => check_typed(&Gost89Tc26Z::with_backend(&key, choice).unwrap(), &what, &want),
            Some("test") => check_typed(&Gost89Test::with_backend(&key, choice).unwrap(), &what, &want),
            Some("cryptopro-a") => check_typed(&Gost89CryptoProA::with_backend(&key, choice).unwrap(), &what, &want),
            Some("cryptopro-b") => check_typed(&Gost89CryptoProB::with_backend(&key, choice).unwrap(), &what, &want),
            Some("cryptopro-c") => check_typed(&Gost89CryptoProC::with_backend(&key, choice).unwrap(), &what, &want),
            Some("cryptopro-d") => check_typed(&Gost89CryptoProD::with_backend(&key, choice).unwrap(), &what, &want),
            // DSTU 4145-2002's set has no typed cipher: the backends above cover it.
            Some(_) => {}
        }
    }
});
