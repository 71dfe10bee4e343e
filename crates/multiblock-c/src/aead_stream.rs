//! Streaming AEAD handles (`mb_aead_stream`) over the library's
//! `modes::aead_stream::AeadStream`: MGM, GCM and CCM of any size in
//! bounded memory. Decryption's update output is not authenticated until
//! `mb_aead_stream_final` returns MB_OK (the header says so).

use std::ffi::{c_char, c_int};

use multiblock::modes::aead_stream::AeadStream;
use zeroize::Zeroize;

use crate::args::{self, Output};
use crate::oneshot::{with_request, MbParams};
use crate::status::{guard, Failure, MB_ERR_BUFFER_TOO_SMALL, MB_ERR_PARAM};

/// `text_len` when the length is not given (every mode but CCM).
pub const MB_TEXT_LEN_UNKNOWN: u64 = u64::MAX;

/// What `mb_aead_stream *` points at. `None` once finalized.
pub struct MbAeadStream {
    stream: Option<AeadStream>,
    encrypt: bool,
}

/// # Safety
/// See `mb_aead_stream_new` in include/multiblock.h.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mb_aead_stream_new(
    out: *mut *mut MbAeadStream,
    encrypt: c_int,
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    aad: *const u8,
    aad_len: usize,
    params: *const MbParams,
    text_len: u64,
    tag: *const u8,
    tag_len: usize,
) -> c_int {
    guard(|| {
        let make = || {
            // SAFETY (both reads): the header's contract on the arguments.
            let aad = unsafe { args::bytes(aad, aad_len, "aad") }?;
            let tag = unsafe { args::optional_bytes(tag, tag_len, "tag") }?;
            let encrypt = encrypt != 0;
            if encrypt && tag.is_some() {
                return Err(Failure::new(MB_ERR_PARAM, "a tag is given to a decryption only"));
            }
            let len = (text_len != MB_TEXT_LEN_UNKNOWN).then_some(text_len);
            // SAFETY: passed on.
            let stream = unsafe {
                with_request(cipher, mode, key, key_len, iv, iv_len, params, aad, |req| {
                    let s = match (encrypt, len) {
                        (true, Some(n)) => AeadStream::encryptor_sized(req, n),
                        (true, None) => AeadStream::encryptor(req),
                        (false, Some(n)) => AeadStream::decryptor_sized(req, n),
                        (false, None) => AeadStream::decryptor(req),
                    }?;
                    match tag {
                        Some(t) => s.expect_tag(t),
                        None => Ok(s),
                    }
                })
            }?;
            Ok(MbAeadStream { stream: Some(stream), encrypt })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the header's contract).
        unsafe { args::new_handle(out, make) }
    })
}

fn live<'a>(handle: *mut MbAeadStream) -> Result<&'a mut MbAeadStream, Failure> {
    // SAFETY: a handle from mb_aead_stream_new not yet freed, or NULL.
    let h = unsafe { handle.as_mut() }.ok_or_else(|| Failure::null("stream"))?;
    if h.stream.is_none() {
        return Err(Failure::new(MB_ERR_PARAM, "the AEAD stream was already finalized"));
    }
    Ok(h)
}

fn too_small(have: usize, needed: usize, what: &str) -> Failure {
    Failure::new(MB_ERR_BUFFER_TOO_SMALL, format!("{what} buffer holds {have} bytes, {needed} are needed"))
}

/// # Safety
/// See `mb_aead_stream_update` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_aead_stream_update(
    stream: *mut MbAeadStream,
    input: *const u8,
    in_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        let s = live(stream)?.stream.as_mut().expect("checked by live");
        // SAFETY: the header's contract on `in`, `out`, `out_len`.
        let data = unsafe { args::bytes(input, in_len, "in") }?;
        let output = unsafe { Output::new(out, out_len) }?;
        let needed = s.output_len(in_len);
        if output.capacity() < needed {
            // SAFETY: checked in Output::new.
            unsafe { out_len.write(needed) };
            return Err(too_small(output.capacity(), needed, "output"));
        }
        let mut ready = Vec::new();
        let result = s.update(data, &mut ready).map_err(Failure::from);
        // SAFETY: checked in Output::new; `ready` is our own buffer.
        let written = result.and_then(|()| unsafe { output.write(&ready) });
        ready.zeroize();
        written
    })
}

/// # Safety
/// See `mb_aead_stream_final` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_aead_stream_final(
    stream: *mut MbAeadStream,
    out: *mut u8,
    out_len: *mut usize,
    tag: *mut u8,
    tag_len: *mut usize,
) -> c_int {
    guard(|| {
        let h = live(stream)?;
        // SAFETY: the header's contract on `out`, `out_len`.
        let output = unsafe { Output::new(out, out_len) }?;
        let s = h.stream.as_ref().expect("checked by live");
        let (last, tag_bytes) = (s.final_len(), if h.encrypt { s.tag_bytes() } else { 0 });
        let tag_out = if h.encrypt {
            // SAFETY: the header's contract on `tag`, `tag_len` (encryption).
            Some(unsafe { Output::new(tag, tag_len) }?)
        } else {
            None
        };
        // Sizes first: a too-small buffer leaves the stream as it was.
        if output.capacity() < last {
            // SAFETY: checked in Output::new.
            unsafe { out_len.write(last) };
            return Err(too_small(output.capacity(), last, "output"));
        }
        if let Some(t) = &tag_out {
            if t.capacity() < tag_bytes {
                // SAFETY: checked in Output::new.
                unsafe { tag_len.write(tag_bytes) };
                return Err(too_small(t.capacity(), tag_bytes, "tag"));
            }
        }
        let s = h.stream.take().expect("checked by live");
        let mut rest = Vec::new();
        let result = s.finalize(&mut rest).map_err(Failure::from).and_then(|t| {
            // SAFETY: checked in Output::new (both).
            unsafe { output.write(&rest) }?;
            match tag_out {
                Some(o) => unsafe { o.write(&t) },
                None => Ok(()),
            }
        });
        rest.zeroize();
        result
    })
}

/// # Safety
/// `stream` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn mb_aead_stream_free(stream: *mut MbAeadStream) {
    // SAFETY: the caller's promise, passed on.
    unsafe { args::free_handle(stream) }
}
