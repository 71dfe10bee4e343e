//! Streaming output that never leaves a partial `--out` file: the bytes go
//! to a temporary file in the output's directory, which is synced and
//! renamed into place by [`Sink::commit`]; dropped uncommitted (any error,
//! a failed tag check), the temporary file is removed. Without `--out` the
//! bytes go straight to stdout.

use crate::io::{plain, temp_path};
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub enum Sink {
    File { file: File, tmp: PathBuf, dest: PathBuf, committed: bool },
    Stdout(io::StdoutLock<'static>),
}

impl Sink {
    pub fn create(path: Option<&Path>) -> Result<Sink, String> {
        let Some(dest) = path else { return Ok(Sink::Stdout(io::stdout().lock())) };
        let tmp = temp_path(dest);
        let file = File::create(&tmp).map_err(|e| format!("cannot write --out {}: {}", dest.display(), plain(&e)))?;
        Ok(Sink::File { file, tmp, dest: dest.to_path_buf(), committed: false })
    }

    pub fn write(&mut self, data: &[u8]) -> Result<(), String> {
        match self {
            Sink::File { file, dest, .. } => {
                file.write_all(data).map_err(|e| format!("cannot write --out {}: {}", dest.display(), plain(&e)))
            }
            Sink::Stdout(out) => out.write_all(data).map_err(|e| format!("cannot write stdout: {}", plain(&e))),
        }
    }

    /// Makes the output final: sync and rename (a file), flush (stdout).
    pub fn commit(mut self) -> Result<(), String> {
        match &mut self {
            Sink::File { file, tmp, dest, committed } => {
                file.sync_all()
                    .and_then(|_| fs::rename(&*tmp, &*dest))
                    .map_err(|e| format!("cannot write --out {}: {}", dest.display(), plain(&e)))?;
                *committed = true;
                Ok(())
            }
            Sink::Stdout(out) => out.flush().map_err(|e| format!("cannot write stdout: {}", plain(&e))),
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Sink::File { tmp, committed: false, .. } = self {
            let _ = fs::remove_file(tmp);
        }
    }
}
