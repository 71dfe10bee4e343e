//! Output buffers of the one-shot modes, allocated fallibly: their size
//! comes from the caller's data, and a size the allocator refuses is an
//! error the caller can report ([`Error::Param`]), not a process abort.

use crate::error::{Error, Result};

/// A new vector holding `data`, with room for `extra` more bytes.
pub(crate) fn copy_with_room(data: &[u8], extra: usize) -> Result<Vec<u8>> {
    let total = data.len().checked_add(extra).ok_or_else(|| too_big(usize::MAX))?;
    let mut out = Vec::new();
    out.try_reserve_exact(total).map_err(|_| too_big(total))?;
    out.extend_from_slice(data);
    Ok(out)
}

fn too_big(bytes: usize) -> Error {
    Error::Param(format!("cannot allocate {bytes} bytes for the output: not enough memory"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        let e = copy_with_room(&[1, 2, 3], usize::MAX - 1).unwrap_err();
        assert!(e.to_string().starts_with("cannot allocate"), "{e}");
        let e = copy_with_room(&[], isize::MAX as usize).unwrap_err();
        assert!(e.to_string().contains("not enough memory"), "{e}");
        assert_eq!(copy_with_room(&[1, 2], 5).unwrap(), vec![1, 2]);
    }
}
