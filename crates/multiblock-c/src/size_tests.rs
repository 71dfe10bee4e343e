//! Every length and count the ABI takes is checked the same way: one larger
//! than any object (more than SIZE_MAX / 2 bytes) is MB_ERR_PARAM, at every
//! entry point, before any byte is read or written.

use std::ffi::{c_int, CStr};
use std::ptr;

use crate::aead_stream::*;
use crate::handle::*;
use crate::info::mb_last_error;
use crate::many::*;
use crate::oneshot::*;
use crate::status::*;
use crate::stream::*;

/// Lengths no object has: just past isize::MAX, a multiple of every block
/// size near the top, and SIZE_MAX.
const HUGE: [usize; 3] = [isize::MAX as usize + 1, usize::MAX - 15, usize::MAX];

fn refused(rc: c_int, what: &str) {
    let last = unsafe { CStr::from_ptr(mb_last_error()) }.to_string_lossy().into_owned();
    assert_eq!(rc, MB_ERR_PARAM, "{what}: {last}");
    assert!(last.contains("larger than any object"), "{what}: {last}");
}

#[test]
fn the_cipher_handle_refuses_lengths_larger_than_any_object() {
    let key = [3u8; 32];
    let mut buf = [0x5Au8; 64];
    let mut h: *mut MbCipher = ptr::null_mut();
    for huge in HUGE {
        refused(unsafe { mb_cipher_new(&mut h, c"kuznyechik".as_ptr(), key.as_ptr(), huge, ptr::null(), ptr::null()) }, "key_len");
        assert!(h.is_null());
    }
    assert_eq!(unsafe { mb_cipher_new(&mut h, c"kuznyechik".as_ptr(), key.as_ptr(), 32, ptr::null(), ptr::null()) }, MB_OK);
    for huge in HUGE {
        refused(unsafe { mb_cipher_encrypt_blocks(h, buf.as_ptr(), buf.as_mut_ptr(), huge) }, "encrypt len");
        refused(unsafe { mb_cipher_decrypt_blocks(h, buf.as_ptr(), buf.as_mut_ptr(), huge) }, "decrypt len");
        assert!(buf.iter().all(|&b| b == 0x5A), "nothing written");
    }
    unsafe { mb_cipher_free(h) };
}

#[test]
fn one_shot_and_many_calls_refuse_lengths_larger_than_any_object() {
    let key = [3u8; 32];
    let iv = [1u8; 16];
    let data = [2u8; 16];
    let mut out = [0u8; 64];
    let (c, ctr, mgm, mac) = (c"kuznyechik".as_ptr(), c"ctr".as_ptr(), c"mgm".as_ptr(), c"mac".as_ptr());
    for huge in HUGE {
        let mut len = out.len();
        let o = out.as_mut_ptr();
        let (k, i, d) = (key.as_ptr(), iv.as_ptr(), data.as_ptr());
        unsafe {
            refused(mb_encrypt(c, ctr, k, huge, i, 8, ptr::null(), 0, ptr::null(), d, 16, o, &mut len), "key_len");
            refused(mb_encrypt(c, ctr, k, 32, i, huge, ptr::null(), 0, ptr::null(), d, 16, o, &mut len), "iv_len");
            refused(mb_encrypt(c, mgm, k, 32, i, 16, d, huge, ptr::null(), d, 16, o, &mut len), "aad_len");
            refused(mb_encrypt(c, ctr, k, 32, i, 8, ptr::null(), 0, ptr::null(), d, huge, o, &mut len), "data_len");
            refused(mb_decrypt(c, ctr, k, 32, i, 8, ptr::null(), 0, ptr::null(), d, huge, o, &mut len), "decrypt data_len");
            refused(mb_mac(c, mac, k, 32, ptr::null(), 0, ptr::null(), d, huge, o, &mut len), "mac data_len");
            len = huge;
            refused(mb_encrypt(c, ctr, k, 32, i, 8, ptr::null(), 0, ptr::null(), d, 16, o, &mut len), "*out_len");
            assert_eq!(len, 0, "*out_len is 0 after an error");

            let ptrs = [d];
            let lens = [huge];
            let mut out_lens = [0usize; 1];
            len = out.len();
            refused(mb_mac_many(c, mac, k, 32, ptr::null(), 0, ptr::null(), 1, ptrs.as_ptr(), lens.as_ptr(), o, &mut len), "data_len[0]");
            let cbc = c"cbc".as_ptr();
            let rc = mb_encrypt_many(c, cbc, k, 32, i, 16, ptr::null(), 1, ptrs.as_ptr(), lens.as_ptr(), o, &mut len, out_lens.as_mut_ptr());
            refused(rc, "encrypt_many data_len[0]");
            let sixteen = [16usize];
            len = huge;
            refused(mb_mac_many(c, mac, k, 32, ptr::null(), 0, ptr::null(), 1, ptrs.as_ptr(), sixteen.as_ptr(), o, &mut len), "many *out_len");
        }
    }
}

