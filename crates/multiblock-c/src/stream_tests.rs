//! The streaming ABI (`mb_stream_*`, `mb_mac_stream_*`) against the
//! one-shot ABI on random splits, in place and not, and its errors.

use std::ffi::CStr;
use std::ptr;

use crate::info::mb_cipher_sizes;
use crate::oneshot::*;
use crate::status::*;
use crate::stream::*;
use crate::tests::{bytes, zero_params};

fn pkcs7() -> MbParams {
    MbParams { padding: MB_PADDING_PKCS7, ..zero_params() }
}

/// NULL for no IV, as the modes without one want.
fn ivp(iv: &[u8]) -> *const u8 {
    if iv.is_empty() {
        ptr::null()
    } else {
        iv.as_ptr()
    }
}

fn one_shot(
    encrypt: bool,
    cipher: &CStr,
    mode: &CStr,
    key: &[u8],
    iv: &[u8],
    p: Option<&MbParams>,
    data: &[u8],
) -> Vec<u8> {
    let mut out = vec![0u8; data.len() + 128];
    let mut len = out.len();
    let f = if encrypt { mb_encrypt } else { mb_decrypt };
    let pp = p.map_or(ptr::null(), |p| p as *const MbParams);
    let rc = unsafe {
        f(
            cipher.as_ptr(),
            mode.as_ptr(),
            key.as_ptr(),
            key.len(),
            ivp(iv),
            iv.len(),
            ptr::null(),
            0,
            pp,
            data.as_ptr(),
            data.len(),
            out.as_mut_ptr(),
            &mut len,
        )
    };
    assert_eq!(rc, MB_OK);
    out.truncate(len);
    out
}

/// Streams `data` in pieces of `step` bytes, in place when `in_place`.
#[allow(clippy::too_many_arguments)]
fn streamed(
    encrypt: bool,
    cipher: &CStr,
    mode: &CStr,
    key: &[u8],
    iv: &[u8],
    p: Option<&MbParams>,
    data: &[u8],
    step: usize,
    in_place: bool,
) -> Vec<u8> {
    let mut s = ptr::null_mut();
    let pp = p.map_or(ptr::null(), |p| p as *const MbParams);
    let rc = unsafe {
        mb_stream_new(
            &mut s,
            encrypt as i32,
            cipher.as_ptr(),
            mode.as_ptr(),
            key.as_ptr(),
            key.len(),
            ivp(iv),
            iv.len(),
            pp,
        )
    };
    assert_eq!(rc, MB_OK);
    let mut out = Vec::new();
    for piece in data.chunks(step.max(1)) {
        let mut buf = vec![0u8; piece.len() + 128];
        let mut len = buf.len();
        let rc = if in_place {
            buf[..piece.len()].copy_from_slice(piece);
            unsafe { mb_stream_update(s, buf.as_ptr(), piece.len(), buf.as_mut_ptr(), &mut len) }
        } else {
            unsafe { mb_stream_update(s, piece.as_ptr(), piece.len(), buf.as_mut_ptr(), &mut len) }
        };
        assert_eq!(rc, MB_OK);
        // The modes that output every byte at once (the header's list).
        let bytewise = [&b"ctr"[..], b"ctr-acpkm", b"ofb", b"cnt"].contains(&mode.to_bytes())
            || (mode == c"cfb" && !cipher.to_bytes().starts_with(b"kalyna"));
        assert!(!bytewise || len == piece.len(), "{cipher:?} {mode:?}: {len} of {} bytes", piece.len());
        out.extend_from_slice(&buf[..len]);
    }
    let mut buf = [0u8; 128];
    let mut len = buf.len();
    let rc = unsafe { mb_stream_final(s, buf.as_mut_ptr(), &mut len) };
    assert_eq!(rc, MB_OK, "{len} {}", unsafe { CStr::from_ptr(crate::info::mb_last_error()) }.to_string_lossy());
    out.extend_from_slice(&buf[..len]);
    // Spent after final.
    let mut len = buf.len();
    assert_eq!(unsafe { mb_stream_final(s, buf.as_mut_ptr(), &mut len) }, MB_ERR_PARAM);
    unsafe { mb_stream_free(s) };
    out
}

