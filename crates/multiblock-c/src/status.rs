//! Status codes (`MB_OK`, `MB_ERR_*` in include/multiblock.h), their fixed
//! messages, the calling thread's last error message, and [`guard`], which
//! every exported function runs its body in so that no panic crosses the ABI.

use std::cell::RefCell;
use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{self, AssertUnwindSafe};

use multiblock::Error;

pub const MB_OK: c_int = 0;
pub const MB_ERR_NULL_POINTER: c_int = 1;
pub const MB_ERR_INVALID_STRING: c_int = 2;
pub const MB_ERR_UNKNOWN_CIPHER: c_int = 3;
pub const MB_ERR_UNKNOWN_MODE: c_int = 4;
pub const MB_ERR_KEY_LENGTH: c_int = 5;
pub const MB_ERR_UNKNOWN_SBOX: c_int = 6;
pub const MB_ERR_SBOX_NOT_APPLICABLE: c_int = 7;
pub const MB_ERR_UNKNOWN_BACKEND: c_int = 8;
pub const MB_ERR_BACKEND_UNAVAILABLE: c_int = 9;
pub const MB_ERR_DATA_LENGTH: c_int = 10;
pub const MB_ERR_PARAM: c_int = 11;
pub const MB_ERR_AUTHENTICATION: c_int = 12;
pub const MB_ERR_BUFFER_TOO_SMALL: c_int = 13;
pub const MB_ERR_INTERNAL: c_int = 14;
pub const MB_ERR_UNKNOWN_HASH: c_int = 15;

/// Code and fixed message of every status, in code order (the header's list).
const MESSAGES: [(c_int, &CStr); 16] = [
    (MB_OK, c"success"),
    (MB_ERR_NULL_POINTER, c"a required pointer argument is NULL"),
    (MB_ERR_INVALID_STRING, c"a name argument is not valid UTF-8"),
    (MB_ERR_UNKNOWN_CIPHER, c"unknown cipher name"),
    (MB_ERR_UNKNOWN_MODE, c"unknown mode, or not a mode of this cipher"),
    (MB_ERR_KEY_LENGTH, c"wrong key length for this algorithm"),
    (MB_ERR_UNKNOWN_SBOX, c"unknown S-box set name"),
    (MB_ERR_SBOX_NOT_APPLICABLE, c"this cipher takes no S-box choice"),
    (MB_ERR_UNKNOWN_BACKEND, c"unknown backend name for this algorithm"),
    (MB_ERR_BACKEND_UNAVAILABLE, c"this CPU cannot run the requested backend"),
    (MB_ERR_DATA_LENGTH, c"data is not a whole number of blocks"),
    (MB_ERR_PARAM, c"bad parameter (IV, nonce, tag or register length, padding, hash length, KDF counter, ...)"),
    (MB_ERR_AUTHENTICATION, c"authentication failed: wrong tag or key-wrap check (no output written)"),
    (MB_ERR_BUFFER_TOO_SMALL, c"output buffer too small (*out_len now holds the size needed)"),
    (MB_ERR_INTERNAL, c"internal error in multiblock (a bug: please report it)"),
    (MB_ERR_UNKNOWN_HASH, c"unknown hash name"),
];

/// The fixed message of `code` (a static string).
pub fn strerror(code: c_int) -> &'static CStr {
    MESSAGES.iter().find(|(c, _)| *c == code).map_or(c"unknown multiblock status code", |(_, m)| m)
}

/// A failed call: its status code and the one-line message for `mb_last_error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: c_int,
    pub message: String,
}

impl Failure {
    pub fn new(code: c_int, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into() }
    }

    pub fn null(what: &str) -> Failure {
        Failure::new(MB_ERR_NULL_POINTER, format!("{what} is NULL"))
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        let code = match e {
            Error::UnknownCipher { .. } => MB_ERR_UNKNOWN_CIPHER,
            Error::KeyLength { .. } => MB_ERR_KEY_LENGTH,
            Error::UnknownSbox { .. } => MB_ERR_UNKNOWN_SBOX,
            Error::UnknownHash { .. } => MB_ERR_UNKNOWN_HASH,
            Error::SboxNotApplicable { .. } => MB_ERR_SBOX_NOT_APPLICABLE,
            Error::UnknownBackend { .. } => MB_ERR_UNKNOWN_BACKEND,
            Error::BackendUnavailable { .. } => MB_ERR_BACKEND_UNAVAILABLE,
            Error::DataLength { .. } => MB_ERR_DATA_LENGTH,
            Error::UnknownMode { .. } => MB_ERR_UNKNOWN_MODE,
            Error::Param(_) => MB_ERR_PARAM,
            Error::Authentication => MB_ERR_AUTHENTICATION,
        };
        Failure::new(code, e.to_string())
    }
}

thread_local! {
    /// The message of this thread's last call that returned a status.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    // Messages never hold NUL (names with one cannot come in through a C
    // string); replace any to keep the message rather than lose it.
    let text = CString::new(message.replace('\0', "?")).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = text);
}

/// This thread's last message; valid until the thread's next `mb_` call
/// that returns a status (the CString is replaced only there).
pub fn last_error() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// Runs an exported function's body: its error or a panic becomes a status
/// code and the thread's last error message (empty on success).
pub fn guard(body: impl FnOnce() -> Result<(), Failure>) -> c_int {
    match panic::catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => {
            set_last_error("");
            MB_OK
        }
        Ok(Err(failure)) => {
            set_last_error(&failure.message);
            failure.code
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            set_last_error(&format!("internal error in multiblock: {what}"));
            MB_ERR_INTERNAL
        }
    }
}
