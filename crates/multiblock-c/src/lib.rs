//! C ABI of multiblock: the functions declared in include/multiblock.h.
//!
//! Every exported function checks its pointers, runs its body under
//! `status::guard` (a panic becomes `MB_ERR_INTERNAL`, never an unwind into
//! C) and reports each error as a status code plus a one-line message that
//! `mb_last_error()` returns on the same thread.
//!
//! `unsafe` lives here because a C ABI reads raw pointers: each use says
//! which promise of the header makes it sound.

mod aead_stream;
mod args;
mod handle;
mod hash;
mod hmac;
mod info;
mod kdf;
mod kupyna_mac;
mod mac_handle;
mod many;
mod oneshot;
mod status;
mod stream;
mod wrap;

#[cfg(test)]
mod aead_stream_tests;
#[cfg(test)]
mod hash_tests;
#[cfg(test)]
mod kdf_tests;
#[cfg(test)]
mod kupyna_mac_tests;
#[cfg(test)]
mod many_tests;
#[cfg(test)]
mod size_tests;
#[cfg(test)]
mod stream_tests;
#[cfg(test)]
mod tests;
