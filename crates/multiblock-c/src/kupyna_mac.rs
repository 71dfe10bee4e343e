//! Kupyna's own keyed MAC of DSTU 7564:2014 (`mb_kupyna_mac`,
//! `mb_kupyna_mac_*`): Kupyna-n of Pad(K) ‖ Pad(M) ‖ ¬K with a tag of 256,
//! 384 or 512 bits and a key as long as the tag, on the library's
//! `hash::KupynaMac`; update, final, verify and the tag size are the HMAC
//! handle's (src/mac_handle.rs).

use std::ffi::{c_char, c_int};

use multiblock::hash::KupynaMac;
use multiblock::{BackendChoice, Error};

use crate::args::{self, Output};
use crate::mac_handle::{self, MacState};
use crate::status::guard;

/// What `mb_kupyna_mac_ctx *` points at: the MAC of the message so far. The
/// library's MAC keeps the keyed state to start over from after each tag,
/// and wipes it and the key on drop.
pub struct MbKupynaMac {
    mac: KupynaMac,
}

/// # Safety
/// See `mb_kupyna_mac` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac(
    tag_bits: usize,
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
        let key = unsafe { args::bytes(key, key_len, "key") }?;
        let data = unsafe { args::bytes(data, data_len, "data") }?;
        let mut mac = KupynaMac::new(tag_bits, key)?;
        mac.update(data);
        // SAFETY: checked in Output::new; the tag is our own memory.
        unsafe { output.write(&mac.finalize_reset()) }
    })
}

/// # Safety
/// See `mb_kupyna_mac_new` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac_new(
    out: *mut *mut MbKupynaMac,
    tag_bits: usize,
    key: *const u8,
    key_len: usize,
    backend: *const c_char,
) -> c_int {
    guard(|| {
        let make = || {
            // SAFETY (both reads): the header's contract on these arguments.
            let key = unsafe { args::bytes(key, key_len, "key") }?;
            let backend = unsafe { args::optional_name(backend, "backend") }?;
            let choice = backend.map_or(BackendChoice::Auto, BackendChoice::Named);
            Ok(MbKupynaMac { mac: KupynaMac::with_backend(tag_bits, key, choice)? })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the header's contract).
        unsafe { args::new_handle(out, make) }
    })
}

impl MacState for MbKupynaMac {
    const NAME: &'static str = "mac";
    fn tag_bytes(&self) -> usize {
        self.mac.tag_bytes()
    }
    fn update(&mut self, data: &[u8]) {
        self.mac.update(data);
    }
    fn finalize_reset(&mut self) -> Vec<u8> {
        self.mac.finalize_reset()
    }
    fn verify_reset(&mut self, tag: &[u8]) -> Result<(), Error> {
        self.mac.verify_reset(tag)
    }
    fn wrong_tag_len(&self, tag_len: usize) -> String {
        let size = self.mac.tag_bytes();
        format!("tag_len {tag_len} is not the {size}-byte tag of Kupyna's MAC ({} bits)", size * 8)
    }
}

/// # Safety
/// See `mb_kupyna_mac_update` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac_update(mac: *mut MbKupynaMac, data: *const u8, len: usize) -> c_int {
    // SAFETY: passed on.
    unsafe { mac_handle::update(mac, data, len) }
}

/// # Safety
/// See `mb_kupyna_mac_final` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac_final(mac: *mut MbKupynaMac, out: *mut u8, out_len: *mut usize) -> c_int {
    // SAFETY: passed on.
    unsafe { mac_handle::finalize(mac, out, out_len) }
}

/// # Safety
/// See `mb_kupyna_mac_verify` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac_verify(mac: *mut MbKupynaMac, tag: *const u8, tag_len: usize) -> c_int {
    // SAFETY: passed on.
    unsafe { mac_handle::verify(mac, tag, tag_len) }
}

/// The tag size in bytes, or 0 for a NULL handle.
///
/// # Safety
/// `mac` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac_tag_size(mac: *const MbKupynaMac) -> usize {
    // SAFETY: passed on.
    unsafe { mac_handle::tag_size(mac) }
}

/// Frees a handle (its keyed state and key are wiped); NULL is ignored.
///
/// # Safety
/// `mac` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac_free(mac: *mut MbKupynaMac) {
    // SAFETY: passed on.
    unsafe { args::free_handle(mac) }
}
