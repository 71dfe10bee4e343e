//! How a command ends: clap's errors and help, and a [`Failure`], as one
//! line on stderr (prefixed with the program's name) and an exit status.

use crate::failure::Failure;
use crate::{out, std_fds};
use clap::Parser;
use std::process::ExitCode;

/// The parsed arguments, or the exit status after clap's help (on stdout)
/// or its error (its first paragraph as one stderr line, status 2).
pub fn parse<P: Parser>(program: &str) -> Result<P, ExitCode> {
    let e = match P::try_parse() {
        Ok(parsed) => return Ok(parsed),
        Err(e) => e,
    };
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        // Help on stdout, and a failure to write it (a closed stdout,
        // `>/dev/full`) is a failure, not a silent success.
        return Err(match out::text(&e.render().to_string()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(msg) => {
                std_fds::end_if_stdout_broken();
                eprintln!("{program}: error: {msg}");
                ExitCode::from(2)
            }
        });
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = e.print();
        return Err(ExitCode::from(2));
    }
    // clap's message spans several lines (usage, tips): keep the first
    // paragraph, joined into one line.
    let text = e.render().to_string();
    let first: Vec<&str> = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
    eprintln!("{program}: error: {}", first.join(" ").trim_start_matches("error: "));
    Err(ExitCode::from(2))
}

/// The exit status of a command's result: 0, 1 (a wrong tag) or 2, with
/// the failure's line on stderr; a closed stdout ends quietly, as a
/// coreutils tool's does.
pub fn status(program: &str, result: Result<(), Failure>) -> ExitCode {
    if result.is_err() {
        std_fds::end_if_stdout_broken();
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(msg)) => {
            eprintln!("{program}: error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Auth(msg)) => {
            eprintln!("{program}: error: {msg}");
            ExitCode::from(1)
        }
        Err(Failure::Quiet(code)) => ExitCode::from(code),
    }
}
