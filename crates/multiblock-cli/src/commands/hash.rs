//! `hash FILE...`: the Streebog or Kupyna digest of every file, printed as
//! sha256sum prints its sums: one `DIGEST  FILE` line per file in argument
//! order, stdin (`-`) when no file is named. A file that cannot be read
//! gets one error line on stderr naming it, the others still get their
//! lines, and the exit status is 2 at the end; when it is the only
//! problem, that line is the whole of stderr ([`Problems`]). `--check` is in
//! [`super::hash_check`].

use super::mac_files::line;
use super::problems::Problems;
use crate::args::HashArgs;
use crate::feed::{inputs, Feeder};
use crate::{hex, Failure};
use multiblock::hash::{HashId, Hasher};
use multiblock::BackendChoice;

/// The hasher `args` ask for (name and backend checked before any file is read).
pub fn hasher(args: &HashArgs) -> Result<Hasher, Failure> {
    let id = HashId::from_name(&args.algo).map_err(Failure::input)?;
    let choice = args.backend.as_deref().map_or(BackendChoice::Auto, BackendChoice::Named);
    Hasher::with_backend(id, choice).map_err(Failure::input)
}

pub fn run(args: &HashArgs) -> Result<(), Failure> {
    // The options of --check alone are errors, not silently ignored.
    for (given, flag) in [(args.quiet, "--quiet"), (args.status, "--status")] {
        if given && !args.check {
            return Err(Failure::Input(format!("{flag} applies only with --check (it changes what a check prints)")));
        }
    }
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
