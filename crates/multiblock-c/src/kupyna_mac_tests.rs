//! Kupyna's MAC (DSTU 7564:2014) called as C calls it: the standard's MAC
//! examples one-shot, in every split and verified, on every backend this
//! CPU runs; random keys and messages whole and in pieces against the
//! library's `KupynaMac` (itself checked against `dstu-core`); the
//! size-query protocol; every bad length and NULL pointer as its status.

use std::ffi::{c_char, c_int, CStr, CString};
use std::ptr;

use multiblock::hash::{HashId, KupynaMac};

use crate::kupyna_mac::*;
use crate::status::*;
use crate::tests::bytes;

/// The MAC examples of DSTU 7564:2014: the key is the bytes d − 1, d − 2,
/// …, 0 (d = tag bytes), the message the 31 bytes 00 01 … 1E.
const EXAMPLES: [(usize, &str); 3] = [
    (256, "b60594d56fa79ba210314c72c2495087ccd0a99fc04acfe2a39ef669925d98ee"),
    (384, "bebfd8d730336f043abacb41829e79a4d320aeddd8d14024d5b805da70c396fa295c281a38b30ae728a304b3f5ae490e"),
    (
        512,
        "f270043c06a5c37e65d9d791c5fbfb966e5ee709f8f54019c9a55b76ca40b701\
         00579f269cec24e347a9d864614cf3abbf6610742e4db3bd2abc000387c49d24",
    ),
];

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn last() -> String {
    unsafe { CStr::from_ptr(crate::info::mb_last_error()) }.to_str().unwrap().to_string()
}

fn example_key(bits: usize) -> Vec<u8> {
    (0..bits / 8).rev().map(|i| i as u8).collect()
}

fn example_msg() -> Vec<u8> {
    (0..31u8).collect()
}

/// mb_kupyna_mac into a 64-byte buffer: (status, the tag written).
fn one_shot(bits: usize, key: &[u8], data: &[u8]) -> (c_int, Vec<u8>) {
    let mut out = [0u8; 64];
    let mut len = out.len();
    let rc = unsafe { mb_kupyna_mac(bits, key.as_ptr(), key.len(), data.as_ptr(), data.len(), out.as_mut_ptr(), &mut len) };
    (rc, out[..len].to_vec())
}

fn new_mac(bits: usize, key: &[u8], backend: Option<&CStr>) -> (c_int, *mut MbKupynaMac) {
    // Not NULL beforehand: a failed call must set it to NULL.
    let mut h = ptr::NonNull::dangling().as_ptr();
    let rc = unsafe { mb_kupyna_mac_new(&mut h, bits, key.as_ptr(), key.len(), backend.map_or(ptr::null(), CStr::as_ptr)) };
    (rc, h)
}

fn final_of(h: *mut MbKupynaMac) -> Vec<u8> {
    let mut out = [0u8; 64];
    let mut len = out.len();
    assert_eq!(unsafe { mb_kupyna_mac_final(h, out.as_mut_ptr(), &mut len) }, MB_OK, "{}", last());
    out[..len].to_vec()
}

fn update(h: *mut MbKupynaMac, data: &[u8]) {
    assert_eq!(unsafe { mb_kupyna_mac_update(h, data.as_ptr(), data.len()) }, MB_OK, "{}", last());
}

fn verify(h: *mut MbKupynaMac, tag: &[u8]) -> c_int {
    unsafe { mb_kupyna_mac_verify(h, tag.as_ptr(), tag.len()) }
}