#[test]
fn streams_equal_one_shot_for_any_split_in_place_or_not() {
    let p7 = pkcs7();
    let cases: [(&CStr, &CStr, usize, Option<&MbParams>); 9] = [
        (c"kuznyechik", c"ctr", 8, None),
        (c"kuznyechik", c"cfb", 16, None),
        (c"gost89", c"cfb", 8, None),
        (c"kalyna-128-128", c"cfb", 16, None),
        (c"magma", c"ctr-acpkm", 4, None),
        (c"kuznyechik", c"cbc", 16, Some(&p7)),
        (c"kalyna-256-512", c"xts", 32, None),
        (c"gost89", c"cnt", 8, None),
        (c"ublock-128-128", c"ecb", 0, Some(&p7)),
    ];
    for (i, (cipher, mode, iv_len, p)) in cases.into_iter().enumerate() {
        let mut key_len = 0;
        assert_eq!(unsafe { mb_cipher_sizes(cipher.as_ptr(), ptr::null_mut(), &mut key_len) }, MB_OK);
        let key = bytes(i as u64, key_len);
        let iv = bytes(100 + i as u64, iv_len);
        for len in [0usize, 1, 15, 16, 33, 64, 1000, 4099] {
            if mode == c"xts" && len < 32 {
                continue;
            }
            let data = bytes(len as u64, len);
            let ct = one_shot(true, cipher, mode, &key, &iv, p, &data);
            for step in [1, 7, 16, 100, 5000] {
                for in_place in [false, true] {
                    let sct = streamed(true, cipher, mode, &key, &iv, p, &data, step, in_place);
                    assert!(sct == ct, "{cipher:?} {mode:?} len {len} step {step} in place {in_place}");
                    let spt = streamed(false, cipher, mode, &key, &iv, p, &ct, step, in_place);
                    assert!(spt == data, "{cipher:?} {mode:?} len {len} step {step}: decrypt");
                }
            }
        }
    }
}

#[test]
fn stream_errors_are_codes() {
    let key = [0u8; 32];
    let mut s = ptr::null_mut();
    // AEAD does not stream; a wrong key or IV length is refused at new.
    let rc = unsafe {
        mb_stream_new(
            &mut s,
            1,
            c"kuznyechik".as_ptr(),
            c"mgm".as_ptr(),
            key.as_ptr(),
            32,
            key.as_ptr(),
            16,
            ptr::null(),
        )
    };
    assert_eq!(rc, MB_ERR_PARAM);
    assert!(s.is_null());
    let rc = unsafe {
        mb_stream_new(
            &mut s,
            1,
            c"kuznyechik".as_ptr(),
            c"ctr".as_ptr(),
            key.as_ptr(),
            16,
            key.as_ptr(),
            8,
            ptr::null(),
        )
    };
    assert_eq!(rc, MB_ERR_KEY_LENGTH);
    let rc = unsafe {
        mb_stream_new(
            &mut s,
            1,
            c"kuznyechik".as_ptr(),
            c"ctr".as_ptr(),
            key.as_ptr(),
            32,
            key.as_ptr(),
            7,
            ptr::null(),
        )
    };
    assert_eq!(rc, MB_ERR_PARAM);
    // A short buffer: the size needed, the stream unchanged.
    let rc = unsafe {
        mb_stream_new(&mut s, 1, c"kuznyechik".as_ptr(), c"ecb".as_ptr(), key.as_ptr(), 32, ptr::null(), 0, ptr::null())
    };
    assert_eq!(rc, MB_OK);
    let data = [1u8; 40];
    let mut out = [0u8; 64];
    let mut len = 10;
    assert_eq!(unsafe { mb_stream_update(s, data.as_ptr(), 40, out.as_mut_ptr(), &mut len) }, MB_ERR_BUFFER_TOO_SMALL);
    assert_eq!(len, 40);
    len = 64;
    assert_eq!(unsafe { mb_stream_update(s, data.as_ptr(), 40, out.as_mut_ptr(), &mut len) }, MB_OK);
    assert_eq!(len, 32);
    // 8 bytes left over: not a whole block at final.
    len = 64;
    assert_eq!(unsafe { mb_stream_final(s, out.as_mut_ptr(), &mut len) }, MB_ERR_DATA_LENGTH);
    unsafe { mb_stream_free(s) };
    unsafe { mb_stream_free(ptr::null_mut()) };
}

