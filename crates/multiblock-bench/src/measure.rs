//! Timing: TSC ticks around a closure, best and median of several
//! repetitions after a warm-up; and the TSC's frequency against the
//! monotonic clock.

use crate::row::{Entry, Kind, Row};
use crate::Failure;
use multiblock::hazmat;
use multiblock::{BackendChoice, BackendInfo, Cipher, CipherId};
use std::time::Instant;

/// The outcome of [`measure_stats`]: ticks and seconds of the fastest
/// repetition, and the median ticks.
pub struct Stats {
    pub best_ticks: u64,
    pub best_secs: f64,
    pub median_ticks: u64,
}

/// Runs `f` once to warm up (page in the buffer, train the predictors, ramp
/// the clock), then `reps` times, each timed alone.
pub fn measure_stats(reps: usize, mut f: impl FnMut()) -> Stats {
    f();
    let mut runs: Vec<(u64, f64)> = (0..reps.max(1))
        .map(|_| {
            let t0 = Instant::now();
            let c0 = hazmat::ticks();
            f();
            let c1 = hazmat::ticks();
            (c1.wrapping_sub(c0), t0.elapsed().as_secs_f64())
        })
        .collect();
    runs.sort_by_key(|r| r.0);
    Stats { best_ticks: runs[0].0, best_secs: runs[0].1, median_ticks: runs[runs.len() / 2].0 }
}

/// Best-of-`reps` (ticks, seconds) for one pass of `f` (the foundation's API).
pub fn measure(reps: usize, f: impl FnMut()) -> (u64, f64) {
    let s = measure_stats(reps, f);
    (s.best_ticks, s.best_secs)
}

/// The backend of the rows that force none: what a user gets.
pub const AUTO: &str = "auto";
/// The `--backend` name that adds the peers (other libraries, OpenSSL)
/// to a run that names backends.
pub const PEERS: &str = "peers";

/// How `backend` (a backend's name or [`AUTO`]) is asked for.
pub fn choice(backend: &str) -> BackendChoice<'_> {
    if backend == AUTO {
        BackendChoice::Auto
    } else {
        BackendChoice::Named(backend)
    }
}

/// The backend a key got, named [`AUTO`] where none was forced (its
/// constant-time flag and width are those of the backend the library chose).
pub fn shown(backend: &str, info: BackendInfo) -> BackendInfo {
    if backend == AUTO {
        BackendInfo { name: AUTO, ..info }
    } else {
        info
    }
}

/// A benchmark key: the same for every run, so that runs compare.
pub fn key_for(id: CipherId) -> Vec<u8> {
    (0..id.key_bytes()).map(|i| (i * 7 + 1) as u8).collect()
}

/// One cipher on one backend, ECB over `bytes`, in both directions.
pub fn ecb_entries(id: CipherId, backend: &str, bytes: usize, reps: usize) -> Result<Vec<Entry>, Failure> {
    let c = Cipher::new(id.name(), &key_for(id), None, Some(backend)).map_err(Failure::input)?;
    let info = c.backend();
    let len = (bytes / id.block_bytes()).max(1) * id.block_bytes();
    let mut buf: Vec<u8> = (0..len).map(|i| i as u8).collect();
    let mut out = Vec::new();
    for direction in ["encrypt", "decrypt"] {
        let s = measure_stats(reps, || {
            let r = if direction == "encrypt" { c.encrypt_blocks(&mut buf) } else { c.decrypt_blocks(&mut buf) };
            r.expect("the buffer is whole blocks");
        });
        out.push(entry(&Label::of(Kind::Ecb, id.name(), info), direction, len, &s, 1));
    }
    Ok(out)
}

/// What an entry measures, apart from the direction and the numbers.
pub struct Label {
    pub kind: Kind,
    pub cipher: &'static str,
    pub backend: &'static str,
    pub constant_time: bool,
    pub ways: usize,
}

impl Label {
    pub fn of(kind: Kind, cipher: &'static str, info: multiblock::BackendInfo) -> Label {
        Label { kind, cipher, backend: info.name, constant_time: info.constant_time, ways: info.ways }
    }
}

/// An entry from `stats` over `ops` operations of `bytes` each.
pub fn entry(l: &Label, direction: &'static str, bytes: usize, stats: &Stats, ops: usize) -> Entry {
    let total = (bytes * ops).max(1) as f64;
    Entry::new(
        l.kind,
        Row {
            cipher: l.cipher,
            backend: l.backend,
            constant_time: l.constant_time,
            direction,
            ways: l.ways,
            bytes,
            mb_per_s: total / stats.best_secs.max(1e-12) / 1e6,
            cycles_per_byte: stats.best_ticks as f64 / total,
            peer: None,
            mode: None,
        },
        stats.median_ticks as f64 / total,
    )
}

