//! The KDF and TLSTREE functions called as C calls them: RFC 7836
//! Appendix B's KDF examples, RFC 9189 Appendix A.1.1's and RFC 9367
//! Appendix A.2.2's record keys; TLSTREE over random sequence numbers
//! against the chain of three mb_kdf calls (RFC 9189 §8.1) and the cached
//! tree against the one-shot call; bad arguments as status codes.

use std::ffi::{c_char, CStr};
use std::ptr;

use crate::kdf::*;
use crate::status::*;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn name(s: &CStr) -> *const c_char {
    s.as_ptr()
}

/// RFC 7836 Appendix B, examples 9 and 10.
const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const LABEL: &str = "26bdb878";
const SEED: &str = "af21434145656378";
const KDF_256: &str = "a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9";
const KDF_TREE_512: &str = "22b6837845c6bef65ea71672b265831086d3c76aebe6dae91cad51d83f79d16b074c9330599d7f8d712fca54392f4ddde93751206b3584c8f43f9e6dc51531f9";

/// RFC 9189 Appendix A.1.1.1 (Magma) and A.1.1.2 (Kuznyechik): root key,
/// then (seqnum, record key).
const TLS12_ROOT: &str = "00112233445566778899aabbcceeff0a112233445566778899aabbcceeff0a00";
const MAGMA_CTR_OMAC: [(u64, &str); 3] = [
    (4095, "19a76ed30f4d6d1f5b7263ec491ad83817c0b57d8a0356127140fb4f7425494d"),
    (4096, "fb30ee53cfcf89d748fc0c72ef160b8b53cbbbfd031282b026214ab2e07758ff"),
    (274877906944, "2528c1c6a8f0927bf2be27bb78d27f2146d65593b0c7173a06cb9d88df923265"),
];
const KUZNYECHIK_CTR_OMAC: [(u64, &str); 3] = [
    (64, "aebe1ef418713bf044b9fcd9e572d437fb38b5d829567a6f7918396d9f4e096b"),
    (524288, "e54b16415b3b663e780b062d24f736c4495463c3a891e1fa46f7ae99fff9f378"),
    (4294967296, "16180b24645400b836143837d86aac93952ae3eb8244d5ec2ab02cff30781138"),
];
/// RFC 9367 Appendix A.2.2 (Magma MGM-L): server_write_key_ap and its record keys.
const MGM_L_ROOT: &str = "15d92c5147b21310ededf55b3d7ab776817d6fe2fcf230d7e3f29275f6e241ec";
const MAGMA_MGM_L: [(u64, &str); 2] = [
    (1, "7bb881553598def534fcaf9b77a3355bc3bca3874d6740f6cbf5c1b6d35c65ed"),
    (128, "93d5d6e1036fdfb3efbf31e6da5eece685171c977ff9cd6c3a3f67c0224ab6eb"),
];

fn kdf(key: &[u8], label: &[u8], seed: &[u8]) -> Vec<u8> {
    let mut out = [0u8; 32];
    let mut len = out.len();
    let rc = unsafe {
        mb_kdf(key.as_ptr(), key.len(), label.as_ptr(), label.len(), seed.as_ptr(), seed.len(), out.as_mut_ptr(), &mut len)
    };
    assert_eq!((rc, len), (MB_OK, 32));
    out.to_vec()
}

fn tlstree(suite: &CStr, root: &[u8], seqnum: u64) -> (i32, Vec<u8>) {
    let mut out = [0u8; 32];
    let mut len = out.len();
    let rc = unsafe { mb_tlstree(name(suite), root.as_ptr(), root.len(), seqnum, out.as_mut_ptr(), &mut len) };
    (rc, out[..len].to_vec())
}

