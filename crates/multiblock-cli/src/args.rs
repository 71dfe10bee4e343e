//! The command-line contract (README "Command line"), as clap structures.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "multiblock", version, about = "Fast constant-time Kalyna, Kuznyechik, Magma/GOST 28147-89 and uBlock")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Encrypt the input (stdin or --in) to the output (stdout or --out).
    Encrypt(CryptArgs),
    /// Decrypt the input to the output.
    Decrypt(CryptArgs),
    /// Compute a MAC (tag) of the input, or of every FILE at once: one `TAG  FILE` line each.
    Mac(MacArgs),
    /// Show the CPU features found, the backends of every cipher and the default.
    Info,
    /// Run the built-in test vectors on every backend this CPU supports.
    Selftest(SelftestArgs),
    /// Measure every cipher on every backend: TSC ticks per byte and MB/s.
    Bench(BenchArgs),
}

#[derive(Args)]
pub struct CryptArgs {
    /// Cipher: kalyna-128-128, kalyna-128-256, kalyna-256-256, kalyna-256-512,
    /// kalyna-512-512, kuznyechik, magma, gost89, ublock-128-128, ublock-128-256, ublock-256-256.
    #[arg(long)]
    pub cipher: String,
    /// Mode of operation.
    #[arg(long, default_value = "ecb")]
    pub mode: String,
    /// Key as hex (visible in `ps` and shell history: prefer --key-file, --key-env or --key-fd).
    #[arg(long, required_unless_present_any = ["key_file", "key_env", "key_fd"],
          conflicts_with_all = ["key_file", "key_env", "key_fd"])]
    pub key: Option<String>,
    /// Key from a file: its raw bytes if it is exactly the key's length, else hex text (whitespace ignored).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["key_env", "key_fd"])]
    pub key_file: Option<PathBuf>,
    /// Key from this environment variable, as hex.
    #[arg(long, value_name = "NAME", conflicts_with = "key_fd")]
    pub key_env: Option<String>,
    /// Key read from this open file descriptor (e.g. `--key-fd 3 3<key`), raw or hex as --key-file.
    #[arg(long, value_name = "N")]
    pub key_fd: Option<i32>,
    /// S-box set for gost89: tc26-z (default), test, cryptopro-a, cryptopro-b, cryptopro-c, cryptopro-d.
    #[arg(long)]
    pub sbox: Option<String>,
    /// Input is hex text (whitespace ignored); output is lowercase hex and a newline.
    #[arg(long)]
    pub hex: bool,
    /// Read from this file instead of stdin.
    #[arg(long = "in", value_name = "PATH")]
    pub input: Option<PathBuf>,
    /// Write to this file instead of stdout (created only on success).
    #[arg(long = "out", value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Force a backend by name (see `multiblock info`).
    #[arg(long)]
    pub backend: Option<String>,
    /// IV / nonce / initial register / XTS tweak, as hex.
    #[arg(long)]
    pub iv: Option<String>,
    /// Associated data for AEAD modes, as hex.
    #[arg(long)]
    pub aad: Option<String>,
    /// Padding: none, gost1, gost2, gost3 (GOST R 34.13 procedures 1-3), pkcs7.
    #[arg(long, default_value = "none")]
    pub padding: String,
    /// GOST R 34.13 / DSTU CFB, OFB, CTR: output bits per step.
    #[arg(long, allow_negative_numbers = true, value_parser = size)]
    pub s: Option<usize>,
    /// GOST R 34.13: register bits (a multiple of the block size).
    #[arg(long, allow_negative_numbers = true, value_parser = size)]
    pub m: Option<usize>,
    /// MAC length in bits.
    #[arg(long, allow_negative_numbers = true, value_parser = size)]
    pub mac_bits: Option<usize>,
    /// Tag length in bits (MGM, DSTU CMAC, GCM, GMAC, CCM).
    #[arg(long, allow_negative_numbers = true, value_parser = size)]
    pub tag_bits: Option<usize>,
    /// ACPKM section size in bytes.
    #[arg(long, allow_negative_numbers = true, value_parser = size)]
    pub section_bytes: Option<usize>,
    /// OMAC-ACPKM key section size in bytes.
    #[arg(long, allow_negative_numbers = true, value_parser = size)]
    pub key_section_bytes: Option<usize>,
    /// DSTU CCM length-field size in bytes.
    #[arg(long, allow_negative_numbers = true, value_parser = size)]
    pub nb: Option<usize>,
    /// GOST 28147-89 CryptoPro key meshing (RFC 4357) in CNT and CFB.
    #[arg(long)]
    pub key_meshing: bool,
    /// Threads for the modes that split (ECB, CTR, CBC/CFB decryption, XTS); default every core.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args)]
