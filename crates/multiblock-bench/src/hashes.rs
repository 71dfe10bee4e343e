//! The hashing section: Streebog (GOST R 34.11-2012) and Kupyna (DSTU
//! 7564:2014) on one message of each size in [`SIZES`] and of `--bytes`,
//! and [`MANY`] messages in one `digest_many` call, per backend; HMAC over
//! Streebog-256 of [`HMAC_BYTES`] with key setup. Every row hashes about
//! the same number of bytes per repetition (short messages many times).

use crate::measure::{choice, entry, measure_stats, shown, Label, Stats};
use crate::row::{Entry, Kind};
use crate::Failure;
use multiblock::hash::{self, HashId, Hasher, Hmac};
use multiblock::BackendInfo;
use std::hint::black_box;

/// One message of these sizes (and of `--bytes`).
pub const SIZES: [usize; 3] = [64, 1024, 16 << 10];
/// Messages per `digest_many` call, of each of [`MANY_SIZES`].
pub const MANY: usize = 64;
/// Short, medium and long messages: 64 KiB ones show the rate of the
/// compression kernel, the shorter ones what closing each message adds.
pub const MANY_SIZES: [usize; 3] = [64, 1024, 64 << 10];
/// The HMAC row's message.
pub const HMAC_BYTES: usize = 64;
/// The direction of a hash row (a MAC row's is `mac`).
pub const HASH: &str = "hash";

/// The hashes `--hashes` measures.
pub fn all() -> Vec<HashId> {
    HashId::NAMED.to_vec()
}

/// The hash's name for the rows (which hold `&'static str`).
pub fn name(id: HashId) -> &'static str {
    HashId::NAMED.iter().zip(HashId::NAMES).find(|(n, _)| **n == id).map_or_else(|| &*Box::leak(id.to_string().into_boxed_str()), |(_, s)| s)
}

/// The backends of `id` this CPU runs, kept by `filter` (empty: all).
pub fn available(id: HashId, filter: &[String]) -> Vec<&'static str> {
    hash::backends(id)
        .into_iter()
        .filter(|b| b.available && (filter.is_empty() || filter.iter().any(|n| n == b.info.name)))
        .map(|b| b.info.name)
        .collect()
}

/// A test message: the same bytes in every run.
fn message(len: usize, salt: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + salt) as u8).collect()
}

/// How many times a message of `bytes` is hashed per repetition so that a
/// repetition hashes about `budget` bytes.
fn ops(bytes: usize, budget: usize) -> usize {
    (budget / bytes.max(1)).max(1)
}

fn row(label: &Label, direction: &'static str, bytes: usize, stats: &Stats, ops: usize, streams: usize) -> Entry {
    let mut e = entry(label, direction, bytes, stats, ops * streams);
    e.streams = streams;
    e
}

/// `id` on `backend` ([`crate::measure::AUTO`]: none forced): one message
/// of each size, then many messages at once.
pub fn rows(id: HashId, backend: &str, long: usize, budget: usize, reps: usize) -> Result<Vec<Entry>, Failure> {
    let choice = choice(backend);
    let info: BackendInfo = Hasher::with_backend(id, choice).map_err(Failure::input)?.backend();
    let label = Label::of(Kind::Hash, name(id), shown(backend, info));
    let mut out = Vec::new();
    for bytes in SIZES.into_iter().chain([long]) {
        let msg = message(bytes, 0);
        let n = ops(bytes, budget);
        // The digest into a buffer on the stack, as the peers' `digest`
        // returns it: the row times the hash, not the allocator.
        let digest_bytes = id.digest_bytes();
        let stats = measure_stats(reps, || {
            for _ in 0..n {
                let mut h = Hasher::with_backend(id, choice).expect("checked above");
                h.update(black_box(&msg));
                let mut out = [0u8; 64];
                h.finalize_into(&mut out[..digest_bytes]);
                black_box(out);
            }
        });
        out.push(row(&label, HASH, bytes, &stats, n, 1));
    }
    for bytes in MANY_SIZES {
        // `reference` (the standards' tables, the slowest backend) hashes its
        // many messages no longer than its one long message, which the plan
        // caps for it (`reference_bytes`).
        let bytes = if backend == "reference" { bytes.min(long) } else { bytes };
        let msgs: Vec<Vec<u8>> = (0..MANY).map(|s| message(bytes, s)).collect();
        let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        let n = ops(bytes * MANY, budget);
        let mut failed = None;
        let stats = measure_stats(reps, || {
            for _ in 0..n {
                match hash::digest_many_with_backend(id, black_box(&refs), choice) {
                    Ok(d) => drop(black_box(d)),
                    Err(e) => failed = Some(e),
                }
            }
        });
        if let Some(e) = failed {
            return Err(Failure::Input(format!("bench {id} {backend} digest_many: {e}")));
        }
        out.push(row(&label, HASH, bytes, &stats, n, MANY));
    }
    Ok(out)
}

