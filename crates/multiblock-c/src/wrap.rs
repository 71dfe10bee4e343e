//! Key export and key wrap (`mb_kexp15`, `mb_kimp15`, `mb_dstu7624_wrap`,
//! `mb_dstu7624_unwrap`, `mb_gost28147_wrap`, `mb_gost28147_unwrap`):
//! KExp15/KImp15 of R 1323565.1.017-2018, and Dstu7624Wrap and the
//! GOST 28147-89 wrap of the Ukrainian CMS profile, on the library's `wrap`.
//! The output's size is known from the input lengths, so a size query or
//! a short buffer is answered before any key is touched; an unwrap that
//! fails its MAC check writes nothing.

use std::ffi::{c_char, c_int};

use multiblock::magma::SboxSet;
use multiblock::wrap::{
    self, Kexp15Cipher, DSTU7624_KEY_BYTES, DSTU7624_WRAPPED_BYTES, GOST28147_KEY_BYTES, GOST28147_WRAPPED_BYTES,
};
use multiblock::Error;

use crate::args::{self, Output};
use crate::status::{guard, Failure};

/// The KExp15 cipher of a name: "kuznyechik" or "magma".
unsafe fn kexp15_cipher(name: *const c_char) -> Result<Kexp15Cipher, Failure> {
    // SAFETY: the header's contract on `cipher`.
    match unsafe { args::name(name, "cipher") }? {
        "kuznyechik" => Ok(Kexp15Cipher::Kuznyechik),
        "magma" => Ok(Kexp15Cipher::Magma),
        other => Err(Error::Param(format!(
            "KExp15 is defined for \"kuznyechik\" and \"magma\", got \"{}\"",
            other.escape_debug()
        ))
        .into()),
    }
}

/// `Err(too small)` with the size needed when `output` cannot hold `needed` bytes.
unsafe fn room(output: Output, needed: usize) -> Result<Output, Failure> {
    if output.capacity() < needed {
        // SAFETY: passed on.
        return Err(unsafe { output.too_small(needed) });
    }
    Ok(output)
}

/// # Safety
/// See `mb_kexp15` in include/multiblock.h.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mb_kexp15(
    cipher: *const c_char,
    key: *const u8,
    key_len: usize,
    kek_enc: *const u8,
    kek_enc_len: usize,
    kek_mac: *const u8,
    kek_mac_len: usize,
    iv: *const u8,
    iv_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let output = unsafe { Output::new(out, out_len) }?;
        let c = unsafe { kexp15_cipher(cipher) }?;
        let output = unsafe { room(output, key_len.saturating_add(c.mac_bytes())) }?;
        let key = unsafe { args::bytes(key, key_len, "key") }?;
        let enc = unsafe { args::bytes(kek_enc, kek_enc_len, "kek_enc") }?;
        let mac = unsafe { args::bytes(kek_mac, kek_mac_len, "kek_mac") }?;
        let iv = unsafe { args::bytes(iv, iv_len, "iv") }?;
        let blob = wrap::kexp15(c, key, enc, mac, iv)?;
        // SAFETY: checked in Output::new; the export is our own memory.
        unsafe { output.write(&blob) }
    })
}

/// # Safety
/// See `mb_kimp15` in include/multiblock.h.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mb_kimp15(
    cipher: *const c_char,
    blob: *const u8,
    blob_len: usize,
    kek_enc: *const u8,
    kek_enc_len: usize,
    kek_mac: *const u8,
    kek_mac_len: usize,
    iv: *const u8,
    iv_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let output = unsafe { Output::new(out, out_len) }?;
        let c = unsafe { kexp15_cipher(cipher) }?;
        let output = unsafe { room(output, blob_len.saturating_sub(c.mac_bytes())) }?;
        let blob = unsafe { args::bytes(blob, blob_len, "blob") }?;
        let enc = unsafe { args::bytes(kek_enc, kek_enc_len, "kek_enc") }?;
        let mac = unsafe { args::bytes(kek_mac, kek_mac_len, "kek_mac") }?;
        let iv = unsafe { args::bytes(iv, iv_len, "iv") }?;
        let key = wrap::kimp15(c, blob, enc, mac, iv)?;
        // SAFETY: checked in Output::new; the key is our own memory (wiped on drop).
        unsafe { output.write(&key) }
    })
}

