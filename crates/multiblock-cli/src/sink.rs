//! Streaming output that never leaves a partial `--out` file: a regular
//! file is written through a [`Staged`] temporary file and renamed into
//! place by [`Sink::commit`]; dropped uncommitted (any error, a failed tag
//! check), the temporary file is removed. A device or FIFO `--out` is
//! written in place ([`crate::target`]). Without `--out` the bytes go
//! straight to stdout (descriptor 1, unbuffered: the writes are large).
//!
//! [`Sink::create_held`] is for output that must not be seen before the
//! end (AEAD decryption): a regular `--out` is already held back by its
//! temporary file; stdout, a device or a FIFO get a spool instead, an
//! unnamed temporary file (mode 0600, already unlinked) in `$TMPDIR` that
//! is copied to them only by [`Sink::commit`].

use crate::buffers::zeroed;
use crate::input::read_full;
use crate::os_error::plain;
use crate::staged::Staged;
use crate::target::{self, Target};
use std::fs::File;
use std::io::{self, Seek, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::path::{Path, PathBuf};

pub enum Sink {
    Staged(Staged),
    Special(File, PathBuf),
    Stdout(ManuallyDrop<File>),
    Held(File, Box<Sink>),
}

impl Sink {
    pub fn create(path: Option<&Path>) -> Result<Sink, String> {
        let Some(given) = path else {
            crate::std_fds::stdout_open()?;
            // SAFETY: descriptor 1 is open (std_fds) and stays open for the
            // life of the process; ManuallyDrop never closes it.
            return Ok(Sink::Stdout(ManuallyDrop::new(unsafe { File::from_raw_fd(1) })));
        };
        Ok(match target::open(given)? {
            Target::Special(f) => Sink::Special(f, given.to_path_buf()),
            Target::Regular(dest, keep) => Sink::Staged(Staged::create(dest, keep, given)?),
        })
    }

    /// As [`create`](Sink::create), but nothing reaches stdout, a device
    /// or a FIFO before [`commit`](Sink::commit).
    pub fn create_held(path: Option<&Path>) -> Result<Sink, String> {
        match Sink::create(path)? {
            Sink::Staged(s) => Ok(Sink::Staged(s)),
            other => {
                let spool = tempfile::tempfile()
                    .map_err(|e| format!("cannot create a temporary file in $TMPDIR to hold the output: {}", plain(&e)))?;
                Ok(Sink::Held(spool, Box::new(other)))
            }
        }
    }

    /// The file a held sink collects the output in (the temporary `--out`
    /// file or the spool), to work on in place; None for the others.
    pub fn held_file(&mut self) -> Option<&mut File> {
        match self {
            Sink::Staged(s) => Some(s.file()),
            Sink::Held(spool, _) => Some(spool),
            _ => None,
        }
    }

    pub fn write(&mut self, data: &[u8]) -> Result<(), String> {
        match self {
            Sink::Staged(s) => s.write(data),
            Sink::Special(f, p) => f.write_all(data).map_err(|e| target::error(p, plain(&e))),
            Sink::Stdout(out) => out.write_all(data).map_err(|e| crate::std_fds::stdout_error(&e)),
            Sink::Held(spool, _) => {
                spool.write_all(data).map_err(|e| format!("cannot write the temporary output file: {}", plain(&e)))
            }
        }
    }

    /// Makes the output final: sync and rename (a file), flush (stdout),
    /// copy the spool out (held output).
    pub fn commit(self) -> Result<(), String> {
        match self {
            Sink::Staged(s) => s.commit(),
            Sink::Special(mut f, p) => f.flush().map_err(|e| target::error(&p, plain(&e))),
            Sink::Stdout(mut out) => out.flush().map_err(|e| crate::std_fds::stdout_error(&e)),
            Sink::Held(mut spool, mut to) => {
                let what = |e: io::Error| format!("cannot read the temporary output file: {}", plain(&e));
                spool.rewind().map_err(what)?;
                let mut buf = zeroed(1 << 20, "the output buffer")?;
                loop {
                    let got = read_full(&mut spool, &mut buf).map_err(what)?;
                    if got == 0 {
                        break;
                    }
                    to.write(&buf[..got])?;
                }
                to.commit()
            }
        }
    }
}

/// Writes `data` to `path` atomically, or to stdout.
pub fn write_output(path: Option<&Path>, data: &[u8]) -> Result<(), String> {
    let mut sink = Sink::create(path)?;
    sink.write(data)?;
    sink.commit()
}
