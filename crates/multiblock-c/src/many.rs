//! Many messages under one key at once (`mb_mac_many`, `mb_encrypt_many`)
//! over the library's `modes::many`, which runs the serial modes (CBC, CFB,
//! OFB encryption, GOST MAC, OMAC-ACPKM, DSTU CMAC) in the SIMD lanes.

use std::ffi::{c_char, c_int};

use multiblock::modes::many::{self, Fit};
use zeroize::Zeroize;

use crate::args::{self, Output};
use crate::oneshot::{with_request, MbParams};
use crate::status::{guard, Failure, MB_ERR_PARAM};

/// The C arguments of one call, as the header lists them.
struct Call {
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    params: *const MbParams,
    count: usize,
    data: *const *const u8,
    data_len: *const usize,
    out: *mut u8,
    out_len: *mut usize,
}

/// The `count` messages: `data[i]`, `data_len[i]` bytes (the arrays may be
/// NULL only when `count` is 0). A count no array holds, or one whose list
/// of messages cannot be allocated, is MB_ERR_PARAM before either array is
/// read: never an abort.
pub(crate) unsafe fn messages<'a>(data: *const *const u8, data_len: *const usize, count: usize) -> Result<Vec<&'a [u8]>, Failure> {
    // SAFETY: `count` pointers and lengths, or NULL with count 0 (the
    // contract); `items` checks NULL and that `count` fits an array.
    let ptrs = unsafe { args::items(data, count, "data") }?;
    let lens = unsafe { args::items(data_len, count, "data_len") }?;
    // The list built here takes the most memory per message: allocated
    // fallibly, before either array is read.
    args::fits_object::<&[u8]>(count, "count")?;
    let mut out = Vec::new();
    out.try_reserve_exact(count).map_err(|_| {
        let bytes = count * size_of::<&[u8]>();
        Failure::new(MB_ERR_PARAM, format!("count {count}: out of memory for the list of messages ({bytes} bytes)"))
    })?;
    for (i, (&p, &len)) in ptrs.iter().zip(lens).enumerate() {
        // SAFETY: `data[i]` points at `data_len[i]` readable bytes (the contract).
        out.push(unsafe { args::bytes(p, len, &format!("data[{i}]")) }?);
    }
    Ok(out)
}

/// Runs `op` over the messages and writes the results back to back;
/// `lens` (`Some` for mb_encrypt_many: NULL only with no message) gets
/// each result's length. An encryption whose messages do not overlap `out`
/// is written there directly ([`many::encrypt_many_to`]); otherwise (and
/// for the tags) through a temporary, as every other call.
unsafe fn run(
    call: Call,
    lens: Option<*mut usize>,
    op: many::Many,
) -> c_int {
    guard(|| {
        // SAFETY (every read below): the header's contract on the arguments.
        let mut output = unsafe { Output::new(call.out, call.out_len) }?;
        if lens.is_some_and(|p| p.is_null()) && call.count != 0 {
            return Err(Failure::null(&format!("out_lens (with count {})", call.count)));
        }
        let msgs = unsafe { messages(call.data, call.data_len, call.count) }?;
        let direct = lens.is_some() && !msgs.iter().any(|m| output.overlaps(m));
        let outcome = unsafe {
            with_request(call.cipher, call.mode, call.key, call.key_len, call.iv, call.iv_len, call.params, &[], |req| {
                match direct {
                    // SAFETY: no message overlaps the buffer (just checked).
                    true => many::encrypt_many_to(req, &msgs, output.slice()).map(Outcome::Direct),
                    false => op(req, &msgs).map(Outcome::Each),
                }
            })
        }?;
        let mut results = match outcome {
            Outcome::Direct(Fit::TooSmall { needed }) => return Err(unsafe { output.too_small(needed) }),
            Outcome::Direct(Fit::Written(sizes)) => {
                unsafe { output.written(sizes.iter().sum()) };
                unsafe { write_lens(lens, &sizes) };
                return Ok(());
            }
            Outcome::Each(results) => results,
        };
        let mut joined = results.concat();
        // SAFETY: checked in Output::new.
        let written = unsafe { output.write(&joined) };
        if written.is_ok() {
            let sizes: Vec<usize> = results.iter().map(Vec::len).collect();
            unsafe { write_lens(lens, &sizes) };
        }
        // The temporaries may hold plaintext: wipe them whatever happened.
        joined.zeroize();
        results.iter_mut().for_each(Zeroize::zeroize);
        written
    })
}

/// What one call produced: results of its own (the tags, or ciphertexts of
/// messages inside `out`, which go through a temporary), or ciphertexts
/// made directly in the caller's buffer (or the size they need).
enum Outcome {
    Each(Vec<Vec<u8>>),
    Direct(Fit),
}

/// `out_lens[i] = sizes[i]` (nothing for the tags, whose size is the mode's).
unsafe fn write_lens(lens: Option<*mut usize>, sizes: &[usize]) {
    let Some(lens) = lens else { return };
    for (i, &size) in sizes.iter().enumerate() {
        // SAFETY: `out_lens` has room for `count` sizes (the contract;
        // checked non-NULL in `run` unless there is no result).
        unsafe { lens.add(i).write(size) };
    }
}

/// # Safety
/// See `mb_mac_many` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_mac_many(
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    params: *const MbParams,
    count: usize,
    data: *const *const u8,
    data_len: *const usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    let call = Call { cipher, mode, key, key_len, iv, iv_len, params, count, data, data_len, out, out_len };
    // SAFETY: passed on; every tag has the mode's length, so no lengths array.
    unsafe { run(call, None, many::mac_many) }
}

/// # Safety
/// See `mb_encrypt_many` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_encrypt_many(
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    params: *const MbParams,
    count: usize,
    data: *const *const u8,
    data_len: *const usize,
    out: *mut u8,
    out_len: *mut usize,
    out_lens: *mut usize,
) -> c_int {
    let call = Call { cipher, mode, key, key_len, iv, iv_len, params, count, data, data_len, out, out_len };
    // SAFETY: passed on.
    unsafe { run(call, Some(out_lens), many::encrypt_many) }
}
