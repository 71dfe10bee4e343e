//! `hash FILE...`: the Streebog or Kupyna digest of every file, printed as
//! sha256sum prints its sums: one `DIGEST  FILE` line per file in argument
//! order, stdin (`-`) when no file is named. A file that cannot be read
//! gets one error line on stderr naming it, the others still get their
//! lines, and the exit status is 2 at the end; when it is the only
//! problem, that line is the whole of stderr ([`Problems`]). `--check` is in
//! [`super::hash_check`].

use super::mac_files::line;
use crate::args::HashArgs;
use crate::feed::Feeder;
use crate::{hex, Failure};
use multiblock::hash::{HashId, Hasher};
use multiblock::BackendChoice;
use std::path::PathBuf;

/// The hasher `args` ask for (name and backend checked before any file is read).
pub fn hasher(args: &HashArgs) -> Result<Hasher, Failure> {
    let id = HashId::from_name(&args.algo).map_err(Failure::input)?;
    let choice = args.backend.as_deref().map_or(BackendChoice::Auto, BackendChoice::Named);
    Hasher::with_backend(id, choice).map_err(Failure::input)
}

/// The files named, or stdin alone.
pub fn inputs(files: &[PathBuf]) -> Vec<PathBuf> {
    if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    }
}

pub fn run(args: &HashArgs) -> Result<(), Failure> {
    let mut hasher = hasher(args)?;
    if args.check {
        return super::hash_check::run(args, &mut hasher);
    }
    let files = inputs(&args.files);
    let mut feeder = Feeder::new();
    let mut problems = Problems::default();
    for path in &files {
        match feeder.feed(path, &mut |piece| hasher.update(piece)) {
            Ok(()) => crate::out::text(&line(&hex::encode(&hasher.finalize_reset()), path)).map_err(Failure::Input)?,
            Err(msg) => {
                hasher.reset();
                problems.report(msg);
            }
        }
    }
    match problems.summary(|n| format!("{n} of {} files could not be hashed", files.len())) {
        Some(msg) => Err(Failure::Input(msg)),
        None => Ok(()),
    }
}

/// Error lines of a command that goes on past them. The first is held
/// back: if it stays the only one it becomes the command's final error
/// line, so one problem is one line on stderr; from the second on, each
/// is printed as it comes and a count ends the command.
#[derive(Default)]
pub struct Problems {
    held: Option<String>,
    count: usize,
}

impl Problems {
    pub fn report(&mut self, msg: String) {
        self.count += 1;
        if self.count == 1 {
            self.held = Some(msg);
            return;
        }
        self.flush();
        eprintln!("multiblock: error: {msg}");
    }

    pub fn count(&self) -> usize {
        self.count
    }

    /// Prints the held line (when a summary will end the command instead).
    pub fn flush(&mut self) {
        if let Some(first) = self.held.take() {
            eprintln!("multiblock: error: {first}");
        }
    }

    /// The final line: the one problem itself, or `count(n)` for several; `None` for none.
    pub fn summary(self, count: impl FnOnce(usize) -> String) -> Option<String> {
        match self.count {
            0 => None,
            1 => self.held,
            n => Some(count(n)),
        }
    }
}
