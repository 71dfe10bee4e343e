//! `--size-sweep`: the method of Golchevsky & Ushakov 2023
//! ("Acceleration of cryptographic computations by low-level optimisation
//! of basic blocks", §3: the whole 512 MB of test data encrypted, then half
//! of it, and so on down to one block, with more trials as the size
//! shrinks): ECB encryption
//! speed against the size of one call, from `--max-bytes` halving down to
//! one block, for `auto` and every backend. Large sizes show the memory
//! bandwidth and cache effects, small ones the call and key overheads and
//! where the narrow and wide kernels cross.

use crate::measure::{choice, entry, key_for, measure_stats, shown, Label};
use crate::row::{Entry, Kind};
use crate::Failure;
use multiblock::{Cipher, CipherId};

/// Bytes encrypted per repetition at the small sizes (that many calls).
const REP_BYTES: usize = 4 << 20;
/// The `reference` oracles run hundreds of ticks per byte: sizes up to this.
pub const REFERENCE_MAX: usize = 256 << 10;

/// The sizes of the sweep: `max` (rounded down to whole blocks) halving
/// down to one block `n`.
pub fn sizes(max: usize, n: usize) -> Vec<usize> {
    let mut v = Vec::new();
    let mut s = (max / n).max(1) * n;
    while s >= n {
        v.push(s);
        if s == n {
            break;
        }
        s = (s / 2 / n).max(1) * n;
    }
    v
}

/// One backend (or `auto`) over every size, encryption; `buf` holds at
/// least the largest size.
pub fn run(id: CipherId, backend: &'static str, buf: &mut [u8], max: usize, reps: usize) -> Result<Vec<Entry>, Failure> {
    let c = Cipher::with_id(id, &key_for(id), None, choice(backend)).map_err(Failure::input)?;
    let label = Label::of(Kind::Size, id.name(), shown(backend, c.backend()));
    let max = if backend == "reference" { max.min(REFERENCE_MAX) } else { max };
    let mut out = Vec::new();
    for size in sizes(max, id.block_bytes()) {
        let calls = (REP_BYTES / size).max(1);
        // Fewer repetitions for the sizes past the caches (seconds each at 512 MiB).
        let reps = if size >= 64 << 20 { reps.min(2) } else { reps };
        let part = &mut buf[..size];
        let stats = measure_stats(reps, || {
            for _ in 0..calls {
                c.encrypt_blocks(part).expect("whole blocks");
            }
        });
        out.push(entry(&label, "encrypt", size, &stats, calls));
    }
    Ok(out)
}