#[test]
fn mac_stream_equals_one_shot() {
    for (i, (cipher, mode, key_len, iv_len)) in [
        (c"kuznyechik", c"mac", 32, 0),
        (c"magma", c"omac-acpkm", 32, 0),
        (c"gost89", c"mac", 32, 0),
        (c"kalyna-128-256", c"cmac", 32, 0),
        (c"kalyna-128-128", c"gmac", 16, 16),
    ]
    .into_iter()
    .enumerate()
    {
        let key = bytes(7 + i as u64, key_len);
        let iv = bytes(9 + i as u64, iv_len);
        for len in [0usize, 1, 16, 17, 1000] {
            let data = bytes(len as u64 + 3, len);
            let mut want = [0u8; 64];
            let mut want_len = 64;
            let ivp = if iv_len == 0 { ptr::null() } else { iv.as_ptr() };
            let rc = unsafe {
                mb_mac(
                    cipher.as_ptr(),
                    mode.as_ptr(),
                    key.as_ptr(),
                    key_len,
                    ivp,
                    iv_len,
                    ptr::null(),
                    data.as_ptr(),
                    len,
                    want.as_mut_ptr(),
                    &mut want_len,
                )
            };
            let one_shot_ok = rc == MB_OK;
            let mut s = ptr::null_mut();
            let rc = unsafe {
                mb_mac_stream_new(
                    &mut s,
                    cipher.as_ptr(),
                    mode.as_ptr(),
                    key.as_ptr(),
                    key_len,
                    ivp,
                    iv_len,
                    ptr::null(),
                )
            };
            assert_eq!(rc, MB_OK);
            for piece in data.chunks(5) {
                assert_eq!(unsafe { mb_mac_stream_update(s, piece.as_ptr(), piece.len()) }, MB_OK);
            }
            let mut tag = [0u8; 64];
            let mut tag_len = 64;
            let rc = unsafe { mb_mac_stream_final(s, tag.as_mut_ptr(), &mut tag_len) };
            // Both refuse the same inputs (DSTU CMAC: an empty message).
            assert_eq!(rc == MB_OK, one_shot_ok, "{cipher:?} {mode:?} len {len}");
            assert!(tag[..tag_len] == want[..want_len], "{cipher:?} {mode:?} len {len}");
            assert_eq!(unsafe { mb_mac_stream_update(s, data.as_ptr(), 0) }, MB_ERR_PARAM);
            unsafe { mb_mac_stream_free(s) };
        }
    }
}

/// A final call with `cap` bytes of room (`out` NULL when 0): its status,
/// *out_len, and the bytes written.
fn final_with(s: *mut MbStream, cap: usize) -> (i32, usize, Vec<u8>) {
    let mut buf = vec![0xA5u8; cap];
    let mut len = cap;
    let out = if cap == 0 { ptr::null_mut() } else { buf.as_mut_ptr() };
    let rc = unsafe { mb_stream_final(s, out, &mut len) };
    (rc, len, buf)
}

