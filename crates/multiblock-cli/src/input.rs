//! Reading the whole input (`--in` or stdin) into memory, every buffer
//! grown fallibly, and reading a buffer full from a pipe.

use crate::buffers::reserve;
use crate::os_error::plain;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

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
