//! mb_mac_many / mb_encrypt_many as C calls them: each result equals the
//! one-message call (mb_mac, mb_encrypt), and bad arrays, a NULL out_lens
//! and a short buffer are status codes.

use std::ffi::{c_int, CStr};
use std::ptr;

use crate::many::*;
use crate::oneshot::*;
use crate::status::*;
use crate::tests::bytes;

/// The messages as the C arrays (pointers, lengths).
fn arrays(msgs: &[Vec<u8>]) -> (Vec<*const u8>, Vec<usize>) {
    (msgs.iter().map(|m| m.as_ptr()).collect(), msgs.iter().map(Vec::len).collect())
}

/// Lengths 0..=3 blocks and a few partial ones, random bytes.
fn messages(n: usize, whole: bool) -> Vec<Vec<u8>> {
    let lens = [0, 1, n - 1, n, n + 3, 2 * n, 3 * n + 5, 40 * n];
    lens.iter().enumerate().filter(|&(_, &l)| !whole || l % n == 0).map(|(i, &l)| bytes(100 + i as u64, l)).collect()
}

fn mac_many(cipher: &CStr, mode: &CStr, key: &[u8], msgs: &[Vec<u8>], cap: usize) -> (c_int, usize, Vec<u8>) {
    let (ptrs, lens) = arrays(msgs);
    let mut out = vec![0u8; cap];
    let mut len = cap;
    let out_ptr = if cap == 0 { ptr::null_mut() } else { out.as_mut_ptr() };
    let (c, m) = (cipher.as_ptr(), mode.as_ptr());
    let rc = unsafe {
        mb_mac_many(c, m, key.as_ptr(), key.len(), ptr::null(), 0, ptr::null(), msgs.len(), ptrs.as_ptr(), lens.as_ptr(), out_ptr, &mut len)
    };
    out.truncate(len.min(cap));
    (rc, len, out)
}

fn one_mac(cipher: &CStr, mode: &CStr, key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut out = [0u8; 64];
    let mut len = out.len();
    let rc = unsafe {
        mb_mac(cipher.as_ptr(), mode.as_ptr(), key.as_ptr(), key.len(), ptr::null(), 0, ptr::null(), data.as_ptr(), data.len(), out.as_mut_ptr(), &mut len)
    };
    assert_eq!(rc, MB_OK);
    out[..len].to_vec()
}

#[test]
fn mac_many_equals_mb_mac_per_message() {
    for (cipher, mode, key_len, n) in [(c"kuznyechik", c"mac", 32, 16), (c"magma", c"omac-acpkm", 32, 8), (c"kalyna-256-512", c"cmac", 64, 32)] {
        let key = bytes(7, key_len);
        // The DSTU MAC has none of an empty message.
        let msgs: Vec<Vec<u8>> = messages(n, false).into_iter().filter(|m| !m.is_empty() || mode != c"cmac").collect();
        let want: Vec<u8> = msgs.iter().flat_map(|m| one_mac(cipher, mode, &key, m)).collect();
        let (rc, len, _) = mac_many(cipher, mode, &key, &msgs, 0);
        assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, want.len()), "{cipher:?} size query");
        let (rc, len, got) = mac_many(cipher, mode, &key, &msgs, want.len());
        assert_eq!((rc, len), (MB_OK, want.len()), "{cipher:?}");
        assert_eq!(got, want, "{cipher:?} {mode:?}");
    }
}

