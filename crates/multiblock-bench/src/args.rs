//! The benchmark's command line, as a clap structure.

use clap::Parser;
use multiblock_cli::args::size;
use std::path::PathBuf;

/// Measure the ciphers on this CPU against table code, other libraries and published
/// figures: a summary here, the full report in target/multiblock-report.
#[derive(Parser)]
#[command(name = "multiblock-bench", version)]
pub struct BenchArgs {
    /// Only these ciphers (repeatable); default all.
    #[arg(long, num_args = 1..)]
    pub cipher: Vec<String>,
    /// Only these backends (repeatable; `auto`: the library's own choice; `peers`: the other
    /// libraries and OpenSSL beside them); default each cipher's default backend, its table code
    /// and the peers (with --full: every backend this CPU runs).
    #[arg(long, num_args = 1..)]
    pub backend: Vec<String>,
    /// Message size in bytes for the long-message runs.
    #[arg(long, default_value_t = 1 << 20, allow_negative_numbers = true, value_parser = bench_bytes)]
    pub bytes: usize,
    /// Repetitions per measurement (the best is reported).
    #[arg(long, default_value_t = 7)]
    pub reps: usize,
    /// Times the whole run is repeated, interleaved; each row keeps its fastest round (default
    /// 20; 1 with --quick, --full or --size-sweep).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub rounds: Option<u16>,
    /// Every measurement: every backend this CPU runs, the blocks-per-call sweeps, the
    /// many-streams and multi-key sections, the OpenSSL peer (add --modes for every mode).
    #[arg(long)]
    pub full: bool,
    /// Also the blocks-per-call sweeps of Sovyn et al. 2019 (Tables 4-7): GOST 28147-89 and
    /// Kalyna-128/128 unless --cipher names others.
    #[arg(long)]
    pub sweep: bool,
    /// Blocks processed per call in the sweep (implies --sweep; default 1 2 3 4 5 6 8 12 16 24
    /// 32 48 64).
    #[arg(long, num_args = 1.., value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub ways: Vec<u16>,
    /// A short run: smaller messages, fewer repetitions and sweep points.
    #[arg(long)]
    pub quick: bool,
    /// Also measure every mode of operation of each cipher (default: CTR, CBC and the AEAD
    /// mode on the default backend); with --full, on every backend too.
    #[arg(long)]
    pub modes: bool,
    /// Where to write the full report (report.md and bench.svg); default
    /// target/multiblock-report. With --json, --csv, --markdown or --text, only if given.
    #[arg(long, value_name = "DIR")]
    pub report_dir: Option<PathBuf>,
    /// The full report as aligned text tables on stdout instead of the summary.
    #[arg(long, conflicts_with_all = ["json", "csv", "markdown"])]
    pub text: bool,
    /// The full report as Markdown on stdout instead of the summary.
    #[arg(long)]
    pub markdown: bool,
    /// One JSON object per line on stdout instead of the summary.
    #[arg(long, conflicts_with_all = ["csv", "markdown"])]
    pub json: bool,
    /// Comma-separated values with a header line on stdout instead of the summary.
    #[arg(long, conflicts_with = "markdown")]
    pub csv: bool,
    /// Also draw the report as an SVG here: each cipher's speed against its table code and the
    /// peers, and the sweeps if measured.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Instead of the report: ECB encryption speed against data size (the method of Golchevsky &
    /// Ushakov 2023), from --max-bytes halving down to one block, for `auto` and every backend.
    #[arg(long, conflicts_with_all = ["threads", "modes", "ways", "sweep", "full"])]
    pub size_sweep: bool,
    /// The largest size of --size-sweep (default 512 MiB; at most 1 GiB).
    #[arg(long, default_value_t = 512 << 20, allow_negative_numbers = true, value_parser = bench_bytes, requires = "size_sweep")]
    pub max_bytes: usize,
    /// The hashing section, also when --cipher names ciphers (a run without --cipher has it):
    /// Streebog and Kupyna on one message of 64 B, 1 KiB, 16 KiB and --bytes, and 64 messages
    /// at once, per backend (every one with --full), with the peers; and HMAC-Streebog-256 of
    /// 64 B with key setup. In at most 5 of the rounds.
    #[arg(long, conflicts_with = "size_sweep")]
    pub hashes: bool,
    /// Leave the hashing section out.
    #[arg(long, conflicts_with_all = ["hashes", "hash"])]
    pub no_hashes: bool,
    /// Only these hashes (repeatable; streebog-256, streebog-512, kupyna-256, kupyna-384,
    /// kupyna-512, kupyna-N); implies --hashes. Without --cipher, no cipher is measured.
    #[arg(long, num_args = 1.., conflicts_with = "size_sweep")]
    pub hash: Vec<String>,
    /// Instead of the report: CTR streaming on 1 and N threads and the scaling factor.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// The most `--bytes` takes: its buffers are allocated whole.
pub const MAX_BENCH_BYTES: usize = 1 << 30;

/// `--bytes`: 1 byte to 1 GiB.
pub fn bench_bytes(text: &str) -> Result<usize, String> {
    let v = size(text)?;
    if v == 0 || v > MAX_BENCH_BYTES {
        return Err(format!("expected 1 to {MAX_BENCH_BYTES} bytes (1 GiB)"));
    }
    Ok(v)
}
