//! Functions that key nothing: version, status messages, cipher sizes.

use std::ffi::{c_char, c_int};

use multiblock::CipherId;

use crate::args;
use crate::status::{self, guard, Failure};

/// The library version, e.g. "0.1.0" (a static string).
#[no_mangle]
pub extern "C" fn mb_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The fixed message of a status code (a static string, never NULL).
#[no_mangle]
pub extern "C" fn mb_strerror(code: c_int) -> *const c_char {
    status::strerror(code).as_ptr()
}

/// The calling thread's last detailed message ("" after a success).
#[no_mangle]
pub extern "C" fn mb_last_error() -> *const c_char {
    status::last_error()
}

/// Block and key size in bytes of a cipher, by name. Either out pointer may
/// be NULL when that size is not wanted.
///
/// # Safety
/// See `mb_cipher_sizes` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_cipher_sizes(cipher: *const c_char, block_bytes: *mut usize, key_bytes: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: the header's contract on `cipher`.
        let id = CipherId::from_name(unsafe { args::name(cipher, "cipher") }?).map_err(Failure::from)?;
        // SAFETY: each is NULL or points at a writable size_t.
        if let Some(b) = unsafe { block_bytes.as_mut() } {
            *b = id.block_bytes();
        }
        if let Some(k) = unsafe { key_bytes.as_mut() } {
            *k = id.key_bytes();
        }
        Ok(())
    })
}
