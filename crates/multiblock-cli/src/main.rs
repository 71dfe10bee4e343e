//! The `multiblock` command. Exit status: 0 success, 1 authentication
//! failure (AEAD modes), 2 any bad input or I/O failure, with one line on
//! stderr naming the problem. No partial `--out` file is ever left.

mod commands;
mod feed;
mod input;
mod mapped;
mod pipeline;
mod progress;
mod signals;
mod sink;
mod staged;
mod target;

use multiblock_cli::failure::Failure;
use multiblock_cli::{args, buffers, cpu, exit, hex, key, os_error, out, request, std_fds};

use args::{Cli, Command};
use commands::crypt::Verb;
use std::process::ExitCode;

fn main() -> ExitCode {
    std_fds::guard();
    let cli: Cli = match exit::parse("multiblock") {
        Ok(cli) => cli,
        Err(status) => return status,
    };
    let result = match &cli.command {
        Command::Encrypt(a) => commands::crypt::run(a, Verb::Encrypt),
        Command::Decrypt(a) => commands::crypt::run(a, Verb::Decrypt),
        Command::Mac(a) if args::is_hash_mac(a) => commands::mac_hash::run(a),
        Command::Mac(a) if a.hash.is_some() => commands::mac_hash::misplaced(a),
        Command::Mac(a) if a.tag.is_some() => commands::mac_hash::cipher_tag(a),
        Command::Mac(a) if !a.files.is_empty() => commands::mac_files::run(a),
        Command::Mac(a) => commands::crypt::run(&a.crypt, Verb::Mac),
        Command::Hash(a) => commands::hash::run(a),
        Command::Kdf(a) => commands::kdf::run(a),
        Command::Wrap(a) => commands::wrap::run(a, true),
        Command::Unwrap(a) => commands::wrap::run(a, false),
        Command::Info => commands::info::run(),
        Command::Selftest(a) => commands::selftest::run(a),
    };
    exit::status("multiblock", result)
}
