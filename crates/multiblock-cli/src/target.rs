//! Where `--out` goes, decided before any byte is written:
//!
//! - a symlink is followed to its target (the link itself stays a link);
//! - a directory is an error ("is a directory");
//! - an existing file that is not a regular file (a device such as
//!   /dev/null, a FIFO, a socket) is opened and written in place: replacing
//!   it by a regular file would break it, and its reader sees the bytes as
//!   they come (so a failure can leave part of the output there);
//! - a regular file, or a name that does not exist yet, gets a temporary
//!   file beside it ([`Target::Regular`]) that is renamed over it on success.

use crate::os_error::plain;
use std::fs::{self, File, OpenOptions};
use std::io::{self, ErrorKind};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// What an existing regular file had, to give the new one.
#[derive(Clone, Copy)]
pub struct Keep {
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
}

pub enum Target {
    /// Written in place, no rename: a device, FIFO or socket.
    Special(File),
    /// A regular file (`Some`: it exists) or a new one, at this path.
    Regular(PathBuf, Option<Keep>),
}

/// "cannot write --out PATH: why", the one message of every failure here.
pub fn error(p: &Path, why: impl std::fmt::Display) -> String {
    format!("cannot write --out {}: {why}", p.display())
}

/// Follows symlinks (at most 40, as the kernel) to the path they name.
fn resolve(p: &Path) -> io::Result<PathBuf> {
    let mut path = p.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

pub fn open(given: &Path) -> Result<Target, String> {
    let path = resolve(given).map_err(|e| error(given, plain(&e)))?;
    match fs::metadata(&path) {
        Ok(m) if m.is_dir() => Err(error(given, "is a directory")),
        Ok(m) if m.is_file() => {
            Ok(Target::Regular(path, Some(Keep { mode: m.mode() & 0o777, uid: m.uid(), gid: m.gid() })))
        }
        Ok(_) => OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NOCTTY)
            .open(&path)
            .map(Target::Special)
            .map_err(|e| error(given, plain(&e))),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            if given.as_os_str().to_string_lossy().ends_with('/') {
                return Err(error(given, "is not a directory (a file name ends in '/')"));
            }
            Ok(Target::Regular(path, None))
        }
        Err(e) => Err(error(given, plain(&e))),
    }
}
