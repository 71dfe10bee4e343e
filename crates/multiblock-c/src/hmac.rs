//! HMAC over the named hashes (`mb_hmac`, `mb_hmac_*`; RFC 2104, and over
//! Streebog HMAC_GOSTR3411_2012_256 / _512 of RFC 7836 §4.1) on the
//! library's `hash::Hmac`.

use std::ffi::{c_char, c_int};

use multiblock::hash::Hmac;
use multiblock::{BackendChoice, Error};

use crate::args::{self, Output};
use crate::hash::hash_id;
use crate::mac_handle::{self, MacState};
use crate::status::guard;

/// What `mb_hmac_ctx *` points at: the keyed state before any data, to start
/// over from after each final, and the message's state. The library wipes
/// both on drop.
pub struct MbHmac {
    keyed: Hmac,
    current: Hmac,
}

/// # Safety
/// See `mb_hmac` in include/multiblock.h.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mb_hmac(
    algo: *const c_char,
    key: *const u8,
    key_len: usize,
    data: *const u8,
    data_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let output = unsafe { Output::new(out, out_len) }?;
        let id = unsafe { hash_id(algo) }?;
        let key = unsafe { args::bytes(key, key_len, "key") }?;
        let data = unsafe { args::bytes(data, data_len, "data") }?;
        let mut mac = Hmac::new(id, key)?;
        mac.update(data);
        // SAFETY: checked in Output::new; the tag is our own memory.
        unsafe { output.write(&mac.finalize()) }
    })
}

/// # Safety
/// See `mb_hmac_new` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hmac_new(
    out: *mut *mut MbHmac,
    algo: *const c_char,
    key: *const u8,
    key_len: usize,
    backend: *const c_char,
) -> c_int {
    guard(|| {
        let make = || {
            // SAFETY (every read): the header's contract on these arguments.
            let id = unsafe { hash_id(algo) }?;
            let key = unsafe { args::bytes(key, key_len, "key") }?;
            let backend = unsafe { args::optional_name(backend, "backend") }?;
            let keyed = Hmac::with_backend(id, key, backend.map_or(BackendChoice::Auto, BackendChoice::Named))?;
            Ok(MbHmac { current: keyed.clone(), keyed })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the header's contract).
        unsafe { args::new_handle(out, make) }
    })
}

impl MacState for MbHmac {
    const NAME: &'static str = "hmac";
    fn tag_bytes(&self) -> usize {
        self.current.tag_bytes()
    }
    fn update(&mut self, data: &[u8]) {
        self.current.update(data);
    }
    fn finalize_reset(&mut self) -> Vec<u8> {
        std::mem::replace(&mut self.current, self.keyed.clone()).finalize()
    }
    fn verify_reset(&mut self, tag: &[u8]) -> Result<(), Error> {
        std::mem::replace(&mut self.current, self.keyed.clone()).verify(tag)
    }
    fn wrong_tag_len(&self, tag_len: usize) -> String {
        format!("tag_len {tag_len} is not the {}-byte HMAC tag over {}", self.current.tag_bytes(), self.current.id())
    }
}

/// # Safety
/// See `mb_hmac_update` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hmac_update(hmac: *mut MbHmac, data: *const u8, len: usize) -> c_int {
    // SAFETY: passed on.
    unsafe { mac_handle::update(hmac, data, len) }
}

/// # Safety
/// See `mb_hmac_final` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hmac_final(hmac: *mut MbHmac, out: *mut u8, out_len: *mut usize) -> c_int {
    // SAFETY: passed on.
    unsafe { mac_handle::finalize(hmac, out, out_len) }
}

/// # Safety
/// See `mb_hmac_verify` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hmac_verify(hmac: *mut MbHmac, tag: *const u8, tag_len: usize) -> c_int {
    // SAFETY: passed on.
    unsafe { mac_handle::verify(hmac, tag, tag_len) }
}

/// The tag size in bytes, or 0 for a NULL handle.
///
/// # Safety
/// `hmac` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn mb_hmac_tag_size(hmac: *const MbHmac) -> usize {
    // SAFETY: passed on.
    unsafe { mac_handle::tag_size(hmac) }
}

/// Frees a handle (its keyed states are wiped); NULL is ignored.
///
/// # Safety
/// `hmac` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn mb_hmac_free(hmac: *mut MbHmac) {
    // SAFETY: passed on.
    unsafe { args::free_handle(hmac) }
}
