//! Independent implementations measured in the same `bench` run, in the same
//! units (cargo feature `peers`): RustCrypto `kuznyechik` 0.9 and `magma`
//! 0.10 (table-based, not constant-time), `dstu-core` 0.7 Kalyna (tables).

use super::bench::{measure, Row};
use multiblock::CipherId;

/// A keyed peer: its label and an in-place ECB encryption of whole blocks.
type PeerFn = Box<dyn FnMut(&mut [u8])>;

fn rustcrypto<C>(key: &[u8]) -> PeerFn
where
    C: cipher::KeyInit + cipher::BlockCipherEncrypt + 'static,
{
    let c = C::new_from_slice(key).expect("peer key length");
    Box::new(move |buf: &mut [u8]| {
        let (blocks, _) = cipher::Block::<C>::slice_as_chunks_mut(buf);
        c.encrypt_blocks(blocks);
    })
}

macro_rules! dstu {
    ($ty:ident, $key:literal, $block:literal, $k:expr) => {{
        let key: [u8; $key] = $k.try_into().expect("peer key length");
        let c = dstu_core::hazmat::kalyna::$ty::new(&key);
        Box::new(move |buf: &mut [u8]| {
            for b in buf.chunks_exact_mut($block) {
                let block: &[u8; $block] = (&*b).try_into().unwrap();
                let out = c.encrypt_block(block);
                b.copy_from_slice(&out);
            }
        }) as PeerFn
    }};
}

/// The peer for `id`, if one exists: (backend label, peer name, function).
fn peer(id: CipherId, key: &[u8]) -> Option<(&'static str, &'static str, PeerFn)> {
    Some(match id {
        CipherId::Kuznyechik => ("rustcrypto", "RustCrypto kuznyechik 0.9", rustcrypto::<kuznyechik::Kuznyechik>(key)),
        CipherId::Magma => ("rustcrypto", "RustCrypto magma 0.10", rustcrypto::<magma::Magma>(key)),
        CipherId::Kalyna128_128 => ("dstu-core", "dstu-core 0.7", dstu!(Kalyna128_128ExpandedKey, 16, 16, key)),
        CipherId::Kalyna128_256 => ("dstu-core", "dstu-core 0.7", dstu!(Kalyna128_256ExpandedKey, 32, 16, key)),
        CipherId::Kalyna256_256 => ("dstu-core", "dstu-core 0.7", dstu!(Kalyna256_256ExpandedKey, 32, 32, key)),
        CipherId::Kalyna256_512 => ("dstu-core", "dstu-core 0.7", dstu!(Kalyna256_512ExpandedKey, 64, 32, key)),
        CipherId::Kalyna512_512 => ("dstu-core", "dstu-core 0.7", dstu!(Kalyna512_512ExpandedKey, 64, 64, key)),
        _ => return None,
    })
}

/// The peer's encryption speed for `id`, if it has a peer.
pub fn rows(id: CipherId, bytes: usize, reps: usize) -> Vec<Row> {
    let key: Vec<u8> = (0..id.key_bytes()).map(|i| (i * 7 + 1) as u8).collect();
    let Some((backend, name, mut f)) = peer(id, &key) else { return Vec::new() };
    let len = bytes / id.block_bytes() * id.block_bytes();
    let mut buf: Vec<u8> = (0..len).map(|i| i as u8).collect();
    let (ticks, secs) = measure(reps, || f(&mut buf));
    vec![Row {
        cipher: id.name(),
        backend,
        constant_time: false,
        direction: "encrypt",
        ways: 1,
        bytes: len,
        mb_per_s: len as f64 / secs / 1e6,
        cycles_per_byte: ticks as f64 / len.max(1) as f64,
        peer: Some(name),
        mode: None,
    }]
}
