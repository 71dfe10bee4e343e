//! The hash and HMAC functions called as C calls them: RFC 6986 §10's
//! first example and RFC 7836 §A.1's HMACs; random messages of many
//! lengths, hashed whole, in pieces and with a first piece of whole
//! blocks compressed at once, against RustCrypto's `streebog`, `kupyna` and `hmac` crates;
//! the size-query protocol; every bad argument as a status code.

use std::ffi::{c_char, c_int, CStr};
use std::ptr;

use digest::{Digest, KeyInit, Mac};

use crate::hash::*;
use crate::hmac::*;
use crate::status::*;
use crate::tests::bytes;

/// RFC 6986 §10.1, M1.
const M1: &[u8] = b"012345678901234567890123456789012345678901234567890123456789012";
/// RFC 6986 §10.1.1 (512) and §10.1.2 (256): H(M1).
const M1_512: &str = "1b54d01a4af5b9d5cc3d86d68d285462b19abc2475222f35c085122be4ba1ffa00ad30f8767b3a82384c6574f024c311e2a481332b08ef7f41797891c1646f48";
const M1_256: &str = "9d151eefd8590b89daa6ba6cb74af9275dd051026bb149a452fd84e5e57b5500";
/// RFC 7836 §A.1.1 and §A.1.2.
const HMAC_KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const HMAC_MSG: &str = "0126bdb87800af214341456563780100";
const HMAC_256: &str = "a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9";
const HMAC_512: &str = "a59bab22ecae19c65fbde6e5f4e9f5d8549d31f037f9df9b905500e171923a773d5f1530f2ed7e964cb2eedc29e9ad2f3afe93b2814f79f5000ffc0366c251e6";

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn last() -> String {
    unsafe { CStr::from_ptr(crate::info::mb_last_error()) }.to_str().unwrap().to_string()
}

/// The independent digest of `data`.
fn oracle(algo: &str, data: &[u8]) -> Vec<u8> {
    match algo {
        "streebog-256" => streebog::Streebog256::digest(data).to_vec(),
        "streebog-512" => streebog::Streebog512::digest(data).to_vec(),
        "kupyna-256" => kupyna::Kupyna256::digest(data).to_vec(),
        "kupyna-384" => kupyna::Kupyna384::digest(data).to_vec(),
        "kupyna-512" => kupyna::Kupyna512::digest(data).to_vec(),
        other => panic!("no oracle for {other}"),
    }
}

fn oracle_hmac(algo: &str, key: &[u8], data: &[u8]) -> Vec<u8> {
    fn run<M: Mac + KeyInit>(key: &[u8], data: &[u8]) -> Vec<u8> {
        let mut m = <M as KeyInit>::new_from_slice(key).unwrap();
        m.update(data);
        m.finalize().into_bytes().to_vec()
    }
    use hmac::SimpleHmac;
    match algo {
        "streebog-256" => run::<SimpleHmac<streebog::Streebog256>>(key, data),
        "streebog-512" => run::<SimpleHmac<streebog::Streebog512>>(key, data),
        "kupyna-256" => run::<SimpleHmac<kupyna::Kupyna256>>(key, data),
        "kupyna-384" => run::<SimpleHmac<kupyna::Kupyna384>>(key, data),
        "kupyna-512" => run::<SimpleHmac<kupyna::Kupyna512>>(key, data),
        other => panic!("no oracle for {other}"),
    }
}

const NAMED: [&CStr; 5] = [c"streebog-256", c"streebog-512", c"kupyna-256", c"kupyna-384", c"kupyna-512"];

/// mb_hash into a buffer of `cap` bytes: (status, *out_len, the bytes written).
fn one_shot(algo: &CStr, data: &[u8], cap: usize) -> (c_int, usize, Vec<u8>) {
    let mut out = vec![0u8; cap];
    let mut len = cap;
    let rc = unsafe { mb_hash(algo.as_ptr(), data.as_ptr(), data.len(), out.as_mut_ptr(), &mut len) };
    out.truncate(if rc == MB_OK { len } else { 0 });
    (rc, len, out)
}

fn new_hash(algo: &CStr, backend: Option<&CStr>) -> (c_int, *mut MbHash) {
    let mut h = ptr::null_mut();
    let rc = unsafe { mb_hash_new(&mut h, algo.as_ptr(), backend.map_or(ptr::null(), CStr::as_ptr)) };
    (rc, h)
}

