//! Kupyna's own keyed MAC of DSTU 7564:2014 (`mb_kupyna_mac`,
//! `mb_kupyna_mac_*`): Kupyna-n of Pad(K) ‖ Pad(M) ‖ ¬K with a tag of 256,
//! 384 or 512 bits and a key as long as the tag, on the library's
//! `hash::KupynaMac`. The shape is the HMAC functions' (src/hmac.rs).

use std::ffi::{c_char, c_int};

use multiblock::hash::KupynaMac;
use multiblock::{BackendChoice, Error};

use crate::args::{self, Output};
use crate::status::{guard, Failure};

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

fn handle<'a>(mac: *mut MbKupynaMac) -> Result<&'a mut MbKupynaMac, Failure> {
    // SAFETY: a handle from mb_kupyna_mac_new not yet freed, or NULL (the contract).
    unsafe { mac.as_mut() }.ok_or_else(|| Failure::null("mac"))
}

/// # Safety
/// See `mb_kupyna_mac_update` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac_update(mac: *mut MbKupynaMac, data: *const u8, len: usize) -> c_int {
    guard(|| {
        let h = handle(mac)?;
        // SAFETY: the header's contract on `data`.
        let data = unsafe { args::bytes(data, len, "data") }?;
        h.mac.update(data);
        Ok(())
    })
}

/// # Safety
/// See `mb_kupyna_mac_final` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac_final(mac: *mut MbKupynaMac, out: *mut u8, out_len: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: the header's contract on `out`, `out_len`.
        let output = unsafe { Output::new(out, out_len) }?;
        let h = handle(mac)?;
        let size = h.mac.tag_bytes();
        if output.capacity() < size {
            // The state is kept: the caller asks again with room for it.
            // SAFETY: passed on.
            return Err(unsafe { output.too_small(size) });
        }
        // SAFETY: checked in Output::new; the tag is our own memory.
        unsafe { output.write(&h.mac.finalize_reset()) }
    })
}

/// # Safety
/// See `mb_kupyna_mac_verify` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac_verify(mac: *mut MbKupynaMac, tag: *const u8, tag_len: usize) -> c_int {
    guard(|| {
        let h = handle(mac)?;
        // SAFETY: the header's contract on `tag`.
        let tag = unsafe { args::bytes(tag, tag_len, "tag") }?;
        let size = h.mac.tag_bytes();
        if tag.len() != size {
            // Checked before the tag is made, so the message goes on.
            let msg = format!("tag_len {} is not the {size}-byte tag of Kupyna's MAC ({} bits)", tag.len(), size * 8);
            return Err(Error::Param(msg).into());
        }
        // Constant-time comparison; the MAC starts over either way.
        Ok(h.mac.verify_reset(tag)?)
    })
}

/// The tag size in bytes, or 0 for a NULL handle.
///
/// # Safety
/// `mac` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn mb_kupyna_mac_tag_size(mac: *const MbKupynaMac) -> usize {
    // SAFETY: NULL or live, by the contract.
    unsafe { mac.as_ref() }.map_or(0, |h| h.mac.tag_bytes())
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