#[test]
fn rfc7836_examples() {
    assert_eq!(kdf(&unhex(KEY), &unhex(LABEL), &unhex(SEED)), unhex(KDF_256));
    let mut out = [0u8; 64];
    let (key, label, seed) = (unhex(KEY), unhex(LABEL), unhex(SEED));
    let rc = unsafe {
        mb_kdf_tree(key.as_ptr(), 32, label.as_ptr(), 4, seed.as_ptr(), 8, 1, out.as_mut_ptr(), out.len())
    };
    assert_eq!(rc, MB_OK);
    assert_eq!(out.to_vec(), unhex(KDF_TREE_512));
    // r out of range, and no room for the output.
    let rc = unsafe { mb_kdf_tree(key.as_ptr(), 32, label.as_ptr(), 4, seed.as_ptr(), 8, 5, out.as_mut_ptr(), 64) };
    assert_eq!(rc, MB_ERR_PARAM);
    let rc = unsafe { mb_kdf_tree(key.as_ptr(), 32, label.as_ptr(), 4, seed.as_ptr(), 8, 1, ptr::null_mut(), 64) };
    assert_eq!(rc, MB_ERR_NULL_POINTER);
}

#[test]
fn rfc_record_keys_one_shot_and_cached() {
    let cases: [(&CStr, &str, &[(u64, &str)]); 3] = [
        (c"magma-ctr-omac", TLS12_ROOT, &MAGMA_CTR_OMAC),
        (c"kuznyechik-ctr-omac", TLS12_ROOT, &KUZNYECHIK_CTR_OMAC),
        (c"magma-mgm-l", MGM_L_ROOT, &MAGMA_MGM_L),
    ];
    for (suite, root, keys) in cases {
        let root = unhex(root);
        let mut tree: *mut MbTlsTree = ptr::null_mut();
        assert_eq!(unsafe { mb_tlstree_new(&mut tree, name(suite), root.as_ptr(), 32) }, MB_OK);
        for &(seqnum, want) in keys {
            assert_eq!(tlstree(suite, &root, seqnum), (MB_OK, unhex(want)), "{suite:?} {seqnum}");
            let mut out = [0u8; 32];
            let mut len = 32;
            assert_eq!(unsafe { mb_tlstree_key(tree, seqnum, out.as_mut_ptr(), &mut len) }, MB_OK);
            assert_eq!(out.to_vec(), unhex(want), "{suite:?} {seqnum}, cached");
        }
        unsafe { mb_tlstree_free(tree) };
    }
}

/// The masks of RFC 9189 §8.1.1 and RFC 9367 §4.1.2, written out here
/// again from the RFCs' tables for the independent chain below.
const MASKS: [(&CStr, [u64; 3]); 6] = [
    (c"kuznyechik-ctr-omac", [0xFFFFFFFF00000000, 0xFFFFFFFFFFF80000, 0xFFFFFFFFFFFFFFC0]),
    (c"magma-ctr-omac", [0xFFFFFFC000000000, 0xFFFFFFFFFE000000, 0xFFFFFFFFFFFFF000]),
    (c"kuznyechik-mgm-l", [0xF800000000000000, 0xFFFFFFF000000000, 0xFFFFFFFFFFFFE000]),
    (c"magma-mgm-l", [0xFFE0000000000000, 0xFFFFFFFFC0000000, 0xFFFFFFFFFFFFFF80]),
    (c"kuznyechik-mgm-s", [0xFFFFFFFFE0000000, 0xFFFFFFFFFFFF0000, 0xFFFFFFFFFFFFFFF8]),
    (c"magma-mgm-s", [0xFFFFFFFFFC000000, 0xFFFFFFFFFFFFE000, 0xFFFFFFFFFFFFFFFF]),
];

#[test]
fn random_seqnums_against_the_kdf_chain() {
    let mut x: u64 = 0x7115_7ee5_eed0_0001;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for (suite, masks) in MASKS {
        let root: Vec<u8> = (0..32).map(|_| next() as u8).collect();
        let mut tree: *mut MbTlsTree = ptr::null_mut();
        assert_eq!(unsafe { mb_tlstree_new(&mut tree, name(suite), root.as_ptr(), 32) }, MB_OK);
        let mut seq = next() >> (next() % 64);
        for _ in 0..40 {
            // Runs of neighbouring records, jumps, and the largest seqnum.
            seq = match next() % 4 {
                0 => next() >> (next() % 64),
                1 => u64::MAX,
                _ => seq.wrapping_add(next() % 300),
            };
            let k1 = kdf(&root, b"level1", &(seq & masks[0]).to_be_bytes());
            let k2 = kdf(&k1, b"level2", &(seq & masks[1]).to_be_bytes());
            let want = kdf(&k2, b"level3", &(seq & masks[2]).to_be_bytes());
            assert_eq!(tlstree(suite, &root, seq), (MB_OK, want.clone()), "{suite:?} {seq}");
            let mut out = [0u8; 32];
            let mut len = 32;
            assert_eq!(unsafe { mb_tlstree_key(tree, seq, out.as_mut_ptr(), &mut len) }, MB_OK);
            assert_eq!(out.to_vec(), want, "{suite:?} {seq}, cached");
        }
        unsafe { mb_tlstree_free(tree) };
    }
}