fn final_of(h: *mut MbHash) -> Vec<u8> {
    let mut out = [0u8; 64];
    let mut len = out.len();
    assert_eq!(unsafe { mb_hash_final(h, out.as_mut_ptr(), &mut len) }, MB_OK, "{}", last());
    out[..len].to_vec()
}

#[test]
fn rfc_6986_example_1_one_shot_and_in_every_split() {
    for (algo, want) in [(c"streebog-256", M1_256), (c"streebog-512", M1_512)] {
        assert_eq!(one_shot(algo, M1, 64), (MB_OK, want.len() / 2, unhex(want)));
        let (rc, h) = new_hash(algo, None);
        assert_eq!(rc, MB_OK);
        for split in 0..=M1.len() {
            unsafe {
                assert_eq!(mb_hash_update(h, M1.as_ptr(), split), MB_OK);
                assert_eq!(mb_hash_update(h, M1[split..].as_ptr(), M1.len() - split), MB_OK);
            }
            // Final starts the handle over with an empty message.
            assert_eq!(final_of(h), unhex(want), "{algo:?} split at {split}");
        }
        unsafe { mb_hash_free(h) };
    }
}

#[test]
fn every_named_hash_equals_rustcrypto_whole_in_pieces_and_many() {
    let lengths = [0usize, 1, 31, 32, 63, 64, 65, 127, 128, 129, 255, 256, 1000, 4099];
    for algo in NAMED {
        let name = algo.to_str().unwrap();
        let (rc, h) = new_hash(algo, None);
        assert_eq!(rc, MB_OK);
        let size = unsafe { mb_hash_digest_size(h) };
        let (mut digest_bytes, mut block_bytes) = (0, 0);
        assert_eq!(unsafe { mb_hash_sizes(algo.as_ptr(), &mut digest_bytes, &mut block_bytes) }, MB_OK);
        assert_eq!((size, digest_bytes), (oracle(name, b"").len(), size));
        assert_eq!(block_bytes, if name.ends_with("384") || name.ends_with("512") && name.starts_with('k') { 128 } else { 64 });
        let msgs: Vec<Vec<u8>> = lengths.iter().map(|&n| bytes(n as u64 + 1, n)).collect();
        for m in &msgs {
            let want = oracle(name, m);
            assert_eq!(one_shot(algo, m, 64).2, want, "{name} {}", m.len());
            // Blocks for copies (the first compressed at once), then
            // pieces of 7, then a clone that finishes the same.
            let (head, tail) = m.split_at(m.len() / (2 * block_bytes) * block_bytes);
            for piece in head.chunks(block_bytes) {
                assert_eq!(unsafe { mb_hash_update_for_copies(h, piece.as_ptr(), piece.len()) }, MB_OK);
            }
            for piece in tail.chunks(7) {
                assert_eq!(unsafe { mb_hash_update(h, piece.as_ptr(), piece.len()) }, MB_OK);
            }
            let mut copy = ptr::null_mut();
            assert_eq!(unsafe { mb_hash_clone(&mut copy, h) }, MB_OK);
            assert_eq!(final_of(h), want, "{name} {} in pieces", m.len());
            assert_eq!(final_of(copy), want, "{name} {} cloned", m.len());
            unsafe { mb_hash_free(copy) };
        }
        unsafe { mb_hash_free(h) };
        // Many at once, and a size query first.
        let ptrs: Vec<*const u8> = msgs.iter().map(|m| m.as_ptr()).collect();
        let lens: Vec<usize> = msgs.iter().map(Vec::len).collect();
        let mut len = 0;
        let rc = unsafe { mb_hash_many(algo.as_ptr(), msgs.len(), ptrs.as_ptr(), lens.as_ptr(), ptr::null_mut(), &mut len) };
        assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, msgs.len() * size));
        let mut out = vec![0u8; len];
        let rc = unsafe { mb_hash_many(algo.as_ptr(), msgs.len(), ptrs.as_ptr(), lens.as_ptr(), out.as_mut_ptr(), &mut len) };
        assert_eq!(rc, MB_OK, "{}", last());
        let want: Vec<u8> = msgs.iter().flat_map(|m| oracle(name, m)).collect();
        assert_eq!(out, want, "{name} many");
        let mut len = 0;
        assert_eq!(unsafe { mb_hash_many(algo.as_ptr(), 0, ptr::null(), ptr::null(), ptr::null_mut(), &mut len) }, MB_OK);
    }
}

