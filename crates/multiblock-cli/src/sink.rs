//! Streaming output that never leaves a partial `--out` file: a regular
//! file is written through a [`Staged`] temporary file and renamed into
//! place by [`Sink::commit`]; dropped uncommitted (any error, a failed tag
//! check), the temporary file is removed. A device or FIFO `--out` is
//! written in place ([`crate::target`]). Without `--out` the bytes go
//! straight to stdout.

use crate::io::plain;
use crate::staged::Staged;
use crate::target::{self, Target};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub enum Sink {
    Staged(Staged),
    Special(File, PathBuf),
    Stdout(io::StdoutLock<'static>),
}

impl Sink {
    pub fn create(path: Option<&Path>) -> Result<Sink, String> {
        let Some(given) = path else {
            crate::std_fds::stdout_open()?;
            return Ok(Sink::Stdout(io::stdout().lock()));
        };
        Ok(match target::open(given)? {
            Target::Special(f) => Sink::Special(f, given.to_path_buf()),
            Target::Regular(dest, keep) => Sink::Staged(Staged::create(dest, keep, given)?),
        })
    }

    pub fn write(&mut self, data: &[u8]) -> Result<(), String> {
        match self {
            Sink::Staged(s) => s.write(data),
            Sink::Special(f, p) => f.write_all(data).map_err(|e| target::error(p, plain(&e))),
            Sink::Stdout(out) => out.write_all(data).map_err(|e| format!("cannot write stdout: {}", plain(&e))),
        }
    }

    /// Makes the output final: sync and rename (a file), flush (stdout).
    pub fn commit(self) -> Result<(), String> {
        match self {
            Sink::Staged(s) => s.commit(),
            Sink::Special(mut f, p) => f.flush().map_err(|e| target::error(&p, plain(&e))),
            Sink::Stdout(mut out) => out.flush().map_err(|e| format!("cannot write stdout: {}", plain(&e))),
        }
    }
}