/// HMAC over Streebog-256 (RFC 7836 §4.1) of [`HMAC_BYTES`], key setup
/// included, on the default backend.
pub fn hmac_row(budget: usize, reps: usize) -> Result<Entry, Failure> {
    let id = HashId::Streebog256;
    let info = Hasher::new(id).map_err(Failure::input)?.backend();
    let label = Label::of(Kind::Hash, name(id), shown(crate::measure::AUTO, info));
    let key: Vec<u8> = message(32, 7);
    let msg = message(HMAC_BYTES, 0);
    let n = ops(HMAC_BYTES, budget);
    let stats = measure_stats(reps, || {
        for _ in 0..n {
            let mut m = Hmac::new(id, black_box(&key)).expect("HMAC runs over Streebog-256");
            m.update(black_box(&msg));
            let mut tag = [0u8; 32];
            m.finalize_into(&mut tag);
            black_box(tag);
        }
    });
    let mut e = row(&label, "mac", HMAC_BYTES, &stats, n, 1);
    e.row.mode = Some("hmac");
    Ok(e)
}

/// The peers of the hashing section (cargo feature `peers`): RustCrypto
/// `streebog` 0.11 and `kupyna` 0.1, dstu-core 0.7's Kupyna, and RustCrypto
/// `hmac` 0.13 over `streebog`. All table-based, not constant-time.
#[cfg(feature = "peers")]
pub mod peers {
    use super::{message, ops, row, Label, HASH, HMAC_BYTES, SIZES};
    use crate::measure::measure_stats;
    use crate::row::{Entry, Kind};
    use multiblock::digest::Digest;
    use multiblock::hash::HashId;
    use std::hint::black_box;

    type HashFn = fn(&[u8]);

    fn rc<D: Digest>(m: &[u8]) {
        black_box(D::digest(m));
    }

    fn dstu256(m: &[u8]) {
        black_box(dstu_core::hazmat::kupyna::Kupyna256::digest(m));
    }

    fn dstu384(m: &[u8]) {
        black_box(dstu_core::hazmat::kupyna::Kupyna384::digest(m));
    }

    fn dstu512(m: &[u8]) {
        black_box(dstu_core::hazmat::kupyna::Kupyna512::digest(m));
    }

    /// (backend label, peer name, one-shot hash) for each peer of `id`.
    fn of(id: HashId) -> Vec<(&'static str, &'static str, HashFn)> {
        const RC_K: &str = "RustCrypto kupyna 0.1";
        const DSTU: &str = "dstu-core 0.7";
        match id {
            HashId::Streebog256 => vec![("rustcrypto", "RustCrypto streebog 0.11", rc::<streebog::Streebog256> as HashFn)],
            HashId::Streebog512 => vec![("rustcrypto", "RustCrypto streebog 0.11", rc::<streebog::Streebog512> as HashFn)],
            HashId::Kupyna { digest_bits: 256 } => vec![("rustcrypto", RC_K, rc::<kupyna::Kupyna256> as HashFn), ("dstu-core", DSTU, dstu256)],
            HashId::Kupyna { digest_bits: 384 } => vec![("rustcrypto", RC_K, rc::<kupyna::Kupyna384> as HashFn), ("dstu-core", DSTU, dstu384)],
            HashId::Kupyna { digest_bits: 512 } => vec![("rustcrypto", RC_K, rc::<kupyna::Kupyna512> as HashFn), ("dstu-core", DSTU, dstu512)],
            _ => Vec::new(),
        }
    }

    /// Every peer of `id` on one message of each size and of `long`.
    pub fn rows(id: HashId, long: usize, budget: usize, reps: usize) -> Vec<Entry> {
        let mut out = Vec::new();
        for (backend, peer, f) in of(id) {
            let label = Label { kind: Kind::Hash, cipher: super::name(id), backend, constant_time: false, ways: 1 };
            for bytes in SIZES.into_iter().chain([long]) {
                let msg = message(bytes, 0);
                let n = ops(bytes, budget);
                let stats = measure_stats(reps, || {
                    for _ in 0..n {
                        f(black_box(&msg));
                    }
                });
                let mut e = row(&label, HASH, bytes, &stats, n, 1);
                e.row.peer = Some(peer);
                out.push(e);
            }
        }
        out
    }

    /// RustCrypto `hmac` 0.13 over `streebog` 0.11, as [`super::hmac_row`].
    pub fn hmac_row(budget: usize, reps: usize) -> Entry {
        use hmac::{KeyInit, Mac};
        let key = message(32, 7);
        let msg = message(HMAC_BYTES, 0);
        let n = ops(HMAC_BYTES, budget);
        let stats = measure_stats(reps, || {
            for _ in 0..n {
                let mut m = hmac::SimpleHmac::<streebog::Streebog256>::new_from_slice(black_box(&key)).expect("any key length");
                m.update(black_box(&msg));
                black_box(m.finalize().into_bytes());
            }
        });
        let label = Label { kind: Kind::Hash, cipher: "streebog-256", backend: "rustcrypto", constant_time: false, ways: 1 };
        let mut e = row(&label, "mac", HMAC_BYTES, &stats, n, 1);
        e.row.peer = Some("RustCrypto hmac 0.13 + streebog 0.11");
        e.row.mode = Some("hmac");
        e
    }
}
