//! Independent implementations measured in the same benchmark run, in the same
//! units (cargo feature `peers`): RustCrypto `kuznyechik` 0.9 and `magma`
//! 0.10 (table-based, not constant-time), `dstu-core` 0.7 Kalyna (tables),
//! and hardware AES-128-CTR (RustCrypto `aes` 0.9 + `ctr` 0.10, which pick
//! AES-NI or VAES at run time) as the cipher users would otherwise pick.

use crate::measure::{entry, key_for, measure_stats, Label};
use crate::row::{Entry, Kind};
use multiblock::{CipherId, CpuFeatures};

/// A keyed peer: an in-place ECB (or CTR) pass over whole blocks.
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

fn run_peer(label: &Label, name: &'static str, mode: Option<&'static str>, bytes: usize, reps: usize, f: &mut PeerFn) -> Entry {
    let mut buf: Vec<u8> = (0..bytes).map(|i| i as u8).collect();
    let stats = measure_stats(reps, || f(&mut buf));
    let mut e = entry(label, "encrypt", bytes, &stats, 1);
    e.row.peer = Some(name);
    e.row.mode = mode;
    e
}

/// The peer's encryption speed for `id`, if it has a peer.
pub fn rows(id: CipherId, bytes: usize, reps: usize) -> Vec<Entry> {
    let Some((backend, name, mut f)) = peer(id, &key_for(id)) else { return Vec::new() };
    let len = (bytes / id.block_bytes()).max(1) * id.block_bytes();
    let label = Label { kind: Kind::Ecb, cipher: id.name(), backend, constant_time: false, ways: 1 };
    vec![run_peer(&label, name, None, len, reps, &mut f)]
}

/// AES-128 in CTR mode through RustCrypto `aes` + `ctr`: the hardware
/// baseline. Constant-time when AES-NI is present (the crate's software
/// fallback is fixsliced, also constant-time).
pub fn aes_ctr(bytes: usize, reps: usize) -> Entry {
    use cipher::{KeyIvInit, StreamCipher};
    let mut c = ctr::Ctr128BE::<aes::Aes128>::new_from_slices(&[7u8; 16], &[0u8; 16]).expect("AES-128 key and IV length");
    let mut f: PeerFn = Box::new(move |buf: &mut [u8]| c.apply_keystream(buf));
    let cpu = CpuFeatures::get();
    let backend = if cpu.vaes && cpu.avx2 { "aes-ni+vaes" } else if cpu.aes { "aes-ni" } else { "soft" };
    let label = Label { kind: Kind::Ecb, cipher: "aes-128", backend, constant_time: true, ways: 1 };
    run_peer(&label, "RustCrypto aes 0.9 + ctr 0.10", Some("ctr"), bytes / 16 * 16, reps, &mut f)
}
