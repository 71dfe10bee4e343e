//! `mac FILE...`: the MACs of many files at once, many messages in the SIMD
//! lanes ([`MacMany`]), printed as sha256sum prints its sums: one
//! `TAG  FILE` line per file in argument order (a name holding a newline
//! or a backslash: the line starts with `\` and those are escaped as
//! `\n`, `\\`).
//!
//! `-` is stdin: the first `-` reads all of it, a later one is the empty
//! message (as sha256sum's second `-` finds stdin at its end).
//!
//! Memory stays bounded whatever the sizes: [`PIECE_BYTES`] per file per
//! round, at most [`MAX_BATCH`] files open at once, and fewer where the
//! open-files limit (RLIMIT_NOFILE) leaves less room. A file that cannot be
//! opened or read (or that the mode defines no MAC of, an empty file for
//! the DSTU MAC) gets one error line on stderr naming it; the other files
//! still get their lines, and the exit status is 2 at the end (sha256sum
//! goes on the same way and exits nonzero). With `--out` the lines go to
//! that file, written only if every file succeeded.

use crate::args::MacArgs;
use crate::input::read_full;
use crate::os_error::plain;
use crate::{hex, request, Failure};
use multiblock::modes::many::MacMany;
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// Bytes read per file per round.
pub const PIECE_BYTES: usize = 64 << 10;

/// Files MACed together at most (bounds memory to MAX_BATCH × PIECE_BYTES
/// and the open files); see [`batch_size`].
pub const MAX_BATCH: usize = 256;

/// Descriptors left free besides those already open, for what opens while
/// or after the files are read (the temporary `--out` file and its
/// directory, the signal thread's pipe).
const SPARE_FDS: usize = 8;

/// Files to open at once: [`MAX_BATCH`], or what RLIMIT_NOFILE leaves after
/// the descriptors already open and [`SPARE_FDS`], and at least one.
pub fn batch_size() -> usize {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit fills the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 || limit.rlim_cur == libc::RLIM_INFINITY {
        return MAX_BATCH;
    }
    let limit = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
    limit.saturating_sub(open_descriptors() + SPARE_FDS).clamp(1, MAX_BATCH)
}

/// How many descriptors this process has open (stdin, stdout, stderr and
/// whatever it inherited or opened).
fn open_descriptors() -> usize {
    match std::fs::read_dir("/proc/self/fd") {
        Ok(dir) => dir.count().saturating_sub(1), // the listing's own descriptor
        Err(_) => {
            // No /proc: ask each number up to the first 1024 (the usual soft limit).
            // SAFETY: fcntl(F_GETFD) only queries the descriptor.
            (0..1024).filter(|&fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1).count()
        }
    }
}

pub fn run(args: &MacArgs) -> Result<(), Failure> {
    let parsed = request::parse(&args.crypt, request::Verb::Mac)?;
    let req = parsed.request(&args.crypt);
    // Key, mode, S-box and backend errors before reading any file.
    MacMany::new(&req, 0).map_err(Failure::library)?;
    let mut lines = String::new();
    let mut failed = 0;
    let mut stdin_read = false;
    for batch in args.files.chunks(batch_size()) {
        for result in mac_batch(&req, batch, &mut stdin_read)? {
            match result {
                Ok(line) if args.crypt.output.is_some() => lines.push_str(&line),
                Ok(line) => crate::out::text(&line).map_err(Failure::Input)?,
                Err(msg) => {
                    eprintln!("multiblock: error: {msg}");
                    failed += 1;
                }
            }
        }
    }
    if failed > 0 {
        return Err(Failure::Input(format!("{failed} of {} files could not be MACed", args.files.len())));
    }
    if let Some(out) = args.crypt.output.as_deref() {
        crate::sink::write_output(Some(out), lines.as_bytes()).map_err(Failure::Input)?;
    }
    Ok(())
}

/// The line (or the error) of every file of `batch`, in order;
/// `stdin_read`: a `-` before this one has read stdin.
fn mac_batch(
    req: &multiblock::modes::Request<'_>,
    batch: &[std::path::PathBuf],
    stdin_read: &mut bool,
) -> Result<Vec<Result<String, String>>, Failure> {
    let mut status: Vec<Result<(), String>> = Vec::with_capacity(batch.len());
    let mut readers: Vec<Option<Box<dyn Read>>> = Vec::with_capacity(batch.len());
    for path in batch {
        match open(path, stdin_read) {
            Ok(r) => {
                readers.push(Some(r));
                status.push(Ok(()));
            }
            Err(e) => {
                readers.push(None);
                status.push(Err(e));
            }
        }
    }
    let mut mac = MacMany::new(req, batch.len()).map_err(Failure::library)?;
    let mut bufs = vec![vec![0u8; PIECE_BYTES]; batch.len()];
    let mut lens = vec![0usize; batch.len()];
    while readers.iter().any(Option::is_some) {
        for (i, reader) in readers.iter_mut().enumerate() {
            lens[i] = 0;
            let Some(r) = reader else { continue };
            match read_full(r.as_mut(), &mut bufs[i]) {
                Ok(got) => lens[i] = got,
                Err(e) => status[i] = Err(format!("cannot read {}: {}", batch[i].display(), plain(&e))),
            }
            if lens[i] < PIECE_BYTES {
                *reader = None; // the end of the file (or a read error)
            }
        }
        let pieces: Vec<&[u8]> = bufs.iter().zip(&lens).map(|(b, &k)| &b[..k]).collect();
        mac.update(&pieces).map_err(Failure::library)?;
    }
    let tags = mac.finalize().map_err(Failure::library)?;
    Ok(batch
        .iter()
        .zip(status)
        .zip(tags)
        .map(|((path, st), tag)| {
            st?;
            let tag = tag.map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(line(&hex::encode(&tag), path))
        })
        .collect())
}

/// A reader of `path`; for `-`, stdin the first time (`stdin_read` then
/// set), the empty message after.
fn open(path: &Path, stdin_read: &mut bool) -> Result<Box<dyn Read>, String> {
    if path.as_os_str() == "-" {
        crate::std_fds::stdin_open()?;
        if std::mem::replace(stdin_read, true) {
            return Ok(Box::new(std::io::empty()));
        }
        return Ok(Box::new(std::io::stdin()));
    }
    match File::open(path) {
        Ok(f) => Ok(Box::new(f)),
        Err(e) => Err(format!("cannot read {}: {}", path.display(), plain(&e))),
    }
}

/// `TAG  NAME\n`, with sha256sum's escaping of a name holding `\n` or `\`.
pub fn line(tag: &str, path: &Path) -> String {
    let name = path.to_string_lossy();
    if name.contains(['\n', '\\']) {
        format!("\\{tag}  {}\n", name.replace('\\', "\\\\").replace('\n', "\\n"))
    } else {
        format!("{tag}  {name}\n")
    }
}
