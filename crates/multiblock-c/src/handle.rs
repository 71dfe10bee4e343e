//! The keyed cipher handle (`mb_cipher`): ECB over whole blocks on the
//! backend chosen when it was keyed.

use std::ffi::{c_char, c_int, CString};
use std::ptr;

use multiblock::{Cipher, Error};

use crate::args;
use crate::status::{guard, Failure};

/// What `mb_cipher *` points at. The round keys live in the library's
/// kernels, which zeroize them on drop; the caller's key is never copied.
pub struct MbCipher {
    cipher: Cipher,
    /// The backend's name as a C string, owned here so that
    /// `mb_cipher_backend` can return a pointer valid until `mb_cipher_free`.
    backend: CString,
}

/// Keys `cipher_name` with `key`; `*out` receives the handle (NULL on error).
///
/// # Safety
/// See `mb_cipher_new` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_cipher_new(
    out: *mut *mut MbCipher,
    cipher_name: *const c_char,
    key: *const u8,
    key_len: usize,
    sbox: *const c_char,
    backend: *const c_char,
) -> c_int {
    guard(|| {
        let make = || {
            // SAFETY (the four reads): the header's contract on these arguments.
            let name = unsafe { args::name(cipher_name, "cipher") }?;
            let key = unsafe { args::bytes(key, key_len, "key") }?;
            let sbox = unsafe { args::optional_name(sbox, "sbox") }?;
            let backend = unsafe { args::optional_name(backend, "backend") }?;
            let cipher = Cipher::new(name, key, sbox, backend)?;
            let backend = CString::new(cipher.backend().name).expect("backend names hold no NUL");
            Ok(MbCipher { cipher, backend })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the header's contract).
        unsafe { args::new_handle(out, make) }
    })
}

/// Shared body of the two ECB directions.
unsafe fn crypt_blocks(handle: *const MbCipher, input: *const u8, output: *mut u8, len: usize, encrypt: bool) -> c_int {
    guard(|| {
        // SAFETY: a handle from `mb_cipher_new` not yet freed, or NULL.
        let handle = unsafe { handle.as_ref() }.ok_or_else(|| Failure::null("cipher"))?;
        let c = &handle.cipher;
        args::fits_object::<u8>(len, "len")?;
        if !len.is_multiple_of(c.block_bytes()) {
            // Checked before anything is written to `output`.
            let err = Error::DataLength { cipher: c.id().name(), block_bytes: c.block_bytes(), got: len };
            return Err(err.into());
        }
        if len == 0 {
            return Ok(());
        }
        if input.is_null() {
            return Err(Failure::null("in"));
        }
        if output.is_null() {
            return Err(Failure::null("out"));
        }
        // SAFETY: both hold `len` bytes by the header's contract; `ptr::copy`
        // is a memmove, so `in == out` (in place) is fine. After it only
        // `output` is used.
        unsafe { ptr::copy(input, output, len) };
        let data = unsafe { std::slice::from_raw_parts_mut(output, len) };
        if encrypt {
            c.encrypt_blocks(data)?;
        } else {
            c.decrypt_blocks(data)?;
        }
        Ok(())
    })
}

/// # Safety
/// See `mb_cipher_encrypt_blocks` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_cipher_encrypt_blocks(
    cipher: *const MbCipher,
    input: *const u8,
    output: *mut u8,
    len: usize,
) -> c_int {
    // SAFETY: passed on.
    unsafe { crypt_blocks(cipher, input, output, len, true) }
}

/// # Safety
/// See `mb_cipher_decrypt_blocks` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_cipher_decrypt_blocks(
    cipher: *const MbCipher,
    input: *const u8,
    output: *mut u8,
    len: usize,
) -> c_int {
    // SAFETY: passed on.
    unsafe { crypt_blocks(cipher, input, output, len, false) }
}

/// The backend's name, or NULL for a NULL handle.
///
/// # Safety
/// `cipher` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn mb_cipher_backend(cipher: *const MbCipher) -> *const c_char {
    // SAFETY: NULL or live, by the contract.
    unsafe { cipher.as_ref() }.map_or(ptr::null(), |h| h.backend.as_ptr())
}

/// The block size in bytes, or 0 for a NULL handle.
///
/// # Safety
/// `cipher` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn mb_cipher_block_bytes(cipher: *const MbCipher) -> usize {
    // SAFETY: NULL or live, by the contract.
    unsafe { cipher.as_ref() }.map_or(0, |h| h.cipher.block_bytes())
}

/// Frees a handle (its round keys are zeroized); NULL is ignored.
///
/// # Safety
/// `cipher` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn mb_cipher_free(cipher: *mut MbCipher) {
    if !cipher.is_null() {
        // Dropping cannot panic in practice; a panic here still must not
        // unwind into C.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // SAFETY: made by Box::into_raw in mb_cipher_new, freed once.
            drop(unsafe { Box::from_raw(cipher) });
        }));
    }
}