/// # Safety
/// See `mb_dstu7624_wrap` in include/multiblock.h.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mb_dstu7624_wrap(
    kek: *const u8,
    kek_len: usize,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let output = unsafe { Output::new(out, out_len) }?;
        let output = unsafe { room(output, DSTU7624_WRAPPED_BYTES) }?;
        let kek = unsafe { args::bytes(kek, kek_len, "kek") }?;
        let key = unsafe { args::bytes(key, key_len, "key") }?;
        // NULL with iv_len 0: a random IV.
        let wrapped = match unsafe { args::optional_bytes(iv, iv_len, "iv") }? {
            None => wrap::dstu7624_wrap(kek, key)?,
            Some(iv) => wrap::dstu7624_wrap_with_iv(kek, key, iv)?,
        };
        // SAFETY: checked in Output::new; the wrapped key is our own memory.
        unsafe { output.write(&wrapped) }
    })
}

/// # Safety
/// See `mb_dstu7624_unwrap` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_dstu7624_unwrap(
    kek: *const u8,
    kek_len: usize,
    wrapped: *const u8,
    wrapped_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let output = unsafe { Output::new(out, out_len) }?;
        let output = unsafe { room(output, DSTU7624_KEY_BYTES) }?;
        let kek = unsafe { args::bytes(kek, kek_len, "kek") }?;
        let wrapped = unsafe { args::bytes(wrapped, wrapped_len, "wrapped") }?;
        let key = wrap::dstu7624_unwrap(kek, wrapped)?;
        // SAFETY: checked in Output::new; the key is our own memory (wiped on drop).
        unsafe { output.write(&key) }
    })
}

/// The S-box set of a name; NULL is DSTU 4145-2002's DKE No. 1.
unsafe fn sbox_set(name: *const c_char) -> Result<SboxSet, Failure> {
    if name.is_null() {
        return Ok(SboxSet::Dstu4145);
    }
    // SAFETY: the header's contract on `sbox`.
    Ok(SboxSet::from_name(unsafe { args::name(name, "sbox") }?)?)
}

/// # Safety
/// See `mb_gost28147_wrap` in include/multiblock.h.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mb_gost28147_wrap(
    sbox: *const c_char,
    kek: *const u8,
    kek_len: usize,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let set = unsafe { sbox_set(sbox) }?;
        let output = unsafe { Output::new(out, out_len) }?;
        let output = unsafe { room(output, GOST28147_WRAPPED_BYTES) }?;
        let kek = unsafe { args::bytes(kek, kek_len, "kek") }?;
        let key = unsafe { args::bytes(key, key_len, "key") }?;
        // NULL with iv_len 0: a random IV.
        let wrapped = match unsafe { args::optional_bytes(iv, iv_len, "iv") }? {
            None => wrap::gost28147_wrap(set, kek, key)?,
            Some(iv) => wrap::gost28147_wrap_with_iv(set, kek, key, iv)?,
        };
        // SAFETY: checked in Output::new; the wrapped key is our own memory.
        unsafe { output.write(&wrapped) }
    })
}

/// # Safety
/// See `mb_gost28147_unwrap` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_gost28147_unwrap(
    sbox: *const c_char,
    kek: *const u8,
    kek_len: usize,
    wrapped: *const u8,
    wrapped_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let set = unsafe { sbox_set(sbox) }?;
        let output = unsafe { Output::new(out, out_len) }?;
        let output = unsafe { room(output, GOST28147_KEY_BYTES) }?;
        let kek = unsafe { args::bytes(kek, kek_len, "kek") }?;
        let wrapped = unsafe { args::bytes(wrapped, wrapped_len, "wrapped") }?;
        let key = wrap::gost28147_unwrap(set, kek, wrapped)?;
        // SAFETY: checked in Output::new; the key is our own memory (wiped on drop).
        unsafe { output.write(&key) }
    })
}

#[cfg(test)]
mod tests {
    //! The calls as C makes them: the published examples (R 1323565.1.017-2018
    //! Appendix B; UAPKI's Dstu7624Wrap self-test), the size query, a changed
    //! byte refused with nothing written, and bad arguments as status codes.

