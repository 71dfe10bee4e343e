//! Reading the input and writing the output without ever leaving a partial
//! output file (see [`crate::sink`]), and with every buffer whose size the
//! user controls allocated fallibly: too large is a one-line error, not an
//! abort.

use crate::sink::Sink;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

pub use multiblock_cli::os_error::plain;

/// Reserves `extra` more bytes in `v`, or a one-line error naming `what`.
pub fn reserve(v: &mut Vec<u8>, extra: usize, what: &str) -> Result<(), String> {
    v.try_reserve_exact(extra).map_err(|_| format!("cannot allocate {extra} bytes for {what}: not enough memory"))
}

/// A zeroed buffer of `len` bytes, or a one-line error naming `what`.
pub fn zeroed(len: usize, what: &str) -> Result<Vec<u8>, String> {
    let mut v = Vec::new();
    reserve(&mut v, len, what)?;
    v.resize(len, 0);
    Ok(v)
}

/// Reads all of `input` into `data`, growing it fallibly.
fn read_all(input: &mut dyn Read, data: &mut Vec<u8>, what: &str) -> Result<(), String> {
    let mut chunk = [0u8; 64 << 10];
    loop {
        let got = match input.read(&mut chunk) {
            Ok(0) => return Ok(()),
            Ok(k) => k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read {what}: {}", plain(&e))),
        };
        if data.capacity() - data.len() < got {
            reserve(data, data.len().max(got), &format!("the {what} input"))?;
        }
        data.extend_from_slice(&chunk[..got]);
    }
}

pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>, String> {
    let mut data = Vec::new();
    match path {
        Some(p) => {
            let what = format!("--in {}", p.display());
            let mut f = File::open(p).map_err(|e| format!("cannot read {what}: {}", plain(&e)))?;
            if let Some(len) = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len()) {
                reserve(&mut data, usize::try_from(len).unwrap_or(usize::MAX), &format!("the {what} input"))?;
            }
            read_all(&mut f, &mut data, &what)?;
        }
        None => {
            crate::std_fds::stdin_open()?;
            read_all(&mut io::stdin().lock(), &mut data, "stdin")?;
        }
    }
    Ok(data)
}

/// Writes `data` to `path` atomically, or to stdout.
pub fn write_output(path: Option<&Path>, data: &[u8]) -> Result<(), String> {
    let mut sink = Sink::create(path)?;
    sink.write(data)?;
    sink.commit()
}

/// Fills `buf` unless the input ends first (pipes deliver short reads).
pub fn read_full(input: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}
