//! `multiblock-bench`: the benchmark report. The default run measures each
//! cipher's default backend against its table code and the peers (long
//! messages, 64 bytes with key setup, CTR, CBC and the AEAD mode), prints a
//! summary and writes the full report (report.md, bench.svg) to a folder;
//! `--full` adds every backend, the blocks-per-call sweeps of Sovyn et al.
//! 2019 and the many-streams section; `--modes` every mode; `--threads N`
//! the CTR scaling on N threads instead. A run that names no cipher (and
//! `--hashes`, `--hash NAME`) measures Streebog and Kupyna too, by message
//! size, many messages at once and HMAC, with their peers; `--no-hashes`
//! leaves them out. The published figures of the
//! papers sit beside ours (papers.rs). Units: TSC ticks per byte and MB/s,
//! best (and median) of `--reps` after a warm-up.
//!
//! The JSON keys (cipher, backend, constant_time, direction, ways, bytes,
//! mb_per_s, cycles_per_byte, peer, mode) are stable: the report adds
//! keys, never renames them. Exit status: 0, or 2 with one line on stderr.

mod args;
mod figure;
mod format_csv;
mod format_json;
mod format_text;
mod hash_sections;
mod hashes;
mod header;
mod many;
mod measure;
mod mode_rows;
mod openssl;
mod papers;
#[cfg(feature = "peers")]
mod peers;
mod plan;
mod plot;
mod report;
mod row;
mod sections;
mod short;
mod sizes;
mod summary;
mod sweep;
mod table;
mod threads;

use args::BenchArgs;
use multiblock_cli::failure::Failure;
use multiblock_cli::{buffers, cpu, exit, os_error, out, std_fds};
use std::path::PathBuf;
use std::process::ExitCode;

const PROGRAM: &str = "multiblock-bench";

fn main() -> ExitCode {
    std_fds::guard();
    match exit::parse::<BenchArgs>(PROGRAM) {
        Ok(args) => exit::status(PROGRAM, run(&args)),
        Err(status) => status,
    }
}

fn run(args: &BenchArgs) -> Result<(), Failure> {
    if let Some(t) = args.threads {
        return threads::run(args, usize::from(t));
    }
    if let Some(path) = &args.plot {
        plot::check_target(path)?;
    }
    // The summary goes with a report folder; the other outputs write one only when asked.
    let summary = !(args.json || args.csv || args.markdown || args.text);
    let dir: Option<PathBuf> = args.report_dir.clone().or_else(|| summary.then(|| PathBuf::from(report::DEFAULT_DIR)));
    let plan = plan::Plan::from_args(args)?;
    if let Some(d) = &dir {
        report::prepare(d)?;
    }
    let report = plan.run()?;
    if let Some(path) = &args.plot {
        plot::write(path, &report)?;
    }
    let written = match &dir {
        Some(d) => Some(report::write(d, &report)?),
        None => None,
    };
    if args.json {
        format_json::print(&report)
    } else if args.csv {
        format_csv::print(&report)
    } else if args.markdown {
        out::text(&report::markdown(&report, None)).map_err(Failure::Input)
    } else if args.text {
        format_text::print(&report)
    } else {
        let written = written.as_ref().zip(dir.as_deref()).map(|((md, svg), d)| (d, md.as_path(), svg.as_path()));
        out::line(summary::lines(&report, written).join("\n")).map_err(Failure::Input)
    }
}