#[test]
fn dstu_7564_examples_one_shot_in_every_split_and_verified() {
    let msg = example_msg();
    for (bits, want) in EXAMPLES {
        let (key, want) = (example_key(bits), unhex(want));
        assert_eq!(one_shot(bits, &key, &msg), (MB_OK, want.clone()), "MAC-{bits}: {}", last());
        assert_eq!(last(), "", "a successful call clears the message");
        let (rc, h) = new_mac(bits, &key, None);
        assert_eq!(rc, MB_OK, "{}", last());
        assert_eq!(unsafe { mb_kupyna_mac_tag_size(h) }, bits / 8);
        // Two pieces at every split, then three; each final starts over
        // under the same key, so the next message needs no new handle.
        for split in 0..=msg.len() {
            update(h, &msg[..split]);
            update(h, &msg[split..]);
            assert_eq!(final_of(h), want, "MAC-{bits} split at {split}");
        }
        for (a, b) in [(0, 0), (1, 30), (7, 8), (15, 16), (30, 31)] {
            update(h, &msg[..a]);
            update(h, &msg[a..b]);
            update(h, &msg[b..]);
            assert_eq!(final_of(h), want, "MAC-{bits} split at {a}, {b}");
        }
        // The right tag passes; a changed one (any bit) fails and also
        // starts over, so the next message is MACed afresh.
        update(h, &msg);
        assert_eq!(verify(h, &want), MB_OK, "{}", last());
        for bit in [0, 7, 8 * want.len() / 2, 8 * want.len() - 1] {
            let mut wrong = want.clone();
            wrong[bit / 8] ^= 1 << (bit % 8);
            update(h, &msg);
            assert_eq!(verify(h, &wrong), MB_ERR_AUTHENTICATION, "MAC-{bits}, bit {bit} changed");
        }
        update(h, &msg);
        assert_eq!(final_of(h), want, "a failed verify starts over");
        // A tag of another length is a parameter error that leaves the
        // message as it was.
        update(h, &msg[..10]);
        for len in [0, want.len() - 1, want.len() + 1] {
            let mut other = want.clone();
            other.resize(len, 0);
            assert_eq!(verify(h, &other), MB_ERR_PARAM, "tag of {len} bytes");
            assert!(last().contains(&format!("tag_len {len} is not the {}-byte tag", want.len())), "{}", last());
        }
        update(h, &msg[10..]);
        assert_eq!(verify(h, &want), MB_OK, "the message went on after a wrong tag_len");
        unsafe { mb_kupyna_mac_free(h) };
    }
}

#[test]
fn every_backend_that_runs_gives_the_example_tags() {
    let msg = example_msg();
    for (bits, want) in EXAMPLES {
        let id = HashId::Kupyna { digest_bits: bits as u16 };
        let backends: Vec<_> = multiblock::hash::backends(id).into_iter().filter(|b| b.available).collect();
        assert!(backends.iter().any(|b| b.info.name == "reference"));
        for b in backends {
            let name = CString::new(b.info.name).unwrap();
            let (rc, h) = new_mac(bits, &example_key(bits), Some(&name));
            assert_eq!(rc, MB_OK, "{name:?}: {}", last());
            update(h, &msg);
            assert_eq!(final_of(h), unhex(want), "MAC-{bits} on {name:?}");
            unsafe { mb_kupyna_mac_free(h) };
        }
    }
}

#[test]
fn random_keys_and_messages_whole_and_in_pieces_equal_the_library() {
    let lengths = [0usize, 1, 31, 32, 63, 64, 65, 95, 127, 128, 129, 255, 256, 1000, 4099];
    for bits in [256, 384, 512] {
        let key = bytes(bits as u64, bits / 8);
        let (rc, h) = new_mac(bits, &key, None);
        assert_eq!(rc, MB_OK);
        for (k, &n) in lengths.iter().enumerate() {
            let data = bytes(n as u64 + 1000, n);
            let mut lib = KupynaMac::new(bits, &key).unwrap();
            lib.update(&data);
            let want = lib.finalize_reset();
            assert_eq!(one_shot(bits, &key, &data), (MB_OK, want.clone()), "MAC-{bits}, {n} bytes");
            // Pieces of a size that varies with the message, block-aligned or not.
            let piece = [1, 5, 63, 64, 100][k % 5];
            for chunk in data.chunks(piece) {
                update(h, chunk);
            }
            assert_eq!(final_of(h), want, "MAC-{bits}, {n} bytes in pieces of {piece}");
        }
        unsafe { mb_kupyna_mac_free(h) };
    }
    // Different keys give different tags (the key reaches the MAC).
    let data = bytes(1, 100);
    assert_ne!(one_shot(256, &bytes(2, 32), &data).1, one_shot(256, &bytes(3, 32), &data).1);
}

