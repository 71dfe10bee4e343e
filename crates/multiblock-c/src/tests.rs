//! The ABI called as C would call it: bad pointers and short buffers give
//! status codes (never a crash), and results equal the Rust library's.

use std::ffi::{c_char, c_int, CStr};
use std::ptr;

use multiblock::modes::{self, Mode, Params, Request};
use multiblock::{BackendChoice, Cipher, CipherId};

use crate::handle::*;
use crate::info::*;
use crate::oneshot::*;
use crate::status::*;

fn last() -> String {
    unsafe { CStr::from_ptr(mb_last_error()) }.to_str().unwrap().to_string()
}

/// Deterministic bytes (xorshift), so failures reproduce.
pub(crate) fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

pub(crate) fn zero_params() -> MbParams {
    MbParams {
        s: 0,
        m: 0,
        mac_bits: 0,
        tag_bits: 0,
        section_bytes: 0,
        key_section_bytes: 0,
        nb: 0,
        padding: 0,
        key_meshing: 0,
        sbox: ptr::null(),
        backend: ptr::null(),
        data_unit: 0,
        unit: 0,
    }
}

/// mb_encrypt/mb_decrypt with a buffer of `cap` bytes; returns (status, *out_len, buffer).
#[allow(clippy::too_many_arguments)] // mirrors the C signature it calls
fn crypt(encrypt: bool, cipher: &CStr, mode: &CStr, key: &[u8], iv: Option<&[u8]>, aad: &[u8], params: Option<&MbParams>, data: &[u8], cap: usize) -> (c_int, usize, Vec<u8>) {
    let mut out = vec![0xA5u8; cap];
    let mut len = cap;
    let f = if encrypt { mb_encrypt } else { mb_decrypt };
    let rc = unsafe {
        f(
            cipher.as_ptr(),
            mode.as_ptr(),
            key.as_ptr(),
            key.len(),
            iv.map_or(ptr::null(), |v| v.as_ptr()),
            iv.map_or(0, |v| v.len()),
            aad.as_ptr(),
            aad.len(),
            params.map_or(ptr::null(), |p| p as *const MbParams),
            data.as_ptr(),
            data.len(),
            if cap == 0 { ptr::null_mut() } else { out.as_mut_ptr() },
            &mut len,
        )
    };
    (rc, len, out)
}

#[test]
fn every_status_has_its_own_message() {
    let mut seen = std::collections::HashSet::new();
    for code in MB_OK..=MB_ERR_UNKNOWN_HASH {
        let msg = unsafe { CStr::from_ptr(mb_strerror(code)) }.to_str().unwrap();
        assert!(!msg.is_empty() && !msg.starts_with("unknown multiblock"), "code {code}");
        assert!(seen.insert(msg), "code {code} repeats a message");
    }
    // The codes that hashes, MACs and KDFs return too name no one family.
    for code in [MB_ERR_KEY_LENGTH, MB_ERR_UNKNOWN_BACKEND, MB_ERR_BACKEND_UNAVAILABLE, MB_ERR_PARAM, MB_ERR_AUTHENTICATION] {
        let msg = unsafe { CStr::from_ptr(mb_strerror(code)) }.to_str().unwrap();
        assert!(!msg.contains("cipher") && !msg.contains("mode"), "code {code}: {msg}");
    }
    for code in [-1, MB_ERR_UNKNOWN_HASH + 1, c_int::MAX] {
        let msg = unsafe { CStr::from_ptr(mb_strerror(code)) }.to_str().unwrap();
        assert_eq!(msg, "unknown multiblock status code");
    }
    let v = unsafe { CStr::from_ptr(mb_version()) }.to_str().unwrap();
    assert_eq!(v, env!("CARGO_PKG_VERSION"));
}

