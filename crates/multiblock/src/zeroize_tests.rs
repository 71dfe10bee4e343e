//! Key material is wiped: every family's expanded key type zeroizes on drop
//! (checked at compile time) and `zeroize` clears all of its secret fields.
//! The kernels own their round keys in types that do the same (or wipe
//! them in `Drop`, uBlock's avx2/avx512-vbmi); tag buffers are `Zeroizing`.

use crate::{kalyna, kuznyechik, magma, ublock};
use zeroize::{Zeroize, ZeroizeOnDrop};

fn wiped_on_drop<T: ZeroizeOnDrop>() {}

#[test]
fn expanded_keys_zeroize_on_drop() {
    wiped_on_drop::<kalyna::Keys>();
    wiped_on_drop::<kuznyechik::Keys>();
    wiped_on_drop::<magma::Keys>();
    wiped_on_drop::<ublock::Keys>();
}

#[test]
fn zeroize_clears_every_round_key() {
    let key: Vec<u8> = (1..=64).collect();

    for v in kalyna::Variant::ALL {
        let mut k = kalyna::Keys::new(v, &key[..v.key_bytes()]);
        assert!(k.rk.iter().flatten().any(|&b| b != 0));
        k.zeroize();
        assert!(k.rk.iter().flatten().all(|&b| b == 0), "{:?}", v);
    }

    let mut k = kuznyechik::Keys::new(&key[..32]);
    assert!(k.rk.iter().flatten().any(|&b| b != 0));
    k.zeroize();
    assert!(k.rk.iter().flatten().all(|&b| b == 0));

    let mut k = magma::Keys::new(&key[..32], magma::SboxSet::Tc26Z, magma::ByteOrder::Magma);
    assert!(k.k.iter().any(|&w| w != 0));
    k.zeroize();
    assert!(k.k.iter().all(|&w| w == 0));

    let mut k = ublock::Keys::new(ublock::Variant::U128_256, &key[..32]);
    assert!(k.key().iter().any(|&b| b != 0));
    k.zeroize();
    assert!(k.key().iter().all(|&b| b == 0));
}
