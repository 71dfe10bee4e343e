//! Streaming handles (`mb_stream`, `mb_mac_stream`) over the library's
//! `modes::stream::{CipherStream, MacStream}`: init, update as often as
//! needed, final. For callers such as OpenSSL providers that get their
//! input in pieces.

use std::ffi::{c_char, c_int};
use std::ptr;

use multiblock::modes::stream::{CipherStream, MacStream};
use zeroize::Zeroizing;

use crate::args::{self, Output};
use crate::oneshot::{with_request, MbParams};
use crate::status::{guard, Failure, MB_ERR_BUFFER_TOO_SMALL, MB_ERR_PARAM};

/// Where a streaming handle is between init and free.
enum State<S> {
    /// Taking input.
    Open(S),
    /// Finalized, its last output (or tag) kept because the caller's buffer
    /// was too small for it (or a size query): the next final call with a
    /// big enough buffer gets it. Wiped on drop.
    Held(Zeroizing<Vec<u8>>),
    /// Done: the last output was handed over, or final failed.
    Spent,
}

impl<S> State<S> {
    /// The open stream, or the misuse error naming `what` ("stream").
    fn open(&mut self, what: &str) -> Result<&mut S, Failure> {
        match self {
            State::Open(s) => Ok(s),
            State::Held(_) => Err(Failure::new(
                MB_ERR_PARAM,
                format!("the {what} was finalized: its last output waits for a final call with a big enough buffer"),
            )),
            State::Spent => Err(Failure::new(MB_ERR_PARAM, format!("the {what} was already finalized"))),
        }
    }

    /// The final call's protocol: finalizes an open stream with `finish`
    /// (an error spends the handle), then hands the result to `output`. A
    /// buffer too small for it (a size query included) keeps it in the
    /// handle for the next final call; else the handle is spent.
    fn finish(
        &mut self,
        what: &str,
        output: Output,
        finish: impl FnOnce(S) -> Result<Zeroizing<Vec<u8>>, Failure>,
    ) -> Result<(), Failure> {
        let last = match std::mem::replace(self, State::Spent) {
            State::Open(s) => finish(s)?,
            State::Held(last) => last,
            State::Spent => return Err(Failure::new(MB_ERR_PARAM, format!("the {what} was already finalized"))),
        };
        if last.len() > output.capacity() {
            // SAFETY: `out_len` was checked in Output::new.
            let err = unsafe { output.too_small(last.len()) };
            *self = State::Held(last);
            return Err(err);
        }
        // SAFETY: checked in Output::new; `last` fits (just checked).
        unsafe { output.write(&last) }
    }
}

/// What `mb_stream *` points at.
pub struct MbStream {
    state: State<CipherStream>,
}

/// What `mb_mac_stream *` points at.
pub struct MbMacStream {
    state: State<MacStream>,
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
            Ok(MbStream { state: State::Open(stream) })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the header's contract).
        unsafe { args::new_handle(out, make) }
    })
}

fn handle<'a>(handle: *mut MbStream) -> Result<&'a mut MbStream, Failure> {
    // SAFETY: a handle from mb_stream_new not yet freed, or NULL.
    unsafe { handle.as_mut() }.ok_or_else(|| Failure::null("stream"))
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
        // SAFETY: the header's contract on `out`, `out_len`. The output's
        // checks first: *out_len is 0 after any error.
        let output = unsafe { Output::new(out, out_len) }?;
        let s = handle(stream)?.state.open("stream")?;
        // SAFETY: the header's contract on `in`.
        let _ = unsafe { args::bytes(input, in_len, "in") }?;
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
        // SAFETY: the header's contract on `out`, `out_len`.
        let output = unsafe { Output::new(out, out_len) }?;
        let h = handle(stream)?;
        h.state.finish("stream", output, |s| {
            let mut last = Zeroizing::new(Vec::new());
            s.finalize(&mut last)?;
            Ok(last)
        })
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
            Ok(MbMacStream { state: State::Open(stream) })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the header's contract).
        unsafe { args::new_handle(out, make) }
    })
}

fn mac_handle<'a>(handle: *mut MbMacStream) -> Result<&'a mut MbMacStream, Failure> {
    // SAFETY: a handle from mb_mac_stream_new not yet freed, or NULL.
    unsafe { handle.as_mut() }.ok_or_else(|| Failure::null("stream"))
}

/// # Safety
/// See `mb_mac_stream_update` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_mac_stream_update(stream: *mut MbMacStream, data: *const u8, len: usize) -> c_int {
    guard(|| {
        let s = mac_handle(stream)?.state.open("MAC stream")?;
        // SAFETY: the header's contract on `data`.
        let data = unsafe { args::bytes(data, len, "data") }?;
        s.update(data)?;
        Ok(())
    })
}

/// # Safety
/// See `mb_mac_stream_final` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_mac_stream_final(stream: *mut MbMacStream, out: *mut u8, out_len: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: the header's contract on `out`, `out_len`.
        let output = unsafe { Output::new(out, out_len) }?;
        let h = mac_handle(stream)?;
        h.state.finish("MAC stream", output, |s| Ok(Zeroizing::new(s.finalize()?)))
    })
}

/// # Safety
/// `stream` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn mb_mac_stream_free(stream: *mut MbMacStream) {
    // SAFETY: the caller's promise, passed on.
    unsafe { args::free_handle(stream) }
}