    use super::*;
    use crate::status::*;
    use std::ptr;

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    const KEY: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
    const KEK_MAC: &str = "08090a0b0c0d0e0f0001020304050607101112131415161718191a1b1c1d1e1f";
    const KEK_ENC: &str = "202122232425262728292a2b2c2d2e2f38393a3b3c3d3e3f3031323334353637";
    const KUZ_IV: &str = "0909472dd9f26be8";
    const KUZ_EXPORT: &str = "e36184e84e8d736ff36cc2e5ae065dc656b23c20f549b02fdff88e1f3f30d8c29a53f3ca554dbad80de152b9a4625b32";
    const MAGMA_IV: &str = "67bed654";
    const MAGMA_EXPORT: &str = "cfd5a12d5b81b6e1e99c916d07900c6ac12703fb3abded55567bf3742c899c755dafe7b42e3a8bd9";
    const D_KEK: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    const D_IV: &str = "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f";
    const D_KEY: &str = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100";
    const D_WRAPPED: &str = "7b74fcbf080464f81bf8eaf10621b624a4f053446128396cc2f529bd3e2078dad6bc0b4c5aaf47711d1be5cdc0d4849ec50dc4484f7cf393bc7f5f3e8a8728ca13ddaee30c297d6c82c8751e533a3e7591e7d400b89ae64237f692ec892333cd";

    fn kexp(cipher: &std::ffi::CStr, export: bool, input: &[u8], iv: &[u8], out: &mut [u8]) -> (c_int, usize) {
        let (enc, mac) = (unhex(KEK_ENC), unhex(KEK_MAC));
        let mut len = out.len();
        let f = if export { mb_kexp15 } else { mb_kimp15 };
        let rc = unsafe {
            f(cipher.as_ptr(), input.as_ptr(), input.len(), enc.as_ptr(), enc.len(), mac.as_ptr(), mac.len(), iv.as_ptr(), iv.len(), out.as_mut_ptr(), &mut len)
        };
        (rc, len)
    }

    #[test]
    fn kexp15_examples_size_query_and_tampering() {
        for (name, iv, export) in [(c"kuznyechik", KUZ_IV, KUZ_EXPORT), (c"magma", MAGMA_IV, MAGMA_EXPORT)] {
            let (key, iv, export) = (unhex(KEY), unhex(iv), unhex(export));
            // Size query: NULL-sized buffer reports the length, writes nothing.
            assert_eq!(kexp(name, true, &key, &iv, &mut []), (MB_ERR_BUFFER_TOO_SMALL, export.len()));
            let mut out = vec![0u8; 64];
            let (rc, len) = kexp(name, true, &key, &iv, &mut out);
            assert_eq!((rc, &out[..len]), (MB_OK, &export[..]));
            let (rc, len) = kexp(name, false, &export, &iv, &mut out);
            assert_eq!((rc, &out[..len]), (MB_OK, &key[..]));
            let mut bad = export.clone();
            bad[3] ^= 1;
            let mut out = vec![0xeeu8; 64];
            assert_eq!(kexp(name, false, &bad, &iv, &mut out).0, MB_ERR_AUTHENTICATION);
            assert!(out.iter().all(|&b| b == 0xee), "nothing written");
            assert_eq!(kexp(name, false, &export, &iv[1..], &mut out).0, MB_ERR_PARAM);
        }
        assert_eq!(kexp(c"kalyna-256-256", true, &unhex(KEY), &unhex(KUZ_IV), &mut [0; 64]).0, MB_ERR_PARAM);
        let mut len = 64;
        let rc = unsafe { mb_kexp15(ptr::null(), ptr::null(), 0, ptr::null(), 0, ptr::null(), 0, ptr::null(), 0, [0u8; 64].as_mut_ptr(), &mut len) };
        assert_eq!(rc, MB_ERR_NULL_POINTER);
    }

