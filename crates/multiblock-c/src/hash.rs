//! The hashes (`mb_hash_*`, `mb_hash`, `mb_hash_many`, `mb_hash_sizes`)
//! over the library's `hash::{Hasher, digest, digest_many}`: Streebog
//! (GOST R 34.11-2012, RFC 6986) and Kupyna (DSTU 7564:2014) by name.

use std::ffi::{c_char, c_int, CString};
use std::ptr;

use multiblock::hash::{self, HashId, Hasher};
use multiblock::BackendChoice;

use crate::args::{self, Output};
use crate::many::messages;
use crate::status::{guard, Failure};

/// What `mb_hash_ctx *` points at. The library wipes the hasher's state on drop.
#[derive(Clone)]
pub struct MbHash {
    hasher: Hasher,
    /// The backend's name, owned here so that `mb_hash_backend` can return
    /// a pointer valid until `mb_hash_free`.
    backend: CString,
}

/// The hash named by the C string `algo`.
///
/// # Safety
/// `algo` is NULL or NUL-terminated.
pub(crate) unsafe fn hash_id(algo: *const c_char) -> Result<HashId, Failure> {
    // SAFETY: passed on.
    Ok(HashId::from_name(unsafe { args::name(algo, "algo") }?)?)
}

/// # Safety
/// See `mb_hash_new` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hash_new(out: *mut *mut MbHash, algo: *const c_char, backend: *const c_char) -> c_int {
    guard(|| {
        let make = || {
            // SAFETY (both reads): the header's contract on these arguments.
            let id = unsafe { hash_id(algo) }?;
            let backend = unsafe { args::optional_name(backend, "backend") }?;
            let hasher = Hasher::with_backend(id, backend.map_or(BackendChoice::Auto, BackendChoice::Named))?;
            let backend = CString::new(hasher.backend().name).expect("backend names hold no NUL");
            Ok(MbHash { hasher, backend })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the header's contract).
        unsafe { args::new_handle(out, make) }
    })
}

/// # Safety
/// See `mb_hash_clone` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hash_clone(out: *mut *mut MbHash, hash: *const MbHash) -> c_int {
    guard(|| {
        // SAFETY: a live handle or NULL (the contract).
        let h = unsafe { hash.as_ref() }.ok_or_else(|| Failure::null("hash"))?;
        // SAFETY: `out` is NULL or points at a writable pointer (the contract).
        unsafe { args::new_handle(out, || Ok(h.clone())) }
    })
}

/// # Safety
/// See `mb_hash_update` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hash_update(hash: *mut MbHash, data: *const u8, len: usize) -> c_int {
    guard(|| {
        // SAFETY: a live handle or NULL (the contract).
        let h = unsafe { hash.as_mut() }.ok_or_else(|| Failure::null("hash"))?;
        // SAFETY: the header's contract on `data`.
        let data = unsafe { args::bytes(data, len, "data") }?;
        h.hasher.update(data);
        Ok(())
    })
}

/// # Safety
/// See `mb_hash_update_for_copies` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hash_update_for_copies(hash: *mut MbHash, data: *const u8, len: usize) -> c_int {
    guard(|| {
        // SAFETY: a live handle or NULL (the contract).
        let h = unsafe { hash.as_mut() }.ok_or_else(|| Failure::null("hash"))?;
        // SAFETY: the header's contract on `data`.
        let data = unsafe { args::bytes(data, len, "data") }?;
        h.hasher.update_for_copies(data);
        Ok(())
    })
}

/// # Safety
/// See `mb_hash_final` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hash_final(hash: *mut MbHash, out: *mut u8, out_len: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: the header's contract on `out`, `out_len`.
        let mut output = unsafe { Output::new(out, out_len) }?;
        // SAFETY: a live handle or NULL (the contract).
        let h = unsafe { hash.as_mut() }.ok_or_else(|| Failure::null("hash"))?;
        let size = h.hasher.digest_bytes();
        if output.capacity() < size {
            // The state is kept: the caller asks again with room for it.
            // SAFETY: passed on.
            return Err(unsafe { output.too_small(size) });
        }
        // SAFETY: the handle is the library's own memory, so no input overlaps `out`.
        h.hasher.finalize_into_reset(&mut unsafe { output.slice() }[..size]);
        // SAFETY: passed on.
        unsafe { output.written(size) };
        Ok(())
    })
}

/// The digest size in bytes, or 0 for a NULL handle.
///
/// # Safety
/// `hash` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn mb_hash_digest_size(hash: *const MbHash) -> usize {
    // SAFETY: NULL or live, by the contract.
    unsafe { hash.as_ref() }.map_or(0, |h| h.hasher.digest_bytes())
}

/// The backend's name, or NULL for a NULL handle.
///
/// # Safety
/// `hash` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn mb_hash_backend(hash: *const MbHash) -> *const c_char {
    // SAFETY: NULL or live, by the contract.
    unsafe { hash.as_ref() }.map_or(ptr::null(), |h| h.backend.as_ptr())
}

/// Frees a handle (its state is wiped); NULL is ignored.
///
/// # Safety
/// `hash` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn mb_hash_free(hash: *mut MbHash) {
    // SAFETY: passed on.
    unsafe { args::free_handle(hash) }
}

/// # Safety
/// See `mb_hash_sizes` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hash_sizes(algo: *const c_char, digest_bytes: *mut usize, block_bytes: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: the header's contract on `algo`.
        let id = unsafe { hash_id(algo) }?;
        // SAFETY: each is NULL or points at a writable size_t.
        if let Some(d) = unsafe { digest_bytes.as_mut() } {
            *d = id.digest_bytes();
        }
        if let Some(b) = unsafe { block_bytes.as_mut() } {
            *b = id.block_bytes();
        }
        Ok(())
    })
}

/// # Safety
/// See `mb_hash` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hash(
    algo: *const c_char,
    data: *const u8,
    data_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let output = unsafe { Output::new(out, out_len) }?;
        let id = unsafe { hash_id(algo) }?;
        let data = unsafe { args::bytes(data, data_len, "data") }?;
        let digest = hash::digest(id, data)?;
        // SAFETY: checked in Output::new.
        unsafe { output.write(&digest) }
    })
}

/// # Safety
/// See `mb_hash_many` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_hash_many(
    algo: *const c_char,
    count: usize,
    data: *const *const u8,
    data_len: *const usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let output = unsafe { Output::new(out, out_len) }?;
        let id = unsafe { hash_id(algo) }?;
        let msgs = unsafe { messages(data, data_len, count) }?;
        let needed = count.checked_mul(id.digest_bytes()).filter(|n| args::fits_object::<u8>(*n, "").is_ok());
        let Some(needed) = needed else {
            return Err(Failure::new(crate::status::MB_ERR_PARAM, format!("count {count}: the digests fit no object")));
        };
        if output.capacity() < needed {
            // Nothing hashed for a size query.
            // SAFETY: passed on.
            return Err(unsafe { output.too_small(needed) });
        }
        let digests = hash::digest_many(id, &msgs)?;
        // SAFETY: checked in Output::new; the digests are our own memory.
        unsafe { output.write(&digests.concat()) }
    })
}