#[test]
fn null_pointers_are_status_codes() {
    let key = [0u8; 32];
    let mut h: *mut MbCipher = ptr::null_mut();
    unsafe {
        assert_eq!(mb_cipher_new(ptr::null_mut(), c"kuznyechik".as_ptr(), key.as_ptr(), 32, ptr::null(), ptr::null()), MB_ERR_NULL_POINTER);
        assert_eq!(mb_cipher_new(&mut h, ptr::null(), key.as_ptr(), 32, ptr::null(), ptr::null()), MB_ERR_NULL_POINTER);
        assert!(last().contains("cipher"), "{}", last());
        assert_eq!(mb_cipher_new(&mut h, c"kuznyechik".as_ptr(), ptr::null(), 32, ptr::null(), ptr::null()), MB_ERR_NULL_POINTER);
        assert!(h.is_null());
        let mut buf = [0u8; 16];
        assert_eq!(mb_cipher_encrypt_blocks(ptr::null(), buf.as_ptr(), buf.as_mut_ptr(), 16), MB_ERR_NULL_POINTER);
        assert!(mb_cipher_backend(ptr::null()).is_null());
        assert_eq!(mb_cipher_block_bytes(ptr::null()), 0);
        mb_cipher_free(ptr::null_mut());

        assert_eq!(mb_cipher_new(&mut h, c"kuznyechik".as_ptr(), key.as_ptr(), 32, ptr::null(), ptr::null()), MB_OK);
        assert_eq!(last(), "");
        assert_eq!(mb_cipher_encrypt_blocks(h, ptr::null(), buf.as_mut_ptr(), 16), MB_ERR_NULL_POINTER);
        assert_eq!(mb_cipher_decrypt_blocks(h, buf.as_ptr(), ptr::null_mut(), 16), MB_ERR_NULL_POINTER);
        // Zero bytes need no buffers.
        assert_eq!(mb_cipher_encrypt_blocks(h, ptr::null(), ptr::null_mut(), 0), MB_OK);
        mb_cipher_free(h);

        let mut len = 64usize;
        let mut out = [0u8; 64];
        let e = |c: *const c_char, m: *const c_char, k: *const u8, d: *const u8, dl: usize, o: *mut u8, ol: *mut usize| {
            mb_encrypt(c, m, k, 32, ptr::null(), 0, ptr::null(), 0, ptr::null(), d, dl, o, ol)
        };
        assert_eq!(e(ptr::null(), c"ecb".as_ptr(), key.as_ptr(), buf.as_ptr(), 16, out.as_mut_ptr(), &mut len), MB_ERR_NULL_POINTER);
        assert_eq!(len, 0, "*out_len is 0 after an error");
        len = 64;
        assert_eq!(e(c"kuznyechik".as_ptr(), ptr::null(), key.as_ptr(), buf.as_ptr(), 16, out.as_mut_ptr(), &mut len), MB_ERR_NULL_POINTER);
        len = 64;
        assert_eq!(e(c"kuznyechik".as_ptr(), c"ecb".as_ptr(), key.as_ptr(), ptr::null(), 16, out.as_mut_ptr(), &mut len), MB_ERR_NULL_POINTER);
        assert!(last().contains("data"), "{}", last());
        assert_eq!(e(c"kuznyechik".as_ptr(), c"ecb".as_ptr(), key.as_ptr(), buf.as_ptr(), 16, out.as_mut_ptr(), ptr::null_mut()), MB_ERR_NULL_POINTER);
        len = 64;
        assert_eq!(e(c"kuznyechik".as_ptr(), c"ecb".as_ptr(), key.as_ptr(), buf.as_ptr(), 16, ptr::null_mut(), &mut len), MB_ERR_NULL_POINTER);
        // A NULL iv with a length is an error, not "no iv".
        len = 64;
        let rc = mb_encrypt(c"kuznyechik".as_ptr(), c"ctr".as_ptr(), key.as_ptr(), 32, ptr::null(), 8, ptr::null(), 0, ptr::null(), buf.as_ptr(), 16, out.as_mut_ptr(), &mut len);
        assert_eq!(rc, MB_ERR_NULL_POINTER);
        assert_eq!(mb_cipher_sizes(ptr::null(), ptr::null_mut(), ptr::null_mut()), MB_ERR_NULL_POINTER);
    }
}