    #[test]
    fn dstu7624_example_random_iv_and_tampering() {
        let (kek, iv, key, want) = (unhex(D_KEK), unhex(D_IV), unhex(D_KEY), unhex(D_WRAPPED));
        let mut out = [0u8; 96];
        let mut len = 0;
        let rc = unsafe { mb_dstu7624_wrap(kek.as_ptr(), 32, key.as_ptr(), 32, iv.as_ptr(), 32, out.as_mut_ptr(), &mut len) };
        assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, 96));
        let rc = unsafe { mb_dstu7624_wrap(kek.as_ptr(), 32, key.as_ptr(), 32, iv.as_ptr(), 32, out.as_mut_ptr(), &mut len) };
        assert_eq!((rc, &out[..len]), (MB_OK, &want[..]));
        let mut random = [0u8; 96];
        let rc = unsafe { mb_dstu7624_wrap(kek.as_ptr(), 32, key.as_ptr(), 32, ptr::null(), 0, random.as_mut_ptr(), &mut len) };
        assert_eq!((rc, len), (MB_OK, 96));
        assert_ne!(random, out);
        for blob in [&want[..], &random[..]] {
            let mut back = [0u8; 32];
            let mut n = 32;
            let rc = unsafe { mb_dstu7624_unwrap(kek.as_ptr(), 32, blob.as_ptr(), 96, back.as_mut_ptr(), &mut n) };
            assert_eq!((rc, &back[..n]), (MB_OK, &key[..]));
        }
        let mut bad = want.clone();
        bad[95] ^= 0x80;
        let mut back = [0xeeu8; 32];
        let mut n = 32;
        let rc = unsafe { mb_dstu7624_unwrap(kek.as_ptr(), 32, bad.as_ptr(), 96, back.as_mut_ptr(), &mut n) };
        assert_eq!(rc, MB_ERR_AUTHENTICATION);
        assert_eq!((back, n), ([0xee; 32], 0));
        n = 32;
        let rc = unsafe { mb_dstu7624_unwrap(kek.as_ptr(), 32, want.as_ptr(), 95, back.as_mut_ptr(), &mut n) };
        assert_eq!(rc, MB_ERR_PARAM);
        n = 96;
        let rc = unsafe { mb_dstu7624_wrap(kek.as_ptr(), 32, key.as_ptr(), 32, ptr::null(), 5, out.as_mut_ptr(), &mut n) };
        assert_eq!(rc, MB_ERR_NULL_POINTER);
    }

    #[test]
    fn gost28147_example_random_iv_and_tampering() {
        let kek = unhex("01000000010000000100000001000000ffffffffffffffffffffffffffffffff");
        let (iv, key) = (unhex("f477da7aa6424a88"), unhex("01020304010203040102030401020304f1f2f3f4f5f6f7f8f1f2f3f4f5f6f7f8"));
        let want = unhex("52a513f1b4172ca6b5f1b8a03ca9a4e0acb6e00e11e5e9bcdd446222eb97238dc3e4e24d2ec03e05a568ec51");
        let mut out = [0u8; 44];
        let mut len = 0;
        let rc = unsafe { mb_gost28147_wrap(ptr::null(), kek.as_ptr(), 32, key.as_ptr(), 32, iv.as_ptr(), 8, out.as_mut_ptr(), &mut len) };
        assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, 44));
        let rc = unsafe { mb_gost28147_wrap(c"dstu4145".as_ptr(), kek.as_ptr(), 32, key.as_ptr(), 32, iv.as_ptr(), 8, out.as_mut_ptr(), &mut len) };
        assert_eq!((rc, &out[..len]), (MB_OK, &want[..]));
        let mut random = [0u8; 44];
        let rc = unsafe { mb_gost28147_wrap(ptr::null(), kek.as_ptr(), 32, key.as_ptr(), 32, ptr::null(), 0, random.as_mut_ptr(), &mut len) };
        assert_eq!((rc, len), (MB_OK, 44));
        assert_ne!(random, out);
        for blob in [&want[..], &random[..]] {
            let mut back = [0u8; 32];
            let mut n = 32;
            let rc = unsafe { mb_gost28147_unwrap(ptr::null(), kek.as_ptr(), 32, blob.as_ptr(), 44, back.as_mut_ptr(), &mut n) };
            assert_eq!((rc, &back[..n]), (MB_OK, &key[..]));
        }
        let mut bad = want.clone();
        bad[43] ^= 0x80;
        let mut back = [0xeeu8; 32];
        let mut n = 32;
        let rc = unsafe { mb_gost28147_unwrap(ptr::null(), kek.as_ptr(), 32, bad.as_ptr(), 44, back.as_mut_ptr(), &mut n) };
        assert_eq!(rc, MB_ERR_AUTHENTICATION);
        assert_eq!((back, n), ([0xee; 32], 0));
        n = 32;
        let rc = unsafe { mb_gost28147_unwrap(ptr::null(), kek.as_ptr(), 32, want.as_ptr(), 43, back.as_mut_ptr(), &mut n) };
        assert_eq!(rc, MB_ERR_PARAM);
        n = 32;
        let rc = unsafe { mb_gost28147_unwrap(c"no-such-set".as_ptr(), kek.as_ptr(), 32, want.as_ptr(), 44, back.as_mut_ptr(), &mut n) };
        assert_ne!(rc, MB_OK);
    }
}
