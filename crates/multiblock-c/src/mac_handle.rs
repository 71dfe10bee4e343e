//! What the handles of the MACs over a hash (`mb_hmac_ctx`,
//! `mb_kupyna_mac_ctx`) do alike: update, final (which starts over under
//! the same key, and keeps the message going on a size query or a short
//! buffer), a constant-time verify (which refuses a tag of another length
//! before it makes the tag, so the message goes on), the tag size.

use std::ffi::c_int;

use multiblock::Error;

use crate::args::{self, Output};
use crate::status::{guard, Failure};

/// One MAC handle's state: the message so far under its key.
pub trait MacState {
    /// The handle's name in a NULL-pointer error.
    const NAME: &'static str;
    fn tag_bytes(&self) -> usize;
    fn update(&mut self, data: &[u8]);
    /// The tag of the message so far; the state starts over under the key.
    fn finalize_reset(&mut self) -> Vec<u8>;
    /// Checks `tag` (of `tag_bytes()` bytes) in constant time and starts over.
    fn verify_reset(&mut self, tag: &[u8]) -> Result<(), Error>;
    /// The error text for a `tag_len` other than `tag_bytes()`.
    fn wrong_tag_len(&self, tag_len: usize) -> String;
}

fn handle<'a, M: MacState>(mac: *mut M) -> Result<&'a mut M, Failure> {
    // SAFETY: a handle from its `_new` not yet freed, or NULL (the contract).
    unsafe { mac.as_mut() }.ok_or_else(|| Failure::null(M::NAME))
}

/// `mb_*_update`.
///
/// # Safety
/// The header's contract on the handle and `data`.
pub unsafe fn update<M: MacState>(mac: *mut M, data: *const u8, len: usize) -> c_int {
    guard(|| {
        let h = handle(mac)?;
        // SAFETY: the header's contract on `data`.
        let data = unsafe { args::bytes(data, len, "data") }?;
        h.update(data);
        Ok(())
    })
}

/// `mb_*_final`.
///
/// # Safety
/// The header's contract on the handle, `out` and `out_len`.
pub unsafe fn finalize<M: MacState>(mac: *mut M, out: *mut u8, out_len: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: the header's contract on `out`, `out_len`.
        let output = unsafe { Output::new(out, out_len) }?;
        let h = handle(mac)?;
        let size = h.tag_bytes();
        if output.capacity() < size {
            // The state is kept: the caller asks again with room for it.
            // SAFETY: passed on.
            return Err(unsafe { output.too_small(size) });
        }
        // SAFETY: checked in Output::new; the tag is our own memory.
        unsafe { output.write(&h.finalize_reset()) }
    })
}

/// `mb_*_verify`.
///
/// # Safety
/// The header's contract on the handle and `tag`.
pub unsafe fn verify<M: MacState>(mac: *mut M, tag: *const u8, tag_len: usize) -> c_int {
    guard(|| {
        let h = handle(mac)?;
        // SAFETY: the header's contract on `tag`.
        let tag = unsafe { args::bytes(tag, tag_len, "tag") }?;
        if tag.len() != h.tag_bytes() {
            // Checked before the tag is made, so the message goes on.
            return Err(Error::Param(h.wrong_tag_len(tag.len())).into());
        }
        Ok(h.verify_reset(tag)?)
    })
}

/// `mb_*_tag_size`: the tag size in bytes, or 0 for a NULL handle.
///
/// # Safety
/// `mac` is NULL or a live handle.
pub unsafe fn tag_size<M: MacState>(mac: *const M) -> usize {
    // SAFETY: NULL or live, by the contract.
    unsafe { mac.as_ref() }.map_or(0, |h| h.tag_bytes())
}
