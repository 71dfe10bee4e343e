//! The `multiblock` command. Exit status: 0 success, 1 authentication
//! failure (AEAD modes), 2 any bad input or I/O failure, with one line on
//! stderr naming the problem. No partial `--out` file is ever left.

mod commands;
mod input;
mod mapped;
mod pipeline;
mod progress;
mod signals;
mod sink;
mod staged;
mod target;

use multiblock_cli::failure::Failure;
use multiblock_cli::{args, buffers, cpu, hex, os_error, out, request, std_fds};

use args::{Cli, Command};
use clap::Parser;
use commands::crypt::Verb;
use std::process::ExitCode;

fn main() -> ExitCode {
    std_fds::guard();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                // Help on stdout, and a failure to write it (a closed
                // stdout, `>/dev/full`) is a failure, not a silent success.
                return match out::text(&e.render().to_string()) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(msg) => {
                        std_fds::end_if_stdout_broken();
                        eprintln!("multiblock: error: {msg}");
                        ExitCode::from(2)
                    }
                };
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return ExitCode::from(2);
            }
            // clap's message spans several lines (usage, tips): keep the
            // first paragraph, joined into one line.
            let text = e.render().to_string();
            let first: Vec<&str> = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
            eprintln!("multiblock: error: {}", first.join(" ").trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let result = match &cli.command {
        Command::Encrypt(a) => commands::crypt::run(a, Verb::Encrypt),
        Command::Decrypt(a) => commands::crypt::run(a, Verb::Decrypt),
        Command::Mac(a) if !a.files.is_empty() => commands::mac_files::run(a),
        Command::Mac(a) => commands::crypt::run(&a.crypt, Verb::Mac),
        Command::Info => commands::info::run(),
        Command::Selftest(a) => commands::selftest::run(a),
        Command::Bench(a) => commands::bench::run(a),
    };
    if result.is_err() {
        // A closed stdout ends quietly, as a coreutils tool's does.
        std_fds::end_if_stdout_broken();
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(msg)) => {
            eprintln!("multiblock: error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Auth(msg)) => {
            eprintln!("multiblock: error: {msg}");
            ExitCode::from(1)
        }
    }
}
