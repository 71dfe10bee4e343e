//! `encrypt`, `decrypt` and `mac` of raw input in bounded memory: the input
//! is read [`BUF_BYTES`] at a time through [`CipherStream`] / [`MacStream`]
//! (threads for the modes that split) into a [`Sink`], whatever its size.

use super::crypt::{failure, Verb};
use crate::args::CryptArgs;
use crate::io::plain;
use crate::progress::Progress;
use crate::sink::Sink;
use crate::Failure;
use multiblock::modes::stream::{CipherStream, MacStream};
use multiblock::modes::Request;
use std::fs::File;
use std::io::{self, Read};

/// Bytes read per step: big enough to give every thread a few hundred KiB,
/// small enough that input, output and scratch stay a few MiB in all.
pub const BUF_BYTES: usize = 4 << 20;

enum Work {
    Cipher(CipherStream),
    Mac(Box<MacStream>),
}

pub fn run(req: &Request<'_>, args: &CryptArgs, verb: Verb) -> Result<(), Failure> {
    let threads = args.threads.map_or(0, usize::from);
    let mut work = match verb {
        Verb::Encrypt => Work::Cipher(CipherStream::encryptor(req).and_then(|s| s.threads(threads)).map_err(failure)?),
        Verb::Decrypt => Work::Cipher(CipherStream::decryptor(req).and_then(|s| s.threads(threads)).map_err(failure)?),
        Verb::Mac => Work::Mac(Box::new(MacStream::new(req).map_err(failure)?)),
    };
    let (mut input, size, what): (Box<dyn Read>, Option<u64>, String) = match &args.input {
        Some(p) => {
            let what = format!("--in {}", p.display());
            let f = File::open(p).map_err(|e| format!("cannot read {what}: {}", plain(&e)))?;
            let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            (Box::new(f), size, what)
        }
        None => {
            crate::std_fds::stdin_open()?;
            (Box::new(io::stdin().lock()), None, "stdin".to_string())
        }
    };
    let mut sink = Sink::create(args.output.as_deref())?;
    let progress = Progress::new(size, args.quiet);
    let size_of_buf = buffer_bytes()?;
    let mut buf = crate::io::zeroed(size_of_buf, "the input buffer")?;
    let mut out = Vec::new();
    crate::io::reserve(&mut out, size_of_buf + 1024, "the output buffer")?;
    loop {
        let got = read_full(&mut input, &mut buf).map_err(|e| format!("cannot read {what}: {}", plain(&e)))?;
        if got == 0 {
            break;
        }
        out.clear();
        match &mut work {
            Work::Cipher(s) => s.update(&buf[..got], &mut out).map_err(failure)?,
            Work::Mac(m) => m.update(&buf[..got]).map_err(failure)?,
        }
        sink.write(&out)?;
        progress.advance(got);
    }
    out.clear();
    match work {
        Work::Cipher(s) => s.finalize(&mut out).map_err(failure)?,
        Work::Mac(m) => out = m.finalize().map_err(failure)?,
    }
    progress.finish();
    sink.write(&out)?;
    sink.commit().map_err(Failure::Input)
}

/// The range `MULTIBLOCK_BUFFER_BYTES` may take.
pub const BUFFER_RANGE: std::ops::RangeInclusive<usize> = 4096..=1 << 30;

/// [`BUF_BYTES`], or `MULTIBLOCK_BUFFER_BYTES` (4 KiB to 1 GiB, else an
/// error): the tests use it to stream files several buffers long without
/// megabytes of data.
fn buffer_bytes() -> Result<usize, String> {
    let Some(v) = std::env::var_os("MULTIBLOCK_BUFFER_BYTES") else { return Ok(BUF_BYTES) };
    let v = v.to_string_lossy();
    match v.trim().parse::<usize>() {
        Ok(b) if BUFFER_RANGE.contains(&b) => Ok(b),
        _ => Err(format!(
            "MULTIBLOCK_BUFFER_BYTES={} is not a buffer size (expected {} to {} bytes)",
            v.escape_debug(),
            BUFFER_RANGE.start(),
            BUFFER_RANGE.end()
        )),
    }
}

/// Fills `buf` unless the input ends first (pipes deliver short reads).
fn read_full(input: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
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