#[test]
fn streams_refuse_lengths_larger_than_any_object() {
    let key = [3u8; 32];
    let iv = [1u8; 16];
    let mut buf = [0u8; 64];
    let (c, k, i) = (c"kuznyechik".as_ptr(), key.as_ptr(), iv.as_ptr());
    for huge in HUGE {
        unsafe {
            let mut s: *mut MbStream = ptr::null_mut();
            refused(mb_stream_new(&mut s, 1, c, c"ctr".as_ptr(), k, huge, i, 8, ptr::null()), "stream key_len");
            refused(mb_stream_new(&mut s, 1, c, c"ctr".as_ptr(), k, 32, i, huge, ptr::null()), "stream iv_len");
            assert_eq!(mb_stream_new(&mut s, 1, c, c"ctr".as_ptr(), k, 32, i, 8, ptr::null()), MB_OK);
            let mut len = buf.len();
            refused(mb_stream_update(s, buf.as_ptr(), huge, buf.as_mut_ptr(), &mut len), "stream in_len");
            len = huge;
            refused(mb_stream_update(s, buf.as_ptr(), 16, buf.as_mut_ptr(), &mut len), "stream update *out_len");
            len = huge;
            refused(mb_stream_final(s, buf.as_mut_ptr(), &mut len), "stream final *out_len");
            len = buf.len();
            assert_eq!(mb_stream_final(s, buf.as_mut_ptr(), &mut len), MB_OK, "the refused calls changed nothing");
            mb_stream_free(s);

            let mut m: *mut MbMacStream = ptr::null_mut();
            refused(mb_mac_stream_new(&mut m, c, c"mac".as_ptr(), k, huge, ptr::null(), 0, ptr::null()), "mac stream key_len");
            assert_eq!(mb_mac_stream_new(&mut m, c, c"mac".as_ptr(), k, 32, ptr::null(), 0, ptr::null()), MB_OK);
            refused(mb_mac_stream_update(m, buf.as_ptr(), huge), "mac stream len");
            len = huge;
            refused(mb_mac_stream_final(m, buf.as_mut_ptr(), &mut len), "mac stream *out_len");
            mb_mac_stream_free(m);

            let mut a: *mut MbAeadStream = ptr::null_mut();
            let mgm = c"mgm".as_ptr();
            let unknown = MB_TEXT_LEN_UNKNOWN;
            refused(mb_aead_stream_new(&mut a, 1, c, mgm, k, 32, i, 16, buf.as_ptr(), huge, ptr::null(), unknown, ptr::null(), 0), "aad_len");
            refused(mb_aead_stream_new(&mut a, 0, c, mgm, k, 32, i, 16, ptr::null(), 0, ptr::null(), unknown, buf.as_ptr(), huge), "tag_len");
            assert_eq!(mb_aead_stream_new(&mut a, 1, c, mgm, k, 32, i, 16, ptr::null(), 0, ptr::null(), unknown, ptr::null(), 0), MB_OK);
            len = buf.len();
            refused(mb_aead_stream_update(a, buf.as_ptr(), huge, buf.as_mut_ptr(), &mut len), "aead in_len");
            let mut tag = [0u8; 64];
            let mut tag_len = huge;
            len = buf.len();
            refused(mb_aead_stream_final(a, buf.as_mut_ptr(), &mut len, tag.as_mut_ptr(), &mut tag_len), "aead *tag_len");
            len = huge;
            tag_len = tag.len();
            refused(mb_aead_stream_final(a, buf.as_mut_ptr(), &mut len, tag.as_mut_ptr(), &mut tag_len), "aead *out_len");
            mb_aead_stream_free(a);
        }
    }
}