#[test]
fn encrypt_many_equals_mb_encrypt_per_message() {
    let key = bytes(9, 32);
    let iv = bytes(10, 16);
    for (mode, whole) in [(c"cbc", true), (c"cfb", false), (c"ofb", false)] {
        let msgs = messages(16, whole);
        let (ptrs, lens) = arrays(&msgs);
        let mut want = Vec::new();
        let mut want_lens = Vec::new();
        for m in &msgs {
            let mut out = vec![0u8; m.len() + 32];
            let mut len = out.len();
            let rc = unsafe {
                mb_encrypt(c"kuznyechik".as_ptr(), mode.as_ptr(), key.as_ptr(), 32, iv.as_ptr(), 16, ptr::null(), 0, ptr::null(), m.as_ptr(), m.len(), out.as_mut_ptr(), &mut len)
            };
            assert_eq!(rc, MB_OK);
            want.extend_from_slice(&out[..len]);
            want_lens.push(len);
        }
        let mut out = vec![0u8; want.len()];
        let mut len = out.len();
        let mut got_lens = vec![usize::MAX; msgs.len()];
        let rc = unsafe {
            mb_encrypt_many(c"kuznyechik".as_ptr(), mode.as_ptr(), key.as_ptr(), 32, iv.as_ptr(), 16, ptr::null(), msgs.len(), ptrs.as_ptr(), lens.as_ptr(), out.as_mut_ptr(), &mut len, got_lens.as_mut_ptr())
        };
        assert_eq!((rc, len), (MB_OK, want.len()), "{mode:?}");
        assert_eq!((&out, &got_lens), (&want, &want_lens), "{mode:?}");

        let encrypt_many = |ptrs: &[*const u8], out: *mut u8, len: &mut usize| unsafe {
            let mut got_lens = vec![0; msgs.len()];
            mb_encrypt_many(c"kuznyechik".as_ptr(), mode.as_ptr(), key.as_ptr(), 32, iv.as_ptr(), 16, ptr::null(), msgs.len(), ptrs.as_ptr(), lens.as_ptr(), out, len, got_lens.as_mut_ptr())
        };
        // A size query, and a buffer one byte short, which stays as it was.
        let mut len = 0;
        assert_eq!((encrypt_many(&ptrs, ptr::null_mut(), &mut len), len), (MB_ERR_BUFFER_TOO_SMALL, want.len()), "{mode:?}");
        let mut short = vec![0xa5u8; want.len() - 1];
        let mut len = short.len();
        assert_eq!((encrypt_many(&ptrs, short.as_mut_ptr(), &mut len), len), (MB_ERR_BUFFER_TOO_SMALL, want.len()), "{mode:?}");
        assert!(short.iter().all(|&b| b == 0xa5), "{mode:?}: a buffer too small is left alone");
        // In place: the messages inside `out` itself, back to back in
        // reverse order, so writing any ciphertext where it goes first
        // would overwrite a message not yet read.
        let mut buf: Vec<u8> = msgs.iter().rev().flatten().copied().collect();
        buf.resize(want.len() + 16, 0);
        let mut end = msgs.iter().map(Vec::len).sum::<usize>();
        let inside: Vec<*const u8> = msgs
            .iter()
            .map(|m| {
                end -= m.len();
                buf[end..].as_ptr()
            })
            .collect();
        let mut len = buf.len();
        assert_eq!((encrypt_many(&inside, buf.as_mut_ptr(), &mut len), len), (MB_OK, want.len()), "{mode:?} in place");
        assert_eq!(buf[..want.len()], want, "{mode:?} in place");
    }
}

#[test]
fn bad_arrays_are_status_codes() {
    let key = bytes(7, 32);
    let mut out = [0u8; 64];
    let mut len = out.len();
    let (c, m) = (c"kuznyechik".as_ptr(), c"mac".as_ptr());
    let lens = [4usize];
    let rc = unsafe { mb_mac_many(c, m, key.as_ptr(), 32, ptr::null(), 0, ptr::null(), 1, ptr::null(), lens.as_ptr(), out.as_mut_ptr(), &mut len) };
    assert_eq!((rc, len), (MB_ERR_NULL_POINTER, 0));
    let ptrs = [ptr::null::<u8>()];
    len = out.len();
    let rc = unsafe { mb_mac_many(c, m, key.as_ptr(), 32, ptr::null(), 0, ptr::null(), 1, ptrs.as_ptr(), lens.as_ptr(), out.as_mut_ptr(), &mut len) };
    assert_eq!(rc, MB_ERR_NULL_POINTER, "data[0] NULL with data_len[0] 4");
    // No message: no tag, MB_OK.
    len = out.len();
    let rc = unsafe { mb_mac_many(c, m, key.as_ptr(), 32, ptr::null(), 0, ptr::null(), 0, ptr::null(), ptr::null(), out.as_mut_ptr(), &mut len) };
    assert_eq!((rc, len), (MB_OK, 0));
    let data = [0u8; 16];
    let ptrs = [data.as_ptr()];
    let sixteen = [16usize];
    len = out.len();
    let iv = [0u8; 16];
    let rc = unsafe {
        mb_encrypt_many(c, c"cbc".as_ptr(), key.as_ptr(), 32, iv.as_ptr(), 16, ptr::null(), 1, ptrs.as_ptr(), sixteen.as_ptr(), out.as_mut_ptr(), &mut len, ptr::null_mut())
    };
    assert_eq!(rc, MB_ERR_NULL_POINTER, "out_lens NULL");
    // A wrong key length: the one-message error.
    len = out.len();
    let rc = unsafe { mb_mac_many(c, m, key.as_ptr(), 16, ptr::null(), 0, ptr::null(), 1, ptrs.as_ptr(), sixteen.as_ptr(), out.as_mut_ptr(), &mut len) };
    assert_eq!((rc, len), (MB_ERR_KEY_LENGTH, 0));
}

