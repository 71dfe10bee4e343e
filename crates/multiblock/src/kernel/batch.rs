//! The one batch driver: cuts whole blocks into a kernel's batches.

use core::mem::MaybeUninit;
use zeroize::Zeroize;

/// Bytes of the widest batch of any kernel (Kuznyechik's 64 blocks of 16 on
/// zmm are 1 KiB; room to spare for wider interleaves).
pub(crate) const MAX_BATCH: usize = 2048;

/// Calls `kernel` on every whole batch of `batch` bytes of `data` in place,
/// then once on the rest, rounded up to a multiple of `granule` bytes: in
/// place when the rest is whole granules, otherwise on a zero-padded stack
/// copy that is wiped afterwards (the padding is public zeros; the copy held
/// message bytes). So `kernel` always sees a multiple of `granule` that is at
/// most `batch`, and a short message costs only the granules it needs.
///
/// `granule` divides `batch`, `batch <= MAX_BATCH`, and `data.len()` is a
/// multiple of the block size, which divides `granule`.
///
/// `kernel` is a [`BatchFn`] rather than a closure: a closure is compiled
/// without the `#[target_feature]`s of the function it is passed in, and the
/// intrinsics in it would then not inline.
#[inline(always)]
pub(crate) fn for_each_batch(data: &mut [u8], batch: usize, granule: usize, kernel: &impl BatchFn) {
    debug_assert!(batch <= MAX_BATCH && granule > 0 && batch.is_multiple_of(granule));
    let mut chunks = data.chunks_exact_mut(batch);
    for chunk in &mut chunks {
        kernel.call(chunk);
    }
    let rest = chunks.into_remainder();
    if rest.len().is_multiple_of(granule) {
        if !rest.is_empty() {
            kernel.call(rest);
        }
        return;
    }
    // Only the granules used are written: zeroing all MAX_BATCH bytes
    // would cost a short message more than the cipher does.
    let mut storage = [MaybeUninit::<u8>::uninit(); MAX_BATCH];
    let cells = &mut storage[..rest.len().next_multiple_of(granule)];
    let (head, pad) = cells.split_at_mut(rest.len());
    for (cell, &byte) in head.iter_mut().zip(rest.iter()) {
        cell.write(byte);
    }
    for cell in pad {
        cell.write(0);
    }
    // SAFETY: every byte of `cells` was written just above.
    let padded = unsafe { &mut *(cells as *mut [MaybeUninit<u8>] as *mut [u8]) };
    kernel.call(padded);
    rest.copy_from_slice(&padded[..rest.len()]);
    // A slice wipe is one memset (an array's is a volatile write per byte).
    padded.zeroize();
}

/// What the driver runs on one batch; `call` is `#[inline(always)]`.
pub(crate) trait BatchFn {
    fn call(&self, batch: &mut [u8]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// Checks and records each batch's length, and flips its bytes.
    struct Record(usize, usize, RefCell<Vec<usize>>);

    impl BatchFn for Record {
        fn call(&self, chunk: &mut [u8]) {
            assert_eq!(chunk.len() % self.1, 0);
            assert!(chunk.len() <= self.0);
            self.2.borrow_mut().push(chunk.len());
            chunk.iter_mut().for_each(|b| *b ^= 0xff);
        }
    }

    /// Every byte is processed once, batches are whole, the rest is padded
    /// only to the next granule, and the padding buffer is not left holding
    /// the message (checked through what the kernel saw).
    #[test]
    fn batches_cover_every_length_once() {
        for (batch, granule) in [(1024, 512), (512, 128), (256, 256), (64, 8)] {
            for len in (0..3 * batch + 40).step_by(8) {
                let mut data: Vec<u8> = (0..len).map(|i| i as u8 | 1).collect();
                let calls = Record(batch, granule, Default::default());
                for_each_batch(&mut data, batch, granule, &calls);
                let calls = calls.2.take();
                assert!(data.iter().enumerate().all(|(i, &b)| b == (i as u8 | 1) ^ 0xff), "len {len}");
                let full = len / batch;
                assert!(calls[..full].iter().all(|&c| c == batch));
                let rest = len % batch;
                assert_eq!(calls.len(), full + usize::from(rest > 0));
                if rest > 0 {
                    assert_eq!(calls[full], rest.next_multiple_of(granule));
                }
            }
        }
    }
}