#[test]
fn size_queries_and_short_buffers_write_nothing() {
    let (key, msg) = (example_key(384), example_msg());
    let want = unhex(EXAMPLES[1].1);
    // One-shot: a size query, then a buffer one byte short.
    let mut len = 0;
    let rc = unsafe { mb_kupyna_mac(384, key.as_ptr(), key.len(), msg.as_ptr(), msg.len(), ptr::null_mut(), &mut len) };
    assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, 48));
    let mut short = [0xa5u8; 47];
    let mut len = short.len();
    let rc = unsafe { mb_kupyna_mac(384, key.as_ptr(), key.len(), msg.as_ptr(), msg.len(), short.as_mut_ptr(), &mut len) };
    assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, 48));
    assert!(short.iter().all(|&b| b == 0xa5));
    // Incremental: the message goes on after both.
    let (_, h) = new_mac(384, &key, None);
    update(h, &msg[..20]);
    let mut len = 0;
    assert_eq!((unsafe { mb_kupyna_mac_final(h, ptr::null_mut(), &mut len) }, len), (MB_ERR_BUFFER_TOO_SMALL, 48));
    let mut len = short.len();
    assert_eq!((unsafe { mb_kupyna_mac_final(h, short.as_mut_ptr(), &mut len) }, len), (MB_ERR_BUFFER_TOO_SMALL, 48));
    assert!(short.iter().all(|&b| b == 0xa5));
    update(h, &msg[20..]);
    assert_eq!(final_of(h), want);
    unsafe { mb_kupyna_mac_free(h) };
}

#[test]
fn bad_tag_and_key_lengths_are_status_codes() {
    // Tag bits other than 256, 384, 512: MB_ERR_PARAM, from either form.
    for bits in [0usize, 8, 128, 255, 257, 320, 511, 513, 1024, usize::MAX] {
        let key = [7u8; 64];
        let key = &key[..(bits / 8).min(64)];
        assert_eq!(one_shot(bits, key, b"m").0, MB_ERR_PARAM, "{bits} bits");
        assert_eq!(last(), format!("Kupyna's MAC has tags of 256, 384 or 512 bits, not {bits}"));
        let (rc, h) = new_mac(bits, key, None);
        assert_eq!((rc, h), (MB_ERR_PARAM, ptr::null_mut()), "{bits} bits");
    }
    // A key not as long as the tag: MB_ERR_KEY_LENGTH, naming both lengths.
    for (bits, key_len) in [(256, 0), (256, 31), (256, 33), (256, 48), (384, 32), (384, 64), (512, 48), (512, 65)] {
        let key = vec![1u8; key_len];
        assert_eq!(one_shot(bits, &key, b"m"), (MB_ERR_KEY_LENGTH, vec![]), "{bits} bits, {key_len}-byte key");
        let want = format!("kupyna-mac needs a key of {} bytes ({} hex digits), got {key_len} bytes", bits / 8, bits / 4);
        assert_eq!(last(), want);
        let (rc, h) = new_mac(bits, &key, None);
        assert_eq!((rc, h), (MB_ERR_KEY_LENGTH, ptr::null_mut()), "{bits} bits, {key_len}-byte key");
    }
    // Lengths larger than any object, before anything is read.
    let huge = usize::MAX / 2 + 1;
    let key = [0u8; 32];
    let mut out = [0u8; 64];
    let mut len = out.len();
    assert_eq!(unsafe { mb_kupyna_mac(256, key.as_ptr(), huge, key.as_ptr(), 0, out.as_mut_ptr(), &mut len) }, MB_ERR_PARAM);
    let mut len = out.len();
    assert_eq!(unsafe { mb_kupyna_mac(256, key.as_ptr(), 32, key.as_ptr(), huge, out.as_mut_ptr(), &mut len) }, MB_ERR_PARAM);
    let mut len = huge;
    assert_eq!(unsafe { mb_kupyna_mac(256, key.as_ptr(), 32, key.as_ptr(), 0, out.as_mut_ptr(), &mut len) }, MB_ERR_PARAM);
    assert_eq!(len, 0);
    let mut h = ptr::null_mut();
    assert_eq!(unsafe { mb_kupyna_mac_new(&mut h, 256, key.as_ptr(), huge, ptr::null()) }, MB_ERR_PARAM);
    assert!(h.is_null());
}