#[test]
fn counts_no_memory_holds_are_param_errors_not_aborts() {
    let key = bytes(7, 32);
    let iv = [0u8; 16];
    let data = [0u8; 16];
    // Arrays of one message: a count past it is the caller's mistake, but
    // these counts are refused before the arrays are read.
    let ptrs = [data.as_ptr()];
    let lens = [16usize];
    let mut out_lens = [0usize; 1];
    let (c, mac, cbc) = (c"kuznyechik".as_ptr(), c"mac".as_ptr(), c"cbc".as_ptr());
    for count in [1usize << 40, 1 << 59, 1 << 62, isize::MAX as usize, usize::MAX] {
        let mut out = [0xA5u8; 64];
        let mut len = out.len();
        let rc = unsafe { mb_mac_many(c, mac, key.as_ptr(), 32, ptr::null(), 0, ptr::null(), count, ptrs.as_ptr(), lens.as_ptr(), out.as_mut_ptr(), &mut len) };
        assert_eq!((rc, len), (MB_ERR_PARAM, 0), "mac count {count}");
        len = out.len();
        let rc = unsafe {
            mb_encrypt_many(c, cbc, key.as_ptr(), 32, iv.as_ptr(), 16, ptr::null(), count, ptrs.as_ptr(), lens.as_ptr(), out.as_mut_ptr(), &mut len, out_lens.as_mut_ptr())
        };
        assert_eq!((rc, len), (MB_ERR_PARAM, 0), "encrypt count {count}");
        let last = unsafe { CStr::from_ptr(crate::info::mb_last_error()) }.to_string_lossy().into_owned();
        assert!(last.contains(&format!("count {count}")), "{last}");
        assert!(out.iter().all(|&b| b == 0xA5), "count {count}: nothing written");
    }
}

#[test]
fn aead_and_key_wrap_are_refused_with_the_reason() {
    let data = [0u8; 32];
    let ptrs = [data.as_ptr(), data.as_ptr()];
    let lens = [32usize, 16];
    for (cipher, mode, key_len, iv_len) in
        [(c"kuznyechik", c"mgm", 32, 16), (c"magma", c"mgm", 32, 8), (c"kalyna-128-128", c"gcm", 16, 16), (c"kalyna-256-256", c"ccm", 32, 32), (c"kalyna-128-128", c"kw", 16, 0)]
    {
        let key = bytes(3, key_len);
        let iv = bytes(4, iv_len);
        let ivp = if iv_len == 0 { ptr::null() } else { iv.as_ptr() };
        let mut out = [0u8; 256];
        let mut len = out.len();
        let mut out_lens = [0usize; 2];
        let rc = unsafe {
            mb_encrypt_many(cipher.as_ptr(), mode.as_ptr(), key.as_ptr(), key_len, ivp, iv_len, ptr::null(), 2, ptrs.as_ptr(), lens.as_ptr(), out.as_mut_ptr(), &mut len, out_lens.as_mut_ptr())
        };
        let last = unsafe { CStr::from_ptr(crate::info::mb_last_error()) }.to_string_lossy().into_owned();
        assert_eq!((rc, len), (MB_ERR_PARAM, 0), "{cipher:?} {mode:?}: {last}");
        let want = format!(
            "{} is not available for many messages at once: each message needs its own nonce (AEAD) or integrity check (KW); encrypt them one at a time",
            mode.to_str().unwrap()
        );
        assert_eq!(last, want, "{cipher:?} {mode:?}");
    }
}
