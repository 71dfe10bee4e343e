//! Cutting a buffer of whole 8-byte blocks into kernel batches.
//!
//! A SIMD kernel works on `groups` groups of `lanes` blocks (one register of
//! N1 words and one of N2 words per group). Full batches run at the widest
//! interleave; the rest runs once with only as many groups as it needs, so a
//! short message never pays for a full batch.

use zeroize::Zeroize;

pub(super) const BLOCK: usize = 8;

/// Bytes of the widest batch of any backend (4 groups of 16 blocks).
const MAX_BATCH: usize = 64 * BLOCK;

/// Calls `kernel(chunk, groups)` with `chunk.len() == groups * lanes * 8`:
/// once per full batch of `max_groups` groups, then once for the rest with
/// `ceil(rest / lanes)` groups — in place when the rest is whole groups,
/// otherwise on a zero-padded stack copy that is wiped afterwards.
pub(super) fn for_each_batch(
    data: &mut [u8],
    lanes: usize,
    max_groups: usize,
    mut kernel: impl FnMut(&mut [u8], usize),
) {
    assert_eq!(data.len() % BLOCK, 0);
    let group_bytes = lanes * BLOCK;
    let batch_bytes = group_bytes * max_groups;
    assert!(batch_bytes <= MAX_BATCH);
    let mut chunks = data.chunks_exact_mut(batch_bytes);
    for chunk in &mut chunks {
        kernel(chunk, max_groups);
    }
    let rest = chunks.into_remainder();
    if rest.is_empty() {
        return;
    }
    let groups = rest.len().div_ceil(group_bytes);
    if rest.len() % group_bytes == 0 {
        kernel(rest, groups);
        return;
    }
    let mut buf = [0u8; MAX_BATCH];
    buf[..rest.len()].copy_from_slice(rest);
    let used = &mut buf[..groups * group_bytes];
    kernel(used, groups);
    rest.copy_from_slice(&used[..rest.len()]);
    // A slice wipe is one memset (an array's is a volatile write per byte).
    used.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_cover_the_buffer_without_padding_whole_groups() {
        for blocks in 0..200 {
            let mut data: Vec<u8> = (0..blocks * BLOCK).map(|i| i as u8).collect();
            let mut calls = Vec::new();
            for_each_batch(&mut data, 16, 4, |chunk, groups| {
                assert_eq!(chunk.len(), groups * 16 * BLOCK);
                calls.push(groups);
                chunk.iter_mut().for_each(|b| *b = b.wrapping_add(1));
            });
            let expect: Vec<u8> = (0..blocks * BLOCK).map(|i| (i as u8).wrapping_add(1)).collect();
            assert_eq!(data, expect);
            let full = blocks / 64;
            assert!(calls[..full].iter().all(|&g| g == 4));
            let rest = blocks % 64;
            assert_eq!(calls.len(), full + usize::from(rest > 0));
            if rest > 0 {
                assert_eq!(calls[full], rest.div_ceil(16));
            }
        }
    }
}
