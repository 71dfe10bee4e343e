//! The hashing section's tables: the overview (in the summary and first in
//! the report's hashing part) and every hash row measured.

use crate::hashes::{HASH, HMAC_BYTES, MANY_SIZES};
use crate::measure::AUTO;
use crate::plan::Report;
use crate::row::{Entry, Kind};
use crate::table::Table;

fn f2(x: f64) -> String {
    format!("{x:.2}")
}

fn dash() -> String {
    "–".into()
}

fn cpb(e: Option<&Entry>) -> String {
    e.map_or_else(dash, |e| f2(e.row.cycles_per_byte))
}

/// The hashes measured, in the order first measured.
fn names(r: &Report) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for e in r.entries.iter().filter(|e| e.kind == Kind::Hash) {
        if !v.contains(&e.row.cipher) {
            v.push(e.row.cipher);
        }
    }
    v
}

/// Our row of `hash` on `backend` over one message (or `streams` messages) of `bytes`.
fn ours<'a>(r: &'a Report, hash: &str, backend: &str, bytes: usize, streams: usize) -> Option<&'a Entry> {
    r.entries.iter().find(|e| {
        let x = &e.row;
        e.kind == Kind::Hash && x.peer.is_none() && x.mode.is_none() && x.cipher == hash && x.backend == backend && x.bytes == bytes && e.streams == streams && x.direction == HASH
    })
}

/// The fastest peer of `hash` on long messages (`bytes` or more: the
/// OpenSSL peer hashes larger files).
fn fastest_peer<'a>(r: &'a Report, hash: &str, bytes: usize) -> Option<&'a Entry> {
    r.entries
        .iter()
        .filter(|e| e.kind == Kind::Hash && e.row.peer.is_some() && e.row.mode.is_none() && e.row.cipher == hash && e.row.bytes >= bytes)
        .min_by(|a, b| a.row.cycles_per_byte.total_cmp(&b.row.cycles_per_byte))
}

/// The long message of the run: the largest single message we hashed on `auto`.
fn long_bytes(r: &Report) -> Option<usize> {
    r.entries.iter().filter(|e| e.kind == Kind::Hash && e.streams == 1 && e.row.mode.is_none() && e.row.backend == AUTO).map(|e| e.row.bytes).max()
}

/// Per hash, cycles/byte of `auto` (no backend forced) on the long message
/// and 64 B, many messages at once, and the fastest peer on long messages.
/// (MB/s, 1 KiB and 16 KiB are in [`all_rows`].)
pub fn overview(r: &Report) -> Option<Table> {
    let long = long_bytes(r)?;
    let long_col = size_name(long);
    let many: Vec<String> = MANY_SIZES.iter().map(|&b| format!("many {}", size_name(b))).collect();
    let mut header: Vec<&str> = vec!["hash", &long_col, "64 B"];
    header.extend(many.iter().map(String::as_str));
    header.extend(["fastest peer", "peer ÷ ours"]);
    let mut t = Table::new(format!("Hashing, c/B (lower is faster), no backend forced (auto); many: {} messages in one call", crate::hashes::MANY), &header);
    for hash in names(r) {
        let Some(e) = ours(r, hash, AUTO, long, 1) else { continue };
        let peer = fastest_peer(r, hash, long);
        let mut cells = vec![hash.into(), f2(e.row.cycles_per_byte), cpb(ours(r, hash, AUTO, 64, 1))];
        cells.extend(MANY_SIZES.iter().map(|&b| cpb(ours(r, hash, AUTO, b, crate::hashes::MANY))));
        cells.push(peer.map_or_else(dash, |p| format!("{} {:.2}", p.row.backend, p.row.cycles_per_byte)));
        cells.push(peer.map_or_else(dash, |p| format!("{:.1}×", p.row.cycles_per_byte / e.row.cycles_per_byte)));
        t.row(cells);
    }
    (!t.rows.is_empty()).then_some(t)
}

/// "64 B", "1 KiB", "1 MiB".
fn size_name(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} B")
    }
}

/// "HMAC-Streebog-256 of 64 B with key setup: …" for the summary.
pub fn hmac_line(r: &Report) -> Option<String> {
    let mac = |peer: bool| r.entries.iter().find(|e| e.kind == Kind::Hash && e.row.mode == Some("hmac") && e.row.peer.is_some() == peer);
    let ours = mac(false)?;
    let peer = mac(true).map_or_else(String::new, |p| format!("; {} {:.2} c/B", p.row.peer.unwrap_or(""), p.row.cycles_per_byte));
    Some(format!("HMAC-Streebog-256 of {HMAC_BYTES} B with key setup: {:.2} c/B{peer}.", ours.row.cycles_per_byte))
}

/// Every hash row: ours per backend, the peers, HMAC.
pub fn all_rows(r: &Report) -> Vec<Table> {
    let mut t = Table::new(
        "Hashing: every hash on the backends measured and the peers (one message of each size, and many in one call)",
        &["hash", "backend", "ct", "dir", "bytes", "messages", "MB/s", "cycles/B", "median", "peer"],
    );
    for e in r.entries.iter().filter(|e| e.kind == Kind::Hash) {
        let x = &e.row;
        let hash = match x.mode {
            Some(m) => format!("{m} {}", x.cipher),
            None => x.cipher.to_string(),
        };
        t.row(vec![
            hash,
            x.backend.into(),
            if x.constant_time { "yes" } else { "no" }.into(),
            x.direction.into(),
            x.bytes.to_string(),
            e.streams.to_string(),
            format!("{:.1}", x.mb_per_s),
            f2(x.cycles_per_byte),
            f2(e.median_cycles_per_byte),
            x.peer.unwrap_or("").into(),
        ]);
    }
    if t.rows.is_empty() {
        return Vec::new();
    }
    t.note("bytes: each message; messages: how many one call hashes (digest_many). Short messages are hashed many times per repetition (a new hasher each time, the digest written to a buffer on the stack as the peers' `digest` returns it), so every row hashes about the same total. The hmac row is HMAC-Streebog-256 with key setup per message.");
    vec![t]
}
