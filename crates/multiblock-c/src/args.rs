//! C arguments into Rust values: (pointer, length) pairs into slices,
//! NUL-terminated names into `&str`, and the output buffer protocol
//! (`out`, `*out_len` = capacity in, bytes written or needed out).
//!
//! Every function here is `unsafe`: the caller (an exported function) passes
//! on the C caller's promise that a non-NULL pointer points at that many
//! readable (or writable) bytes, or at a NUL-terminated string.

use std::ffi::{c_char, CStr};
use std::ptr;

use crate::status::{Failure, MB_ERR_BUFFER_TOO_SMALL, MB_ERR_INVALID_STRING, MB_ERR_PARAM};

/// The one size check of every entry point: `count` items of `T` must fit
/// one object (at most `isize::MAX` bytes, what Rust and C both allow), else
/// MB_ERR_PARAM naming `what` (e.g. "data_len", "count").
pub fn fits_object<T>(count: usize, what: &str) -> Result<(), Failure> {
    let size = size_of::<T>().max(1);
    if count > isize::MAX as usize / size {
        let what_of = if size == 1 { String::new() } else { format!(" (items of {size} bytes)") };
        return Err(Failure::new(MB_ERR_PARAM, format!("{what} {count}{what_of} is larger than any object")));
    }
    Ok(())
}

/// `len` bytes at `ptr`. NULL is accepted for an empty input only.
pub unsafe fn bytes<'a>(ptr: *const u8, len: usize, what: &str) -> Result<&'a [u8], Failure> {
    if ptr.is_null() {
        return if len == 0 { Ok(&[]) } else { Err(Failure::null(&format!("{what} (with {what}_len {len})"))) };
    }
    fits_object::<u8>(len, &format!("{what}_len"))?;
    // SAFETY: non-NULL, length fits an object; validity is the caller's promise.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// `count` items of an array at `ptr`. NULL is accepted for an empty array only.
pub unsafe fn items<'a, T>(ptr: *const T, count: usize, what: &str) -> Result<&'a [T], Failure> {
    if ptr.is_null() {
        return if count == 0 { Ok(&[]) } else { Err(Failure::null(&format!("{what} (with count {count})"))) };
    }
    fits_object::<T>(count, "count")?;
    // SAFETY: non-NULL; validity of `count` items is the caller's promise.
    Ok(unsafe { std::slice::from_raw_parts(ptr, count) })
}

/// As [`bytes`], but NULL means "not given" (and then `len` must be 0).
pub unsafe fn optional_bytes<'a>(ptr: *const u8, len: usize, what: &str) -> Result<Option<&'a [u8]>, Failure> {
    if ptr.is_null() && len == 0 {
        Ok(None)
    } else {
        // SAFETY: passed on from the caller.
        unsafe { bytes(ptr, len, what) }.map(Some)
    }
}

/// A NUL-terminated UTF-8 name; NULL means "not given".
pub unsafe fn optional_name<'a>(ptr: *const c_char, what: &str) -> Result<Option<&'a str>, Failure> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's promise.
    let text = unsafe { CStr::from_ptr(ptr) };
    text.to_str().map(Some).map_err(|_| Failure::new(MB_ERR_INVALID_STRING, format!("{what} is not valid UTF-8")))
}

/// A required NUL-terminated UTF-8 name.
pub unsafe fn name<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    // SAFETY: passed on from the caller.
    unsafe { optional_name(ptr, what) }?.ok_or_else(|| Failure::null(what))
}

/// The caller's output buffer: `out` with room for `*out_len` bytes.
pub struct Output {
    out: *mut u8,
    out_len: *mut usize,
    capacity: usize,
}