#[test]
fn every_backend_that_runs_gives_the_same_digest() {
    let data = bytes(5, 3000);
    for algo in NAMED {
        let id = multiblock::hash::HashId::from_name(algo.to_str().unwrap()).unwrap();
        for b in multiblock::hash::backends(id).into_iter().filter(|b| b.available) {
            let name = std::ffi::CString::new(b.info.name).unwrap();
            let (rc, h) = new_hash(algo, Some(&name));
            assert_eq!(rc, MB_OK, "{}", last());
            assert_eq!(unsafe { CStr::from_ptr(mb_hash_backend(h)) }, name.as_c_str());
            unsafe { mb_hash_update(h, data.as_ptr(), data.len()) };
            assert_eq!(final_of(h), oracle(algo.to_str().unwrap(), &data), "{algo:?} on {name:?}");
            unsafe { mb_hash_free(h) };
        }
    }
}

#[test]
fn final_size_query_keeps_the_state() {
    let (_, h) = new_hash(c"kupyna-512", None);
    unsafe { mb_hash_update(h, b"abc".as_ptr(), 3) };
    let mut len = 0;
    assert_eq!((unsafe { mb_hash_final(h, ptr::null_mut(), &mut len) }, len), (MB_ERR_BUFFER_TOO_SMALL, 64));
    let mut short = [0xa5u8; 63];
    let mut len = short.len();
    assert_eq!((unsafe { mb_hash_final(h, short.as_mut_ptr(), &mut len) }, len), (MB_ERR_BUFFER_TOO_SMALL, 64));
    assert!(short.iter().all(|&b| b == 0xa5));
    assert_eq!(final_of(h), oracle("kupyna-512", b"abc"));
    unsafe { mb_hash_free(h) };
    // One-shot: the same protocol.
    let (rc, len, _) = one_shot(c"streebog-512", b"abc", 0);
    assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, 64));
}

/// A hash answers a backend name as a cipher does: one of this build that
/// the CPU cannot run is MB_ERR_BACKEND_UNAVAILABLE, and one of another
/// architecture (`neon` on x86-64) is not in this build: MB_ERR_UNKNOWN_BACKEND
/// for a hash, an HMAC and a cipher alike.
#[test]
fn backend_names_are_answered_as_for_the_ciphers() {
    use multiblock::hash::{backends, HashId};
    for id in [HashId::Streebog256, HashId::Kupyna { digest_bits: 256 }] {
        let algo = std::ffi::CString::new(id.to_string()).unwrap();
        for b in backends(id) {
            let backend = std::ffi::CString::new(b.info.name).unwrap();
            let (rc, h) = new_hash(&algo, Some(&backend));
            let want = if b.available { MB_OK } else { MB_ERR_BACKEND_UNAVAILABLE };
            assert_eq!(rc, want, "{id} {}: {}", b.info.name, last());
            unsafe { mb_hash_free(h) };
        }
    }
    let neon = |rc: c_int| {
        let want = if cfg!(target_arch = "aarch64") { MB_OK } else { MB_ERR_UNKNOWN_BACKEND };
        assert_eq!(rc, want, "{}", last());
    };
    let (rc, h) = new_hash(c"kupyna-256", Some(c"neon"));
    neon(rc);
    unsafe { mb_hash_free(h) };
    let mut m = ptr::null_mut();
    neon(unsafe { mb_hmac_new(&mut m, c"streebog-256".as_ptr(), b"k".as_ptr(), 1, c"neon".as_ptr()) });
    unsafe { mb_hmac_free(m) };
    let mut c = ptr::null_mut();
    let key = [0u8; 16];
    neon(unsafe { crate::handle::mb_cipher_new(&mut c, c"kalyna-128-128".as_ptr(), key.as_ptr(), 16, ptr::null(), c"neon".as_ptr()) });
    unsafe { crate::handle::mb_cipher_free(c) };
}