pub struct MacArgs {
    #[command(flatten)]
    pub crypt: CryptArgs,
    /// Files to MAC together (`-`: stdin), many messages in the SIMD lanes at once; prints one
    /// `TAG  FILE` line per file in argument order, as sha256sum. A file that cannot be read gets a
    /// one-line error on stderr, the others their lines, and the exit status is 2.
    #[arg(value_name = "FILE", conflicts_with_all = ["input", "hex"])]
    pub files: Vec<PathBuf>,
}

#[derive(Args)]
pub struct SelftestArgs {
    /// Also compare every backend with `reference` on pseudo-random keys and
    /// data of every length from 0 to 2*ways+3 blocks and a few longer ones.
    #[arg(long)]
    pub thorough: bool,
    /// Only these backends (repeatable); default every backend this CPU runs.
    #[arg(long, num_args = 1..)]
    pub backend: Vec<String>,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Only these ciphers (repeatable); default all.
    #[arg(long, num_args = 1..)]
    pub cipher: Vec<String>,
    /// Only these backends (repeatable; `auto`: the rows that force none); default every backend
    /// this CPU runs and `auto`.
    #[arg(long, num_args = 1..)]
    pub backend: Vec<String>,
    /// Message size in bytes for the long-message runs.
    #[arg(long, default_value_t = 1 << 20, allow_negative_numbers = true, value_parser = bench_bytes)]
    pub bytes: usize,
    /// Repetitions per measurement (the best is reported).
    #[arg(long, default_value_t = 5)]
    pub reps: usize,
    /// One JSON object per line.
    #[arg(long, conflicts_with_all = ["csv", "markdown"])]
    pub json: bool,
    /// Comma-separated values with a header line.
    #[arg(long, conflicts_with = "markdown")]
    pub csv: bool,
    /// The report as Markdown tables (the README's results section).
    #[arg(long)]
    pub markdown: bool,
    /// Also draw the report as an SVG: cycles/byte against blocks per call,
    /// and each cipher's best constant-time speed against the peers.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Blocks processed per call in the sweep (default 1 2 3 4 5 6 8 12 16 24 32 48 64).
    #[arg(long, num_args = 1.., value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub ways: Vec<u16>,
    /// A short run (under 30 s): smaller messages, fewer repetitions and sweep points.
    #[arg(long)]
    pub quick: bool,
    /// Also measure every mode of operation of each cipher on its default backend.
    #[arg(long)]
    pub modes: bool,
    /// Seed 004's method instead of the report: ECB encryption speed against data size, from
    /// --max-bytes halving down to one block, for `auto` and every backend (--plot: one panel per cipher).
    #[arg(long, conflicts_with_all = ["threads", "modes", "ways"])]
    pub size_sweep: bool,
    /// The largest size of --size-sweep (default 512 MiB; at most 1 GiB).
    #[arg(long, default_value_t = 512 << 20, allow_negative_numbers = true, value_parser = bench_bytes, requires = "size_sweep")]
    pub max_bytes: usize,
    /// Measure CTR streaming on 1 and N threads and the scaling factor instead.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// A size or bit count (`--m`, `--tag-bits`, ...): a whole number that
/// cannot be negative (`--m -128` used to be read as the flags -1 -2 -8).
pub fn size(text: &str) -> Result<usize, String> {
    if text.trim_start().starts_with('-') {
        return Err("a size cannot be negative (expected a whole number such as 128)".into());
    }
    text.parse().map_err(|_| "expected a whole number such as 128".to_string())
}

/// The most `bench --bytes` takes: its buffers are allocated whole.
pub const MAX_BENCH_BYTES: usize = 1 << 30;

/// `bench --bytes`: 1 byte to 1 GiB.
pub fn bench_bytes(text: &str) -> Result<usize, String> {
    let v = size(text)?;
    if v == 0 || v > MAX_BENCH_BYTES {
        return Err(format!("expected 1 to {MAX_BENCH_BYTES} bytes (1 GiB)"));
    }
    Ok(v)
}
