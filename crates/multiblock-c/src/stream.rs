//! Streaming handles (`mb_stream`, `mb_mac_stream`) over the library's
//! `modes::stream::{CipherStream, MacStream}`: init, update as often as
//! needed, final. For callers such as OpenSSL providers that get their
//! input in pieces.

use std::ffi::{c_char, c_int};
use std::ptr;

use multiblock::modes::stream::{CipherStream, MacStream};
use zeroize::Zeroize;

use crate::args::{self, Output};
use crate::oneshot::{with_request, MbParams};
use crate::status::{guard, Failure, MB_ERR_BUFFER_TOO_SMALL, MB_ERR_PARAM};

/// What `mb_stream *` points at. `None` once finalized.
pub struct MbStream {
    stream: Option<CipherStream>,
}

/// What `mb_mac_stream *` points at. `None` once finalized.
pub struct MbMacStream {
    stream: Option<MacStream>,
}

/// # Safety
/// See `mb_stream_new` in include/multiblock.h.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mb_stream_new(
    out: *mut *mut MbStream,
    encrypt: c_int,
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    params: *const MbParams,
) -> c_int {
    guard(|| {
        let make = || {
            // SAFETY: passed on.
            let stream = unsafe {
                with_request(cipher, mode, key, key_len, iv, iv_len, params, &[], |req| {
                    if encrypt != 0 {
                        CipherStream::encryptor_bytewise(req)
                    } else {
                        // Every byte at once where the mode allows (GOST CFB).
                        CipherStream::decryptor_bytewise(req)
                    }
                })
            }?;
            Ok(MbStream { stream: Some(stream) })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the header's contract).
        unsafe { args::new_handle(out, make) }
    })
}

fn live<'a>(handle: *mut MbStream) -> Result<&'a mut CipherStream, Failure> {
    // SAFETY: a handle from mb_stream_new not yet freed, or NULL.
    let h = unsafe { handle.as_mut() }.ok_or_else(|| Failure::null("stream"))?;
    h.stream.as_mut().ok_or_else(|| Failure::new(MB_ERR_PARAM, "the stream was already finalized"))
}

/// # Safety
/// See `mb_stream_update` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_stream_update(
    stream: *mut MbStream,
    input: *const u8,
    in_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        let s = live(stream)?;
        // SAFETY: the header's contract on `in`.
        let _ = unsafe { args::bytes(input, in_len, "in") }?;
        // SAFETY: the header's contract on `out`, `out_len`.
        let output = unsafe { Output::new(out, out_len) }?;
        let needed = s.output_len(in_len).max(in_len);
        if output.capacity() < needed {
            // SAFETY: checked in Output::new.
            unsafe { out_len.write(needed) };
            return Err(Failure::new(
                MB_ERR_BUFFER_TOO_SMALL,
                format!("output buffer holds {} bytes, this update needs {needed}", output.capacity()),
            ));
        }
        if needed == 0 {
            return Ok(());
        }
        // SAFETY: `out` holds `needed` >= in_len writable bytes; `in` holds
        // in_len readable ones; `ptr::copy` is a memmove (in == out is
        // allowed). Afterwards only `out` is used.
        if !ptr::eq(input, out) {
            unsafe { ptr::copy(input, out, in_len) };
        }
        let buf = unsafe { std::slice::from_raw_parts_mut(out, needed) };
        let written = s.update_in_place(buf, in_len)?;
        // SAFETY: checked in Output::new.
        unsafe { out_len.write(written) };
        Ok(())
    })
}

/// # Safety
/// See `mb_stream_final` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_stream_final(stream: *mut MbStream, out: *mut u8, out_len: *mut usize) -> c_int {
    guard(|| {
        live(stream)?;
        // SAFETY: the header's contract on `out`, `out_len`.
        let output = unsafe { Output::new(out, out_len) }?;
        // SAFETY: `live` checked the handle.
        let s = unsafe { &mut *stream }.stream.take().expect("checked by live");
        let mut last = Vec::new();
        let result = s.finalize(&mut last);
        let written = result.map_err(Failure::from).and_then(|()| {
            // SAFETY: checked in Output::new.
            unsafe { output.write(&last) }
        });
        last.zeroize();
        written
    })
}

/// # Safety
/// `stream` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn mb_stream_free(stream: *mut MbStream) {
    // SAFETY: the caller's promise, passed on.
    unsafe { args::free_handle(stream) }
}

/// # Safety
/// See `mb_mac_stream_new` in include/multiblock.h.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mb_mac_stream_new(
    out: *mut *mut MbMacStream,
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    params: *const MbParams,
) -> c_int {
    guard(|| {
        let make = || {
            // SAFETY: passed on.
            let stream = unsafe { with_request(cipher, mode, key, key_len, iv, iv_len, params, &[], MacStream::new) }?;
            Ok(MbMacStream { stream: Some(stream) })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the header's contract).
        unsafe { args::new_handle(out, make) }
    })
}

fn live_mac<'a>(handle: *mut MbMacStream) -> Result<&'a mut Option<MacStream>, Failure> {
    // SAFETY: a handle from mb_mac_stream_new not yet freed, or NULL.
    let h = unsafe { handle.as_mut() }.ok_or_else(|| Failure::null("stream"))?;
    if h.stream.is_none() {
        return Err(Failure::new(MB_ERR_PARAM, "the MAC stream was already finalized"));
    }
    Ok(&mut h.stream)
}

/// # Safety
/// See `mb_mac_stream_update` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_mac_stream_update(stream: *mut MbMacStream, data: *const u8, len: usize) -> c_int {
    guard(|| {
        let s = live_mac(stream)?;
        // SAFETY: the header's contract on `data`.
        let data = unsafe { args::bytes(data, len, "data") }?;
        s.as_mut().expect("checked by live_mac").update(data)?;
        Ok(())
    })
}

/// # Safety
/// See `mb_mac_stream_final` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_mac_stream_final(stream: *mut MbMacStream, out: *mut u8, out_len: *mut usize) -> c_int {
    guard(|| {
        let s = live_mac(stream)?;
        // SAFETY: the header's contract on `out`, `out_len`.
        let output = unsafe { Output::new(out, out_len) }?;
        let mut tag = s.take().expect("checked by live_mac").finalize()?;
        // SAFETY: checked in Output::new.
        let written = unsafe { output.write(&tag) };
        tag.zeroize();
        written
    })
}

/// # Safety
/// `stream` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn mb_mac_stream_free(stream: *mut MbMacStream) {
    // SAFETY: the caller's promise, passed on.
    unsafe { args::free_handle(stream) }
}