impl Output {
    /// Checks the pointers and sets `*out_len` to 0, what it stays on any
    /// error but a too-small buffer. `out` may be NULL only with `*out_len == 0`
    /// (a size query).
    pub unsafe fn new(out: *mut u8, out_len: *mut usize) -> Result<Output, Failure> {
        if out_len.is_null() {
            return Err(Failure::null("out_len"));
        }
        // SAFETY: non-NULL; the caller promises it points at a size_t.
        let capacity = unsafe { out_len.read() };
        // SAFETY: as above.
        unsafe { out_len.write(0) };
        if out.is_null() && capacity != 0 {
            return Err(Failure::null(&format!("out (with *out_len {capacity})")));
        }
        fits_object::<u8>(capacity, "*out_len")?;
        Ok(Output { out, out_len, capacity })
    }

    /// The caller's buffer size (`*out_len` on entry).
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Copies `result` out, or reports the size needed and writes nothing.
    pub unsafe fn write(self, result: &[u8]) -> Result<(), Failure> {
        if result.len() > self.capacity {
            // SAFETY: passed on.
            return Err(unsafe { self.too_small(result.len()) });
        }
        // SAFETY: `out` has `capacity` writable bytes by the caller's
        // promise, and `result` is our own buffer, so the two cannot overlap.
        if !result.is_empty() {
            unsafe { ptr::copy_nonoverlapping(result.as_ptr(), self.out, result.len()) };
        }
        // SAFETY: passed on.
        unsafe { self.written(result.len()) };
        Ok(())
    }

    /// Whether `input` shares a byte with the caller's buffer (then a
    /// result must go through a temporary).
    pub fn overlaps(&self, input: &[u8]) -> bool {
        let (start, end) = (self.out as usize, self.out as usize + self.capacity);
        let (at, past) = (input.as_ptr() as usize, input.as_ptr() as usize + input.len());
        !input.is_empty() && self.capacity != 0 && at < end && start < past
    }

    /// The caller's buffer, for a result written where it goes.
    ///
    /// # Safety
    /// No input slice alive while this one is may overlap it ([`Output::overlaps`]).
    pub unsafe fn slice(&mut self) -> &mut [u8] {
        if self.capacity == 0 {
            return &mut [];
        }
        // SAFETY: `out` is non-NULL with `capacity` writable bytes (checked
        // in `new` and the caller's promise); no overlap (this fn's contract).
        unsafe { std::slice::from_raw_parts_mut(self.out, self.capacity) }
    }

    /// Records `len` bytes written (`*out_len = len`).
    pub unsafe fn written(self, len: usize) {
        // SAFETY: `out_len` was checked in `new`.
        unsafe { self.out_len.write(len) };
    }

    /// The too-small error: `*out_len = needed`, nothing written.
    pub unsafe fn too_small(self, needed: usize) -> Failure {
        // SAFETY: `out_len` was checked in `new`.
        unsafe { self.out_len.write(needed) };
        Failure::new(MB_ERR_BUFFER_TOO_SMALL, format!("output buffer holds {} bytes, the result needs {needed}", self.capacity))
    }
}

/// Makes a handle: `*out` is NULL until `make` succeeds, then the boxed
/// value (the C constructors' protocol; `free_handle` undoes it).
///
/// # Safety
/// `out` is NULL or points at a writable pointer.
pub unsafe fn new_handle<T>(out: *mut *mut T, make: impl FnOnce() -> Result<T, Failure>) -> Result<(), Failure> {
    if out.is_null() {
        return Err(Failure::null("out"));
    }
    // SAFETY: non-NULL, points at a writable pointer (the caller's promise).
    unsafe { out.write(ptr::null_mut()) };
    let value = make()?;
    // SAFETY: as above.
    unsafe { out.write(Box::into_raw(Box::new(value))) };
    Ok(())
}

/// Frees a handle made by `Box::into_raw` (NULL is ignored); dropping it
/// wipes its state. A panic in a drop never unwinds into C.
///
/// # Safety
/// `handle` is NULL or came from `Box::into_raw` and is not used again.
pub unsafe fn free_handle<T>(handle: *mut T) {
    if !handle.is_null() {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // SAFETY: made by Box::into_raw, freed once (the caller's promise).
            drop(unsafe { Box::from_raw(handle) });
        }));
    }
}