/// The KDFs take a 256-bit key, as TLSTREE's root, the command line and
/// Python do; any other length is MB_ERR_KEY_LENGTH and writes nothing.
#[test]
fn kdf_keys_other_than_32_bytes_are_key_length_errors() {
    let key = [9u8; 65];
    for key_len in [0usize, 1, 5, 31, 33, 64, 65] {
        let mut out = [0xaau8; 64];
        let mut len = 32;
        let rc = unsafe { mb_kdf(key.as_ptr(), key_len, b"l".as_ptr(), 1, b"s".as_ptr(), 1, out.as_mut_ptr(), &mut len) };
        assert_eq!(rc, MB_ERR_KEY_LENGTH, "mb_kdf, key_len {key_len}");
        let msg = unsafe { CStr::from_ptr(crate::info::mb_last_error()) }.to_str().unwrap().to_owned();
        assert_eq!(msg, format!("mb_kdf needs a key of 32 bytes, got {key_len}"));
        let rc = unsafe { mb_kdf_tree(key.as_ptr(), key_len, b"l".as_ptr(), 1, b"s".as_ptr(), 1, 1, out.as_mut_ptr(), 64) };
        assert_eq!(rc, MB_ERR_KEY_LENGTH, "mb_kdf_tree, key_len {key_len}");
        assert_eq!(out, [0xaau8; 64], "key_len {key_len}: nothing written");
        assert_eq!(tlstree(c"magma-mgm-s", &key[..key_len], 0).0, MB_ERR_KEY_LENGTH, "mb_tlstree, root_len {key_len}");
        let mut tree: *mut MbTlsTree = ptr::null_mut();
        let rc = unsafe { mb_tlstree_new(&mut tree, name(c"magma-mgm-s"), key.as_ptr(), key_len) };
        assert_eq!((rc, tree.is_null()), (MB_ERR_KEY_LENGTH, true), "mb_tlstree_new, root_len {key_len}");
    }
    // A NULL key of length 0 is the empty key: a length error too.
    let mut out = [0u8; 32];
    let mut len = 32;
    let rc = unsafe { mb_kdf(ptr::null(), 0, ptr::null(), 0, ptr::null(), 0, out.as_mut_ptr(), &mut len) };
    assert_eq!(rc, MB_ERR_KEY_LENGTH);
    let rc = unsafe { mb_kdf_tree(ptr::null(), 0, ptr::null(), 0, ptr::null(), 0, 1, out.as_mut_ptr(), 32) };
    assert_eq!(rc, MB_ERR_KEY_LENGTH);
}

#[test]
fn bad_arguments() {
    let root = [7u8; 32];
    assert_eq!(tlstree(c"kuznyechik-mgm", &root, 0).0, MB_ERR_PARAM);
    assert_eq!(tlstree(c"magma-mgm-s", &root[..31], 0).0, MB_ERR_KEY_LENGTH);
    let mut out = [0u8; 32];
    let mut len = 31;
    let rc = unsafe { mb_tlstree(c"magma-mgm-s".as_ptr(), root.as_ptr(), 32, 0, out.as_mut_ptr(), &mut len) };
    assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, 32));
    let mut tree: *mut MbTlsTree = ptr::null_mut();
    assert_eq!(unsafe { mb_tlstree_new(&mut tree, ptr::null(), root.as_ptr(), 32) }, MB_ERR_NULL_POINTER);
    assert!(tree.is_null());
    len = 32;
    assert_eq!(unsafe { mb_tlstree_key(ptr::null_mut(), 0, out.as_mut_ptr(), &mut len) }, MB_ERR_NULL_POINTER);
    unsafe { mb_tlstree_free(ptr::null_mut()) };
}
