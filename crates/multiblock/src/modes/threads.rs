//! Splitting one buffer of independent work across threads (`rayon`).
//!
//! A [`Pool`] cuts a buffer into at most [`PIECES_PER_THREAD`] × `threads`
//! tasks of at least [`MIN_TASK_BYTES`], each a whole number of `unit`s
//! (blocks or ACPKM sections), and runs a closure on each with its offset in
//! the buffer.
//! With one thread (or a buffer too small to split) the closure runs once on
//! the whole buffer on the calling thread, so the result never depends on
//! the thread count: only who computes which bytes does.

use crate::error::{Error, Result};
use rayon::prelude::*;

/// The least work worth a task of its own: below this the cost of waking a
/// thread and sharing cache lines outweighs the gain.
pub(crate) const MIN_TASK_BYTES: usize = 256 << 10;

/// Tasks per thread: more than one, so that work stealing evens out a thread
/// that loses its core for a while (the CLI's reader and writer threads share
/// the cores with the pool); with exactly one per thread, the others wait.
pub(crate) const PIECES_PER_THREAD: usize = 4;

/// The threads a stream may use.
pub(crate) struct Pool {
    pool: Option<rayon::ThreadPool>,
    threads: usize,
    pub(crate) min_task: usize,
}

impl Pool {
    /// `threads` = 0 means every core.
    pub(crate) fn new(threads: usize) -> Result<Pool> {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        let pool = match threads {
            1 => None,
            t => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| Error::Param(format!("cannot start {t} threads: {e}")))?,
            ),
        };
        Ok(Pool { pool, threads, min_task: MIN_TASK_BYTES })
    }

    /// The calling thread alone.
    pub(crate) fn one() -> Pool {
        Pool { pool: None, threads: 1, min_task: MIN_TASK_BYTES }
    }

    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// The piece size [`Pool::run`] uses for `len` bytes of whole `unit`s
    /// (`len` itself when it does not split).
    pub(crate) fn piece(&self, len: usize, unit: usize) -> usize {
        let tasks = (len / self.min_task.max(1)).clamp(1, self.threads * PIECES_PER_THREAD);
        match &self.pool {
            Some(_) if tasks > 1 => len.div_ceil(tasks).div_ceil(unit) * unit,
            _ => len.max(1),
        }
    }

    /// Runs `f(offset, piece)` over `data` cut into pieces of whole `unit`s.
    pub(crate) fn run<F>(&self, data: &mut [u8], unit: usize, f: F) -> Result<()>
    where
        F: Fn(usize, &mut [u8]) -> Result<()> + Sync,
    {
        let per = self.piece(data.len(), unit);
        match &self.pool {
            Some(pool) if per < data.len() => {
                pool.install(|| data.par_chunks_mut(per).enumerate().try_for_each(|(i, piece)| f(i * per, piece)))
            }
            _ => f(0, data),
        }
    }
}