#[test]
fn bad_arguments_are_status_codes() {
    let mut h = ptr::null_mut();
    assert_eq!(unsafe { mb_hash_new(&mut h, ptr::null(), ptr::null()) }, MB_ERR_NULL_POINTER);
    assert!(h.is_null());
    assert_eq!(new_hash(c"sha256", None).0, MB_ERR_UNKNOWN_HASH);
    assert!(last().contains("unknown hash 'sha256'"), "{}", last());
    assert_eq!(new_hash(c"kupyna-7", None).0, MB_ERR_UNKNOWN_HASH);
    assert_eq!(new_hash(c"streebog-256", Some(c"no-such-backend")).0, MB_ERR_UNKNOWN_BACKEND);
    let bad_utf8 = [0xffu8, 0];
    assert_eq!(unsafe { mb_hash_new(&mut h, bad_utf8.as_ptr().cast::<c_char>(), ptr::null()) }, MB_ERR_INVALID_STRING);
    assert_eq!(unsafe { mb_hash_new(ptr::null_mut(), c"streebog-256".as_ptr(), ptr::null()) }, MB_ERR_NULL_POINTER);
    assert_eq!(unsafe { mb_hash_update(ptr::null_mut(), b"x".as_ptr(), 1) }, MB_ERR_NULL_POINTER);
    assert_eq!(unsafe { mb_hash_update_for_copies(ptr::null_mut(), b"x".as_ptr(), 1) }, MB_ERR_NULL_POINTER);
    let (_, h) = new_hash(c"streebog-256", None);
    assert_eq!(unsafe { mb_hash_update(h, ptr::null(), 1) }, MB_ERR_NULL_POINTER);
    assert_eq!(unsafe { mb_hash_update(h, ptr::null(), 0) }, MB_OK);
    assert_eq!(unsafe { mb_hash_update(h, b"x".as_ptr(), usize::MAX) }, MB_ERR_PARAM);
    assert_eq!(unsafe { mb_hash_final(h, ptr::null_mut(), ptr::null_mut()) }, MB_ERR_NULL_POINTER);
    let mut len = 5;
    assert_eq!(unsafe { mb_hash_final(h, ptr::null_mut(), &mut len) }, MB_ERR_NULL_POINTER);
    assert_eq!(len, 0);
    assert_eq!(final_of(h), oracle("streebog-256", b""), "failed calls leave the state alone");
    let mut copy = ptr::null_mut();
    assert_eq!(unsafe { mb_hash_clone(&mut copy, ptr::null()) }, MB_ERR_NULL_POINTER);
    assert!(copy.is_null());
    unsafe { mb_hash_free(h) };
    unsafe { mb_hash_free(ptr::null_mut()) };
    assert_eq!(unsafe { mb_hash_digest_size(ptr::null()) }, 0);
    assert!(unsafe { mb_hash_backend(ptr::null()) }.is_null());
    assert_eq!(unsafe { mb_hash_sizes(c"nope".as_ptr(), ptr::null_mut(), ptr::null_mut()) }, MB_ERR_UNKNOWN_HASH);
    let mut len = 64;
    let mut out = [0u8; 64];
    assert_eq!(unsafe { mb_hash(c"streebog-256".as_ptr(), ptr::null(), 3, out.as_mut_ptr(), &mut len) }, MB_ERR_NULL_POINTER);
    assert_eq!(unsafe { mb_hash_many(c"streebog-256".as_ptr(), 2, ptr::null(), ptr::null(), out.as_mut_ptr(), &mut len) }, MB_ERR_NULL_POINTER);
    let huge = usize::MAX / 2;
    let mut len = 64;
    assert_eq!(unsafe { mb_hash_many(c"streebog-256".as_ptr(), huge, [ptr::null::<u8>()].as_ptr(), [0usize].as_ptr(), out.as_mut_ptr(), &mut len) }, MB_ERR_PARAM);
}

fn hmac_one_shot(algo: &CStr, key: &[u8], data: &[u8]) -> (c_int, Vec<u8>) {
    let mut out = [0u8; 64];
    let mut len = out.len();
    let rc = unsafe { mb_hmac(algo.as_ptr(), key.as_ptr(), key.len(), data.as_ptr(), data.len(), out.as_mut_ptr(), &mut len) };
    (rc, out[..len].to_vec())
}

