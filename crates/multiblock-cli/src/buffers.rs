//! Buffers whose size the user controls, allocated fallibly (too large is a
//! one-line error, not an abort), and the size of one streaming step.

/// Bytes read per step: big enough to give every thread a few hundred KiB,
/// small enough that the five buffers in flight stay a few MiB each.
pub const BUF_BYTES: usize = 4 << 20;

/// Reserves `extra` more bytes in `v`, or a one-line error naming `what`.
pub fn reserve(v: &mut Vec<u8>, extra: usize, what: &str) -> Result<(), String> {
    v.try_reserve_exact(extra).map_err(|_| format!("cannot allocate {extra} bytes for {what}: not enough memory"))
}

/// A zeroed buffer of `len` bytes, or a one-line error naming `what`.
pub fn zeroed(len: usize, what: &str) -> Result<Vec<u8>, String> {
    let mut v = Vec::new();
    reserve(&mut v, len, what)?;
    v.resize(len, 0);
    Ok(v)
}
