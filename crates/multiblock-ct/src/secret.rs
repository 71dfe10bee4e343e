//! Marking secrets for Valgrind memcheck (the "ctgrind" technique): bytes
//! marked undefined are secret, and memcheck reports every conditional
//! branch and every memory address computed from them. Outputs that are
//! public by design (ciphertexts, tags, verdicts the caller prints) are
//! marked defined again before anything looks at them.
//!
//! The requests themselves are Valgrind's macros in csrc/valgrind_shim.c;
//! outside Valgrind they do nothing.

#[cfg(mbct_valgrind)]
use std::os::raw::{c_int, c_uint, c_void};

#[cfg(mbct_valgrind)]
extern "C" {
    fn mbct_running_on_valgrind() -> c_int;
    fn mbct_make_undefined(p: *const c_void, len: usize);
    fn mbct_make_defined(p: *const c_void, len: usize);
    fn mbct_count_errors() -> c_uint;
    fn mbct_get_vbits(p: *const c_void, vbits: *mut c_void, len: usize) -> c_int;
}

/// Cross builds have no shim (build.rs): the requests do nothing, as they
/// do outside Valgrind.
#[cfg(not(mbct_valgrind))]
mod no_valgrind {
    use std::os::raw::{c_int, c_uint, c_void};
    pub unsafe fn mbct_running_on_valgrind() -> c_int {
        0
    }
    pub unsafe fn mbct_make_undefined(_: *const c_void, _: usize) {}
    pub unsafe fn mbct_make_defined(_: *const c_void, _: usize) {}
    pub unsafe fn mbct_count_errors() -> c_uint {
        0
    }
    pub unsafe fn mbct_get_vbits(_: *const c_void, _: *mut c_void, _: usize) -> c_int {
        0
    }
}
#[cfg(not(mbct_valgrind))]
use no_valgrind::*;

/// Whether this process runs under Valgrind.
pub fn on_valgrind() -> bool {
    // SAFETY: a client request with no arguments; a no-op on a real CPU.
    unsafe { mbct_running_on_valgrind() != 0 }
}

/// Marks `bytes` secret: memcheck treats them as undefined from now on.
pub fn classify(bytes: &[u8]) {
    // SAFETY: the request only changes memcheck's shadow state of memory we
    // borrow; it neither reads nor writes the bytes.
    unsafe { mbct_make_undefined(bytes.as_ptr().cast(), bytes.len()) }
}

/// Declassifies `bytes` (a public output computed from secrets).
pub fn declassify(bytes: &[u8]) {
    // SAFETY: as in `classify`.
    unsafe { mbct_make_defined(bytes.as_ptr().cast(), bytes.len()) }
}

/// Whether memcheck still holds every byte of `bytes` as (partly) secret:
/// an output of a cipher depends on the key in every byte, so a byte that
/// came out defined means the marking was lost on the way (an instruction
/// memcheck models as defining its result) and the check would be blind.
/// Always true outside Valgrind.
pub fn still_secret(bytes: &[u8]) -> bool {
    if !on_valgrind() {
        return true;
    }
    let mut vbits = vec![0u8; bytes.len()];
    // SAFETY: `vbits` has room for `bytes.len()` bytes; memcheck reads only
    // its shadow of `bytes` and writes `vbits`.
    let ok = unsafe { mbct_get_vbits(bytes.as_ptr().cast(), vbits.as_mut_ptr().cast(), bytes.len()) };
    ok == 1 && vbits.iter().all(|&v| v != 0)
}

/// Errors Valgrind has reported so far (0 outside Valgrind).
pub fn errors_so_far() -> u32 {
    // SAFETY: a client request with no arguments.
    unsafe { mbct_count_errors() }
}