#[test]
fn short_buffers_report_the_size_and_write_nothing() {
    let key = bytes(1, 32);
    let iv = bytes(2, 16);
    let aad = bytes(3, 5);
    let data = bytes(4, 37);
    let params = MbParams { tag_bits: 96, ..zero_params() };
    let req = Request {
        cipher: CipherId::Kuznyechik,
        mode: Mode::Mgm,
        key: &key,
        sbox: None,
        backend: BackendChoice::Auto,
        params: Params { iv: Some(iv.clone()), aad: aad.clone(), tag_bits: Some(96), ..Params::default() },
    };
    let expect = modes::encrypt(&req, &data).unwrap();
    assert_eq!(expect.len(), 37 + 12);

    // Size query: out = NULL, *out_len = 0.
    let (rc, len, _) = crypt(true, c"kuznyechik", c"mgm", &key, Some(&iv), &aad, Some(&params), &data, 0);
    assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, expect.len()));
    assert!(last().contains("needs 49"), "{}", last());
    // One byte short: nothing written.
    let (rc, len, out) = crypt(true, c"kuznyechik", c"mgm", &key, Some(&iv), &aad, Some(&params), &data, expect.len() - 1);
    assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, expect.len()));
    assert!(out.iter().all(|&b| b == 0xA5));
    // Exact and larger buffers: the library's bytes.
    for cap in [expect.len(), expect.len() + 100] {
        let (rc, len, out) = crypt(true, c"kuznyechik", c"mgm", &key, Some(&iv), &aad, Some(&params), &data, cap);
        assert_eq!((rc, len), (MB_OK, expect.len()));
        assert_eq!(&out[..len], &expect[..]);
        assert!(out[len..].iter().all(|&b| b == 0xA5));
    }
    // Opening gives the data back; a changed tag gives the distinct code and no plaintext.
    let (rc, len, out) = crypt(false, c"kuznyechik", c"mgm", &key, Some(&iv), &aad, Some(&params), &expect, 64);
    assert_eq!((rc, &out[..len]), (MB_OK, &data[..]));
    let mut bad = expect.clone();
    *bad.last_mut().unwrap() ^= 1;
    let (rc, len, out) = crypt(false, c"kuznyechik", c"mgm", &key, Some(&iv), &aad, Some(&params), &bad, 64);
    assert_eq!((rc, len), (MB_ERR_AUTHENTICATION, 0));
    assert!(out.iter().all(|&b| b == 0xA5), "no plaintext after a failed tag");
    assert!(last().contains("authentication failed"), "{}", last());
}

#[test]
fn in_place_one_shot_works() {
    let key = bytes(5, 32);
    let iv = bytes(6, 16);
    let mut buf = bytes(7, 64);
    let orig = buf.clone();
    let mut len = buf.len();
    let rc = unsafe {
        mb_encrypt(c"kalyna-128-256".as_ptr(), c"cbc".as_ptr(), key.as_ptr(), 32, iv.as_ptr(), 16, ptr::null(), 0, ptr::null(), buf.as_ptr(), 64, buf.as_mut_ptr(), &mut len)
    };
    assert_eq!((rc, len), (MB_OK, 64));
    let req = Request {
        cipher: CipherId::Kalyna128_256,
        mode: Mode::Cbc,
        key: &key,
        sbox: None,
        backend: BackendChoice::Auto,
        params: Params { iv: Some(iv.clone()), ..Params::default() },
    };
    assert_eq!(buf, modes::encrypt(&req, &orig).unwrap());
}

