//! One-shot modes (`mb_encrypt`, `mb_decrypt`, `mb_mac`) over the
//! library's `modes::{encrypt, decrypt, mac}` with a C parameter struct.

use std::ffi::{c_char, c_int};

use multiblock::modes::{self, Mode, Padding, Params, Request};
use multiblock::{BackendChoice, CipherId};
use zeroize::Zeroize;

use crate::args::{self, Output};
use crate::status::{guard, Failure, MB_ERR_PARAM};

pub const MB_PADDING_NONE: c_int = 0;
pub const MB_PADDING_GOST1: c_int = 1;
pub const MB_PADDING_GOST2: c_int = 2;
pub const MB_PADDING_GOST3: c_int = 3;
pub const MB_PADDING_PKCS7: c_int = 4;

/// `mb_params` of the header; every field 0 (or NULL) means the default.
#[repr(C)]
pub struct MbParams {
    pub s: usize,
    pub m: usize,
    pub mac_bits: usize,
    pub tag_bits: usize,
    pub section_bytes: usize,
    pub key_section_bytes: usize,
    pub nb: usize,
    pub padding: c_int,
    pub key_meshing: c_int,
    pub sbox: *const c_char,
    pub backend: *const c_char,
    pub data_unit: usize,
    pub unit: u64,
}

fn padding(code: c_int) -> Result<Padding, Failure> {
    Ok(match code {
        MB_PADDING_NONE => Padding::None,
        MB_PADDING_GOST1 => Padding::Gost1,
        MB_PADDING_GOST2 => Padding::Gost2,
        MB_PADDING_GOST3 => Padding::Gost3,
        MB_PADDING_PKCS7 => Padding::Pkcs7,
        other => {
            return Err(Failure::new(
                MB_ERR_PARAM,
                format!("unknown padding {other} (expected MB_PADDING_NONE, _GOST1, _GOST2, _GOST3 or _PKCS7: 0..4)"),
            ))
        }
    })
}

fn given(x: usize) -> Option<usize> {
    (x != 0).then_some(x)
}

/// The library's `Params` (with `iv` and `aad`), S-box and backend names
/// from a C `mb_params` pointer (NULL: all defaults).
///
/// # Safety
/// `params` is NULL or points at a valid `mb_params` whose names are NULL
/// or NUL-terminated.
pub(crate) unsafe fn c_params<'a>(
    params: *const MbParams,
    iv: Option<&[u8]>,
    aad: &[u8],
) -> Result<(Params, Option<&'a str>, Option<&'a str>), Failure> {
    // SAFETY: NULL or a valid mb_params, by the contract.
    let p = unsafe { params.as_ref() };
    let (sbox, backend) = match p {
        // SAFETY: the names are NULL or NUL-terminated, by the contract.
        Some(p) => unsafe {
            (args::optional_name(p.sbox, "params->sbox")?, args::optional_name(p.backend, "params->backend")?)
        },
        None => (None, None),
    };
    let params = match p {
        None => Params { iv: iv.map(<[u8]>::to_vec), aad: aad.to_vec(), ..Params::default() },
        Some(p) => Params {
            iv: iv.map(<[u8]>::to_vec),
            aad: aad.to_vec(),
            padding: padding(p.padding)?,
            s: given(p.s),
            m: given(p.m),
            mac_bits: given(p.mac_bits),
            tag_bits: given(p.tag_bits),
            section_bytes: given(p.section_bytes),
            key_section_bytes: given(p.key_section_bytes),
            nb: given(p.nb),
            key_meshing: p.key_meshing != 0,
            data_unit: given(p.data_unit),
            unit: (p.unit != 0).then_some(u128::from(p.unit)),
        },
    };
    Ok((params, sbox, backend))
}

/// The operation a one-shot call runs.
#[derive(Clone, Copy)]
enum Op {
    Encrypt,
    Decrypt,
    Mac,
}

/// The C arguments of one call, as the header lists them.
struct Call {
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    aad: *const u8,
    aad_len: usize,
    params: *const MbParams,
    data: *const u8,
    data_len: usize,
    out: *mut u8,
    out_len: *mut usize,
}

/// The C arguments that name a keyed mode (and the AAD, already read), read
/// into a library request and handed to `make`: the one-shot calls and the
/// streaming handles' constructors.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn with_request<T>(
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    params: *const MbParams,
    aad: &[u8],
    make: impl FnOnce(&Request<'_>) -> multiblock::Result<T>,
) -> Result<T, Failure> {
    // SAFETY (every read): the header's contract on the arguments.
    let cipher = CipherId::from_name(unsafe { args::name(cipher, "cipher") }?)?;
    let mode = Mode::parse(cipher, unsafe { args::name(mode, "mode") }?)?;
    let key = unsafe { args::bytes(key, key_len, "key") }?;
    let iv = unsafe { args::optional_bytes(iv, iv_len, "iv") }?;
    let (params, sbox, backend) = unsafe { c_params(params, iv, aad) }?;
    let choice = backend.map_or(BackendChoice::Auto, BackendChoice::Named);
    let req = Request { cipher, mode, key, sbox, backend: choice, params };
    Ok(make(&req)?)
}

unsafe fn run(op: Op, call: Call) -> c_int {
    guard(|| {
        // SAFETY (every read below): the header's contract on the arguments.
        let output = unsafe { Output::new(call.out, call.out_len) }?;
        let aad = unsafe { args::bytes(call.aad, call.aad_len, "aad") }?;
        let data = unsafe { args::bytes(call.data, call.data_len, "data") }?;
        let mut result = unsafe {
            with_request(call.cipher, call.mode, call.key, call.key_len, call.iv, call.iv_len, call.params, aad, |req| {
                match op {
                    Op::Encrypt => modes::encrypt(req, data),
                    Op::Decrypt => modes::decrypt(req, data),
                    Op::Mac => modes::mac(req, data),
                }
            })
        }?;
        // SAFETY: checked in Output::new.
        let written = unsafe { output.write(&result) };
        // The temporary may hold plaintext: wipe it whatever happened.
        result.zeroize();
        written
    })
}

/// # Safety
/// See `mb_encrypt` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_encrypt(
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    aad: *const u8,
    aad_len: usize,
    params: *const MbParams,
    data: *const u8,
    data_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    let call = Call { cipher, mode, key, key_len, iv, iv_len, aad, aad_len, params, data, data_len, out, out_len };
    // SAFETY: passed on.
    unsafe { run(Op::Encrypt, call) }
}

/// # Safety
/// See `mb_decrypt` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_decrypt(
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    aad: *const u8,
    aad_len: usize,
    params: *const MbParams,
    data: *const u8,
    data_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    let call = Call { cipher, mode, key, key_len, iv, iv_len, aad, aad_len, params, data, data_len, out, out_len };
    // SAFETY: passed on.
    unsafe { run(Op::Decrypt, call) }
}

/// # Safety
/// See `mb_mac` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_mac(
    cipher: *const c_char,
    mode: *const c_char,
    key: *const u8,
    key_len: usize,
    iv: *const u8,
    iv_len: usize,
    params: *const MbParams,
    data: *const u8,
    data_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    let call = Call {
        cipher,
        mode,
        key,
        key_len,
        iv,
        iv_len,
        aad: std::ptr::null(),
        aad_len: 0,
        params,
        data,
        data_len,
        out,
        out_len,
    };
    // SAFETY: passed on.
    unsafe { run(Op::Mac, call) }
}
