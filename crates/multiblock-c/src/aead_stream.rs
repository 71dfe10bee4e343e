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

/// What `mb_aead_stream *` points at. `None` once finalized (or spent by
/// an input longer than declared).
pub struct MbAeadStream {
    stream: Option<AeadStream>,
    encrypt: bool,
    /// The declared input length, when `text_len` was given: every mode
    /// takes exactly that many bytes (a decryption with the tag in its input
    /// also the tag's), whatever the library checks itself.
    length: Option<Declared>,
}

/// The declared input of a stream and what it has taken so far.
struct Declared {
    text_len: u64,
    /// The tag's bytes when the decryption's input ends with it, else 0.
    tag: u64,
    /// Input bytes the stream takes in all: `text_len + tag`.
    total: u64,
    /// Input bytes taken so far.
    fed: u64,
}

impl Declared {
    /// The error for `got` bytes of input in all against the declaration.
    fn mismatch(&self, got: u64) -> Failure {
        let input = match self.tag {
            0 => String::new(),
            t => format!(" plus its {t}-byte tag ({} bytes of input)", self.total),
        };
        Failure::new(
            MB_ERR_PARAM,
            format!(
                "the message was declared {} bytes long (text_len){input}, got {got} bytes of input: the stream is spent, with no tag and no more output",
                self.text_len
            ),
        )
    }
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
            let stream: AeadStream = unsafe {
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
            let length = len.map(|text_len| {
                let tag = if encrypt || tag.is_some() { 0 } else { stream.tag_bytes() as u64 };
                Declared { text_len, tag, total: text_len.saturating_add(tag), fed: 0 }
            });
            Ok(MbAeadStream { stream: Some(stream), encrypt, length })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the header's contract).
        unsafe { args::new_handle(out, make) }
    })
}

fn handle<'a>(handle: *mut MbAeadStream) -> Result<&'a mut MbAeadStream, Failure> {
    // SAFETY: a handle from mb_aead_stream_new not yet freed, or NULL.
    unsafe { handle.as_mut() }.ok_or_else(|| Failure::null("stream"))
}

fn live(h: &mut MbAeadStream) -> Result<&mut MbAeadStream, Failure> {
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
        // SAFETY: the header's contract on `out`, `out_len`, `in`. The
        // output's checks first: *out_len is 0 after any error.
        let output = unsafe { Output::new(out, out_len) }?;
        let h = live(handle(stream)?)?;
        let data = unsafe { args::bytes(input, in_len, "in") }?;
        if let Some(d) = &mut h.length {
            let fed = d.fed.saturating_add(in_len as u64);
            if fed > d.total {
                // More than declared: the message is not the one the
                // length promised, so the stream ends here (wiped on drop)
                // and no tag or further output comes from it.
                let err = d.mismatch(fed);
                h.stream = None;
                return Err(err);
            }
        }
        let s = h.stream.as_mut().expect("checked by live");
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
        if written.is_ok() {
            if let Some(d) = &mut h.length {
                d.fed += in_len as u64;
            }
        }
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
        // SAFETY: the header's contract on `out`, `out_len`. The outputs'
        // checks first: *out_len (and *tag_len) are 0 after any error.
        let output = unsafe { Output::new(out, out_len) }?;
        let h = handle(stream)?;
        let tag_out = if h.encrypt {
            // SAFETY: the header's contract on `tag`, `tag_len` (encryption).
            Some(unsafe { Output::new(tag, tag_len) }?)
        } else {
            None
        };
        let h = live(h)?;
        let s = h.stream.as_ref().expect("checked by live");
        let (last, tag_bytes) = (s.final_len(), if h.encrypt { s.tag_bytes() } else { 0 });
        if let Some(d) = h.length.as_ref().filter(|d| d.fed != d.total) {
            // Less than declared: no last bytes, no tag, and the handle is spent.
            let err = d.mismatch(d.fed);
            h.stream = None;
            return Err(err);
        }
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