#[test]
fn wrong_names_keys_and_params_are_status_codes() {
    let key = bytes(8, 32);
    let data = bytes(9, 32);
    let check = |cipher: &CStr, mode: &CStr, key: &[u8], params: Option<&MbParams>, code: c_int, words: &str| {
        let (rc, len, _) = crypt(true, cipher, mode, key, None, &[], params, &data, 200);
        assert_eq!((rc, len), (code, 0), "{cipher:?} {mode:?}: {}", last());
        assert!(last().contains(words), "{:?}: {}", words, last());
    };
    check(c"kuznyechik", c"ecb", &key[..16], None, MB_ERR_KEY_LENGTH, "needs a key of 32 bytes");
    check(c"no-such", c"ecb", &key, None, MB_ERR_UNKNOWN_CIPHER, "unknown cipher 'no-such'");
    check(c"ublock-128-128", c"ctr", &key[..16], None, MB_ERR_UNKNOWN_MODE, "unknown mode 'ctr'");
    check(c"kuznyechik", c"mac", &key, None, MB_ERR_PARAM, "use `mac`");
    check(c"kuznyechik", c"ecb", &key, Some(&MbParams { padding: 9, ..zero_params() }), MB_ERR_PARAM, "unknown padding 9");
    check(c"kuznyechik", c"ecb", &key, Some(&MbParams { sbox: c"test".as_ptr(), ..zero_params() }), MB_ERR_SBOX_NOT_APPLICABLE, "fixed S-box");
    check(c"gost89", c"ecb", &key, Some(&MbParams { sbox: c"nope".as_ptr(), ..zero_params() }), MB_ERR_UNKNOWN_SBOX, "unknown S-box set 'nope'");
    check(c"gost89", c"ecb", &key, Some(&MbParams { backend: c"nope".as_ptr(), ..zero_params() }), MB_ERR_UNKNOWN_BACKEND, "no backend 'nope'");
    let bad_utf8 = c"\xff\xfe";
    check(bad_utf8, c"ecb", &key, None, MB_ERR_INVALID_STRING, "UTF-8");
    // ECB takes only a padding: every other parameter is refused, as the
    // header promises for every mode.
    let p = zero_params;
    for (params, flag) in [
        (MbParams { tag_bits: 64, ..p() }, "--tag-bits"),
        (MbParams { s: 64, ..p() }, "--s"),
        (MbParams { nb: 8, ..p() }, "--nb"),
        (MbParams { section_bytes: 32, ..p() }, "--section-bytes"),
        (MbParams { key_meshing: 1, ..p() }, "--key-meshing"),
        (MbParams { mac_bits: 32, ..p() }, "--mac-bits"),
    ] {
        check(c"kuznyechik", c"ecb", &key, Some(&params), MB_ERR_PARAM, &format!("ecb takes no {flag}"));
    }
    let (rc, _, _) = crypt(true, c"kuznyechik", c"ecb", &key, None, b"aad", None, &data, 200);
    assert_eq!(rc, MB_ERR_PARAM, "{}", last());
    assert!(last().contains("ecb takes no --aad"), "{}", last());

    let mut h: *mut MbCipher = ptr::null_mut();
    let rc = unsafe { mb_cipher_new(&mut h, c"kalyna-512-512".as_ptr(), key.as_ptr(), 32, ptr::null(), ptr::null()) };
    assert_eq!(rc, MB_ERR_KEY_LENGTH);
    assert!(h.is_null());
    assert!(last().contains("kalyna-512-512 needs a key of 64 bytes"), "{}", last());
    let (mut b, mut k) = (0usize, 0usize);
    assert_eq!(unsafe { mb_cipher_sizes(c"kalyna-256-512".as_ptr(), &mut b, &mut k) }, MB_OK);
    assert_eq!((b, k), (32, 64));
}

#[test]
fn handle_matches_the_library_and_refuses_partial_blocks() {
    for id in CipherId::ALL {
        let name = std::ffi::CString::new(id.name()).unwrap();
        let key = bytes(id as u64 + 10, id.key_bytes());
        let n = id.block_bytes();
        let mut h: *mut MbCipher = ptr::null_mut();
        assert_eq!(unsafe { mb_cipher_new(&mut h, name.as_ptr(), key.as_ptr(), key.len(), ptr::null(), c"reference".as_ptr()) }, MB_OK);
        assert_eq!(unsafe { CStr::from_ptr(mb_cipher_backend(h)) }.to_str().unwrap(), "reference");
        assert_eq!(unsafe { mb_cipher_block_bytes(h) }, n);
        let lib = Cipher::new(id.name(), &key, None, None).unwrap();
        let data = bytes(id as u64 + 20, 7 * n);
        let mut expect = data.clone();
        lib.encrypt_blocks(&mut expect).unwrap();

        let mut out = vec![0u8; data.len()];
        assert_eq!(unsafe { mb_cipher_encrypt_blocks(h, data.as_ptr(), out.as_mut_ptr(), data.len()) }, MB_OK);
        assert_eq!(out, expect, "{id} out of place");
        let mut inplace = out.clone();
        assert_eq!(unsafe { mb_cipher_decrypt_blocks(h, inplace.as_ptr(), inplace.as_mut_ptr(), inplace.len()) }, MB_OK);
        assert_eq!(inplace, data, "{id} in place");

        let mut untouched = vec![0x5Au8; n + 1];
        let rc = unsafe { mb_cipher_encrypt_blocks(h, data.as_ptr(), untouched.as_mut_ptr(), n + 1) };
        assert_eq!(rc, MB_ERR_DATA_LENGTH, "{id}");
        assert!(untouched.iter().all(|&b| b == 0x5A));
        assert!(last().contains(&format!("whole {n}-byte blocks")), "{}", last());
        unsafe { mb_cipher_free(h) };
    }
}