#[test]
fn a_size_query_or_short_buffer_at_final_keeps_the_last_output() {
    let p7 = pkcs7();
    // (cipher, mode, iv bytes, params, data bytes): final outputs a padded
    // block, XTS's stolen blocks, a partial DSTU CFB block.
    let cases: [(&CStr, &CStr, usize, Option<&MbParams>, usize); 4] = [
        (c"kuznyechik", c"cbc", 16, Some(&p7), 40),
        (c"kalyna-512-512", c"ecb", 0, Some(&p7), 64),
        (c"kalyna-256-512", c"xts", 32, None, 70),
        (c"kalyna-128-128", c"cfb", 16, None, 21),
    ];
    for (i, (cipher, mode, iv_len, p, n)) in cases.into_iter().enumerate() {
        let mut key_len = 0;
        assert_eq!(unsafe { mb_cipher_sizes(cipher.as_ptr(), ptr::null_mut(), &mut key_len) }, MB_OK);
        let key = bytes(40 + i as u64, key_len);
        let iv = bytes(50 + i as u64, iv_len);
        let data = bytes(60 + i as u64, n);
        let want = one_shot(true, cipher, mode, &key, &iv, p, &data);
        let pp = p.map_or(ptr::null(), |p| p as *const MbParams);
        let mut s = ptr::null_mut();
        let rc = unsafe { mb_stream_new(&mut s, 1, cipher.as_ptr(), mode.as_ptr(), key.as_ptr(), key.len(), ivp(&iv), iv.len(), pp) };
        assert_eq!(rc, MB_OK);
        let mut got = vec![0u8; n + 128];
        let mut len = got.len();
        assert_eq!(unsafe { mb_stream_update(s, data.as_ptr(), n, got.as_mut_ptr(), &mut len) }, MB_OK);
        got.truncate(len);
        let rest = want.len() - got.len();
        assert!(rest > 0, "{cipher:?} {mode:?}: final has output");
        // A size query, then a buffer one byte short (left alone), then
        // another size query: each gives the size and keeps the output.
        let (rc, len, _) = final_with(s, 0);
        assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, rest), "{cipher:?} {mode:?}: size query");
        let (rc, len, buf) = final_with(s, rest - 1);
        assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, rest), "{cipher:?} {mode:?}");
        assert!(buf.iter().all(|&b| b == 0xA5), "{cipher:?} {mode:?}: nothing written");
        let (rc, len, _) = final_with(s, 0);
        assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, rest), "{cipher:?} {mode:?}");
        // The message has ended: more input is refused, and changes nothing.
        let mut more = [0u8; 64];
        let mut more_len = more.len();
        assert_eq!(unsafe { mb_stream_update(s, data.as_ptr(), 16, more.as_mut_ptr(), &mut more_len) }, MB_ERR_PARAM);
        // Room enough: the last output, and the whole equals mb_encrypt's.
        let (rc, len, buf) = final_with(s, rest + 10);
        assert_eq!((rc, len), (MB_OK, rest), "{cipher:?} {mode:?}");
        got.extend_from_slice(&buf[..len]);
        assert_eq!(got, want, "{cipher:?} {mode:?}");
        // Spent now.
        assert_eq!(final_with(s, 128).0, MB_ERR_PARAM, "{cipher:?} {mode:?}");
        unsafe { mb_stream_free(s) };
    }
}

#[test]
fn a_size_query_or_short_buffer_at_mac_final_keeps_the_tag() {
    let key = bytes(70, 32);
    let data = bytes(71, 100);
    for mode in [c"mac", c"omac-acpkm"] {
        let mut want = [0u8; 64];
        let mut want_len = want.len();
        let (c, m) = (c"kuznyechik".as_ptr(), mode.as_ptr());
        let rc = unsafe { mb_mac(c, m, key.as_ptr(), 32, ptr::null(), 0, ptr::null(), data.as_ptr(), 100, want.as_mut_ptr(), &mut want_len) };
        assert_eq!(rc, MB_OK, "{mode:?}");
        let tag_bytes = want_len;
        let mut s = ptr::null_mut();
        assert_eq!(unsafe { mb_mac_stream_new(&mut s, c, m, key.as_ptr(), 32, ptr::null(), 0, ptr::null()) }, MB_OK);
        assert_eq!(unsafe { mb_mac_stream_update(s, data.as_ptr(), 100) }, MB_OK);
        let mut len = 0;
        assert_eq!(unsafe { mb_mac_stream_final(s, ptr::null_mut(), &mut len) }, MB_ERR_BUFFER_TOO_SMALL);
        assert_eq!(len, tag_bytes, "{mode:?}: size query");
        let mut tag = [0xA5u8; 64];
        len = tag_bytes - 1;
        assert_eq!(unsafe { mb_mac_stream_final(s, tag.as_mut_ptr(), &mut len) }, MB_ERR_BUFFER_TOO_SMALL);
        assert_eq!(len, tag_bytes, "{mode:?}: short buffer");
        assert!(tag.iter().all(|&b| b == 0xA5), "{mode:?}: nothing written");
        assert_eq!(unsafe { mb_mac_stream_update(s, data.as_ptr(), 1) }, MB_ERR_PARAM, "{mode:?}: the message has ended");
        len = tag.len();
        assert_eq!(unsafe { mb_mac_stream_final(s, tag.as_mut_ptr(), &mut len) }, MB_OK);
        assert_eq!(tag[..len], want[..want_len], "{mode:?}");
        len = tag.len();
        assert_eq!(unsafe { mb_mac_stream_final(s, tag.as_mut_ptr(), &mut len) }, MB_ERR_PARAM, "{mode:?}: spent");
        unsafe { mb_mac_stream_free(s) };
    }
}
