//! The full report as one Markdown document (`report.md` in the report
//! folder, or stdout with `--markdown`): the machine, the method, a legend
//! of every column, then the sections of sections.rs; and the folder
//! itself, written with the SVG plot beside it.

use crate::plan::Report;
use crate::{plot, sections};
use crate::Failure;
use std::path::{Path, PathBuf};

/// Where the report goes when no `--report-dir` is given.
pub const DEFAULT_DIR: &str = "target/multiblock-report";

/// How the numbers were taken, in one paragraph.
pub fn method(r: &Report) -> String {
    let s = &r.settings;
    let what = if s.max_bytes > 0 {
        "size sweep".to_string()
    } else if s.full {
        "--full run".to_string()
    } else {
        "default run (--full measures every backend, the sweeps and more)".to_string()
    };
    format!(
        "{}{what}. TSC ticks per byte and MB/s (10^6 B/s), best of {} repetitions after a warm-up{} (median in --json); long messages {} KiB ({} KiB for the reference oracles and the modes on `portable`); sweeps {} KiB per repetition; short messages 64 B with key setup.",
        if s.quick { "--quick " } else { "" },
        s.reps,
        if s.rounds > 1 {
            let hashed = r.entries.iter().any(|e| e.kind == crate::row::Kind::Hash);
            let hash_rounds = if hashed { format!("; the hashing section in the first {}", s.rounds.min(crate::plan::HASH_ROUNDS)) } else { String::new() };
            format!(", in each of {} rounds over the whole list (the fastest round kept{hash_rounds})", s.rounds)
        } else {
            String::new()
        },
        s.bytes / 1024,
        s.reference_bytes / 1024,
        s.sweep_bytes / 1024
    )
}

/// The legend: what every column and mark of the tables means.
pub const LEGEND: &[(&str, &str)] = &[
    ("cipher, mode, dir", "The cipher (kalyna-B-K: B-bit block, K-bit key; ublock likewise), the mode of operation (ECB where none is named), the direction (encrypt, decrypt; mac for a MAC)."),
    ("cycles/B, c/B, cpb, enc, dec", "TSC ticks per byte processed: the CPU's time-stamp counter, which runs at a fixed rate (the TSC line above), divided by the bytes. Lower is faster. enc and dec are encryption and decryption."),
    ("MB/s", "10^6 bytes per second of wall-clock time, from the same fastest repetition. Higher is faster."),
    ("median", "The median repetition's cycles/byte (the tables show the best)."),
    ("backend, table", "Which implementation ran: a SIMD kernel (ssse3, avx2, avx512…, `-gfni` with the GF(2^8) affine instructions, `-narrow` for fewer blocks at once), `portable` (bitsliced, plain Rust), `table` / `table12` (lookup tables), `reference` (the standard's text, one block at a time, the test oracle). `multiblock info` lists them."),
    ("auto", "No backend forced: what a user of the library gets. The library picks the default backend and, for a few blocks, a narrower one."),
    ("default", "The backend `auto` picks for long messages on this CPU (the header's defaults line)."),
    ("ct, constant-time, ours (ct)", "Constant-time: no memory access or branch depends on the key or the data, so timing and cache side channels learn nothing. Every backend is constant-time except `table`, `table12` and `reference`; the peers are table code (not constant-time) except AES-128-CTR on the AES instructions."),
    ("ways", "Blocks one kernel call processes side by side (the backend's width); in a sweep, the blocks N passed per call."),
    ("blocks", "In a sweep: the blocks processed per call (N), on a small buffer hot in the cache."),
    ("bytes", "The message size of the measurement."),
    ("keys, message", "uBlock's multi-key calls: 4 keys and 4 streams in one call; short is 64 B per key with key setup, long the whole message."),
    ("64 B, short", "Key setup plus one 64-byte message per operation, cycles per message byte: what a short packet costs."),
    ("peer", "An independent implementation measured in the same run: RustCrypto kuznyechik and magma, dstu-core (Kalyna), the OpenSSL gost engine where installed, and AES-128-CTR (RustCrypto aes + ctr) for scale; for the hashes RustCrypto streebog and kupyna, dstu-core (Kupyna), RustCrypto hmac and the gost engine's Streebog."),
    ("peer ÷ ours, speed-up", "The peer's cycles/byte divided by ours: how many times faster ours is."),
    ("÷ ECB", "A mode's cycles/byte divided by ECB's on the same backend: what the mode costs over the bare cipher (CBC encryption is serial: one block at a time)."),
    ("paper, [tag]", "A published figure, measured by the paper's authors on their CPU (listed under Sources), never in this run. GCC/MSVC: the paper's two compilers; – : no figure."),
    ("tag, source, implementation, CPU", "Under Sources and in the quoted figures: the short label of a paper's table used in the cells, the code the paper measured, and its CPU and compiler."),
    ("hash", "The hash function: streebog-256 and streebog-512 (GOST R 34.11-2012, RFC 6986), kupyna-256, kupyna-384 and kupyna-512 (DSTU 7564:2014); `hmac streebog-256` is HMAC over it (RFC 7836 §4.1), 64 B with key setup."),
    ("1 KiB, 1 MiB, KiB, many", "In the hashing tables: one message of that size (a new hasher for each, short ones many times per repetition); many: 64 messages of the size named in one digest_many call, cycles per byte of all of them."),
    ("best, best (N)", "The fastest of the kind named (best constant-time: our fastest constant-time backend); in a sweep, the best cell of a column and its N."),
];

/// The whole report as Markdown.
pub fn markdown(r: &Report, svg: Option<&str>) -> String {
    let mut text = String::from("# multiblock benchmark report\n\n");
    for (k, v) in r.machine.lines() {
        text.push_str(&format!("- **{k}**: {v}\n"));
    }
    text.push_str(&format!("- **method**: {}\n\n", method(r)));
    if let Some(svg) = svg {
        text.push_str(&format!("![cycles/byte of each cipher against its table code and the peers, and the sweeps if measured]({svg})\n\n"));
    }
    text.push_str("## How to read the tables\n\n");
    for (k, v) in LEGEND {
        text.push_str(&format!("- **{k}**: {v}\n"));
    }
    text.push_str("\nOn a loaded machine (the load line above) every figure is slower and noisier: compare rows of one run (ratios), not figures across runs.\n\n");
    for t in sections::all(r) {
        text.push_str(&t.markdown());
        text.push('\n');
    }
    text.trim_end().to_string() + "\n"
}

/// Makes sure `dir` exists (creating it) before anything is measured.
pub fn prepare(dir: &Path) -> Result<(), Failure> {
    if dir.exists() && !dir.is_dir() {
        return Err(Failure::Input(format!("cannot write the report to {}: it is not a folder", dir.display())));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::Input(format!("cannot create the report folder {}: {}", dir.display(), crate::os_error::plain(&e))))
}

/// Writes `report.md` and `bench.svg` into `dir`; returns their paths.
pub fn write(dir: &Path, r: &Report) -> Result<(PathBuf, PathBuf), Failure> {
    let svg = dir.join("bench.svg");
    plot::write(&svg, r)?;
    let md = dir.join("report.md");
    let tmp = dir.join("report.md.partial");
    std::fs::write(&tmp, markdown(r, Some("bench.svg")).as_bytes()).and_then(|_| std::fs::rename(&tmp, &md)).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Failure::Input(format!("cannot write {}: {}", md.display(), crate::os_error::plain(&e)))
    })?;
    Ok((md, svg))
}