#[test]
fn last_error_belongs_to_its_thread() {
    let (rc, _, _) = crypt(true, c"nope", c"ecb", &[0; 32], None, &[], None, &[], 0);
    assert_eq!(rc, MB_ERR_UNKNOWN_CIPHER);
    let here = last();
    std::thread::spawn(|| {
        assert_eq!(last(), "", "a new thread starts with no message");
        let (rc, _, _) = crypt(true, c"kuznyechik", c"ecb", &[0; 32], None, &[], None, &[0; 16], 16);
        assert_eq!(rc, MB_OK);
    })
    .join()
    .unwrap();
    assert_eq!(last(), here);
}

#[test]
fn a_panic_becomes_an_internal_error() {
    let rc = guard(|| panic!("boom"));
    assert_eq!(rc, MB_ERR_INTERNAL);
    assert!(last().contains("boom"), "{}", last());
}

#[test]
fn key_meshing_reaches_the_library() {
    // CryptoPro key meshing changes the key every 1024 bytes: 3000 bytes of
    // gost89 CNT differ with and without it, and each equals the library's.
    let key = bytes(30, 32);
    let iv = bytes(31, 8);
    let data = bytes(32, 3000);
    let mut outs = Vec::new();
    for meshing in [false, true] {
        let p = MbParams { key_meshing: meshing as c_int, sbox: c"cryptopro-a".as_ptr(), ..zero_params() };
        let (rc, len, out) = crypt(true, c"gost89", c"cnt", &key, Some(&iv), &[], Some(&p), &data, 3000);
        assert_eq!((rc, len), (MB_OK, 3000), "{}", last());
        let req = Request {
            cipher: CipherId::Gost89,
            mode: Mode::Cnt,
            key: &key,
            sbox: Some("cryptopro-a"),
            backend: BackendChoice::Auto,
            params: Params { iv: Some(iv.clone()), key_meshing: meshing, ..Params::default() },
        };
        assert_eq!(out, modes::encrypt(&req, &data).unwrap(), "meshing {meshing}");
        outs.push(out);
    }
    assert_eq!(outs[0][..1024], outs[1][..1024]);
    assert_ne!(outs[0][1024..], outs[1][1024..]);
}

#[test]
fn kuznyechik_xts_takes_data_unit_and_unit() {
    let key = bytes(31, 64);
    let volume = bytes(32, 6 * 512 + 40);
    let first = u64::MAX - 2;
    let params = MbParams { data_unit: 512, unit: first, ..zero_params() };
    let req = Request {
        cipher: CipherId::Kuznyechik,
        mode: Mode::Xts,
        key: &key,
        sbox: None,
        backend: BackendChoice::Auto,
        params: Params { data_unit: Some(512), unit: Some(u128::from(first)), ..Params::default() },
    };
    let expect = modes::encrypt(&req, &volume).unwrap();
    let (rc, len, out) = crypt(true, c"kuznyechik", c"xts", &key, None, &[], Some(&params), &volume, volume.len());
    assert_eq!((rc, len), (MB_OK, volume.len()), "{}", last());
    assert_eq!(out, expect);
    // Units 2..5 on their own, numbered from first + 2 (past 2^64 - 1).
    let from_2 = MbParams { unit: first + 2, ..params };
    let (rc, _, back) = crypt(false, c"kuznyechik", c"xts", &key, None, &[], Some(&from_2), &expect[1024..2560], 1536);
    assert_eq!(rc, MB_OK, "{}", last());
    assert_eq!(back, volume[1024..2560]);
    for (p, k, code, words) in [
        (MbParams { data_unit: 500, ..zero_params() }, &key[..], MB_ERR_PARAM, "multiple of 16"),
        (MbParams { data_unit: 512, ..zero_params() }, &key[..32], MB_ERR_PARAM, "64 bytes"),
        (MbParams { unit: 3, ..zero_params() }, &key[..], MB_ERR_PARAM, "--data-unit"),
    ] {
        let (rc, len, _) = crypt(true, c"kuznyechik", c"xts", k, None, &[], Some(&p), &volume[..512], 512);
        assert_eq!((rc, len), (code, 0), "{words}: {}", last());
        assert!(last().contains(words), "{words}: {}", last());
    }
    let p = MbParams { data_unit: 512, ..zero_params() };
    let (rc, _, _) = crypt(true, c"kuznyechik", c"ctr", &key[..32], Some(&[0; 8]), &[], Some(&p), &volume[..16], 16);
    assert_eq!(rc, MB_ERR_PARAM);
    assert!(last().contains("--data-unit"), "{}", last());
}