#[test]
fn rfc_7836_hmac_one_shot_incremental_and_verified() {
    let (key, msg) = (unhex(HMAC_KEY), unhex(HMAC_MSG));
    for (algo, want) in [(c"streebog-256", HMAC_256), (c"streebog-512", HMAC_512)] {
        assert_eq!(hmac_one_shot(algo, &key, &msg), (MB_OK, unhex(want)));
        let mut h = ptr::null_mut();
        assert_eq!(unsafe { mb_hmac_new(&mut h, algo.as_ptr(), key.as_ptr(), key.len(), ptr::null()) }, MB_OK);
        assert_eq!(unsafe { mb_hmac_tag_size(h) }, want.len() / 2);
        for _ in 0..2 {
            // Final starts over under the same key.
            unsafe { mb_hmac_update(h, msg.as_ptr(), 5) };
            unsafe { mb_hmac_update(h, msg[5..].as_ptr(), msg.len() - 5) };
            let mut len = 0;
            assert_eq!((unsafe { mb_hmac_final(h, ptr::null_mut(), &mut len) }, len), (MB_ERR_BUFFER_TOO_SMALL, want.len() / 2));
            let mut out = [0u8; 64];
            let mut len = out.len();
            assert_eq!(unsafe { mb_hmac_final(h, out.as_mut_ptr(), &mut len) }, MB_OK);
            assert_eq!(out[..len], unhex(want)[..]);
        }
        let tag = unhex(want);
        unsafe { mb_hmac_update(h, msg.as_ptr(), msg.len()) };
        assert_eq!(unsafe { mb_hmac_verify(h, tag.as_ptr(), tag.len()) }, MB_OK);
        let mut wrong = tag.clone();
        wrong[0] ^= 0x80;
        unsafe { mb_hmac_update(h, msg.as_ptr(), msg.len()) };
        assert_eq!(unsafe { mb_hmac_verify(h, wrong.as_ptr(), wrong.len()) }, MB_ERR_AUTHENTICATION);
        assert_eq!(unsafe { mb_hmac_verify(h, tag.as_ptr(), tag.len() - 1) }, MB_ERR_PARAM);
        unsafe { mb_hmac_free(h) };
    }
}

#[test]
fn hmac_over_every_named_hash_equals_rustcrypto() {
    for algo in NAMED {
        let name = algo.to_str().unwrap();
        for (k, key_len) in [0usize, 16, 32, 64, 65, 128, 129, 300].into_iter().enumerate() {
            let key = bytes(k as u64 + 40, key_len);
            for len in [0usize, 1, 64, 129, 1000] {
                let data = bytes(len as u64 + 7, len);
                assert_eq!(hmac_one_shot(algo, &key, &data), (MB_OK, oracle_hmac(name, &key, &data)), "{name} key {key_len} data {len}");
            }
        }
    }
}

#[test]
fn hmac_bad_arguments_are_status_codes() {
    let key = [1u8; 32];
    assert_eq!(hmac_one_shot(c"sha256", &key, b"").0, MB_ERR_UNKNOWN_HASH);
    // Only the named hashes: another Kupyna length is a parameter error.
    assert_eq!(hmac_one_shot(c"kupyna-160", &key, b"").0, MB_ERR_PARAM);
    let mut out = [0u8; 64];
    let mut len = 64;
    assert_eq!(unsafe { mb_hmac(c"streebog-256".as_ptr(), ptr::null(), 32, b"".as_ptr(), 0, out.as_mut_ptr(), &mut len) }, MB_ERR_NULL_POINTER);
    let mut h = ptr::null_mut();
    assert_eq!(unsafe { mb_hmac_new(&mut h, ptr::null(), key.as_ptr(), 32, ptr::null()) }, MB_ERR_NULL_POINTER);
    assert!(h.is_null());
    assert_eq!(unsafe { mb_hmac_update(ptr::null_mut(), key.as_ptr(), 1) }, MB_ERR_NULL_POINTER);
    assert_eq!(unsafe { mb_hmac_verify(ptr::null_mut(), key.as_ptr(), 32) }, MB_ERR_NULL_POINTER);
    let mut len = 64;
    assert_eq!(unsafe { mb_hmac_final(ptr::null_mut(), out.as_mut_ptr(), &mut len) }, MB_ERR_NULL_POINTER);
    assert_eq!(unsafe { mb_hmac_tag_size(ptr::null()) }, 0);
    unsafe { mb_hmac_free(ptr::null_mut()) };
}

/// Kupyna's other digest lengths through the ABI equal the library's.
#[test]
fn kupyna_n_equals_the_library() {
    let data = bytes(9, 700);
    for bits in [8u16, 160, 248, 264, 504] {
        let name = std::ffi::CString::new(format!("kupyna-{bits}")).unwrap();
        let id = multiblock::hash::HashId::Kupyna { digest_bits: bits };
        let (mut digest, mut block) = (0, 0);
        assert_eq!(unsafe { mb_hash_sizes(name.as_ptr(), &mut digest, &mut block) }, MB_OK);
        assert_eq!((digest, block), (usize::from(bits) / 8, if bits <= 256 { 64 } else { 128 }));
        let want = multiblock::hash::digest(id, &data).unwrap();
        assert_eq!(one_shot(&name, &data, 64), (MB_OK, want.len(), want.clone()), "{name:?}: {}", last());
    }
}