#[test]
fn null_pointers_and_bad_names_are_status_codes() {
    let key = example_key(256);
    let mut out = [0u8; 64];
    // One-shot: a NULL key or data with a length, a NULL out_len, a NULL out
    // with room claimed (and *out_len then 0).
    let mut len = out.len();
    assert_eq!(unsafe { mb_kupyna_mac(256, ptr::null(), 32, b"".as_ptr(), 0, out.as_mut_ptr(), &mut len) }, MB_ERR_NULL_POINTER);
    assert_eq!(len, 0);
    let mut len = out.len();
    assert_eq!(unsafe { mb_kupyna_mac(256, key.as_ptr(), 32, ptr::null(), 3, out.as_mut_ptr(), &mut len) }, MB_ERR_NULL_POINTER);
    assert_eq!(unsafe { mb_kupyna_mac(256, key.as_ptr(), 32, ptr::null(), 0, out.as_mut_ptr(), ptr::null_mut()) }, MB_ERR_NULL_POINTER);
    let mut len = 32;
    assert_eq!(unsafe { mb_kupyna_mac(256, key.as_ptr(), 32, ptr::null(), 0, ptr::null_mut(), &mut len) }, MB_ERR_NULL_POINTER);
    assert_eq!(len, 0);
    // The empty message may come as NULL, 0.
    let mut len = out.len();
    assert_eq!(unsafe { mb_kupyna_mac(256, key.as_ptr(), 32, ptr::null(), 0, out.as_mut_ptr(), &mut len) }, MB_OK);
    let mut lib = KupynaMac::new(256, &key).unwrap();
    assert_eq!(out[..len], lib.finalize_reset()[..]);
    // A NULL key with length 0 is an empty key: the wrong length.
    assert_eq!(one_shot(256, &[], b"").0, MB_ERR_KEY_LENGTH);

    // Constructor.
    assert_eq!(unsafe { mb_kupyna_mac_new(ptr::null_mut(), 256, key.as_ptr(), 32, ptr::null()) }, MB_ERR_NULL_POINTER);
    let mut h = ptr::NonNull::dangling().as_ptr();
    assert_eq!(unsafe { mb_kupyna_mac_new(&mut h, 256, ptr::null(), 32, ptr::null()) }, MB_ERR_NULL_POINTER);
    assert!(h.is_null());
    assert_eq!(new_mac(256, &key, Some(c"no-such-backend")), (MB_ERR_UNKNOWN_BACKEND, ptr::null_mut()));
    let bad_utf8 = [0xffu8, 0];
    let mut h = ptr::null_mut();
    assert_eq!(unsafe { mb_kupyna_mac_new(&mut h, 256, key.as_ptr(), 32, bad_utf8.as_ptr().cast::<c_char>()) }, MB_ERR_INVALID_STRING);

    // A NULL handle.
    assert_eq!(unsafe { mb_kupyna_mac_update(ptr::null_mut(), b"x".as_ptr(), 1) }, MB_ERR_NULL_POINTER);
    assert_eq!(last(), "mac is NULL");
    let mut len = out.len();
    assert_eq!(unsafe { mb_kupyna_mac_final(ptr::null_mut(), out.as_mut_ptr(), &mut len) }, MB_ERR_NULL_POINTER);
    assert_eq!(len, 0);
    assert_eq!(unsafe { mb_kupyna_mac_verify(ptr::null_mut(), out.as_ptr(), 32) }, MB_ERR_NULL_POINTER);
    assert_eq!(unsafe { mb_kupyna_mac_tag_size(ptr::null()) }, 0);
    unsafe { mb_kupyna_mac_free(ptr::null_mut()) };

    // A live handle: failed calls leave the message as it was.
    let (rc, h) = new_mac(256, &key, None);
    assert_eq!(rc, MB_OK);
    let msg = example_msg();
    update(h, &msg[..5]);
    assert_eq!(unsafe { mb_kupyna_mac_update(h, ptr::null(), 1) }, MB_ERR_NULL_POINTER);
    assert_eq!(unsafe { mb_kupyna_mac_update(h, b"x".as_ptr(), usize::MAX) }, MB_ERR_PARAM);
    assert_eq!(unsafe { mb_kupyna_mac_update(h, ptr::null(), 0) }, MB_OK);
    assert_eq!(unsafe { mb_kupyna_mac_final(h, ptr::null_mut(), ptr::null_mut()) }, MB_ERR_NULL_POINTER);
    let mut len = 5;
    assert_eq!(unsafe { mb_kupyna_mac_final(h, ptr::null_mut(), &mut len) }, MB_ERR_NULL_POINTER);
    assert_eq!(len, 0);
    assert_eq!(unsafe { mb_kupyna_mac_verify(h, ptr::null(), 32) }, MB_ERR_NULL_POINTER);
    assert_eq!(unsafe { mb_kupyna_mac_verify(h, ptr::null(), 0) }, MB_ERR_PARAM);
    update(h, &msg[5..]);
    assert_eq!(final_of(h), unhex(EXAMPLES[0].1), "failed calls leave the message alone");
    unsafe { mb_kupyna_mac_free(h) };
}
