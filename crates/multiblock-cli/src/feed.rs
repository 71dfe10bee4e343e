//! Feeding named inputs, one after another, to an incremental hash or MAC
//! (`hash FILE...`, `hash --check`, `mac --mode hmac`): a regular file of
//! any size through a memory mapping ([`crate::mapped`]), stdin and
//! anything else (a pipe, a device) read [`PIECE_BYTES`] at a time.
//!
//! `-` is stdin: the first `-` reads all of it, a later one is the empty
//! message (as sha256sum's second `-` finds stdin at its end).

use crate::input::read_full;
use crate::os_error::plain;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Bytes read per step from a source that is not mapped.
pub const PIECE_BYTES: usize = 256 << 10;

/// What the inputs share: the read buffer, and whether stdin was read.
pub struct Feeder {
    buf: Vec<u8>,
    stdin_read: bool,
}

impl Feeder {
    pub fn new() -> Feeder {
        Feeder { buf: Vec::new(), stdin_read: false }
    }

    /// Gives every byte of `path` (`-`: stdin) to `update`, in order. The
    /// error is one line naming the input.
    pub fn feed(&mut self, path: &Path, update: &mut dyn FnMut(&[u8])) -> Result<(), String> {
        if path.as_os_str() == "-" {
            crate::std_fds::stdin_open()?;
            if std::mem::replace(&mut self.stdin_read, true) {
                return Ok(());
            }
            return self.read(&mut std::io::stdin().lock(), "stdin", update);
        }
        let what = path.display().to_string();
        let file = File::open(path).map_err(|e| format!("cannot read {what}: {}", plain(&e)))?;
        self.feed_file(file, &what, update)
    }

    /// Whether stdin was read already; it counts as read from now on (a
    /// caller reading it itself).
    pub fn take_stdin(&mut self) -> bool {
        std::mem::replace(&mut self.stdin_read, true)
    }

    /// As [`Feeder::feed`], for the single input of `mac`: `--in PATH`, or stdin.
    pub fn feed_input(&mut self, input: Option<&Path>, update: &mut dyn FnMut(&[u8])) -> Result<(), String> {
        match input {
            None => self.feed(Path::new("-"), update),
            Some(p) => {
                let what = format!("--in {}", p.display());
                let file = File::open(p).map_err(|e| format!("cannot read {what}: {}", plain(&e)))?;
                self.feed_file(file, &what, update)
            }
        }
    }

    fn feed_file(&mut self, mut file: File, what: &str, update: &mut dyn FnMut(&[u8])) -> Result<(), String> {
        let size = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        if let Some(map) = size.and_then(|len| crate::mapped::map(&file, len, what)) {
            // Pieces, so that a mapping larger than memory is read ahead
            // and dropped behind (the mapping is advised sequential).
            for piece in map.chunks(PIECE_BYTES * 16) {
                update(piece);
            }
            return Ok(());
        }
        self.read(&mut file, what, update)
    }

    fn read(&mut self, input: &mut dyn Read, what: &str, update: &mut dyn FnMut(&[u8])) -> Result<(), String> {
        if self.buf.is_empty() {
            self.buf = crate::buffers::zeroed(PIECE_BYTES, "the read buffer")?;
        }
        loop {
            let got = read_full(input, &mut self.buf).map_err(|e| format!("cannot read {what}: {}", plain(&e)))?;
            update(&self.buf[..got]);
            if got < self.buf.len() {
                return Ok(());
            }
        }
    }
}

/// The files named, or stdin alone.
pub fn inputs(files: &[PathBuf]) -> Vec<PathBuf> {
    if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    }
}
